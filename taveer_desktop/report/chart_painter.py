"""QPainter drawing of the report's charts from their pure layouts (vector output in the PDF).

``paint_chart`` draws an ``ImportanceChartLayout`` or a ``SimilarityChartLayout`` (see
``chart_layout``), or hands a ``PlotLayout`` to ``plot_painter``, into a rectangle of any
QPainter: the PDF writer, or an image for the preview and the tests. Nothing is rasterised:
bars are rectangles, hatching is drawn as clipped lines, labels are text, so the PDF stays
sharp at any zoom and its chart text can be searched.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen

from taveer_desktop.presentation import numbers
from taveer_desktop.report.chart_layout import (
    IMPORTANCE_PLOT_BOTTOM,
    IMPORTANCE_PLOT_TOP,
    SIMILARITY_ROW_HEIGHT,
    STYLES,
    ImportanceChartLayout,
    SimilarityChartLayout,
    Stack,
)
from taveer_desktop.report.fonts import layout_device, report_font
from taveer_desktop.report.plot_layout import PlotLayout
from taveer_desktop.report.plot_painter import paint_plot

TEXT = QColor("#1a1a1a")
GRID = QColor("#d9d9d9")
AXIS = QColor("#555555")
HATCH = {"diagonal": QColor("#7a2f00")}
LABEL_SIZE = 7.2
BAR_WIDTH = 54.0
BAR_GAP = 14.0


def _metrics(font) -> QFontMetricsF:
    return QFontMetricsF(font, layout_device())


def _text(painter: QPainter, rect: QRectF, flags, text: str, size: float, bold=False, color=TEXT):
    painter.setFont(report_font(size, bold=bold))
    painter.setPen(color)
    painter.drawText(rect, int(flags), text)


def _hatch(painter: QPainter, rect: QRectF, hatch: str | None) -> None:
    if not hatch or rect.height() <= 0.3:
        return
    painter.save()
    painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
    painter.setPen(QPen(HATCH[hatch], 0.6))
    step = 4.5
    x = rect.left() - rect.height()
    while x < rect.right():
        painter.drawLine(QLineF(x, rect.bottom(), x + rect.height(), rect.top()))
        x += step
    painter.restore()


def _filled(painter: QPainter, rect: QRectF, style: str, outline: QColor | None = None) -> None:
    fill, hatch = STYLES[style]
    painter.fillRect(rect, QColor(fill))
    _hatch(painter, rect, hatch)
    painter.setPen(QPen(outline or QColor("white"), 0.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(rect)


def _stack(painter, stack: Stack, bar: QRectF, to_y, labels_left: bool, label_width: float):
    font = report_font(LABEL_SIZE)
    metrics = _metrics(font)
    for segment in stack.segments:
        top, bottom = to_y(segment.end), to_y(segment.start)
        _filled(
            painter, QRectF(bar.left(), top, bar.width(), max(bottom - top, 0.15)), segment.style
        )
    painter.setPen(QPen(AXIS, 0.6))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if stack.segments:
        painter.drawRect(
            QRectF(bar.left(), to_y(stack.total), bar.width(), to_y(0) - to_y(stack.total))
        )
    painter.setFont(font)
    for label in stack.labels:
        y = to_y(label.position)
        anchor_y = to_y(label.anchor)
        text = metrics.elidedText(label.text, Qt.TextElideMode.ElideRight, label_width - 14)
        width = metrics.horizontalAdvance(text)
        if labels_left:
            edge = bar.left()
            text_rect = QRectF(edge - 12 - width, y - 5, width, 10)
            line = (QPointF(edge - 10, y), QPointF(edge - 1, anchor_y))
        else:
            edge = bar.right()
            text_rect = QRectF(edge + 12, y - 5, width, 10)
            line = (QPointF(edge + 10, y), QPointF(edge + 1, anchor_y))
        painter.setPen(QPen(AXIS, 0.5))
        painter.drawLine(*line)
        painter.setPen(TEXT)
        painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignVCenter), text)


def paint_importance(painter: QPainter, rect: QRectF, layout: ImportanceChartLayout) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    title = f"{layout.category} — importance λ of the features (the paper's chart)"
    _text(
        painter,
        QRectF(rect.left(), rect.top(), rect.width(), 14),
        Qt.AlignmentFlag.AlignLeft,
        title,
        8.5,
        bold=True,
    )
    plot = QRectF(
        rect.left(),
        rect.top() + IMPORTANCE_PLOT_TOP,
        rect.width(),
        rect.height() - IMPORTANCE_PLOT_TOP - IMPORTANCE_PLOT_BOTTOM,
    )
    axis_x = plot.left() + 36
    centre = (axis_x + plot.right()) / 2
    same_bar = QRectF(centre - BAR_GAP - BAR_WIDTH, plot.top(), BAR_WIDTH, plot.height())
    diff_bar = QRectF(centre + BAR_GAP, plot.top(), BAR_WIDTH, plot.height())
    label_width = same_bar.left() - axis_x - 4

    def to_y(value: float) -> float:
        return plot.bottom() - plot.height() * value / layout.y_max

    painter.setFont(report_font(6.8))
    for tick in layout.ticks:
        y = to_y(tick)
        painter.setPen(QPen(GRID, 0.4))
        painter.drawLine(QLineF(axis_x, y, plot.right(), y))
        painter.setPen(AXIS)
        painter.drawText(
            QRectF(plot.left(), y - 5, 32, 10),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            numbers.short(tick),
        )
    painter.setPen(QPen(AXIS, 0.7))
    painter.drawLine(QLineF(axis_x, plot.top(), axis_x, plot.bottom()))
    painter.drawLine(QLineF(axis_x, plot.bottom(), plot.right(), plot.bottom()))
    _text(painter, QRectF(plot.left(), plot.top() - 12, 40, 10), Qt.AlignmentFlag.AlignLeft, "λ", 7)
    _stack(painter, layout.same, same_bar, to_y, True, label_width)
    _stack(painter, layout.different, diff_bar, to_y, False, plot.right() - diff_bar.right())
    below = plot.bottom() + 3
    for stack, bar in ((layout.same, same_bar), (layout.different, diff_bar)):
        same = stack is layout.same
        name = "L_Y (same author)" if same else "L_N (different authors)"
        caption = (
            f"{name}\n{numbers.count(stack.feature_count, 'feature')}, "
            f"Σλ = {numbers.decimal(stack.total, 4)}"
        )
        box = (
            QRectF(bar.right() - 180, below, 180, 22)
            if same
            else QRectF(bar.left(), below, 180, 22)
        )
        align = Qt.AlignmentFlag.AlignRight if same else Qt.AlignmentFlag.AlignLeft
        _text(painter, box, align, caption, 6.8)
    legend_y = rect.bottom() - 13
    x = rect.left() + 4
    for style, text in (
        ("same", "L_Y, one rectangle per feature"),
        ("different", "L_N (hatched)"),
        ("same-rest", "grouped smaller features"),
    ):
        _filled(painter, QRectF(x, legend_y + 1, 14, 8), style, outline=AXIS)
        if style == "same-rest":
            _filled(painter, QRectF(x + 15, legend_y + 1, 14, 8), "different-rest", outline=AXIS)
            x += 15
        painter.setFont(report_font(6.8))
        painter.setPen(TEXT)
        width = _metrics(report_font(6.8)).horizontalAdvance(text)
        painter.drawText(
            QRectF(x + 18, legend_y, width + 2, 10), int(Qt.AlignmentFlag.AlignLeft), text
        )
        x += 18 + width + 16
    painter.restore()


def paint_similarity(painter: QPainter, rect: QRectF, layout: SimilarityChartLayout) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    _text(
        painter,
        QRectF(rect.left(), rect.top(), rect.width(), 14),
        Qt.AlignmentFlag.AlignLeft,
        "Similarity per feature kind (0.5 = the model's threshold)",
        8.5,
        bold=True,
    )
    label_w, value_w = 150.0, 130.0
    plot = QRectF(
        rect.left() + label_w,
        rect.top() + 30,
        rect.width() - label_w - value_w,
        SIMILARITY_ROW_HEIGHT * len(layout.rows),
    )

    def to_x(value: float) -> float:
        return plot.left() + plot.width() * value

    painter.setFont(report_font(6.8))
    labelled = labelled_ticks(layout.x_ticks, layout.score, plot.width())
    for tick in layout.x_ticks:
        x = to_x(tick)
        painter.setPen(QPen(GRID, 0.4))
        painter.drawLine(QLineF(x, plot.top(), x, plot.bottom()))
        if tick not in labelled:
            continue
        painter.setPen(AXIS)
        painter.drawText(
            QRectF(x - 15, plot.bottom() + 2, 30, 10),
            int(Qt.AlignmentFlag.AlignHCenter),
            numbers.short(tick),
        )
    small = report_font(7.2)
    metrics = _metrics(small)
    for i, row in enumerate(layout.rows):
        top = plot.top() + i * SIMILARITY_ROW_HEIGHT
        painter.setFont(small)
        painter.setPen(TEXT)
        name = metrics.elidedText(
            f"{row.category}  {row.name}", Qt.TextElideMode.ElideRight, label_w - 6
        )
        painter.drawText(
            QRectF(rect.left(), top, label_w - 6, SIMILARITY_ROW_HEIGHT),
            int(Qt.AlignmentFlag.AlignVCenter),
            name,
        )
        bar = QRectF(plot.left(), top + 3.5, 0, SIMILARITY_ROW_HEIGHT - 7)
        if row.value is not None:
            bar.setWidth(max(plot.width() * row.value, 0.6))
            _filled(painter, bar, row.style, outline=QColor(STYLES["member"][0]))
        painter.setFont(small)
        painter.setPen(TEXT)
        painter.drawText(
            QRectF(plot.right() + 6, top, value_w - 6, SIMILARITY_ROW_HEIGHT),
            int(Qt.AlignmentFlag.AlignVCenter),
            row.value_text,
        )
    painter.setPen(QPen(AXIS, 0.7))
    painter.drawLine(QLineF(plot.left(), plot.top(), plot.left(), plot.bottom()))
    painter.drawLine(QLineF(plot.left(), plot.bottom(), plot.right(), plot.bottom()))
    decision_x = to_x(layout.decision)
    pen = QPen(TEXT, 1.0, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.drawLine(QLineF(decision_x, plot.top() - 4, decision_x, plot.bottom()))
    _text(
        painter,
        QRectF(decision_x - 120, plot.top() - 15, 116, 10),
        Qt.AlignmentFlag.AlignRight,
        "← different authors",
        6.8,
    )
    _text(
        painter,
        QRectF(decision_x + 4, plot.top() - 15, 116, 10),
        Qt.AlignmentFlag.AlignLeft,
        "same author →",
        6.8,
    )
    if layout.score is not None:
        score_x = to_x(layout.score)
        painter.setPen(QPen(QColor(STYLES["different"][0]), 1.4))
        painter.drawLine(QLineF(score_x, plot.top() - 2, score_x, plot.bottom() + 2))
        path = QPainterPath()
        path.moveTo(score_x, plot.bottom() + 3)
        path.lineTo(score_x - 3.5, plot.bottom() + 9)
        path.lineTo(score_x + 3.5, plot.bottom() + 9)
        path.closeSubpath()
        painter.fillPath(path, QColor(STYLES["different"][0]))
    _text(
        painter,
        QRectF(plot.left(), plot.bottom() + 13, plot.width() + value_w, 10),
        Qt.AlignmentFlag.AlignLeft,
        f"▲ {layout.score_text};  dashed line: 0.5",
        6.8,
    )
    painter.restore()


SCORE_MARK_ROOM = 12.0  # points either side of the score's triangle kept free of tick labels


def labelled_ticks(ticks, score: float | None, width: float) -> tuple[float, ...]:
    """The similarity axis's ticks that get a label: none under the score's triangle (the
    orange mark once sat on "0.75", read as "0.7▲")."""
    if score is None:
        return tuple(ticks)
    return tuple(t for t in ticks if abs(t - score) * width >= SCORE_MARK_ROOM)


def paint_chart(painter: QPainter, rect: QRectF, layout) -> None:
    """Draw ``layout`` (importance, similarity or an x–y plot) into ``rect``."""
    if isinstance(layout, PlotLayout):
        paint_plot(painter, rect, layout)
    elif isinstance(layout, ImportanceChartLayout):
        paint_importance(painter, rect, layout)
    elif isinstance(layout, SimilarityChartLayout):
        paint_similarity(painter, rect, layout)
    else:  # pragma: no cover - a programming error
        raise TypeError(f"not a chart layout: {type(layout).__name__}")
