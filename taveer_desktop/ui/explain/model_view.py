"""The model view: how well a model's categories and scores separate Y and N cases.

For a model and an evaluation on a corpus with truth (``core.evaluation.evaluate``):

- the paper's violin figure as split violins: for each category F1–F11 the distribution of its
  similarity over the same-author cases (left half, green, solid) and the different-author cases
  (right half, vermillion, hatched), with the dashed 0.5 decision boundary; the ensemble's
  categories are marked ●; abstaining cases are left out and counted;
- the ROC curve of the case scores with the engine's AUC (both from ``core.evaluation``);
- for calibrated models, the Tippett plot and the calibration (reliability) plot of the log10 LRs
  (``core.calibration.tippett_curves`` and ``reliability_bins``).

Entry point: ``ModelView(parent).show_evaluation(model, evaluation, corpus_name)``.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from taveer_desktop.core.calibration.calibration import reliability_bins, tippett_curves
from taveer_desktop.core.calibration.similarity_density import density
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.validation.evaluation import Evaluation, curve_area, roc_curve
from taveer_desktop.presentation import numbers
from taveer_desktop.ui.explain.chart_export import export_button

SAME, DIFFERENT, HATCH = "#009E73", "#D55E00", "#7a2f00"
TEXT_COLOUR = "#1a1a1a"
HALF_WIDTH = 0.44
GRID = np.linspace(0.0, 1.0, 101)


def style_plot(plot: pg.PlotItem, title: str, x_label: str, y_label: str) -> None:
    """The look every chart of the desktop shares: no mouse, a light grid, dark text."""
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setMouseEnabled(x=False, y=False)
    plot.showGrid(x=True, y=True, alpha=0.2)
    plot.setTitle(title, color=TEXT_COLOUR)
    for name, label in (("bottom", x_label), ("left", y_label)):
        axis = plot.getAxis(name)
        axis.setTextPen(pg.mkPen(TEXT_COLOUR))
        axis.setPen(pg.mkPen("#555555"))
        axis.setLabel(label, color=TEXT_COLOUR)
        # pyqtgraph 0.14 scales values in (0, 1) by 1000 once a label is shown, whatever
        # enableAutoSIPrefix says, unless no range enables the prefix; setLabel resets the
        # ranges, so this comes after it (a chart drawn twice read "450" for 0.45)
        axis.setSIPrefixEnableRanges(())
        axis.enableAutoSIPrefix(False)


def _half_violin(centre: float, values: np.ndarray, scale: float, left: bool) -> QPainterPath:
    widths = density(values, GRID) * scale
    sign = -1.0 if left else 1.0
    path = QPainterPath(QPointF(centre, GRID[0]))
    for y, w in zip(GRID, widths, strict=True):
        path.lineTo(centre + sign * w, y)
    path.lineTo(centre, GRID[-1])
    path.closeSubpath()
    return path


def _path_item(path: QPainterPath, brush: QBrush, colour: str) -> QGraphicsPathItem:
    item = QGraphicsPathItem(path)
    pen = QPen(QColor(colour), 1.2)
    pen.setCosmetic(True)
    item.setPen(pen)
    item.setBrush(brush)
    return item


class ModelView(QWidget):
    """Violins, ROC, Tippett and calibration plots of one model's evaluation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.charts = pg.GraphicsLayoutWidget(self)
        self.charts.setBackground("w")
        self.charts.setMinimumSize(900, 640)
        self.violins = self.charts.addPlot(row=0, col=0, colspan=3)
        self.roc_plot = self.charts.addPlot(row=1, col=0)
        self.tippett_plot = self.charts.addPlot(row=1, col=1)
        self.calibration_plot = self.charts.addPlot(row=1, col=2)
        self.charts.ci.layout.setRowStretchFactor(0, 3)
        self.charts.ci.layout.setRowStretchFactor(1, 2)
        self.roc: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))
        self.auc = float("nan")
        self.roc_area = float("nan")
        self.stem = "taveer-model"
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(
            export_button(self, lambda: self.charts, lambda: self.stem, "the model charts")
        )
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.charts, 1)

    def show_evaluation(self, model: Model, evaluation: Evaluation, corpus_name: str = "") -> None:
        truth = np.asarray(evaluation.truth, dtype=bool)
        m = evaluation.metrics
        self.stem = f"taveer-model-{corpus_name or 'evaluation'}".replace("/", "-")
        parts = [
            f"<b>{model.name}</b> on <b>{corpus_name or 'the evaluation corpus'}</b>: "
            f"{numbers.count(m.n, 'case')} ({numbers.integer(truth.sum())} same author, "
            f"{numbers.integer((~truth).sum())} different authors), accuracy "
            f"{numbers.decimal(m.accuracy)}, AUC {numbers.decimal(m.auc)}, "
            f"c@1 {numbers.decimal(m.c_at_1)}"
        ]
        if m.cllr is not None:
            parts.append(f"Cllr {numbers.decimal(m.cllr)} (Cllr_min {numbers.decimal(m.cllr_min)})")
        self.summary.setText(", ".join(parts) + ".")
        self._draw_violins(model, evaluation.category_similarities, truth)
        self._draw_roc(evaluation.scores, truth, m.auc)
        self._draw_weight_of_evidence(evaluation.log10_lr, truth)

    def _draw_violins(self, model: Model, similarities: np.ndarray, truth: np.ndarray) -> None:
        plot = self.violins
        plot.clear()
        n_y, n_n = int(truth.sum()), int((~truth).sum())
        style_plot(
            plot,
            f"Similarity per category: <span style='color:{SAME}'>■ "
            f"{numbers.count(n_y, 'same-author case')}, left halves</span> · "
            f"<span style='color:{DIFFERENT}'>▨ {numbers.count(n_n, 'different-author case')}, "
            "right halves, hatched</span> · ● = in the ensemble",
            "category (short lines: medians; dashed line: the 0.5 decision boundary)",
            "similarity",
        )
        halves = []
        for j in range(len(CATEGORY_IDS)):
            column = similarities[:, j]
            y_vals, n_vals = column[truth], column[~truth]
            halves.append((y_vals[np.isfinite(y_vals)], n_vals[np.isfinite(n_vals)]))
        same_brush = QBrush(QColor(SAME))
        different_brush = QBrush(QColor(DIFFERENT))
        hatch_brush = QBrush(QColor(HATCH), Qt.BrushStyle.BDiagPattern)
        for j, (y_vals, n_vals) in enumerate(halves):
            # each category's violin is scaled to the same width (Y and N halves together)
            peak = max([float(density(v, GRID).max()) for v in (y_vals, n_vals) if len(v)] + [1e-9])
            scale = HALF_WIDTH / peak
            if len(y_vals):
                plot.addItem(
                    _path_item(_half_violin(j, y_vals, scale, True), same_brush, "#00664a")
                )
                plot.plot([j - 0.3, j], [np.median(y_vals)] * 2, pen=pg.mkPen("#003d2c", width=2))
            if len(n_vals):
                path = _half_violin(j, n_vals, scale, False)
                plot.addItem(_path_item(path, different_brush, "#a34700"))
                plot.addItem(_path_item(path, hatch_brush, "#a34700"))
                plot.plot([j, j + 0.3], [np.median(n_vals)] * 2, pen=pg.mkPen("k", width=2))
        ticks = []
        for j, category in enumerate(CATEGORY_IDS):
            abstained = int(np.isnan(similarities[:, j]).sum())
            mark = "● " if category in model.ensemble else ""
            ticks.append((j, f"{mark}{category}" + (f" ({abstained} abst.)" if abstained else "")))
        plot.getAxis("bottom").setTicks([ticks])
        plot.addItem(
            pg.InfiniteLine(
                pos=0.5,
                angle=0,
                pen=pg.mkPen("k", width=1.5, style=Qt.PenStyle.DashLine),
            )
        )
        plot.setXRange(-0.6, len(CATEGORY_IDS) - 0.4, padding=0)
        plot.setYRange(0, 1, padding=0.02)

    def _draw_roc(self, scores: np.ndarray, truth: np.ndarray, auc: float) -> None:
        plot = self.roc_plot
        plot.clear()
        fpr, tpr = roc_curve(scores, truth)
        self.roc, self.auc, self.roc_area = (fpr, tpr), float(auc), curve_area(fpr, tpr)
        style_plot(
            plot,
            f"ROC of the case scores (AUC = {numbers.decimal(auc)})",
            "false-positive rate",
            "true-positive rate",
        )
        plot.plot([0, 1], [0, 1], pen=pg.mkPen("#999999", style=Qt.PenStyle.DashLine))
        plot.plot(fpr, tpr, pen=pg.mkPen("#0072B2", width=2.5))
        plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)

    def _draw_weight_of_evidence(self, log10_lr: np.ndarray | None, truth: np.ndarray) -> None:
        tippett, calibration = self.tippett_plot, self.calibration_plot
        tippett.clear()
        calibration.clear()
        if log10_lr is None:
            for plot, title in ((tippett, "Tippett plot"), (calibration, "Calibration plot")):
                style_plot(plot, title, "", "")
                text = pg.TextItem("the model is not calibrated:\nno likelihood ratios", color="k")
                text.setPos(0.1, 0.6)
                plot.addItem(text)
                plot.setRange(xRange=(0, 1), yRange=(0, 1))
            return
        x, share_y, share_n = tippett_curves(log10_lr, truth)
        style_plot(tippett, "Tippett plot", "log10 LR", "share of cases with log10 LR > x")
        tippett.addLegend(offset=(5, -5), labelTextColor=TEXT_COLOUR)
        tippett.plot(
            x,
            share_y,
            stepMode=None,
            pen=pg.mkPen(SAME, width=2.5),
            name="same-author cases (solid)",
        )
        tippett.plot(
            x,
            share_n,
            pen=pg.mkPen(DIFFERENT, width=2.5, style=Qt.PenStyle.DashLine),
            name="different-author cases (dashed)",
        )
        tippett.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen("#555555", width=1)))
        tippett.setYRange(0, 1, padding=0.02)
        bins, ece = reliability_bins(log10_lr, truth)
        style_plot(
            calibration,
            f"Calibration at equal priors (ECE = {numbers.decimal(ece)})",
            "predicted P(same author)",
            "observed share",
        )
        calibration.plot([0, 1], [0, 1], pen=pg.mkPen("#999999", style=Qt.PenStyle.DashLine))
        predicted = [b.predicted for b in bins]
        observed = [b.observed for b in bins]
        sizes = [6 + 10 * np.sqrt(b.count / max(len(truth), 1)) for b in bins]
        calibration.plot(
            predicted,
            observed,
            pen=pg.mkPen("#0072B2", width=1.5),
            symbol="o",
            symbolSize=sizes,
            symbolBrush="#0072B2",
        )
        calibration.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)
