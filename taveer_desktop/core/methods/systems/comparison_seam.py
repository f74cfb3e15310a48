"""The seam of each of the ten comparison systems (``core/methods/method_seam.py``).

Their parts of a model file are read and checked by ``comparison_model.py``: the stated one
(``"comparison"``) and those a fusion combines (``"comparisons"``, exactly the comparison systems
the fusion names). A system's ratio of a case is its calibrated, bounded raw score
(``comparison_verify.compare_part``: no ratio, with its reason, where it cannot compare the case);
in the stability check the resample's texts are scored by its part (``comparison_stability.py``);
its run on a validation's trials is ``comparison_validation.validate_comparison``. Each repeat of
that validation keeps the system's own calibration of its raw score, fitted on the repeat's trials
alone (``comparison_calibration.repeat_calibration``; one shape for the ten and LambdaG,
``core/calibration/raw_repeat_fit.py``), through which the case's raw score is taken to see
whether its direction depends on the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.model_checks import require
from taveer_desktop.core.ground.registry import COMPARISON_IDS
from taveer_desktop.core.methods.method_seam import (
    Case,
    CaseRatio,
    CaseScorer,
    RawScore,
    RawScoreSeam,
)
from taveer_desktop.core.methods.systems.comparison_model import (
    ComparisonPart,
    comparison_part,
    fused_parts,
)
from taveer_desktop.core.methods.taveer.model_fields import Model

if TYPE_CHECKING:
    from taveer_desktop.core.features.lexicon import Lexicon
    from taveer_desktop.core.ground.progress import Progress
    from taveer_desktop.core.methods.method_run import MethodRun, RepeatTrials, RunContext
    from taveer_desktop.core.methods.taveer.stability import ResampledScores
    from taveer_desktop.core.methods.taveer.verify import VerificationResult


class ComparisonSeam(RawScoreSeam):
    """One comparison system's seam (see the module)."""

    def check_part(self, model: Model, source: str, stated: str, fused: Sequence[str]) -> None:
        """The parts of every comparison system (the registry calls one seam of the ten)."""
        if stated in COMPARISON_IDS or "comparison" in model.extra:
            ComparisonPart.of(model, source)
        comparisons = fused_parts(model, source)
        require(
            set(comparisons) <= set(fused),
            "comparisons holds the part of a method its fusion does not combine",
            source,
        )
        missing = [m for m in fused if m in COMPARISON_IDS and m not in comparisons]
        require(not missing, f"its fusion combines {', '.join(missing)} without its part", source)

    def case_ratio(self, model: Model, result: VerificationResult, case: Case) -> CaseRatio:
        from taveer_desktop.core.methods.systems.comparison_verify import compare_part

        part = comparison_part(model, self.id, case.source)  # stated, or one a fusion combines
        found = compare_part(part, case.known, case.unknown, case.source)
        return CaseRatio(
            self.id,
            found.log10_lr,
            found.bounds,
            found.findings,
            raw=found.raw,
            cannot_compare=found.cannot_compare,
            score=RawScore(found.raw, found.lengths),
        )

    def resampled_log10_lr(
        self, model: Model, resampled: ResampledScores, case: Case, seed: int, progress: Progress
    ) -> np.ndarray:
        from taveer_desktop.core.methods.systems.comparison_stability import resampled_comparison
        from taveer_desktop.core.methods.systems.comparison_verify import ComparisonScorer

        part = comparison_part(model, self.id, case.source)  # stated, or one a fusion combines
        scorer = ComparisonScorer(part, case.source)
        raws = resampled_comparison(
            scorer,
            case.known,
            case.unknown,
            resampled.keep_unknown,
            resampled.keep_known,
            seed,
            progress,
        )
        # at the lengths the run's comparison used: the prepared texts' (``compare_case``)
        texts = scorer.case(case.known, case.unknown)
        lengths = (len(texts.questioned), sum(len(t) for t in texts.known))
        ratios = np.full(len(raws), np.nan)
        scored = np.isfinite(raws)
        ratios[scored] = part.calibration.log10_lr(raws[scored], *lengths)
        return ratios

    def case_scorer(self, model: Model, lexicon: Lexicon, source: str) -> CaseScorer:
        from taveer_desktop.core.methods.systems.comparison_verify import ComparisonScorer

        part = comparison_part(model, self.id, source)
        return CaseScorer(ComparisonScorer(part, source).raw, part.calibration, part.raw_range)

    def cross_validate(self, context: RunContext, runs: dict[str, MethodRun]) -> MethodRun:
        from taveer_desktop.core.methods.method_run import MethodRun
        from taveer_desktop.core.methods.systems.catalogue import comparison_method
        from taveer_desktop.core.methods.systems.comparison_validation import validate_comparison

        trials = context.trials
        params = comparison_method(self.id).params_for_lengths(
            trials.questioned_chars, trials.known_chars
        )
        done = validate_comparison(
            self.id,
            context.population,
            trials,
            context.settings,
            context.ranges,
            context.progress,
            context.workers,
            params,
        )
        calibration = done.part.calibration
        return MethodRun(
            self.id,
            done.cv_log10_lr,
            done.seconds_per_trial,
            done.part.attach,
            (calibration.min_log10_lr, calibration.max_log10_lr),
            reasons=done.reasons,
            seed_spread=done.seed_spread,
            rows={f"{self.id}_raw": done.cv_raw},
            part=done.part,
        )

    def repeat_calibration(self, raw: Any, cv_log10_lr: Any, repeat: RepeatTrials) -> Any:
        from taveer_desktop.core.methods.systems.comparison_calibration import repeat_calibration

        return repeat_calibration(raw, cv_log10_lr, repeat)
