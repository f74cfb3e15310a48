"""The three charts of a validation record, drawn with pyqtgraph: the Tippett plot, the
empirical cross-entropy plot and the score distributions of the cross-validated trials; and,
for a LambdaG or fused record, the Tippett curves of every method on the same trials
(``MethodTippettChart``).

The three charts draw the stated method's likelihood ratios (each trial's ``log10_lr``); for
TAVeer the score is its ensemble score, for LambdaG and the fusion the stated ratio's
LR / (1 + LR) (``presentation/method_validation_text.score_plot_text``).

The data come from ``core/validation/validation_curves.py`` and every title, axis, series name and
caption from ``presentation/validation_plot_text.py`` (the validation report draws the same three
from the same data). Same-author trials are green and solid, different-author trials vermillion and
dashed or hatched, so the charts read without colour too.
"""

from __future__ import annotations

import dataclasses
import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.core.validation.validation_curves import ValidationCurves, curves_of, tippett
from taveer_desktop.presentation.method_agreement import compared_methods, record_method, short_name
from taveer_desktop.presentation.method_names import record_fused
from taveer_desktop.presentation.method_validation_text import (
    METHOD_TIPPETT,
    charts_method_note,
    method_series_name,
    score_plot_text,
)
from taveer_desktop.presentation.validation_plot_text import (
    CLASS_NAMES,
    ECE_PLOT,
    SCORE_PLOT,
    TIPPETT,
    PlotText,
)
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.explain.model_view import DIFFERENT, SAME, TEXT_COLOUR, style_plot
from taveer_desktop.ui.method_palette import method_colour

NEUTRAL = "#555555"
CALIBRATED = "#0072B2"


def _captions(texts) -> str:
    return "".join(f"<p><b>{html.escape(t.title)}.</b> {html.escape(t.caption)}</p>" for t in texts)


class ValidationCharts(QWidget):
    """Tippett, empirical cross-entropy and score distributions of one record, with how to read
    them beneath: side by side where the width allows, one above the other otherwise, in a
    scroll area so a small screen or a large scale never squeezes a chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.curves: ValidationCurves | None = None
        self.stem = "taveer-validation"
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.content = QWidget()
        self.content.setObjectName("validation_charts")
        self.grid = QGridLayout(self.content)
        lines, char = self.fontMetrics().lineSpacing(), self.fontMetrics().averageCharWidth()
        self.plots: list[pg.PlotWidget] = []
        texts = (TIPPETT, ECE_PLOT, SCORE_PLOT)
        for text in texts:
            chart = pg.PlotWidget()
            chart.setBackground("w")
            chart.setMinimumSize(char * 40, lines * 15)
            chart.setToolTip(text.caption)
            self.plots.append(chart)
        self.tippett_plot, self.ece_plot, self.score_plot = (c.getPlotItem() for c in self.plots)
        self.columns = 0
        self.wide_enough = char * 126  # three charts side by side (40 characters each)
        self._arrange(3)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self.content)
        # how to read them: beneath the charts, in a box of its own that scrolls if it must
        self.captions = QTextBrowser()
        self.captions.setHtml(_captions(texts))
        self.lines = lines
        self.captions.setToolTip("How to read the three charts")
        bar = QHBoxLayout()
        bar.addWidget(self.message, 1)
        bar.addWidget(
            export_button(self, lambda: self.content, lambda: self.stem, "the validation charts")
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.scroll_area, 1)
        layout.addWidget(self.captions)

    def _arrange(self, columns: int) -> None:
        """Three charts in ``columns`` columns (3: one row; 2: two and one; 1: a column)."""
        if columns == self.columns:
            return
        self.columns = columns
        for chart in self.plots:
            self.grid.removeWidget(chart)
        for i, chart in enumerate(self.plots):
            self.grid.addWidget(chart, i // columns, i % columns)
        for column in range(3):
            self.grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event) -> None:
        # how to read the charts takes a fifth of the height, between 2.5 and 5 lines
        height = event.size().height() // 5
        self.captions.setFixedHeight(max(self.lines * 5 // 2, min(height, self.lines * 5)))
        width = event.size().width()
        self._arrange(
            3 if width >= self.wide_enough else 2 if width >= self.wide_enough * 2 // 3 else 1
        )
        super().resizeEvent(event)

    def show_record(self, record: ValidationRecord, stem: str = "taveer-validation") -> bool:
        """Draw the record's charts; False (and a message) if it holds no usable trials."""
        self.stem = stem
        for plot in (self.tippett_plot, self.ece_plot, self.score_plot):
            plot.clear()
        try:
            curves = curves_of(record.raw)  # the engine's reading of the trials
        except TaveerError as error:
            self.curves = None
            self.message.setText(
                "No charts: this record does not keep its trials "
                f"({error.plain_message}). The stored validation record of the project does."
            )
            self.scroll_area.setVisible(False)
            self.captions.setVisible(False)
            return False
        self.curves = curves
        trials = curves.trials
        score_text = score_plot_text(record)
        self.message.setText(
            f"{trials.n_same:,} {CLASS_NAMES['same']} and {trials.n_different:,} "
            f"{CLASS_NAMES['different']}, each scored by a model that had not seen its authors."
            + (f" {note}" if (note := charts_method_note(record)) else "")
        )
        self.captions.setHtml(_captions((TIPPETT, ECE_PLOT, score_text)))
        self.plots[2].setToolTip(score_text.caption)
        self.scroll_area.setVisible(True)
        self.captions.setVisible(True)
        self._draw_tippett(curves)
        self._draw_ece(curves)
        self._draw_scores(curves, score_text)
        return True

    def _draw_tippett(self, drawn: ValidationCurves) -> None:
        curves, plot, text = drawn.tippett, self.tippett_plot, TIPPETT
        style_plot(plot, text.title, text.x_axis, text.y_axis)
        plot.addLegend(offset=(5, -5), labelTextColor=TEXT_COLOUR)  # bottom left: empty there
        for shares, colour, style, name in (
            (curves.same, SAME, Qt.PenStyle.SolidLine, text.series[0]),
            (curves.different, DIFFERENT, Qt.PenStyle.DashLine, text.series[1]),
        ):
            xs, ys = curves.steps(shares)
            plot.plot(xs, ys, pen=pg.mkPen(colour, width=2.5, style=style), name=name)
        plot.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(NEUTRAL, width=1)))
        plot.setXRange(*curves.x_range, padding=0)
        plot.setYRange(0, 1, padding=0.02)

    def _draw_ece(self, drawn: ValidationCurves) -> None:
        curves, plot, text = drawn.ece, self.ece_plot, ECE_PLOT
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

    def _draw_scores(self, drawn: ValidationCurves, text: PlotText) -> None:
        d, plot = drawn.scores, self.score_plot
        # the axis keeps its first words; what the parenthesis says labels the dashed line, so
        # the label fits a third of a narrow window
        axis, _, note = text.x_axis.partition(" (")
        style_plot(plot, text.title, axis, text.y_axis)
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
                brush=QBrush(QColor(DIFFERENT), Qt.BrushStyle.BDiagPattern),
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
        line = pg.InfiniteLine(
            pos=0.5,
            angle=90,
            pen=pg.mkPen("k", width=1.2, style=Qt.PenStyle.DashLine),
            label=note.rstrip(")").replace(" = ", " =\n") or None,
            labelOpts={"position": 0.62, "color": TEXT_COLOUR, "anchors": [(1, 0.5), (1, 0.5)]},
        )
        if line.label is not None:  # left of the line, below the legend, in a smaller type
            font = self.font()
            font.setPointSizeF(font.pointSizeF() * 0.85)
            line.label.setFont(font)
        plot.addItem(line)
        top = float(max(d.same_shares.max(), d.different_shares.max(), 0.05))
        plot.setXRange(0, 1, padding=0.01)
        plot.setYRange(0, top * 1.6, padding=0)  # room above the bars for the legend


