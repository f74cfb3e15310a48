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

**Lengths it was not fitted on** (issue 34): where the map has length terms (the declared
questioned length is a range), every author fold is also cut by the declared range's bands of
questioned length (``core/calibration/length_bands.py``): the map is fitted on the other
authors' trials **of the other bands**, with its length terms knowing only the lengths those
trials span (clamped there, as a case's length is clamped to the declared range), and applied
to the held-out authors' trials of the held-out band. κ is thus chosen for how the map holds on
texts of lengths it was not fitted on, as a case's often are — a score that mostly measures
length (ProfAV's) gets a large κ, one whose evidence does not depend on the length keeps its
small one. Without length terms the author folds are used as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from taveer_desktop.core.calibration.calibration import QualityInputs, cllr, fit_bounded_calibration
from taveer_desktop.core.calibration.length_bands import band_indices, length_bands

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


QUESTIONED = "questioned_chars"


def length_folds(masks: Masks, inputs: QualityInputs | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """``masks`` cut by the declared range's bands of questioned length (``inputs``: the
    quality inputs of all rows): training the other bands' rows of a mask's training rows,
    held out its held-out rows of one band; ``masks`` as they are where the range is a point
    or the map has no length terms."""
    if inputs is None or QUESTIONED not in inputs[1] or QUESTIONED not in inputs[0]:
        return list(masks)
    bands = length_bands(*inputs[1][QUESTIONED])
    if len(bands) < 2:
        return list(masks)
    band = band_indices(bands, np.asarray(inputs[0][QUESTIONED], dtype=float))
    return [
        (train & (band != b), held & (band == b))
        for train, held in masks
        for b in range(len(bands))
    ]


def fitted_span(quality: QualityOf) -> QualityOf:
    """``quality`` with each length's range narrowed to the lengths its rows span: a map
    fitted on them clamps other lengths there (see the module)."""

    def narrowed(rows: np.ndarray) -> QualityInputs | None:
        inputs = quality(rows)
        if inputs is None:
            return None
        lengths, ranges = inputs
        spans = {
            m: (int(np.min(lengths[m])), int(np.max(lengths[m])))
            for m in ranges
            if m in lengths and np.size(lengths[m])
        }
        return lengths, spans

    return narrowed


def choose_shrinkage(
    scores: np.ndarray,
    truth: np.ndarray,
    masks: Masks,
    quality: QualityOf,
    lengths: LengthsOf,
    grid: Sequence[float] = SHRINKAGE_GRID,
) -> float:
    """κ by the one-standard-error rule over ``masks``, cut by bands of questioned length where
    the map has length terms (see the module); 0 where no fold can take part (too few trials
    of a class)."""
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    cut = length_folds(masks, quality(np.ones(len(scores), dtype=bool)))
    if len(cut) > len(masks):
        masks, quality = cut, fitted_span(quality)
    found = [(k, *held_out_cllr(scores, truth, masks, k, quality, lengths)) for k in grid]
    found = [(k, c, e) for k, c, e in found if math.isfinite(c)]
    if not found:
        return 0.0
    _, best, error = min(found, key=lambda row: row[1])
    return max(k for k, c, _ in found if c <= best + error)
