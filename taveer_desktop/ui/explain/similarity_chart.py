"""Per-category similarity bars of one result against the 0.5 decision boundary.

One horizontal bar per category F1–F11 on a 0–1 axis: the ensemble's categories filled blue,
the others outlined and marked "not in the ensemble", abstaining categories without a bar and
the word "abstains"; a dashed line marks 0.5 and a dotted line the case's score (the median of
the ensemble). Rows, styles and texts come from ``report.chart_layout.similarity_chart``, the
layout the PDF report draws. The room right of the bars is measured from the drawn value texts
on every resize; where the full texts ("abstains (no features on one side)  (not in the
ensemble)") do not fit, the values alone are shown (the full texts in the tooltip), and the
chart's minimum width keeps room for those.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.presentation import numbers
from taveer_desktop.report.chart_layout import STYLES, SimilarityChartLayout, similarity_chart
from taveer_desktop.ui.explain.fit_text import drawn_width, longest_fitting, set_title

TEXT_COLOUR = "#1a1a1a"
BAR_HEIGHT = 0.62
VALUE_X = 1.03
X_MAX = 1.78
NARROW_WIDTH = 640  # below this many pixels the axis shows category ids only
MIN_PIXELS_PER_UNIT = 120  # the 0–1 axis never gets narrower than this
TITLE = "<b>Similarity per category</b>"
AXIS_TITLES = (
    "similarity (0 = nothing in common, 1 = identical)",
    "similarity (0 to 1)",
    "similarity",
)
SCORE_TEXT = "#8a3a6a"
VALUE_PAD = 6.0  # pixels between the widest value text and the plot's right edge


class SimilarityChart(pg.PlotWidget):
    """Similarity of each category of a result; ``show_result`` fills it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.chart_layout: SimilarityChartLayout | None = None
        self._items: list = []
        self._values: list[tuple[pg.TextItem, str, str]] = []  # item, full text, value alone
        self.compact = False  # whether the values are shown alone (a narrow chart)
        self._tick_labels: tuple[list, list] | None = None
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.showGrid(x=True, y=False, alpha=0.25)
        self._title = [TITLE]
        set_title(plot, self._title, 380, TEXT_COLOUR)
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.enableAutoSIPrefix(False)
            axis.setTextPen(pg.mkPen(TEXT_COLOUR))
            axis.setPen(pg.mkPen("#555555"))
        plot.getAxis("bottom").setLabel(AXIS_TITLES[0])
        self.setMinimumSize(380, 330)
        self._value_font = QFont()
        self._value_font.setPointSizeF(9.0)
        plot.getViewBox().sigResized.connect(self._fit_x_range)

    def show_result(self, result: VerificationResult | None) -> None:
        if result is None:  # nothing read: nothing to draw
            return
        categories = list(result.categories.values())
        no_conclusion = result.conclusion.kind is ConclusionKind.NONE
        unanswered = no_conclusion or result.prediction is Classification.INSUFFICIENT
        scored = None if unanswered else result.similarity  # no score on unusable text
        layout = similarity_chart(categories, list(result.ensemble), scored)
        self.chart_layout = layout
        plot = self.getPlotItem()
        for item in self._items:
            plot.removeItem(item)
        self._items, self._values = [], []
        n = len(layout.rows)
        ys = np.arange(n)[::-1].astype(float)  # first category at the top
        self._tick_labels = (
            [(y, f"{row.category} {row.name}") for y, row in zip(ys, layout.rows, strict=True)],
            [(y, row.category) for y, row in zip(ys, layout.rows, strict=True)],
        )
        self._set_category_ticks()
        for style in ("member", "non-member"):
            chosen = [
                (y, row.value)
                for y, row in zip(ys, layout.rows, strict=True)
                if row.style == style and row.value is not None
            ]
            if chosen:
                fill, _hatch = STYLES[style]
                self._add(
                    pg.BarGraphItem(
                        x0=np.zeros(len(chosen)),
                        y=np.array([c[0] for c in chosen]),
                        width=np.array([c[1] for c in chosen]),
                        height=BAR_HEIGHT,
                        brush=QColor(fill),
                        pen=pg.mkPen("#0072B2", width=1.5),
                    )
                )
        font = self._value_font
        for y, row in zip(ys, layout.rows, strict=True):
            text = pg.TextItem(row.value_text, color=TEXT_COLOUR, anchor=(0, 0.5))
            member_font = QFont(font)
            member_font.setBold(row.style == "member")
            member_font.setItalic(row.value is None)
            text.setFont(member_font)
            text.setPos(VALUE_X, y)
            self._add(text)
            self._values.append((text, row.value_text, row.short_text))
        boundary = pg.InfiniteLine(
            pos=layout.decision,
            angle=90,
            pen=pg.mkPen("#000000", width=2, style=Qt.PenStyle.DashLine),
            label="0.5",
            labelOpts={"position": 0.98, "color": TEXT_COLOUR},
        )
        self._add(boundary)
        self._title = [TITLE]
        if layout.score is not None:  # named in the title: a label on the line would cover values
            score = numbers.decimal(layout.score)
            self._title.append(
                f"<span style='color:#8a3a6a'>·&nbsp;·&nbsp;score&nbsp;{score}</span>"
            )
            self._add(
                pg.InfiniteLine(
                    pos=layout.score,
                    angle=90,
                    pen=pg.mkPen("#CC79A7", width=2, style=Qt.PenStyle.DotLine),
                )
            )
        self.setMinimumWidth(max(380, round(self._narrowest())))
        self._fit_x_range()
        plot.setYRange(-0.8, n - 0.2, padding=0)

    def _set_category_ticks(self) -> None:
        """Category names beside the bars; only the ids (names in tooltips) when narrow."""
        if self._tick_labels is None:
            return
        long_labels, short_labels = self._tick_labels
        narrow = self.width() < NARROW_WIDTH
        self.getPlotItem().getAxis("left").setTicks([short_labels if narrow else long_labels])
        values = self._values
        if self.compact and len(values) == len(long_labels):  # every full text on hover
            tips = [f"{label}: {v[1]}" for (_, label), v in zip(long_labels, values, strict=True)]
        else:
            tips = [label for _, label in long_labels] if narrow else []
        self.setToolTip("\n".join(tips))

    def _value_width(self, which: int) -> float:
        """The widest value text as drawn in its own font (1: full texts, 2: values alone)."""
        return max((drawn_width(v[which], v[0].textItem.font()) for v in self._values), default=0.0)

    def _narrowest(self) -> float:
        """The chart's width at which the 0–1 axis keeps its minimum scale beside the values
        alone: the plot's frame (axis, margins) measured now, plus the axis and the values."""
        plot_width = self.getPlotItem().getViewBox().width()
        frame = self.width() - plot_width if plot_width > 100 else 80.0
        return frame + MIN_PIXELS_PER_UNIT * (VALUE_X + 0.01) + self._value_width(2) + VALUE_PAD

    def _fit_x_range(self, *_args) -> None:
        """Room right of the 0–1 axis for the widest value text as drawn, in pixels; the
        values alone where their full texts would squeeze the axis below its minimum."""
        width = self.getPlotItem().getViewBox().width()
        x_max, ticks = X_MAX, None
        if self.chart_layout is not None and width > 100 and self._values:
            text_px = self._value_width(1)
            per_unit = (width - text_px - VALUE_PAD) / (VALUE_X + 0.01)
            self.compact = per_unit < MIN_PIXELS_PER_UNIT
            if self.compact:
                text_px = self._value_width(2)
                per_unit = max((width - text_px - VALUE_PAD) / (VALUE_X + 0.01), 1.0)
            for item, full, short in self._values:
                item.setText(short if self.compact else full)
            x_max = VALUE_X + (text_px + VALUE_PAD) / per_unit
            ticks = self._x_ticks(per_unit)
        self._set_category_ticks()
        set_title(self.getPlotItem(), self._title, self.width() - 8, TEXT_COLOUR)
        axis = self.getPlotItem().getAxis("bottom")
        if width > 0:  # the fullest axis title its width holds
            title = longest_fitting(AXIS_TITLES, axis.label.font(), width)
            if title != axis.labelText:
                axis.setLabel(title)
        if ticks is not None:
            self.getPlotItem().getAxis("bottom").setTicks([ticks])
        self.getPlotItem().setXRange(-0.01, x_max, padding=0)

    def _x_ticks(self, per_unit: float) -> list[tuple[float, str]]:
        """The layout's ticks, or every other one where their labels would touch."""
        assert self.chart_layout is not None
        values = list(self.chart_layout.x_ticks)
        font = self.getPlotItem().getAxis("bottom").style.get("tickFont") or QFont()
        widest = max(drawn_width(numbers.short(t), font) for t in values)
        step = min(b - a for a, b in pairwise(values))
        if step * per_unit < widest:
            values = values[::2]
        return [(t, numbers.short(t)) for t in values]

    def _add(self, item) -> None:
        self.getPlotItem().addItem(item)
        self._items.append(item)
