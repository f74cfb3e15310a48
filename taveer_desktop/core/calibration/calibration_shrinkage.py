"""How far a calibration is shrunk towards LR = 1: chosen by cross-validation over authors.

A comparison system whose scores separate the validation trials only weakly, or by chance,
would otherwise get a logistic map steep enough to state confident ratios that do not hold on
texts it was not fitted on. ``choose_shrinkage`` picks the shrinkage κ of the map
(``core/calibration/calibration.py``: an L2 penalty ½·κ·n·(σ·b)² on the slope of the standardised
score) the way a ridge penalty is picked:

1. for every κ of ``SHRINKAGE_GRID``, the map is fitted on the training rows of each fold of
   the folds given (folds by author: a fold's authors are never in its training rows) and
   applied, bounded by the ELUB of its own training ratios, to the fold's held-out rows;
2. each κ's pooled held-out Cllr, and its standard error over the folds, are computed;
3. the **largest** κ whose held-out Cllr is within one standard error of the best κ's is
   taken (Breiman's one-standard-error rule): of the maps the trials cannot tell apart, the one
   that claims least.

A method whose held-out ratios are no better than no evidence thereby gets the largest κ of the
grid, a map whose ratios stay close to 1. ``inner_folds`` gives the folds within one fold's
training rows (leave one of its author folds out), so that the choice for a held-out fold never
sees that fold.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from taveer_desktop.core.calibration.calibration import QualityInputs, cllr, fit_bounded_calibration

SHRINKAGE_GRID = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
MIN_PER_CLASS = 2  # training rows of each class a fold needs to take part

Masks = Sequence[tuple[np.ndarray, np.ndarray]]
QualityOf = Callable[[np.ndarray], QualityInputs | None]
LengthsOf = Callable[[np.ndarray], tuple[np.ndarray | None, np.ndarray | None]]


def inner_folds(folds: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(training, held-out) masks leaving out each fold label of ``folds`` in turn."""
    folds = np.asarray(folds)
    return [(folds != f, folds == f) for f in np.unique(folds)]


def _usable(truth: np.ndarray, train: np.ndarray, held: np.ndarray) -> bool:
    same = int(truth[train].sum())
    return bool(held.any()) and min(same, int(train.sum()) - same) >= MIN_PER_CLASS


def held_out_cllr(
    scores: np.ndarray,
    truth: np.ndarray,
    masks: Masks,
    shrinkage: float,
    quality: QualityOf,
    lengths: LengthsOf,
) -> tuple[float, float]:
    """(pooled held-out Cllr, its standard error over the folds) of maps shrunk by κ."""
    pooled_lr, pooled_truth, per_fold = [], [], []
    for train, held in masks:
        if not _usable(truth, train, held):
            continue
        calibration = fit_bounded_calibration(
            scores[train], truth[train], quality(train), shrinkage
        )
        q_chars, k_chars = lengths(held)
        lr = calibration.log10_lr(scores[held], q_chars, k_chars)
        pooled_lr.append(lr)
        pooled_truth.append(truth[held])
        value = cllr(lr, truth[held])
        if math.isfinite(value):
            per_fold.append(value)
    if not pooled_lr:
        return math.nan, math.nan
    pooled = cllr(np.concatenate(pooled_lr), np.concatenate(pooled_truth))
    error = float(np.std(per_fold, ddof=1) / math.sqrt(len(per_fold))) if len(per_fold) > 1 else 0.0
    return pooled, error


def choose_shrinkage(
    scores: np.ndarray,
    truth: np.ndarray,
    masks: Masks,
    quality: QualityOf,
    lengths: LengthsOf,
    grid: Sequence[float] = SHRINKAGE_GRID,
) -> float:
    """κ by the one-standard-error rule over ``masks`` (see the module); 0 where no fold can
    take part (too few trials of a class)."""
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    found = [(k, *held_out_cllr(scores, truth, masks, k, quality, lengths)) for k in grid]
    found = [(k, c, e) for k, c, e in found if math.isfinite(c)]
    if not found:
        return 0.0
    _, best, error = min(found, key=lambda row: row[1])
    return max(k for k, c, _ in found if c <= best + error)