def method_trials(record: ValidationRecord) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """Each method's cross-validated log10 LRs and the trials' truth (same author or not), from
    the trials' ``log10_lr_by_method``: the trials the method scored (a method that could not
    compare a trial gives it no ratio). None when the record keeps one method or no trials."""
    methods = compared_methods(record)
    if not methods or not record.trials:
        return None
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for method in methods:
        values, same = [], []
        for trial in record.trials:
            value = trial.log10_lr_by_method.get(method)
            if value is not None and math.isfinite(value):
                values.append(float(value))
                same.append(bool(trial.same))
        if any(same) and not all(same):  # a Tippett curve of each kind of trial
            found[method] = (np.array(values), np.array(same))
    return found if len(found) > 1 else None


class MethodTippettChart(pg.PlotWidget):
    """The Tippett curves of every method of a record on the same trials: colour by method,
    solid for same-author and dashed for different-author trials."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setBackground("w")
        lines, char = self.fontMetrics().lineSpacing(), self.fontMetrics().averageCharWidth()
        self.setMinimumSize(char * 48, lines * 18)
        self.setToolTip(METHOD_TIPPETT.caption)
        self.drawn: dict[str, np.ndarray] = {}
        self.fused: list[str] | None = None  # the methods a fused record's fusion combines

    def show_record(self, record: ValidationRecord) -> bool:
        """Draw the record's methods (False, nothing drawn, when it keeps one method)."""
        plot = self.getPlotItem()
        plot.clear()
        self.drawn = {}
        self.fused = record_fused(record)
        by_method = method_trials(record)
        if by_method is None:
            return False
        text, stated = METHOD_TIPPETT, record_method(record)
        style_plot(plot, text.title, text.x_axis, text.y_axis)
        plot.addLegend(offset=(5, -5), labelTextColor=TEXT_COLOUR)
        each = {method: tippett(lrs, same) for method, (lrs, same) in by_method.items()}
        low = min(c.x_range[0] for c in each.values())  # one axis: every curve spans it
        high = max(c.x_range[1] for c in each.values())
        for method, (log10_lr, _same) in by_method.items():
            curves = dataclasses.replace(each[method], x_range=(low, high))
            width = 3.0 if method == stated else 1.8
            for shares, style, name in (  # one legend entry per method: its solid curve
                (curves.same, Qt.PenStyle.SolidLine, method_series_name(record, method, stated)),
                (curves.different, Qt.PenStyle.DashLine, None),
            ):
                xs, ys = curves.steps(shares)
                colour = method_colour(method)
                pen = pg.mkPen(colour, width=width, style=style)
                plot.plot(xs, ys, pen=pen, name=name)
            self.drawn[method] = log10_lr
        plot.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(NEUTRAL, width=1)))
        plot.setXRange(low, high, padding=0)
        plot.setYRange(0, 1, padding=0.02)
        return True

    def method_names(self) -> list[str]:
        return [short_name(m, self.fused) for m in self.drawn]
