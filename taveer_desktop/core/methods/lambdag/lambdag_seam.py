"""LambdaG's seam (``core/methods/method_seam.py``).

Its part of a model file (``"lambdag"``, ``lambdag_model.LambdaGPart``) is checked wherever it is
stated, fused or present, its reference population decoded; its ratio of a case is λG calibrated
(``lambdag_scorer.LambdaGScorer``, with its evidence in the text when the verification explains
itself, and a finding when λG lies outside the range its validation gave); in the stability check
λG is resampled with the same sentences left out (``lambdag_stability.py``); its run on a
validation's trials is ``lambdag_validation.second_opinion``. Each repeat of that validation keeps
its own calibration of λG (``lambdag_validation.repeat_calibration``, the shape every comparison
system keeps too: ``core/calibration/raw_repeat_fit.py``), through which the case's λG is taken to
see whether its direction depends on the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart, check_reference
from taveer_desktop.core.methods.method_seam import (
    Case,
    CaseRatio,
    CaseScorer,
    RawScore,
    RawScoreSeam,
)
from taveer_desktop.core.methods.taveer.model_fields import Model

if TYPE_CHECKING:
    from taveer_desktop.core.features.lexicon import Lexicon
    from taveer_desktop.core.ground.progress import Progress
    from taveer_desktop.core.methods.method_run import MethodRun, RepeatTrials, RunContext
    from taveer_desktop.core.methods.taveer.stability import ResampledScores
    from taveer_desktop.core.methods.taveer.verify import VerificationResult


class LambdaGSeam(RawScoreSeam):
    """LambdaG's seam (see the module)."""

    def check_part(self, model: Model, source: str, stated: str, fused: Sequence[str]) -> None:
        if stated == self.id or self.id in fused or self.id in model.extra:
            check_reference(LambdaGPart.of(model, source), source)

    def case_ratio(self, model: Model, result: VerificationResult, case: Case) -> CaseRatio:
        from taveer_desktop.core.gate.gate import raw_range_finding
        from taveer_desktop.core.methods.lambdag.lambdag_scorer import lambdag_for_case

        part = LambdaGPart.of(model, case.source)
        raw, log10_lr, evidence = lambdag_for_case(
            part, case.known, case.unknown, case.lexicon, case.source, case.explain
        )
        outside = raw_range_finding(self.id, raw, part.raw_range)
        cal = part.calibration
        lengths = (len(case.unknown), sum(len(t) for t in case.known))  # as its calibration took
        return CaseRatio(
            self.id,
            log10_lr,
            bound_at(cal.bands, len(case.unknown), cal.min_log10_lr, cal.max_log10_lr),
            () if outside is None else (outside,),
            lambdag_raw=raw,
            lambdag_order=part.order,
            evidence=evidence,
            score=RawScore(raw, lengths),
        )

    def resampled_log10_lr(
        self, model: Model, resampled: ResampledScores, case: Case, seed: int, progress: Progress
    ) -> np.ndarray:
        from taveer_desktop.core.methods.lambdag.lambdag_scorer import LambdaGScorer
        from taveer_desktop.core.methods.lambdag.lambdag_stability import resampled_lambda_g

        part = LambdaGPart.of(model, case.source)
        scorer = LambdaGScorer(part, case.lexicon, case.source)
        raws = resampled_lambda_g(
            scorer.pool(),
            part.order,
            part.samples,
            scorer.sample_seed(case.known, case.unknown),  # the verification's draw
            case.known,
            case.unknown,
            case.lexicon,
            resampled.keep_unknown,
            resampled.keep_known,
            progress,
        )
        lengths = (len(case.unknown), sum(len(t) for t in case.known))
        return np.asarray(part.calibration.log10_lr(raws, *lengths), dtype=float)

    def case_scorer(self, model: Model, lexicon: Lexicon, source: str) -> CaseScorer:
        from taveer_desktop.core.methods.lambdag.lambdag_scorer import LambdaGScorer

        part = LambdaGPart.of(model, source)
        return CaseScorer(
            LambdaGScorer(part, lexicon, source).raw, part.calibration, part.raw_range
        )

    def cross_validate(self, context: RunContext, runs: dict[str, MethodRun]) -> MethodRun:
        from taveer_desktop.core.methods.lambdag.lambdag_validation import second_opinion
        from taveer_desktop.core.methods.method_run import MethodRun

        trials = context.trials
        taveer = next(iter(runs.values()))  # TAVeer's, made first
        second = second_opinion(
            context.population,
            trials,
            replace(context.settings, method=self.id),
            taveer.cv_log10_lr,
            context.progress,
            context.workers,
            context.ranges,
        )
        calibration = second.part.calibration
        return MethodRun(
            self.id,
            second.cv_lambdag,
            second.lambdag_seconds / max(1, len(trials)),
            second.attach,
            (calibration.min_log10_lr, calibration.max_log10_lr),
            summary=second.summary_lambdag(),
            rows={"lambdag_raw": second.raw[:, second.part.order - 1]},
            part=second.part,
        )

    def repeat_calibration(self, raw: Any, cv_log10_lr: Any, repeat: RepeatTrials) -> Any:
        from taveer_desktop.core.methods.lambdag.lambdag_validation import repeat_calibration

        return repeat_calibration(raw, cv_log10_lr, repeat)
