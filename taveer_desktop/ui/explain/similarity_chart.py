"""Per-category similarity bars of one result against the 0.5 decision boundary.

One horizontal bar per category F1–F11 on a 0–1 axis: the ensemble's categories filled blue,
the others outlined and marked "not in the ensemble", abstaining categories without a bar and
the word "abstains"; a dashed line marks 0.5 and a dotted line the case's score (the median of
the ensemble). Rows, styles and texts come from ``report.chart_layout.similarity_chart``, the
layout the PDF report draws.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF

from taveer_desktop.report.chart_layout import STYLES, SimilarityChartLayout, similarity_chart

TEXT_COLOUR = "#1a1a1a"
BAR_HEIGHT = 0.62
VALUE_X = 1.03
X_MAX = 1.78
NARROW_WIDTH = 640  # below this many pixels the axis shows category ids only
MIN_PIXELS_PER_UNIT = 120  # the 0–1 axis never gets narrower than this


class SimilarityChart(pg.PlotWidget):
    """Similarity of each category of a result; ``show_result`` fills it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.chart_layout: SimilarityChartLayout | None = None
        self._items: list = []
        self._tick_labels: tuple[list, list] | None = None
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.showGrid(x=True, y=False, alpha=0.25)
        plot.setTitle("<b>Similarity per category</b>", color=TEXT_COLOUR)
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.enableAutoSIPrefix(False)
            axis.setTextPen(pg.mkPen(TEXT_COLOUR))
            axis.setPen(pg.mkPen("#555555"))
        plot.getAxis("bottom").setLabel("similarity (0 = nothing in common, 1 = identical)")
        self.setMinimumSize(380, 330)
        self._value_font = QFont()
        self._value_font.setPointSizeF(9.0)
        plot.getViewBox().sigResized.connect(self._fit_x_range)

    def show_result(self, result: Mapping) -> None:
        categories = list(result["categories"].values())
        no_conclusion = (result.get("conclusion") or {}).get("kind") == "none"
        unanswered = no_conclusion or result.get("prediction") == "insufficient"
        score = None if unanswered else result["similarity"]  # no score on unusable text
        layout = similarity_chart(categories, list(result["ensemble"]), score)
        self.chart_layout = layout
        plot = self.getPlotItem()
        for item in self._items:
            plot.removeItem(item)
        self._items = []
        n = len(layout.rows)
        ys = np.arange(n)[::-1].astype(float)  # first category at the top
        self._tick_labels = (
            [(y, f"{row.category} {row.name}") for y, row in zip(ys, layout.rows, strict=True)],
            [(y, row.category) for y, row in zip(ys, layout.rows, strict=True)],
        )
        self._set_category_ticks()
        plot.getAxis("bottom").setTicks([[(t, f"{t:g}") for t in layout.x_ticks]])
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
        boundary = pg.InfiniteLine(
            pos=layout.decision,
            angle=90,
            pen=pg.mkPen("#000000", width=2, style=Qt.PenStyle.DashLine),
            label="0.5",
            labelOpts={"position": 0.98, "color": TEXT_COLOUR},
        )
        self._add(boundary)
        title = "<b>Similarity per category</b>"
        if layout.score is not None:  # named in the title: a label on the line would cover values
            title += f" <span style='color:#8a3a6a'>· · score {layout.score:.3f}</span>"
            self._add(
                pg.InfiniteLine(
                    pos=layout.score,
                    angle=90,
                    pen=pg.mkPen("#CC79A7", width=2, style=Qt.PenStyle.DotLine),
                )
            )
        plot.setTitle(title, color=TEXT_COLOUR)
        self._fit_x_range()
        plot.setYRange(-0.8, n - 0.2, padding=0)

    def _set_category_ticks(self) -> None:
        """Category names beside the bars; only the ids (names in tooltips) when narrow."""
        if self._tick_labels is None:
            return
        long_labels, short_labels = self._tick_labels
        narrow = self.width() < NARROW_WIDTH
        self.getPlotItem().getAxis("left").setTicks([short_labels if narrow else long_labels])
        self.setToolTip("\n".join(label for _, label in long_labels) if narrow else "")

    def _fit_x_range(self, *_args) -> None:
        """Room right of the 0–1 axis for the widest value text, in pixels."""
        self._set_category_ticks()
        layout = self.chart_layout
        width = self.getPlotItem().getViewBox().width()
        x_max = X_MAX
        if layout is not None and width > 100:
            bold = QFont(self._value_font)
            bold.setBold(True)
            text_px = 1.1 * max(
                QFontMetricsF(bold).horizontalAdvance(r.value_text) for r in layout.rows
            )
            per_unit = max((width - text_px - 12) / (VALUE_X + 0.01), MIN_PIXELS_PER_UNIT)
            x_max = max(X_MAX, VALUE_X + (text_px + 12) / per_unit)
        self.getPlotItem().setXRange(-0.01, x_max, padding=0)

    def _add(self, item) -> None:
        self.getPlotItem().addItem(item)
        self._items.append(item)
