"""The decision of one result in plain words, with its weight of evidence and traceability.

Shows: the answer (same author / different authors / insufficient evidence / inconclusive) and
what it rests on; the ensemble score on a 0–1 scale marked at 0.5; the likelihood ratio with its
verbal equivalent on the chosen published scale (or why there is none); the decision's
stability, computed on demand by a ``StabilityJob`` on a ``QThreadPool``, never on the GUI
thread; the reliability warnings; the model's name and SHA-256 and the documents' SHA-256.
Each weight-of-evidence figure carries one sentence on what it means and what it does not.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.model import Model
from taveer_desktop.core.stability import DEFAULT_RESAMPLES
from taveer_desktop.core.verbal_scales import DEFAULT_SCALE, SCALES, describe
from taveer_desktop.ui.explain.explanation_data import decision_basis, decision_words
from taveer_desktop.ui.explain.score_scale import ScoreScale
from taveer_desktop.ui.explain.stability_worker import StabilityJob

ANSWER_WORDS = {"Y": "same author", "N": "different authors"}
LR_MEANING = (
    "The likelihood ratio says how much more probable this similarity is if the same person "
    "wrote both texts than if different people did. It is not the probability that the same "
    "person wrote them: that also depends on the other evidence in the case."
)
STABILITY_MEANING = (
    "Stability: in each resample a random 10 % of the sentences of each side is left out and "
    "the case verified again. It shows whether the decision hinges on a handful of sentences; "
    "it is not the probability that the decision is right."
)


def _label(text: str = "", rich: bool = True, selectable: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if not rich:
        label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def _digest(value: str) -> str:
    """A hash in a fixed-width font, in groups of eight digits so that it can wrap."""
    groups = " ".join(value[i : i + 8] for i in range(0, len(value), 8))
    return f"<span style='font-family:monospace'>{html.escape(groups)}</span>"


def lr_text(log10_lr: float) -> str:
    lr = 10.0**log10_lr
    if lr >= 1:
        shown = f"{lr:,.3g}" if lr < 1e6 else f"10^{log10_lr:.1f}"
    else:
        shown = f"1/{1 / lr:,.3g}" if lr > 1e-6 else f"10^{log10_lr:.1f}"
    return f"LR = {shown}  (log10 LR = {log10_lr:+.2f})"


def scale_table_html(scale_id: str) -> str:
    scale = SCALES[scale_id]
    rows = "".join(
        f"<tr><td>{html.escape(r)}</td><td>{html.escape(w)}</td></tr>"
        for r, w in scale.table_rows()
    )
    return (
        f"<b>{html.escape(scale.name)}</b><br>{html.escape(scale.citation)}"
        f"<table>{rows}</table>LRs below 1 are described by 1/LR for “different authors”."
    )


class DecisionSummary(QWidget):
    """Decision, score, LR, stability and hashes of one result."""

    stability_finished = Signal(object)

    def __init__(self, parent: QWidget | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.pool = pool or QThreadPool(self)
        if pool is None:
            self.pool.setMaxThreadCount(1)
        self.headline = _label()
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        self.headline.setFont(font)
        self.sentence = _label()
        self.scale = ScoreScale(self)
        self.basis = _label()
        self.lr_label = _label()
        self.verbal_label = _label()
        self.stability_button = QPushButton(f"Compute stability ({DEFAULT_RESAMPLES} resamples)")
        self.stability_button.clicked.connect(self.start_stability)
        self.stability_label = _label()
        self.warnings_label = _label()
        self.model_label = _label(selectable=True)
        self.documents_label = _label(selectable=True)
        weight = QGroupBox("Weight of evidence")
        weight_layout = QVBoxLayout(weight)
        weight_layout.addWidget(self.lr_label)
        weight_layout.addWidget(self.verbal_label)
        weight_layout.addWidget(_label(f"<small>{LR_MEANING}</small>"))
        weight_layout.addWidget(self.stability_button, 0, Qt.AlignmentFlag.AlignLeft)
        weight_layout.addWidget(self.stability_label)
        weight_layout.addWidget(_label(f"<small>{STABILITY_MEANING}</small>"))
        trace = QGroupBox("Traceability")
        trace_layout = QFormLayout(trace)
        trace_layout.addRow("Model", self.model_label)
        trace_layout.addRow("Documents", self.documents_label)
        layout = QVBoxLayout(self)
        for widget in (self.headline, self.sentence, self.scale, self.basis, weight):
            layout.addWidget(widget)
        layout.addWidget(self.warnings_label)
        layout.addWidget(trace)
        layout.addStretch(1)
        self.result: Mapping = {}
        self.stability: dict | None = None
        self._case: tuple | None = None
        self._job: StabilityJob | None = None

    def show_result(
        self,
        result: Mapping,
        model: Model | None,
        known_texts: Sequence[str],
        unknown_text: str,
        document_hashes: Sequence[tuple[str, str]],
        scale_id: str = DEFAULT_SCALE,
    ) -> None:
        self.cancel_stability()
        self.result, self.stability = result, None
        self._case = (model, list(known_texts), unknown_text)
        headline, sentence = decision_words(result["prediction"])
        self.headline.setText(headline)
        self.sentence.setText(sentence)
        score = None if result["prediction"] == "insufficient" else float(result["similarity"])
        band = result.get("inconclusive_band")
        self.scale.set_values(score, tuple(band) if band else None)
        self.basis.setText(html.escape(decision_basis(result)))
        self._show_lr(result, scale_id)
        can_resample = model is not None and result["prediction"] != "insufficient"
        self.stability_button.setEnabled(can_resample)
        self.stability_label.setText(
            "Not computed yet." if can_resample else "Not available for this result."
        )
        warnings = result.get("warnings") or []
        self.warnings_label.setText(
            "<b>Warnings</b><ul>"
            + "".join(f"<li>{html.escape(w)}</li>" for w in warnings)
            + "</ul>"
            if warnings
            else "<b>Warnings:</b> none."
        )
        self.warnings_label.setVisible(True)
        model_info = result.get("model", {})
        self.model_label.setText(
            f"{html.escape(model_info.get('name', '?'))}<br>"
            f"SHA-256 {_digest(model_info.get('sha256', '?'))}"
            f"<br>lexicon SHA-256 {_digest(result.get('lexicon_sha256', '?'))}"
        )
        self.documents_label.setText(
            "<br>".join(
                f"{html.escape(label)}<br>{_digest(digest)}" for label, digest in document_hashes
            )
        )

    def _show_lr(self, result: Mapping, scale_id: str) -> None:
        log10_lr = result.get("log10_lr")
        if log10_lr is None or not math.isfinite(log10_lr):
            reason = (
                "the model is not calibrated (trained before model format 2)"
                if not result.get("calibrated")
                else "there is no score to calibrate"
            )
            self.lr_label.setText(f"<b>No likelihood ratio:</b> {reason}.")
            self.verbal_label.setText("")
            self.verbal_label.setToolTip("")
            return
        statement = describe(log10_lr, scale_id)
        self.lr_label.setText(f"<b>{lr_text(log10_lr)}</b>")
        self.verbal_label.setText(html.escape(statement.sentence))
        self.verbal_label.setToolTip(scale_table_html(scale_id))

    # --- stability ------------------------------------------------------------------------

    def start_stability(self) -> None:
        if self._case is None or self._case[0] is None or self._job is not None:
            return
        model, known, unknown = self._case
        job = StabilityJob(model, known, unknown, self.result["prediction"])
        job.signals.finished.connect(self._stability_done)
        job.signals.failed.connect(self._stability_failed)
        job.signals.cancelled.connect(self._stability_cancelled)
        self._job = job
        self._signals = job.signals  # kept alive on the GUI side until the view goes
        self.stability_button.setEnabled(False)
        self.stability_label.setText(f"Resampling the sentences {job.resamples} times…")
        self.pool.start(job)

    def cancel_stability(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self.stability_button.setEnabled(True)

    def wait(self) -> None:
        """Cancel a running job and wait for the pool (call before the window closes)."""
        self.cancel_stability()
        self.pool.waitForDone()

    def _stability_done(self, stability: dict) -> None:
        if self._job is None or self.sender() is not self._job.signals:
            return  # a cancelled or superseded job
        self._job = None
        self.stability = stability
        self.stability_button.setEnabled(True)
        low, high = stability["similarity_interval"]
        answer = ANSWER_WORDS.get(self.result["prediction"], self.result["prediction"])
        tally = ", ".join(f"{ANSWER_WORDS.get(k, k)} {v}" for k, v in stability["answers"].items())
        self.stability_label.setText(
            f"<b>{stability['agreement']:.0%}</b> of {stability['resamples']} resamples give "
            f"the same answer ({answer}); answers: {tally}. 95 % of the resampled scores lie "
            f"between {low:.3f} and {high:.3f}."
        )
        score = None if self.result["prediction"] == "insufficient" else self.result["similarity"]
        band = self.result.get("inconclusive_band")
        self.scale.set_values(score, tuple(band) if band else None, (low, high))
        self.stability_finished.emit(stability)

    def _stability_failed(self, message: str) -> None:
        self._job = None
        self.stability_button.setEnabled(True)
        self.stability_label.setText(f"Stability could not be computed: {html.escape(message)}")

    def _stability_cancelled(self) -> None:
        self.stability_label.setText("Cancelled.")
