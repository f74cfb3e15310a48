"""The stability line of the Decision tab: showing a stored check, computing one on demand.

``StabilityPart`` is mixed into ``DecisionSummary`` (``summary_view.py``), whose widgets and job
runner it uses: ``show_stability`` writes the figures of a stored or just computed check — the
stated ratio's first for a LambdaG or fused run, then TAVeer's classification's, each named
(``presentation/ratio_stability_text``); ``start_stability`` computes one as a ``Job`` on the
view's ``JobRunner`` (the one shape of background work), or through the caller's
``stability_handler`` when one is set (the desktop stores the check with the run).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.stability import DEFAULT_RESAMPLES
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.stability.stated_stability import run_stability, stated_log10_lr
from taveer_desktop.presentation.explanation_data import StabilityFigures, stability_method
from taveer_desktop.presentation.face_registry import quotes_classification
from taveer_desktop.presentation.ratio_stability_text import stability_html
from taveer_desktop.ui.task_worker import Job, TaskWorker

STABILITY_MEANING = (
    "Stability: in each resample a random 10 % of the sentences of each side is left out and "
    "the case verified again (for a LambdaG or fused model, its stated ratio recomputed too). "
    "It shows whether the classification, or the stated ratio, hinges on a handful of "
    "sentences; it is not the probability that either is right."
)


class StabilityPart:
    """The stability methods of ``DecisionSummary`` (see the module)."""

    # set by DecisionSummary
    verification: VerificationResult | None
    stability: StabilityFigures | None
    stability_handler: Callable[[], bool] | None
    _case: tuple[Model | None, list[str], str] | None
    _job: TaskWorker | None
    _own_runner: bool
    runner: Any
    scale: Any
    stability_label: Any
    stability_button: Any
    stability_meaning: Any
    stability_finished: Any

    def can_resample(self) -> bool:
        return self._resampling() is not None

    def _resampling(self) -> tuple[Model, list[str], str, Classification] | None:
        """Model, known texts, questioned text and answer to resample, if there is a conclusion."""
        v = self.verification
        if self._case is None or v is None:
            return None
        model, known, unknown = self._case
        if (
            model is None
            or v.conclusion.kind is ConclusionKind.NONE
            or v.prediction is Classification.INSUFFICIENT
        ):
            return None
        return model, known, unknown, v.prediction

    def show_stability(self, figures: StabilityFigures) -> None:
        """Show a stored or computed stability assessment (exact figures)."""
        if self.verification is None:
            raise RuntimeError("show_result comes before show_stability")
        self.stability = figures
        findings = self.verification.methods
        text, tip = stability_html(figures, self.verification.prediction, findings)
        # a LambdaG or fused run whose check resampled TAVeer only may compute the stated
        # ratio's now
        again = bool(
            findings and not quotes_classification(findings.stated) and figures.ratio is None
        )
        self.stability_button.setVisible(again and self.can_resample())
        self.stability_button.setEnabled(again and self.can_resample())
        self.stability_label.setText(text)
        self.stability_label.setToolTip(tip)
        self.stability_meaning.setText(
            f"<small>{STABILITY_MEANING} This one: {html.escape(stability_method(figures))}</small>"
        )
        score = self.scale.score
        self.scale.set_values(score, self.scale.band, figures.interval)

    def start_stability(self) -> None:
        resampling = self._resampling()
        if resampling is None or self._job is not None:
            return
        self.stability_button.setEnabled(False)
        self.stability_label.setText(
            f"<b>Stability:</b> resampling the sentences {DEFAULT_RESAMPLES} times…"
        )
        if self.stability_handler is not None:
            if not self.stability_handler():
                self.stability_failed("another stability computation is still running")
            return
        model, known, unknown, prediction = resampling
        findings = self.verification.methods if self.verification is not None else None
        answer, stated = prediction.value, stated_log10_lr(findings)
        job = Job(
            "Stability of the result",
            lambda progress: run_stability(
                model, known, unknown, answer, stated, DEFAULT_RESAMPLES, progress=progress
            ).to_dict(),
            writes_store=False,
        )
        started: list[TaskWorker] = []
        self._job = self.runner.start(
            job,
            lambda stability: self._stability_done(started[0], stability),
            lambda message, _details: self.stability_failed(message),
            self._stability_cancelled,
        )
        started.append(self._job)

    def cancel_stability(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self.stability_button.setEnabled(True)

    def wait(self) -> None:
        """Cancel a running job and wait for it (call before the window closes); a runner of
        this view's own is shut down, a runner given to it is left to its owner."""
        self.cancel_stability()
        if self._own_runner:
            self.runner.shut_down()

    def _stability_done(self, worker: TaskWorker, stability: dict) -> None:
        if self._job is not worker:
            return  # a cancelled or superseded job
        self._job = None
        self.show_stability(StabilityFigures.from_dict(stability))
        self.stability_finished.emit(stability)

    def stability_failed(self, message: str) -> None:
        self._job = None
        self.stability_button.setEnabled(True)
        self.stability_label.setText(
            f"<b>Stability</b> could not be computed: {html.escape(message)}"
        )

    def _stability_cancelled(self) -> None:
        self.stability_button.setEnabled(True)
        self.stability_label.setText("<b>Stability:</b> cancelled.")
