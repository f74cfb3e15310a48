"""The paper's importance chart for one category: two stacked bars, L_Y and L_N.

Each rectangle is one feature, its height the importance λ from the engine's lists; the green
(solid) stack holds the features that point to the same author, the vermillion (hatched) stack
those that point to different authors, and the higher stack decides. Which features get a
rectangle and a label, the grouping of the rest and the label positions come from
``report.chart_layout.importance_chart``, so the window and the PDF report show the same chart;
the layout is redone when the plot is resized, so labels never overlap. Hovering a rectangle or
a label shows the feature's λ, relative frequencies and counts; clicking emits
``feature_chosen``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QCursor, QFont, QFontMetricsF
from PySide6.QtWidgets import QToolTip

from taveer_desktop.core.features.features import CATEGORY_NAMES
from taveer_desktop.core.methods.taveer.interpret import Interpretation
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.explanation_data import PhiRow, feature_tooltip
from taveer_desktop.presentation.importance_text import stack_heading
from taveer_desktop.report.chart_layout import (
    DEFAULT_TOP_N,
    DIFFERENT,
    SAME,
    STYLES,
    ImportanceChartLayout,
    Segment,
    Stack,
    importance_chart,
)
from taveer_desktop.ui.explain.fit_text import drawn_width, longest_fitting

BAR_X = {SAME: 0.0, DIFFERENT: 1.0}
BAR_WIDTH = 0.42
LABEL_GAP = 0.06
X_RANGE = (-1.45, 2.45)
HEADROOM = 1.16  # y range above the axis maximum, for the stack totals
HATCH_COLOUR = "#7a2f00"
TEXT_COLOUR = "#1a1a1a"
LEADER_COLOUR = "#777777"
SIDE_NAMES = {SAME: "L_Y: same author", DIFFERENT: "L_N: different authors"}
SHORT_NAMES = {SAME: "L_Y", DIFFERENT: "L_N"}
AXIS_TITLES = ("importance λ (stacked)", "λ (stacked)", "λ")  # fullest first, fitted to the axis
LABEL_PAD = 4.0  # pixels between the widest label and the plot's edge


def _label_font() -> QFont:
    font = QFont()
    font.setPointSizeF(8.5)
    return font


class ImportanceChart(pg.PlotWidget):
    """Importance chart of one category; ``show_category`` fills it from the engine's lists."""

    feature_chosen = Signal(str)
    caption_changed = Signal(str)  # what each stack holds, in words (shown under the chart)

    def __init__(self, parent=None, top_n: int = DEFAULT_TOP_N) -> None:
        super().__init__(parent, background="w")
        self.top_n = top_n
        self.category = ""
        self.lists: dict[str, list[tuple[str, float]]] = {SAME: [], DIFFERENT: []}
        self.rows: dict[str, PhiRow] = {}
        self.chart_layout: ImportanceChartLayout | None = None
        self.selected: str | None = None
        self.caption = ""
        self._items: list = []
        self._labels: list[tuple[pg.TextItem, Segment]] = []
        self._font = _label_font()
        self._label_height = QFontMetricsF(self._font).height() + 3
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.showGrid(x=False, y=True, alpha=0.25)
        plot.setXRange(*X_RANGE, padding=0)
        left = plot.getAxis("left")
        left.enableAutoSIPrefix(False)
        left.setLabel(AXIS_TITLES[0])
        bottom = plot.getAxis("bottom")
        bottom.setStyle(showValues=False)  # each stack is named above it
        for axis in (left, bottom):
            axis.setTextPen(pg.mkPen(TEXT_COLOUR))
            axis.setPen(pg.mkPen("#555555"))
        self.setMinimumSize(360, 280)  # labels are laid out again on every resize
        plot.getViewBox().sigResized.connect(self._relayout)
        self.scene().sigMouseMoved.connect(self._hovered)
        self.scene().sigMouseClicked.connect(self._clicked)

    # --- data -----------------------------------------------------------------------------

    def show_category(
        self, category: str, interpretation: Interpretation, rows: Sequence[PhiRow] = ()
    ) -> None:
        """Show ``interpretation`` (the result's entry for ``category``) as the two stacks."""
        self.category = category
        self.lists = {SAME: list(interpretation.l_y), DIFFERENT: list(interpretation.l_n)}
        self.rows = {row.feature: row for row in rows}
        self.selected = None
        name = CATEGORY_NAMES.get(category, "")
        self.getPlotItem().setTitle(f"<b>{category} {name}</b>: importance λ", color=TEXT_COLOUR)
        self._relayout()

    def select_feature(self, feature: str | None) -> None:
        """Outline the rectangle of ``feature`` (or the grouped rest that holds it)."""
        self.selected = feature
        self._relayout()

    def side_of(self, feature: str) -> str | None:
        for side, items in self.lists.items():
            if any(f == feature for f, _ in items):
                return side
        return None

    # --- drawing --------------------------------------------------------------------------

    def _plot_height(self) -> float:
        height = self.getPlotItem().getViewBox().height() / HEADROOM
        return height if height > 50 else 300.0

    def _fit_axis_title(self) -> None:
        """The fullest axis title that the axis's height holds (a short plot gets "λ")."""
        axis = self.getPlotItem().getAxis("left")
        length = self.getPlotItem().getViewBox().height()
        if length > 0:
            title = longest_fitting(AXIS_TITLES, axis.label.font(), length)
            if title != axis.labelText:
                axis.setLabel(title)

    def _relayout(self, *_args) -> None:
        plot = self.getPlotItem()
        self._fit_axis_title()
        for item in self._items:
            plot.removeItem(item)
        self._items, self._labels = [], []
        if not self.category:
            self._set_caption(None)
            return
        layout = importance_chart(
            self.category,
            self.category,
            self.lists[SAME],
            self.lists[DIFFERENT],
            self._plot_height(),
            self._label_height,
            self.top_n,
        )
        self.chart_layout = layout
        self._set_caption(layout)
        plot.setYRange(0, layout.y_max * HEADROOM, padding=0)
        plot.setXRange(*self._x_range(layout), padding=0)
        plot.getAxis("left").setTicks([[(t, numbers.short(t)) for t in layout.ticks], []])
        if layout.empty:
            self._add(self._text("This category abstains: no features to show.", 0.5, 0.5, 0.5))
            return
        for stack in (layout.same, layout.different):
            self._draw_stack(stack, layout.y_max)

    def _x_range(self, layout: ImportanceChartLayout) -> tuple[float, float]:
        """An x range leaving room in pixels for the widest label on each side of the bars."""
        widest = QFont(self._font)  # a chosen label is bold, the grouped rest italic
        widest.setBold(True)
        widest.setItalic(True)

        def room(stack: Stack) -> float:
            widths = [drawn_width(label.text, widest) for label in stack.labels]
            return max(widths, default=0.0) + LABEL_PAD

        width = self.getPlotItem().getViewBox().width()
        left_px, right_px = room(layout.same), room(layout.different)
        core = (-BAR_WIDTH / 2 - 2 * LABEL_GAP, 1.0 + BAR_WIDTH / 2 + 2 * LABEL_GAP)
        core_px = width - left_px - right_px
        if width < 100 or core_px < 120:  # not laid out yet, or too narrow: fixed range
            return X_RANGE
        per_unit = core_px / (core[1] - core[0])
        return core[0] - left_px / per_unit, core[1] + right_px / per_unit

    def _add(self, item):
        self.getPlotItem().addItem(item)
        self._items.append(item)
        return item

    def _text(self, text: str, x: float, y: float, anchor_x: float, bold=False, italic=False):
        item = pg.TextItem(text, color=TEXT_COLOUR, anchor=(anchor_x, 0.5))
        font = QFont(self._font)
        font.setBold(bold)
        font.setItalic(italic)
        item.setFont(font)
        item.setPos(x, y)
        return item

    def _draw_stack(self, stack: Stack, y_max: float) -> None:
        x = BAR_X[stack.side]
        by_style: dict[str, list[Segment]] = {}
        for segment in stack.segments:
            by_style.setdefault(segment.style, []).append(segment)
        for style, segments in by_style.items():
            fill, hatch = STYLES[style]
            kwargs = dict(
                x=np.full(len(segments), x),
                y0=np.array([s.start for s in segments]),
                height=np.array([s.end - s.start for s in segments]),
                width=BAR_WIDTH,
            )
            self._add(pg.BarGraphItem(brush=QColor(fill), pen=pg.mkPen("w", width=1), **kwargs))
            if hatch:
                brush = QBrush(QColor(HATCH_COLOUR), Qt.BrushStyle.BDiagPattern)
                self._add(pg.BarGraphItem(brush=brush, pen=pg.mkPen(None), **kwargs))
        self._add(
            pg.BarGraphItem(
                x=[x],
                y0=[0],
                height=[stack.total],
                width=BAR_WIDTH,
                brush=QBrush(Qt.BrushStyle.NoBrush),
                pen=pg.mkPen("#555555", width=1),
            )
        )
        self._draw_selection(stack, x)
        self._draw_labels(stack, x)
        # a short name over the bar; what the stack holds is said in ``caption`` (which wraps
        # under the chart, so it is never cut off however narrow the chart is)
        item = self._text(SHORT_NAMES[stack.side], x, stack.total, 0.5, bold=True)
        item.setAnchor((0.5, 1.0))
        self._add(item)

    @staticmethod
    def _heading(stack: Stack) -> str:
        labelled = [s.value for s in stack.segments if s.feature is not None]
        return stack_heading(SIDE_NAMES[stack.side], stack.total, stack.feature_count, labelled)

    def _set_caption(self, layout: ImportanceChartLayout | None) -> None:
        if layout is None or layout.empty:
            caption = ""
        else:
            caption = "\n".join(
                self._heading(stack).replace("\n", "; ", 1).replace("\n", ", ")
                for stack in (layout.same, layout.different)
            )
        if caption != self.caption:
            self.caption = caption
            self.caption_changed.emit(caption)

    def _draw_selection(self, stack: Stack, x: float) -> None:
        if self.selected is None or self.side_of(self.selected) != stack.side:
            return
        segment = next((s for s in stack.segments if s.feature == self.selected), None)
        if segment is None:
            segment = next((s for s in stack.segments if s.feature is None), None)
        if segment is None:
            return
        self._add(
            pg.BarGraphItem(
                x=[x],
                y0=[segment.start],
                height=[segment.end - segment.start],
                width=BAR_WIDTH + 0.06,
                brush=QBrush(Qt.BrushStyle.NoBrush),
                pen=pg.mkPen("#000000", width=3),
            )
        )

    def _draw_labels(self, stack: Stack, x: float) -> None:
        left = stack.side == SAME
        edge = x - BAR_WIDTH / 2 if left else x + BAR_WIDTH / 2
        text_x = edge - LABEL_GAP * 2 if left else edge + LABEL_GAP * 2
        leaders = []
        for label, segment in zip(stack.labels, stack.segments, strict=True):
            chosen = segment.feature is not None and segment.feature == self.selected
            item = self._text(
                label.text,
                text_x,
                label.position,
                1.0 if left else 0.0,
                bold=chosen,
                italic=segment.feature is None,
            )
            self._add(item)
            self._labels.append((item, segment))
            leaders += [(text_x + (0.01 if left else -0.01), label.position), (edge, label.anchor)]
        if leaders:
            points = np.array(leaders)
            self._add(
                pg.PlotCurveItem(
                    points[:, 0],
                    points[:, 1],
                    connect="pairs",
                    pen=pg.mkPen(LEADER_COLOUR, width=1),
                )
            )

    # --- interaction ----------------------------------------------------------------------

    def segment_at(self, x: float, y: float) -> Segment | None:
        """The rectangle under data point (x, y), if any."""
        layout = self.chart_layout
        if layout is None:
            return None
        for stack in (layout.same, layout.different):
            if abs(x - BAR_X[stack.side]) <= BAR_WIDTH / 2:
                for segment in stack.segments:
                    if segment.start <= y <= segment.end:
                        return segment
        return None

    def tooltip_for(self, segment: Segment) -> str:
        side = SAME if segment.style.startswith(SAME) else DIFFERENT
        if segment.feature is not None:
            row = self.rows.get(segment.feature)
            if row is not None:
                return feature_tooltip(row, self.category) + "\nClick to find it in the texts."
            return f"“{segment.feature}”  λ = {numbers.decimal(segment.value, 5)}"
        values = [v for _, v in self.lists[side][-segment.count :]]
        return (
            f"{numbers.count(segment.count, 'more feature')} of {SIDE_NAMES[side]}\n"
            f"λ from {numbers.decimal(min(values), 5)} to {numbers.decimal(max(values), 5)}, "
            f"Σλ = {numbers.decimal(segment.value, 5)}\n"
            "Each of them is listed in the feature table."
        )

    def _segment_at_scene(self, scene_pos: QPointF) -> Segment | None:
        for item, segment in self._labels:
            if item.sceneBoundingRect().contains(scene_pos):
                return segment
        view_box = self.getPlotItem().getViewBox()
        if not view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = view_box.mapSceneToView(scene_pos)
        return self.segment_at(point.x(), point.y())

    def _hovered(self, scene_pos: QPointF) -> None:
        segment = self._segment_at_scene(scene_pos)
        if segment is None:
            QToolTip.hideText()
            self.viewport().unsetCursor()
            return
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        QToolTip.showText(QCursor.pos(), self.tooltip_for(segment), self)

    def _clicked(self, event) -> None:
        segment = self._segment_at_scene(event.scenePos())
        if segment is not None and segment.feature is not None:
            self.select_feature(segment.feature)
            self.feature_chosen.emit(segment.feature)
