"""A comparison system's calibration on a validation's trials: per fold, and the final part's.

``cross_validated`` (step 4 of ``comparison_validation.py``): per fold of every repeat, the
method learns on the compared trials of the other folds and scores both; the raw score is
calibrated on the training trials (``fit_bounded_calibration``, with length terms where the
declared questioned length is a range), shrunk towards LR = 1 by the κ that cross-validation
over the training trials' own author folds chooses (``core/calibration/calibration_shrinkage.py``),
and applied to the held-out fold.

``cross_fitted_calibration`` (step 5): the final part's map, fitted on the held-out raw scores
of step 4 (cross-fitted: never on scores of trials the method learned from), shrunk by the κ
that cross-validation over the same folds chooses, bounded by the ELUB of the cross-validated
log10 LRs, overall and per band of questioned length. ``repeat_calibration``: the same map
fitted on one repeat's trials alone (the model's ``repeat_models``,
``core/calibration/raw_repeat_fit.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    Calibration,
    QualityInputs,
    fit_bounded_calibration,
    with_elub,
)
from taveer_desktop.core.calibration.calibration_shrinkage import choose_shrinkage, inner_folds
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.systems.comparison import ComparisonMethod
from taveer_desktop.core.trials.folds import fold_masks
from taveer_desktop.core.trials.validation_settings import declared_bands
from taveer_desktop.core.trials.validation_trials import TrialSet

if TYPE_CHECKING:
    from taveer_desktop.core.methods.method_run import RepeatTrials

MIN_COMPARED_PER_CLASS = 2  # in a fold's training trials, to fit a calibration at all

QualityOf = Callable[[np.ndarray], QualityInputs | None]


def finite_scores(method: ComparisonMethod, values: np.ndarray, rows: int) -> np.ndarray:
    scores = np.asarray(values, dtype=float).ravel()
    if scores.shape != (rows,) or not np.all(np.isfinite(scores)):
        raise ValueError(f"{method.info.name} did not give one finite score per trial")
    return scores


def _lengths_of(trials: TrialSet, rows: np.ndarray) -> Callable[[np.ndarray], Any]:
    """The (questioned, known) lengths of a subset of ``rows``."""
    q_chars, k_chars = trials.questioned_chars[rows], trials.known_chars[rows]
    return lambda sub: (q_chars[sub], k_chars[sub])


def _quality_of(quality: QualityOf, rows: np.ndarray) -> QualityOf:
    return lambda sub: quality(rows[sub])


def cross_validated(
    method: ComparisonMethod,
    matrix: np.ndarray,
    compared: np.ndarray,
    trials: TrialSet,
    quality: QualityOf,
) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (raw score, bounded log10 LR) of every compared trial (rows of ``matrix``
    where ``compared``), NaN elsewhere (see the module)."""
    truth = trials.truth
    raw, log10_lr = np.full(len(trials), np.nan), np.full(len(trials), np.nan)
    for train, held_out in fold_masks(trials):
        train, held_out = train & compared, held_out & compared
        if not held_out.any():
            continue
        same = int(truth[train].sum())
        if min(same, int(train.sum()) - same) < MIN_COMPARED_PER_CLASS:
            raise InputError(
                f"{method.info.name} could compare too few trials of one class to calibrate "
                f"({same} same-author, {int(train.sum()) - same} different-author in a fold's "
                "training trials); validate for longer texts or leave it out"
            )
        learned = method.learn(matrix[train], truth[train])
        scores = finite_scores(method, method.score(matrix[train], learned), int(train.sum()))
        rows = np.flatnonzero(train)
        shrinkage = choose_shrinkage(
            scores,
            truth[train],
            inner_folds(trials.fold[train]),
            _quality_of(quality, rows),
            _lengths_of(trials, rows),
        )
        calibration = fit_bounded_calibration(scores, truth[train], quality(train), shrinkage)
        held = finite_scores(method, method.score(matrix[held_out], learned), int(held_out.sum()))
        raw[held_out] = held
        log10_lr[held_out] = calibration.log10_lr(
            held, trials.questioned_chars[held_out], trials.known_chars[held_out]
        )
    return raw, log10_lr


def cross_fitted_calibration(
    cv_raw: np.ndarray,
    cv_log10_lr: np.ndarray,
    compared: np.ndarray,
    trials: TrialSet,
    quality: QualityOf,
    bands: list[tuple[int, int]] | None,
) -> Calibration:
    """The final part's calibration (see the module)."""
    truth, rows = trials.truth, np.flatnonzero(compared)
    masks = [(train[compared], held[compared]) for train, held in fold_masks(trials)]
    shrinkage = choose_shrinkage(
        cv_raw[compared],
        truth[compared],
        masks,
        _quality_of(quality, rows),
        _lengths_of(trials, rows),
    )
    calibration = fit_bounded_calibration(
        cv_raw[compared], truth[compared], quality(compared), shrinkage
    )
    return with_elub(
        calibration,
        cv_log10_lr[compared],
        truth[compared],
        trials.questioned_chars[compared],
        bands,
    )


def repeat_calibration(
    cv_raw: np.ndarray, cv_log10_lr: np.ndarray, repeat: RepeatTrials
) -> Calibration | None:
    """The final part's calibration (``cross_fitted_calibration``) fitted on one repeat's
    trials alone: its held-out raw scores, κ chosen over its folds, bounded by the ELUB of its
    cross-validated ratios (None: it compared too few trials of a class to fit one)."""
    rows = repeat.rows
    trials = repeat.trials.subset(rows)
    raw, log10_lr = cv_raw[rows], cv_log10_lr[rows]
    compared = np.isfinite(raw) & np.isfinite(log10_lr)
    same = int(trials.truth[compared].sum())
    if min(same, int(compared.sum()) - same) < MIN_COMPARED_PER_CLASS:
        return None
    try:
        return cross_fitted_calibration(
            raw,
            log10_lr,
            compared,
            trials,
            lambda sub: repeat.quality(rows[sub]),
            declared_bands(repeat.settings),
        )
    except (InputError, ValueError):  # a repeat too small to fit: it keeps no calibration
        return None
