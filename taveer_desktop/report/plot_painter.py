"""QPainter drawing of a ``PlotLayout`` (``plot_layout``): axes with ticks and titles, bars,
polylines, reference lines and a legend, as vector graphics in the PDF.

The plot area is whatever is left of the rectangle after the title (top; none if empty), the
y tick labels and the rotated y title (left), and the x tick labels, the x title, the legend
and the note (bottom); the legend wraps onto as many rows as it needs, and reference-line
labels that would overlap are put on separate rows, so no text collides however the data fall.
Series are clipped to the plot area and thinned to what a printed dot can show
(``thin_polyline``).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QPolygonF

from taveer_desktop.report.fonts import layout_device, report_font
from taveer_desktop.report.plot_layout import PLOT_STYLES, PlotLayout, thin_polyline, tick_text

TEXT = QColor("#1a1a1a")
GRID = QColor("#e0e0e0")
AXIS = QColor("#555555")
TITLE_SIZE = 8.5
TICK_SIZE = 6.8
LABEL_SIZE = 7.4
LEGEND_SIZE = 7.0
LEGEND_ROW = 11.0
LEFT = 46.0  # y tick labels and the rotated y title
_DASHES = {
    "solid": Qt.PenStyle.SolidLine,
    "dash": Qt.PenStyle.DashLine,
    "dot": Qt.PenStyle.DotLine,
    "dashdot": Qt.PenStyle.DashDotLine,
}


def _metrics(size: float) -> QFontMetricsF:
    return QFontMetricsF(report_font(size), layout_device())


def _pen(style: str) -> QPen:
    colour, dash, width, _ = PLOT_STYLES[style]
    pen = QPen(QColor(colour), width, _DASHES[dash])
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def _bar(painter: QPainter, rect: QRectF, style: str) -> None:
    colour, _, _, hatch = PLOT_STYLES[style]
    fill = QColor(colour)
    fill.setAlpha(150 if hatch is None else 90)
    painter.fillRect(rect, fill)
    if hatch and rect.height() > 0.3:
        painter.save()
        painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
        painter.setPen(QPen(QColor(colour).darker(150), 0.5))
        x = rect.left() - rect.height()
        while x < rect.right():
            painter.drawLine(QLineF(x, rect.bottom(), x + rect.height(), rect.top()))
            x += 3.5
        painter.restore()
    painter.setPen(QPen(QColor(colour).darker(130), 0.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(rect)


def _legend_rows(layout: PlotLayout, width: float) -> list[list[tuple[str, str, bool, float]]]:
    """The legend's entries (style, name, bar, entry width) wrapped into rows of ``width``."""
    metrics = _metrics(LEGEND_SIZE)
    rows: list[list[tuple[str, str, bool, float]]] = [[]]
    used = 0.0
    for style, name, bar in layout.legend:
        entry = 26 + metrics.horizontalAdvance(name) + 14
        if rows[-1] and used + entry > width:
            rows.append([])
            used = 0.0
        rows[-1].append((style, name, bar, entry))
        used += entry
    return [row for row in rows if row]


def _mark_rows(layout: PlotLayout, to_x, metrics: QFontMetricsF) -> list[int]:
    """A row for each mark's label so that labels on one row never overlap."""
    ends: list[float] = []  # right end of the last label on each row
    rows = []
    for mark in layout.marks:
        left = to_x(mark.x) + 2
        right = left + metrics.horizontalAdvance(mark.label) + 4
        row = next((i for i, end in enumerate(ends) if left > end), len(ends))
        if row == len(ends):
            ends.append(right)
        else:
            ends[row] = right
        rows.append(row)
    return rows


