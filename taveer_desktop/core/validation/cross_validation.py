"""TAVeer cross-validated by author on a validation's trials, repeat by repeat.

For each repeat and each of its folds: thresholds, the best of the 2047 ensembles and the
calibration (with quality-measure terms where the declared range of lengths is a range,
``core/calibration/quality_measures.py``; bounded by the ELUB of its own training trials' LRs) are
learned on the repeat's trials of the other folds, and the held-out fold's trials are scored with
them. Each repeat's folds are its own (authors re-dealt with its seed), so a trial is only ever
scored by what was learned without its authors.
"""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    Calibration,
    QualityInputs,
    fit_bounded_calibration,
)
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.processes import default_workers, worker_context
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.methods.taveer.ensemble import (
    ensemble_similarities,
    search_ensembles,
    thresholds_for,
    training_similarities,
)
from taveer_desktop.core.trials.folds import Ranges, fold_masks, quality_inputs
from taveer_desktop.core.trials.validation_trials import TrialSet


@dataclass(frozen=True)
class Learned:
    thresholds: np.ndarray
    members: np.ndarray
    ensemble: tuple[str, ...]
    calibration: Calibration


def learn(
    distances: np.ndarray,
    truth: np.ndarray,
    threshold_method: str,
    quality: QualityInputs | None = None,
) -> Learned:
    """Thresholds, the best ensemble and its bounded calibration, learned on these trials."""
    thetas = thresholds_for(threshold_method, distances, truth)
    similarities = training_similarities(distances, thetas)
    search = search_ensembles(similarities, truth)
    members = np.array([[CATEGORY_IDS.index(c) for c in search.best]])
    scores = ensemble_similarities(similarities, members)[:, 0]
    return Learned(thetas, members, search.best, fit_bounded_calibration(scores, truth, quality))


def score(
    learned: Learned,
    distances: np.ndarray,
    questioned_chars: np.ndarray | None = None,
    known_chars: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(ensemble similarity, bounded log10 LR) of trials under a learned model."""
    similarities = training_similarities(distances, learned.thresholds)
    scores = ensemble_similarities(similarities, learned.members)[:, 0]
    log10_lr = learned.calibration.log10_lr(scores, questioned_chars, known_chars)
    return scores, np.asarray(log10_lr, dtype=float)


def _fold_work(
    distances: np.ndarray,
    truth: np.ndarray,
    lengths: np.ndarray,
    train: np.ndarray,
    held_out: np.ndarray,
    threshold_method: str,
    ranges: Ranges,
) -> tuple[np.ndarray, np.ndarray]:
    quality = quality_inputs(ranges, lengths[train, 0], lengths[train, 1])
    learned = learn(distances[train], truth[train], threshold_method, quality)
    return score(learned, distances[held_out], lengths[held_out, 0], lengths[held_out, 1])


def cross_validate(
    trials: TrialSet,
    threshold_method: str,
    workers: int | None = 1,
    progress: Progress = NO_PROGRESS,
    ranges: Ranges | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (score, bounded log10 LR) of every trial (see the module). With ``workers`` > 1
    the folds go to a process pool; results are placed by fold, so they equal a single-process
    run."""
    ranges = dict(ranges or {})
    scores, log10_lr = np.zeros(len(trials)), np.zeros(len(trials))
    lengths = np.column_stack([trials.questioned_chars, trials.known_chars])
    masks = fold_masks(trials)
    n_workers = default_workers(workers, len(masks))
    args = (trials.distances, trials.truth, lengths)
    if n_workers == 1:
        for done, (train, held_out) in enumerate(masks):
            scores[held_out], log10_lr[held_out] = _fold_work(
                *args, train, held_out, threshold_method, ranges
            )
            progress.step(done + 1, len(masks), "cross-validating by author")
        return scores, log10_lr
    context = worker_context([__name__])
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context) as pool:
        pending = {
            pool.submit(_fold_work, *args, train, held_out, threshold_method, ranges): i
            for i, (train, held_out) in enumerate(masks)
        }
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                progress.check()
                for future in finished:
                    held_out = masks[pending.pop(future)][1]
                    scores[held_out], log10_lr[held_out] = future.result()
                    progress.step(len(masks) - len(pending), len(masks), "cross-validating")
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return scores, log10_lr
