"""The fusion of any validated methods, cross-validated on the trials its methods were.

``core/validation/method_runs.py`` cross-validates every method the fusion combines
(``ValidationSettings.fuse``; by default TAVeer and LambdaG) on one set of trials, then hands
their held-out log10 LRs here:

1. **The trials every fused method could score.** A trial one of them could not compare
   (a comparison system's ``CannotCompare``: its held-out LR is NaN) is left out of the fusion
   and counted, per method, as the comparison engine counts its own.
2. **Per fold** of every repeat (the folds the methods were cross-validated on): the
   logistic-regression fusion (``core/methods/fusion/fusion.py``, ``bounded_fusion``) is fitted on
   the other folds' cross-validated log10 LRs of the fused methods and applied to the held-out fold,
   bounded by the ELUB of its own training trials' fused LRs.
3. **The final fusion** is fitted on all those cross-validated log10 LRs and bounded by the
   ELUB of the held-out fused LRs, overall and per band of questioned length where the
   declared questioned length is a range — as every method's final part is. Each repeat's own
   fusion (``repeat_fusion``, kept in the model's ``repeat_models``) is the same fit on that
   repeat's trials alone.

Its record block (``summary``) names the fused methods and their final weights; a weight of 0
means the method carried no weight in the fused ratio (the fit keeps weights ≥ 0, a method
is never counted against its own direction).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.length_bands import band_bounds
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import method_name
from taveer_desktop.core.methods.fusion.fusion import Fusion, bounded_fusion
from taveer_desktop.core.trials.folds import fold_masks
from taveer_desktop.core.trials.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.trials.validation_trials import TrialSet

ZERO_WEIGHT = (
    "each weight multiplies its method's natural-log LR in the fused log odds; weights are kept "
    "≥ 0, and a weight of 0 means the method carried no weight in the fused ratio"
)


@dataclass
class FusionValidation:
    """The fusion cross-validated on the trials (see the module) and its final fit."""

    fusion: Fusion
    cv_log10_lr: np.ndarray  # held-out, bounded; NaN where a fused method could not compare
    left_out: dict[str, int]  # trials each fused method could not compare (left out)

    @property
    def compared(self) -> np.ndarray:
        compared: np.ndarray = np.isfinite(self.cv_log10_lr)
        return compared

    def summary(self) -> dict[str, Any]:
        """The record's ``"fusion"`` block: which methods, their weights, what a weight means."""
        fusion = self.fusion
        return {
            "fusion": {
                "methods": list(fusion.methods),
                "weights": {
                    m: round(w, 6) for m, w in zip(fusion.methods, fusion.weights, strict=True)
                },
                "intercept": round(fusion.intercept, 6),
                "weights_meaning": ZERO_WEIGHT,
                "trials": int(self.compared.sum()),
                "left_out": int((~self.compared).sum()),
                "left_out_by_method": dict(self.left_out),
                "fit": "per fold on the other folds' cross-validated log10 LRs of the fused "
                "methods; the final fusion on all of them",
            }
        }


def validate_fusion(
    methods: tuple[str, ...],
    columns: dict[str, np.ndarray],
    trials: TrialSet,
    settings: ValidationSettings,
) -> FusionValidation:
    """The fusion of ``methods`` from their cross-validated log10 LRs (``columns``, NaN where
    a method could not compare a trial); see the module."""
    matrix = np.column_stack([np.asarray(columns[m], dtype=float) for m in methods])
    compared = np.isfinite(matrix).all(axis=1)
    truth = trials.truth
    fused = np.full(len(truth), np.nan)
    for train, held_out in fold_masks(trials):
        train, held_out = train & compared, held_out & compared
        if not held_out.any():
            continue
        same = int(truth[train].sum())
        if min(same, int(train.sum()) - same) < 1:
            raise InputError(
                "the fusion of "
                + ", ".join(method_name(m) for m in methods)
                + " has no trials of one class to learn from in a fold (the methods could "
                "compare too few trials together); fuse other methods or validate for longer texts"
            )
        fitted = bounded_fusion(methods, matrix[train], truth[train])
        fused[held_out] = fitted.log10_lr(matrix[held_out])
    scored = compared & np.isfinite(fused)
    rows = np.flatnonzero(scored)
    if rows.size == 0 or truth[rows].all() or not truth[rows].any():
        raise InputError("the fusion has no trials of both classes that every fused method scored")
    fusion = _fitted(methods, matrix, fused, trials, rows, settings)
    left_out = {m: int((~np.isfinite(matrix[:, k])).sum()) for k, m in enumerate(methods)}
    fused[~scored] = math.nan
    return FusionValidation(fusion, fused, left_out)


def _fitted(
    methods: tuple[str, ...],
    matrix: np.ndarray,
    fused: np.ndarray,
    trials: TrialSet,
    rows: np.ndarray,
    settings: ValidationSettings,
) -> Fusion:
    """The fusion fitted on these trials' cross-validated ratios (``matrix``, one column a
    method) and bounded by the ELUB of their held-out fused ratios (``fused``), per declared
    band too (step 3)."""
    truth, q_chars = trials.truth, trials.questioned_chars
    fusion = bounded_fusion(methods, matrix[rows], truth[rows], fused[rows])
    bands = declared_bands(settings)
    if bands is not None:
        fusion = replace(fusion, bands=band_bounds(fused[rows], truth[rows], q_chars[rows], bands))
    return fusion


def repeat_fusion(
    methods: tuple[str, ...],
    columns: dict[str, np.ndarray],
    fused: np.ndarray,
    trials: TrialSet,
    rows: np.ndarray,
    settings: ValidationSettings,
) -> Fusion | None:
    """The final fusion's fit (step 3) on one repeat's trials (``rows``) alone, from the fused
    methods' cross-validated ratios (``columns``) and the held-out fused ones (``fused``); None
    where that repeat has no trial of a class every fused method scored."""
    matrix = np.column_stack([np.asarray(columns[m], dtype=float) for m in methods])
    mine = np.zeros(len(trials), dtype=bool)
    mine[rows] = True
    scored = np.flatnonzero(mine & np.isfinite(matrix).all(axis=1) & np.isfinite(fused))
    truth = trials.truth[scored]
    if scored.size == 0 or truth.all() or not truth.any():
        return None
    return _fitted(methods, matrix, fused, trials, scored, settings)
