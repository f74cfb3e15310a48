"""TAVeer's seam (``core/methods/method_seam.py``): every model is a TAVeer model.

TAVeer's part of a model file is the model itself (thresholds, ensemble, calibration, checked by
``model_fields``); where a fusion combines TAVeer, its calibration must be there. Its ratio of a
case is its calibrated ensemble similarity (``taveer_log10_lr``), which the result of
``core/methods/taveer/verify.py`` already states: it adds no ``statement``. Its score
of a corpus's cases is the model's own (``scores_cases`` False), and its stability is its
classification's, resampled by ``core/methods/taveer/stability.py``. Under one repeat's own fit
(``core/methods/taveer/repeat_models.py``) its ratio is the same map with that repeat's thresholds,
ensemble and calibration, from the case's measured distances (``repeat_log10_lr``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.calibration.model_checks import require
from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.methods.method_seam import (
    Bounds,
    Case,
    CaseDistances,
    CaseRatio,
    MethodSeam,
    Statement,
)
from taveer_desktop.core.methods.taveer.ensemble import ensemble_similarities
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.scoring import similarity_array

if TYPE_CHECKING:
    from taveer_desktop.core.ground.progress import Progress
    from taveer_desktop.core.methods.method_run import MethodRun, RunContext
    from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit
    from taveer_desktop.core.methods.taveer.stability import ResampledScores
    from taveer_desktop.core.methods.taveer.verify import VerificationResult


def taveer_log10_lr(model: Model, result: VerificationResult) -> float | None:
    """TAVeer's own log10 LR, before the gate decides whether a conclusion may state it."""
    if model.calibration is None or result.prediction is Classification.INSUFFICIENT:
        return None
    lengths = result.calibration_lengths or (None, None)
    return float(model.calibration.log10_lr(result.similarity, *lengths))


def repeat_log10_lr(fit: RepeatFit, case_distances: CaseDistances) -> float | None:
    """TAVeer's log10 LR of a measured case under one repeat's own thresholds, ensemble and
    calibration (None where every category of that repeat's ensemble abstains)."""
    distances = np.array(
        [[np.nan if (d := case_distances.distances.get(c)) is None else d for c in CATEGORY_IDS]]
    )
    thetas = np.array([fit.thresholds[c] for c in CATEGORY_IDS])
    members = np.array([[CATEGORY_IDS.index(c) for c in fit.ensemble]])
    if np.isnan(distances[0, members[0]]).all():
        return None
    score = ensemble_similarities(similarity_array(distances, thetas), members)[0, 0]
    lengths = case_distances.lengths or (None, None)
    return float(fit.calibration.log10_lr(float(score), *lengths))


def taveer_bounds(model: Model, chars: int) -> Bounds:
    """The bound of TAVeer's ratio at a questioned length (its ELUB; none uncalibrated)."""
    cal = model.calibration
    return bound_at(cal.bands, chars, cal.min_log10_lr, cal.max_log10_lr) if cal else (None, None)


def taveer_column(model: Model, resampled: ResampledScores, lengths: tuple[int, int]) -> np.ndarray:
    """TAVeer's calibrated ratio of each resampled score (NaN where every category abstains or
    the model has no calibration)."""
    taveer = np.full(len(resampled.scores), np.nan)
    if model.calibration is not None:
        scores = np.where(resampled.abstains, 0.5, resampled.scores)
        taveer = np.asarray(model.calibration.log10_lr(scores, *lengths), dtype=float)
        taveer[resampled.abstains | np.isnan(resampled.scores)] = np.nan
    return taveer


class TaveerSeam(MethodSeam):
    """TAVeer's seam (see the module)."""

    scores_cases = False

    def check_part(self, model: Model, source: str, stated: str, fused: Sequence[str]) -> None:
        if self.id in fused:
            require(model.calibration is not None, "TAVeer's calibration is missing", source)

    def case_ratio(self, model: Model, result: VerificationResult, case: Case) -> CaseRatio:
        log10_lr = taveer_log10_lr(model, result)
        return CaseRatio(self.id, log10_lr, taveer_bounds(model, len(case.unknown)))

    def statement(
        self, model: Model, result: VerificationResult, base: CaseRatio, case: Case
    ) -> Statement | None:
        return None  # TAVeer's result states its ratio already

    def resampled_log10_lr(
        self, model: Model, resampled: ResampledScores, case: Case, seed: int, progress: Progress
    ) -> np.ndarray:
        lengths = (len(case.unknown), sum(len(t) for t in case.known))
        return taveer_column(model, resampled, lengths)

    def cross_validate(self, context: RunContext, runs: dict[str, MethodRun]) -> MethodRun:
        return runs[self.id]  # made by ``core/validation/validation.py`` before every other

    def repeat_case_ratio(
        self, model: Model, case_distances: CaseDistances, fit: RepeatFit
    ) -> CaseRatio | None:
        bounds = bound_at(
            fit.calibration.bands,
            case_distances.questioned_chars,
            fit.calibration.min_log10_lr,
            fit.calibration.max_log10_lr,
        )
        return CaseRatio(self.id, repeat_log10_lr(fit, case_distances), bounds)
