"""The conclusion of one result, likelihood ratio first, with the details that support it.

``DecisionSummary`` is the full-width head of the Decision tab, read first and never below the
fold; its ``conclusion`` part (the kind and the statement) is placed by its owner above the
result's tabs, so it stays in view on every tab and on a small screen: the kind of conclusion
(evaluative / for investigation only / no conclusion) with why, the evaluative statement (the
likelihood ratio as a number, then its verbal qualifier) or the reason there is none — for a
LambdaG or fused model the stated (LambdaG's or the fused) ratio, with each method's own ratio
and whether the two methods agree right under it
(``presentation/method_agreement``) — an investigative likelihood ratio clearly marked as
such, every reason that limits the conclusion (first below it, numbered), the two
propositions with Hd's population, the method's classification as a secondary figure, and the
stability — the stated ratio's and the classification's (the figure stored with the run, or
computed on demand; ``stability_part.py``).
Its ``details`` widget (placed beside the chart by the result view) holds the score on its 0–1
scale, what the score rests on, the weight of evidence with what it does not mean, warnings and
the hashes. Every sentence about an outcome comes from ``presentation/conclusion_text`` through
``explanation_data.decision_texts``.

Stability is computed off the GUI thread, always as a ``Job`` on a ``JobRunner`` (the one shape
of background work): by the caller's handler when one is set (the desktop stores the result
with the run through the window's runner) or else on the runner this view was given (the
standalone viewer's); its methods are ``StabilityPart``'s.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES, describe
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.stability import DEFAULT_RESAMPLES
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.presentation import glossary, numbers
from taveer_desktop.presentation.conclusion_text import lr_bound
from taveer_desktop.presentation.explanation_data import (
    NO_CLASSIFICATION,
    DecisionTexts,
    StabilityFigures,
    decision_basis,
    decision_texts,
)
from taveer_desktop.presentation.face_registry import fuses, gives_text_evidence
from taveer_desktop.presentation.fusion_text import (
    fusion_sentence,
)
from taveer_desktop.presentation.method_agreement import (
    LAMBDAG_METHOD,
    model_fusion_weights,
    result_method_lines,
)
from taveer_desktop.presentation.ratio_stability_text import stability_owner
from taveer_desktop.presentation.refusal_text import conclusion_reasons
from taveer_desktop.ui.explain.score_scale import ScoreScale
from taveer_desktop.ui.explain.stability_part import STABILITY_MEANING, StabilityPart
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import TaskWorker

LR_MEANING = (
    "The likelihood ratio compares how probable these findings are if Hp is true with how "
    "probable they are if Hd is true. It is not the probability that either proposition is "
    "true: that also depends on the other evidence in the case."
)
# background, border and text colour of the kind of conclusion; its label carries the meaning
KIND_STYLES = {
    ConclusionKind.EVALUATIVE: ("#E3F2E8", "#1E7B34", "#0B3D18"),
    ConclusionKind.INVESTIGATIVE: ("#FFF1D6", "#A86400", "#4A2C00"),
    ConclusionKind.NONE: ("#ECECEC", "#5A5A5A", "#1A1A1A"),
}


def reasons_html(reasons: Sequence[str]) -> str:
    """Every reason that limits the conclusion, numbered, the first the statement's own."""
    count = numbers.count(len(reasons), "reason")
    return (
        f"<b>Why the conclusion is limited</b> ({count}):"
        "<ol style='margin-top:0px; margin-bottom:0px'>"
        + "".join(f"<li>{html.escape(r)}</li>" for r in reasons)
        + "</ol>"
    )


