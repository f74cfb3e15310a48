"""The three charts of a validation record, drawn with pyqtgraph: the Tippett plot, the
empirical cross-entropy plot and the score distributions of the cross-validated trials.

The data come from ``core/validation_curves.py`` and every title, axis, series name and caption
from ``presentation/validation_text.py`` (the validation report draws the same three from the
same data). Same-author trials are green and solid, different-author trials vermillion and
dashed or hatched, so the charts read without colour too.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from taveer_desktop.core.errors import TaveerError
from taveer_desktop.core.validation_curves import ValidationCurves, curves_of
from taveer_desktop.presentation import validation_text as vt
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.explain.model_view import DIFFERENT, HATCH, SAME, TEXT_COLOUR, style_plot

NEUTRAL = "#555555"
CALIBRATED = "#0072B2"


class ValidationCharts(QWidget):
    """Tippett, empirical cross-entropy and score distributions of one record, side by side,
    each with its caption beneath."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.curves: ValidationCurves | None = None
        self.stem = "taveer-validation"
        self.charts = pg.GraphicsLayoutWidget(self)
        self.charts.setBackground("w")
        self.charts.setMinimumHeight(self.fontMetrics().height() * 12)
        self.tippett_plot = self.charts.addPlot(row=0, col=0)
        self.ece_plot = self.charts.addPlot(row=0, col=1)
        self.score_plot = self.charts.addPlot(row=0, col=2)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.captions = []
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        for column, text in enumerate((vt.TIPPETT, vt.ECE_PLOT, vt.SCORE_PLOT)):
            caption = QLabel(text.caption)
            caption.setWordWrap(True)
            caption.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            font = caption.font()
            font.setPointSizeF(font.pointSizeF() * 0.9)
            caption.setFont(font)
            grid.addWidget(caption, 0, column)
            grid.setColumnStretch(column, 1)
            self.captions.append(caption)
        bar = QHBoxLayout()
        bar.addWidget(self.message, 1)
        bar.addWidget(
            export_button(self, lambda: self.charts, lambda: self.stem, "the validation charts")
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.charts, 1)
        layout.addLayout(grid)

    def show_record(self, record: dict, stem: str = "taveer-validation") -> bool:
        """Draw the record's charts; False (and a message) if it holds no usable trials."""
        self.stem = stem
        for plot in (self.tippett_plot, self.ece_plot, self.score_plot):
            plot.clear()
        try:
            self.curves = curves_of(record)
        except TaveerError as error:
            self.curves = None
            self.message.setText(
                "No charts: this record does not keep its trials "
                f"({error.plain_message}). The stored validation record of the project does."
            )
            self.charts.setVisible(False)
            for caption in self.captions:
                caption.setVisible(False)
            return False
        trials = self.curves.trials
        self.message.setText(
            f"{trials.n_same:,} {vt.CLASS_NAMES['same']} and {trials.n_different:,} "
            f"{vt.CLASS_NAMES['different']}, each scored by a model that had not seen its authors."
        )
        self.charts.setVisible(True)
        for caption in self.captions:
            caption.setVisible(True)
        self._draw_tippett()
        self._draw_ece()
        self._draw_scores()
        return True

    def _draw_tippett(self) -> None:
        curves, plot, text = self.curves.tippett, self.tippett_plot, vt.TIPPETT
        style_plot(plot, text.title, text.x_axis, text.y_axis)
        plot.addLegend(offset=(5, 5), labelTextColor=TEXT_COLOUR)
        for shares, colour, style, name in (
            (curves.same, SAME, Qt.PenStyle.SolidLine, text.series[0]),
            (curves.different, DIFFERENT, Qt.PenStyle.DashLine, text.series[1]),
        ):
            xs, ys = curves.steps(shares)
            plot.plot(xs, ys, pen=pg.mkPen(colour, width=2.5, style=style), name=name)
        plot.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(NEUTRAL, width=1)))
        plot.setXRange(*curves.x_range, padding=0)
        plot.setYRange(0, 1, padding=0.02)

    def _draw_ece(self) -> None:
        curves, plot, text = self.curves.ece, self.ece_plot, vt.ECE_PLOT
        style_plot(plot, text.title, text.x_axis, text.y_axis)
        plot.addLegend(offset=(5, 5), labelTextColor=TEXT_COLOUR)
        x = curves.prior_log10_odds
        plot.plot(x, curves.validated, pen=pg.mkPen(DIFFERENT, width=2.5), name=text.series[0])
        plot.plot(
            x,
            curves.calibrated,
            pen=pg.mkPen(CALIBRATED, width=2, style=Qt.PenStyle.DashLine),
            name=text.series[1],
        )
        plot.plot(
            x,
            curves.neutral,
            pen=pg.mkPen(NEUTRAL, width=1.5, style=Qt.PenStyle.DotLine),
            name=text.series[2],
        )
        top = max(1.05, float(max(curves.validated.max(), curves.neutral.max())) * 1.05)
        plot.setXRange(float(x[0]), float(x[-1]), padding=0)
        plot.setYRange(0, top, padding=0.02)

    def _draw_scores(self) -> None:
        d, plot, text = self.curves.scores, self.score_plot, vt.SCORE_PLOT
        style_plot(plot, text.title, text.x_axis, text.y_axis)
        plot.addLegend(offset=(5, 5), labelTextColor=TEXT_COLOUR)
        width = float(d.edges[1] - d.edges[0])
        left = d.edges[:-1]
        plot.addItem(
            pg.BarGraphItem(
                x0=left,
                width=width / 2,
                height=d.same_shares,
                brush=pg.mkBrush(SAME),
                pen=pg.mkPen("#00664a"),
                name=text.series[0],
            )
        )
        plot.addItem(
            pg.BarGraphItem(
                x0=left + width / 2,
                width=width / 2,
                height=d.different_shares,
                brush=pg.mkBrush(HATCH, style=Qt.BrushStyle.BDiagPattern),
                pen=pg.mkPen(DIFFERENT),
                name=text.series[1],
            )
        )
        # the densities as shares per bin, so they sit on the bars' scale
        plot.plot(d.grid, d.same_density * width, pen=pg.mkPen(SAME, width=2))
        plot.plot(
            d.grid,
            d.different_density * width,
            pen=pg.mkPen(DIFFERENT, width=2, style=Qt.PenStyle.DashLine),
        )
        plot.addItem(
            pg.InfiniteLine(
                pos=0.5, angle=90, pen=pg.mkPen("k", width=1.2, style=Qt.PenStyle.DashLine)
            )
        )
        top = float(max(d.same_shares.max(), d.different_shares.max(), 0.05))
        plot.setXRange(0, 1, padding=0.01)
        plot.setYRange(0, top * 1.15, padding=0)