def paint_plot(painter: QPainter, rect: QRectF, layout: PlotLayout) -> None:
    """Draw ``layout`` into ``rect`` (points)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    top_space = 20.0 if layout.title else 6.0
    if layout.title:
        painter.setFont(report_font(TITLE_SIZE, bold=True))
        painter.setPen(TEXT)
        painter.drawText(
            QRectF(rect.left(), rect.top(), rect.width(), 14), int(Qt.AlignmentFlag.AlignLeft),
            layout.title,
        )  # fmt: skip
    legend = _legend_rows(layout, rect.width() - LEFT)
    bottom_space = 13 + 14 + len(legend) * LEGEND_ROW + (11 if layout.note else 0) + 2
    plot = QRectF(
        rect.left() + LEFT,
        rect.top() + top_space,
        rect.width() - LEFT - 8,
        rect.height() - top_space - bottom_space,
    )
    (x0, x1), (y0, y1) = layout.x_range, layout.y_range

    def to_x(value: float) -> float:
        return plot.left() + plot.width() * (value - x0) / (x1 - x0)

    def to_y(value: float) -> float:
        return plot.bottom() - plot.height() * (value - y0) / (y1 - y0)

    tick_font = report_font(TICK_SIZE)
    painter.setFont(tick_font)
    for tick in layout.y_ticks:
        y = to_y(tick)
        painter.setPen(QPen(GRID, 0.4))
        painter.drawLine(QLineF(plot.left(), y, plot.right(), y))
        painter.setPen(AXIS)
        painter.drawText(
            QRectF(plot.left() - 32, y - 5, 29, 10),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            tick_text(tick),
        )
    for tick in layout.x_ticks:
        x = to_x(tick)
        painter.setPen(QPen(GRID, 0.4))
        painter.drawLine(QLineF(x, plot.top(), x, plot.bottom()))
        painter.setPen(AXIS)
        painter.drawText(
            QRectF(x - 20, plot.bottom() + 2, 40, 10),
            int(Qt.AlignmentFlag.AlignHCenter),
            tick_text(tick),
        )
    painter.setFont(report_font(LABEL_SIZE))
    painter.setPen(TEXT)
    painter.drawText(
        QRectF(plot.left(), plot.bottom() + 13, plot.width(), 11),
        int(Qt.AlignmentFlag.AlignHCenter),
        layout.x_label,
    )
    painter.save()
    painter.translate(rect.left() + 2, plot.center().y())
    painter.rotate(-90)
    painter.drawText(
        QRectF(-plot.height() / 2, 0, plot.height(), 11),
        int(Qt.AlignmentFlag.AlignHCenter),
        layout.y_label,
    )
    painter.restore()

    painter.save()
    painter.setClipRect(plot.adjusted(-1, -1, 1, 1))
    for index, bars in enumerate(layout.bars):
        share = 0.8 / max(len(layout.bars), 1)
        for left, right, height in zip(bars.edges[:-1], bars.edges[1:], bars.heights, strict=True):
            if height <= 0:
                continue
            start = left + (right - left) * (0.1 + share * index)
            x_a, x_b = to_x(start), to_x(start + (right - left) * share)
            top = to_y(min(height, y1))
            _bar(painter, QRectF(x_a, top, x_b - x_a, to_y(y0) - top), bars.style)
    tolerance = (0.25 * (x1 - x0) / plot.width(), 0.25 * (y1 - y0) / plot.height())
    for series in layout.series:
        xs, ys = thin_polyline(series.xs, series.ys, tolerance)
        painter.setPen(_pen(series.style))
        points = [QPointF(to_x(x), to_y(y)) for x, y in zip(xs, ys, strict=True)]
        painter.drawPolyline(QPolygonF(points))
    painter.restore()

    mark_metrics = _metrics(TICK_SIZE)
    painter.setFont(tick_font)
    for mark, row in zip(layout.marks, _mark_rows(layout, to_x, mark_metrics), strict=True):
        x = to_x(mark.x)
        if not plot.left() - 0.5 <= x <= plot.right() + 0.5:
            continue
        painter.setPen(_pen(mark.style))
        painter.drawLine(QLineF(x, plot.top(), x, plot.bottom()))
        width = mark_metrics.horizontalAdvance(mark.label) + 2
        box = QRectF(x + 2, plot.top() + 2 + row * 9.5, width, 9)
        if box.right() > plot.right():  # keep the label inside: put it left of its line
            box.moveRight(x - 2)
        painter.fillRect(box, QColor(255, 255, 255, 220))
        painter.setPen(TEXT)
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), mark.label)

    painter.setPen(QPen(AXIS, 0.7))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(plot)

    painter.setFont(report_font(LEGEND_SIZE))
    y = plot.bottom() + 28
    for row in legend:
        x = plot.left()
        for style, name, bar, entry in row:
            if bar:
                _bar(painter, QRectF(x, y + 2, 20, 7), style)
            else:
                painter.setPen(_pen(style))
                painter.drawLine(QLineF(x, y + 5.5, x + 20, y + 5.5))
            painter.setPen(TEXT)
            painter.drawText(
                QRectF(x + 25, y, entry - 25, LEGEND_ROW), int(Qt.AlignmentFlag.AlignLeft), name
            )
            x += entry
        y += LEGEND_ROW
    if layout.note:
        painter.setFont(report_font(TICK_SIZE))
        painter.setPen(AXIS)
        painter.drawText(
            QRectF(plot.left(), y, plot.width(), 10), int(Qt.AlignmentFlag.AlignLeft), layout.note
        )
    painter.restore()