def _label(text: str = "", rich: bool = True, selectable: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    return label


def _digest(value: str) -> str:
    """A hash in a fixed-width font, in groups of eight digits so that it can wrap."""
    return f"<span style='font-family:monospace'>{html.escape(numbers.digest(value))}</span>"


def scale_table_html(scale_id: str) -> str:
    scale = SCALES[scale_id]
    rows = "".join(
        f"<tr><td>{html.escape(r)}</td><td>{html.escape(w)}</td></tr>"
        for r, w in scale.table_rows()
    )
    return (
        f"<b>{html.escape(scale.name)}</b><br>{html.escape(scale.citation)}"
        f"<table>{rows}</table>Likelihood ratios below 1 are described by 1/LR, for Hd."
    )


class DecisionSummary(StabilityPart, QWidget):
    """The conclusion of one result (this widget) and its supporting ``details``."""

    stability_finished = Signal(object)  # Stability.to_dict() of a computed assessment

    def __init__(self, parent: QWidget | None = None, runner: JobRunner | None = None) -> None:
        super().__init__(parent)
        self._own_runner = runner is None
        self.runner = runner or JobRunner(self)
        self.kind_label = _label(selectable=True)
        self.kind_label.setObjectName("conclusion_kind")
        self.headline = _label(rich=False, selectable=True)
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.headline.setFont(font)
        self.methods_label = _label(selectable=True)  # each method's ratio (LambdaG, fusion)
        self.methods_label.setObjectName("method_lines")
        self.methods_label.setVisible(False)
        self.investigative_label = _label(selectable=True)
        self.propositions_label = _label(selectable=True)
        self.classification_label = _label(rich=False, selectable=True)
        self.stability_label = _label(selectable=True)
        self.stability_button = QPushButton(f"Compute stability ({DEFAULT_RESAMPLES} resamples)")
        self.stability_button.clicked.connect(self.start_stability)
        stability_row = QHBoxLayout()
        stability_row.setContentsMargins(0, 0, 0, 0)
        stability_row.addWidget(self.stability_label, 1)
        stability_row.addWidget(self.stability_button, 0, Qt.AlignmentFlag.AlignTop)
        # the conclusion itself — its kind and the statement with the likelihood ratio (an
        # investigative one marked so) — is a
        # widget of its own, ``conclusion``, that the result view keeps above its tabs (and the
        # desktop above the scrolled result), so it is on screen whatever else is
        self.conclusion = QWidget(self)
        head = QVBoxLayout(self.conclusion)
        head.setContentsMargins(0, 0, 0, 0)
        head.setSpacing(2)
        head.addWidget(self.kind_label)
        head.addWidget(self.headline)
        head.addWidget(self.investigative_label)  # an investigative ratio belongs to it
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        # then every reason that limits the conclusion (the statement names the first: the
        # rest come first below it, never in a second scrolled pane), each method's ratio, the
        # classification and its stability; the propositions after them (the kind's
        # explanation is in the tooltip and details)
        self.reasons_label = _label(selectable=True)
        self.repeats_label = _label(selectable=True)  # does the direction depend on the seed?
        for widget in (
            self.reasons_label,
            self.repeats_label,
            self.methods_label,
            self.classification_label,
        ):
            layout.addWidget(widget)
        layout.addLayout(stability_row)
        layout.addWidget(self.propositions_label)

        self.details = QWidget(self)
        self.scale = ScoreScale(self.details)
        self.scale.setToolTip(glossary.tooltip("score", "θ"))
        self.basis = _label(rich=False)
        self.lr_label = _label(selectable=True)
        self.kind_explanation = _label(selectable=True)
        self.verbal_label = _label(selectable=True)
        self.stability_meaning = _label(f"<small>{STABILITY_MEANING}</small>")
        self.warnings_label = _label()
        self.model_label = _label(selectable=True)
        self.documents_label = _label(selectable=True)
        weight = QGroupBox("Weight of evidence")
        weight_layout = QVBoxLayout(weight)
        weight_layout.addWidget(self.kind_explanation)
        weight_layout.addWidget(self.lr_label)
        weight_layout.addWidget(self.verbal_label)
        weight_layout.addWidget(_label(f"<small>{LR_MEANING}</small>"))
        weight_layout.addWidget(self.stability_meaning)
        trace = QGroupBox("Traceability")
        trace_layout = QFormLayout(trace)
        trace_layout.addRow("Model", self.model_label)
        trace_layout.addRow("Documents", self.documents_label)
        details_layout = QVBoxLayout(self.details)
        details_layout.addWidget(_label("<b>The method's score</b>"))
        details: tuple[QWidget, ...] = (
            self.scale,
            self.basis,
            weight,
            self.warnings_label,
            trace,
        )
        for part in details:
            details_layout.addWidget(part)
        details_layout.addStretch(1)

        self.verification: VerificationResult | None = None
        self.stability: StabilityFigures | None = None
        # set by a caller that computes (and stores) stability itself; returns False if it
        # cannot start now
        self.stability_handler: Callable[[], bool] | None = None
        self._case: tuple[Model | None, list[str], str] | None = None  # model, known, unknown
        self._job: TaskWorker | None = None

    # --- showing a result -----------------------------------------------------------------

    def show_result(
        self,
        verification: VerificationResult,
        model: Model | None,
        known_texts: Sequence[str],
        unknown_text: str,
        document_hashes: Sequence[tuple[str, str]],
        scale_id: str = DEFAULT_SCALE,
        stability: StabilityFigures | None = None,
    ) -> None:
        """Show ``verification`` (a stored result as ``read_result`` typed it); ``stability``
        is the figure stored with the run."""
        self.cancel_stability()
        self.verification, self.stability = verification, None
        self._case = (model, list(known_texts), unknown_text)
        population = model.conditions.population if model and model.conditions else None
        texts = decision_texts(verification, scale_id, population, lr_bound(verification, model))
        background, border, ink = KIND_STYLES[texts.kind]
        self.kind_label.setStyleSheet(
            f"QLabel#conclusion_kind {{ background: {background}; color: {ink}; "
            f"border: 1px solid {border}; border-left: 6px solid {border}; padding: 2px 8px; }}"
        )
        self.kind_label.setText(f"<b>{html.escape(texts.kind_label)}</b>")
        self.kind_label.setToolTip(texts.kind_explanation)
        self.kind_explanation.setText(
            f"<b>{html.escape(texts.kind_label)}:</b> {html.escape(texts.kind_explanation)}"
        )
        self.headline.setText(texts.headline)
        self.headline.setToolTip(
            "\n".join(f"• {reason}" for reason in conclusion_reasons(verification.conclusion))
        )
        self._show_methods(verification, model)
        self.investigative_label.setVisible(texts.investigative is not None)
        # in the text's own weight and without repeating the banner's "For investigation
        # only" (bold and repeated, it took a third line at 150 %)
        investigative = (texts.investigative or "").removeprefix("For investigation only: ")
        self.investigative_label.setText(html.escape(investigative[:1].upper() + investigative[1:]))
        self.propositions_label.setText(
            f"<b>Hp:</b> {html.escape(texts.hp)}.<br><b>Hd:</b> {html.escape(texts.hd)}."
        )
        no_conclusion = texts.kind is ConclusionKind.NONE
        self.classification_label.setText(
            NO_CLASSIFICATION if no_conclusion else texts.classification
        )
        unanswered = no_conclusion or verification.prediction is Classification.INSUFFICIENT
        self.scale.set_values(
            None if unanswered else verification.similarity, verification.inconclusive_band
        )
        self.basis.setText(NO_CLASSIFICATION if no_conclusion else decision_basis(verification))
        self.reasons_label.setVisible(bool(verification.conclusion.reasons))
        self.reasons_label.setText(reasons_html(conclusion_reasons(verification.conclusion)))
        self.repeats_label.setVisible(texts.repeats is not None)
        self.repeats_label.setText(f"<small>{html.escape(texts.repeats or '')}</small>")
        self._show_lr(texts, verification.log10_lr, scale_id)
        self._show_warnings(verification.warnings)
        self.model_label.setText(
            f"{html.escape(verification.model_name)}<br>"
            f"SHA-256 {_digest(verification.model_sha256)}"
            f"<br>lexicon SHA-256 {_digest(verification.lexicon_sha256)}"
        )
        self.documents_label.setText(
            "<br>".join(
                f"{html.escape(label)}<br>{_digest(digest)}" for label, digest in document_hashes
            )
        )
        if stability is not None:
            self.show_stability(stability)
        else:
            can = self.can_resample()
            self.stability_button.setVisible(can)
            self.stability_button.setEnabled(can)
            owner = stability_owner(verification.methods.stated if verification.methods else None)
            self.stability_label.setText(
                f"<b>Stability of {html.escape(owner)}:</b> "
                + ("not computed yet." if can else "not assessed: there is no conclusion.")
            )
            self.stability_label.setToolTip("")
            self.stability_meaning.setText(f"<small>{STABILITY_MEANING}</small>")

    def _show_methods(self, verification: VerificationResult, model: Model | None) -> None:
        """Each method's own ratio under the stated one, and whether they agree (a LambdaG or
        fused model only; a TAVeer model's result shows nothing here)."""
        findings = verification.methods
        self.methods_label.setVisible(findings is not None)
        if findings is None:
            self.methods_label.setText("")
            self.methods_label.setToolTip("")
            return
        kind = verification.conclusion.kind
        weights = model_fusion_weights(model) if fuses(findings.stated) else None
        lines = [line.strip() for line in result_method_lines(findings, kind, weights)]
        self.methods_label.setText("<br>".join(html.escape(line) for line in lines))
        text_evidence = any(gives_text_evidence(m) for m in findings.by_method)  # LambdaG's
        tips = [LAMBDAG_METHOD] if text_evidence else []
        if weights is not None:
            tips.append(fusion_sentence(weights, findings.stated) or "")
        self.methods_label.setToolTip("\n\n".join(t for t in tips if t))

    def _show_lr(self, texts: DecisionTexts, log10_lr: float | None, scale_id: str) -> None:
        self.verbal_label.setToolTip("")
        if texts.lr_number is None or log10_lr is None:  # the number exists only with the LR
            calibrated = self.verification is None or self.verification.calibrated is not False
            if texts.kind is ConclusionKind.NONE:
                reason = "there is no conclusion for these texts"
            elif not calibrated:
                reason = "the model is not calibrated (trained before model format 2)"
            else:
                reason = "there is no score to calibrate"
            self.lr_label.setText(f"<b>No likelihood ratio:</b> {reason}.")
            self.verbal_label.setText("")
            return
        if texts.kind is ConclusionKind.EVALUATIVE:
            self.lr_label.setText(f"<b>{html.escape(texts.lr_number)}</b>")
            self.verbal_label.setText(html.escape(describe(log10_lr, scale_id).sentence))
            self.verbal_label.setToolTip(scale_table_html(scale_id))
        else:
            self.lr_label.setText(f"<b>{html.escape(texts.lr_number)}</b> — for investigation only")
            self.verbal_label.setText(
                "No verbal equivalent is given: the likelihood ratio is not validated for a "
                "case like this one."
            )

    def _show_warnings(self, warnings: Sequence[str]) -> None:
        self.warnings_label.setText(
            "<b>Warnings</b><ul>"
            + "".join(f"<li>{html.escape(w)}</li>" for w in warnings)
            + "</ul>"
            if warnings
            else "<b>Warnings:</b> none."
        )
