"""A comparison system validated on the trials TAVeer is validated on.

``core/validation.py`` builds the trials (folds by author, repeated with seeds seed, seed + 1,
…) and hands them, for every comparison system it is asked for, to ``validate_comparison``:

1. **The trial's texts** and 2. **impostors** (``comparison_trials.py``): the very sentences
   TAVeer counted, and for methods that ``need_impostors`` the population's documents by
   authors of the *other* folds of the trial's repeat — never the trial's own authors, as in
   a case the population never holds the candidate.
3. **Features** of every trial, in ``workers`` processes (the population's texts go to each
   process once), each trial with its own generator seeded by (method seed, repeat, trial
   index), so a trial's value does not depend on the process or the order. A trial the method
   cannot compare (``CannotCompare``) is counted with its reason and left out of the method's
   figures.
4. **Per fold** of every repeat: ``learn`` on the compared trials of the other folds, ``score``,
   a logistic calibration of the raw score with length terms where the declared questioned
   length is a range (``fit_bounded_calibration``: bounded by the ELUB of its own training
   LRs), applied to the held-out fold.
5. **The final part** (``comparison_model.ComparisonPart``): learned and calibrated on all
   compared trials, the calibration bounded by the ELUB of the cross-validated LRs, overall and
   per band of questioned length, as TAVeer's and LambdaG's are.
6. **Seed spread** of a non-deterministic method: the features and steps 4 of the first
   repeat's trials (at most ``SPREAD_TRIALS``) again with ``SPREAD_SEEDS`` other method seeds;
   the lowest and highest AUC and Cllr over those seeds and the validation's own seed are
   reported. Cost: ``SPREAD_SEEDS`` × min(``SPREAD_TRIALS``, first repeat's trials) more
   feature computations (with 3 repeats of 200+ trials, about as many as the validation's).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration import (
    QualityInputs,
    cllr,
    fit_bounded_calibration,
    with_elub,
)
from taveer_desktop.core.cross_validation import Ranges, fold_masks, quality_inputs
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.evaluation import roc_auc
from taveer_desktop.core.methods.catalogue import comparison_method
from taveer_desktop.core.methods.comparison import CannotCompare, CaseTexts, ComparisonMethod
from taveer_desktop.core.methods.comparison_model import (
    ComparisonPart,
    check_impostor_size,
    encode_impostors,
)
from taveer_desktop.core.methods.comparison_trials import (
    Impostors,
    PoolKey,
    impostors_of,
    trial_case,
)
from taveer_desktop.core.population import Population
from taveer_desktop.core.processes import default_workers, in_processes
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.validation_trials import TrialSet

SPREAD_SEEDS = 3  # method seeds besides the validation's own (non-deterministic methods)
SPREAD_TRIALS = 200  # at most this many trials of the first repeat
SPREAD_SEED_OFFSET = 1_000_003  # the other seeds: seed + k × this (far from the repeats' seeds)
MIN_COMPARED_PER_CLASS = 2  # in a fold's training trials, to fit a calibration at all

Task = tuple[int, CaseTexts, PoolKey | None, tuple[int, ...]]


@dataclass(frozen=True)
class _Work:
    method: ComparisonMethod
    impostors: Impostors


_WORK: _Work | None = None


def _start(work: _Work) -> None:
    global _WORK
    _WORK = work


def _compute(work: _Work, tasks: Sequence[Task]) -> tuple[list[tuple[int, Any]], float]:
    """(row, feature vector or the reason it cannot compare) of each task, and the seconds."""
    started = time.perf_counter()
    out: list[tuple[int, Any]] = []
    for row, case, key, seed in tasks:
        rng = np.random.default_rng(list(seed))
        try:
            vector = work.method.features(case, work.impostors.of(key), rng)
        except CannotCompare as reason:
            out.append((row, str(reason) or "the method cannot compare these texts"))
            continue
        out.append((row, np.asarray(vector, dtype=float).ravel()))
    return out, time.perf_counter() - started


def _in_worker(tasks: Sequence[Task]) -> tuple[list[tuple[int, Any]], float]:
    assert _WORK is not None
    return _compute(_WORK, tasks)


@dataclass
class Features:
    """Every trial's feature row (NaN where not compared) and why trials were not compared."""

    matrix: np.ndarray
    compared: np.ndarray
    reasons: dict[str, int]
    seconds: float  # summed over the processes: the cost, not the wall time


def trial_features(
    work: _Work,
    tasks: list[Task],
    n_rows: int,
    workers: int | None,
    progress: Progress,
    message: str,
) -> Features:
    """The features of every task's trial (see the module, step 3)."""
    found: dict[int, Any] = {}
    seconds = 0.0
    n_workers = default_workers(workers, max(1, len(tasks)))
    size = max(1, min(25, len(tasks) // (4 * n_workers) or 1))
    chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]

    def take(result: tuple[list[tuple[int, Any]], float]) -> None:
        nonlocal seconds
        found.update(result[0])
        seconds += result[1]
        progress.step(len(found), len(tasks), message)

    if n_workers == 1:
        for chunk in chunks:
            progress.check()
            take(_compute(work, chunk))
    else:
        in_processes(_in_worker, chunks, take, progress, n_workers, [__name__], _start, (work,))
    return _assemble(work.method, found, n_rows, seconds)


def _assemble(
    method: ComparisonMethod, found: dict[int, Any], n_rows: int, seconds: float
) -> Features:
    vectors = {r: v for r, v in found.items() if isinstance(v, np.ndarray)}
    widths = {len(v) for v in vectors.values()}
    if len(widths) > 1 or 0 in widths:
        raise ValueError(f"{method.info.name} gave feature vectors of lengths {sorted(widths)}")
    width = widths.pop() if widths else 1
    matrix = np.full((n_rows, width), np.nan)
    for row, vector in vectors.items():
        if not np.all(np.isfinite(vector)):
            raise ValueError(f"{method.info.name} gave a feature vector that is not finite")
        matrix[row] = vector
    compared = np.zeros(n_rows, dtype=bool)
    compared[list(vectors)] = True
    reasons = Counter(v for v in found.values() if isinstance(v, str))
    return Features(matrix, compared, dict(reasons), seconds)


def _finite_scores(method: ComparisonMethod, values: np.ndarray, rows: int) -> np.ndarray:
    scores = np.asarray(values, dtype=float).ravel()
    if scores.shape != (rows,) or not np.all(np.isfinite(scores)):
        raise ValueError(f"{method.info.name} did not give one finite score per trial")
    return scores


def cross_validated(
    method: ComparisonMethod,
    features: Features,
    trials: TrialSet,
    quality: Callable[[np.ndarray], QualityInputs | None],
) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (raw score, bounded log10 LR) of every compared trial, NaN elsewhere (step 4)."""
    truth, compared, matrix = trials.truth, features.compared, features.matrix
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
        scores = _finite_scores(method, method.score(matrix[train], learned), int(train.sum()))
        calibration = fit_bounded_calibration(scores, truth[train], quality(train))
        held = _finite_scores(method, method.score(matrix[held_out], learned), int(held_out.sum()))
        raw[held_out] = held
        log10_lr[held_out] = calibration.log10_lr(
            held, trials.questioned_chars[held_out], trials.known_chars[held_out]
        )
    return raw, log10_lr


@dataclass
class ComparisonValidation:
    """A comparison system cross-validated on the trials, and its final part."""

    method_id: str
    cv_raw: np.ndarray  # held-out raw score per trial (NaN: not compared)
    cv_log10_lr: np.ndarray  # held-out bounded log10 LR per trial (NaN: not compared)
    compared: np.ndarray
    reasons: dict[str, int]  # why trials were not compared, and how many
    part: ComparisonPart
    seconds_per_trial: float
    seed_spread: dict[str, Any] | None


def _tasks(
    trials: TrialSet, rows: Sequence[int], keys: list[PoolKey | None], seed: int
) -> list[Task]:
    return [(i, trial_case(trials, i), keys[i], (seed, int(trials.repeat[i]), i)) for i in rows]


def validate_comparison(
    method_id: str,
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    ranges: Ranges | None = None,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    params: dict[str, Any] | None = None,
    spread: bool = True,
) -> ComparisonValidation:
    """The comparison system ``method_id`` on the trials (see the module); ``spread`` False
    leaves out the seed spread (``benchmarks/method_cost.py`` measures the rest alone)."""
    method = comparison_method(method_id, params)
    needs = method.info.needs_impostors
    impostors = impostors_of(population, trials, settings)
    encoded = None
    if needs:  # refused before the long part
        encoded = encode_impostors(impostors.texts)
        check_impostor_size(encoded, population.source)
    else:
        impostors = Impostors((), (), {})
    keys: list[PoolKey | None] = [
        (int(trials.repeat[i]), int(trials.fold[i])) if needs else None for i in range(len(trials))
    ]
    work = _Work(method, impostors)
    name = method.info.name
    features = trial_features(
        work,
        _tasks(trials, range(len(trials)), keys, settings.seed),
        len(trials),
        workers,
        progress,
        f"{name}: the trials' features",
    )
    ranges = dict(ranges or {})
    q_chars, k_chars, truth = trials.questioned_chars, trials.known_chars, trials.truth

    def quality(rows: np.ndarray) -> QualityInputs | None:
        return quality_inputs(ranges, q_chars[rows], k_chars[rows])

    cv_started = time.perf_counter()
    cv_raw, cv_lr = cross_validated(method, features, trials, quality)
    compared = features.compared & np.isfinite(cv_lr)
    learned = method.learn(features.matrix[compared], truth[compared])
    raw = _finite_scores(
        method, method.score(features.matrix[compared], learned), int(compared.sum())
    )
    calibration = fit_bounded_calibration(raw, truth[compared], quality(compared))
    calibration = with_elub(
        calibration, cv_lr[compared], truth[compared], q_chars[compared], declared_bands(settings)
    )
    learning = time.perf_counter() - cv_started
    part = ComparisonPart(
        id=method_id,
        params=dict(method.params),
        learned=learned,
        calibration=calibration,
        seed=settings.seed,
        raw_range=(float(raw.min()), float(raw.max())),
        impostors=encoded,
    )
    spread_found = None
    if spread and not method.info.deterministic:
        spread_found = seed_spread(
            work, trials, keys, settings.seed, quality, features, cv_lr, workers, progress
        )
    return ComparisonValidation(
        method_id=method_id,
        cv_raw=cv_raw,
        cv_log10_lr=cv_lr,
        compared=compared,
        reasons=features.reasons,
        part=part,
        seconds_per_trial=(features.seconds + learning) / max(1, len(trials)),
        seed_spread=spread_found,
    )


def _auc_cllr(log10_lr: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    return float(roc_auc(log10_lr, truth)), float(cllr(log10_lr, truth))


def seed_spread(
    work: _Work,
    trials: TrialSet,
    keys: list[PoolKey | None],
    seed: int,
    quality: Callable[[np.ndarray], QualityInputs | None],
    features: Features,
    cv_log10_lr: np.ndarray,
    workers: int | None,
    progress: Progress,
) -> dict[str, Any]:
    """The lowest and highest AUC and Cllr over the method seeds (see the module, step 6)."""
    first = np.flatnonzero(trials.repeat == trials.repeat.min())
    pairs = first[::2][: SPREAD_TRIALS // 2]  # whole pairs: the classes stay balanced
    rows = np.sort(np.concatenate([pairs, pairs + 1]))
    subset = trials.subset(rows)
    sub_keys = [keys[int(i)] for i in rows]
    values = []
    mine = features.compared[rows] & np.isfinite(cv_log10_lr[rows])
    if mine.any():  # the validation's own seed, on these trials
        values.append(_auc_cllr(cv_log10_lr[rows][mine], subset.truth[mine]))
    for k in range(1, SPREAD_SEEDS + 1):
        other = seed + k * SPREAD_SEED_OFFSET
        found = trial_features(
            work,
            _tasks(subset, range(len(subset)), sub_keys, other),
            len(subset),
            workers,
            progress,
            f"{work.method.info.name}: seed spread {k} of {SPREAD_SEEDS}",
        )

        def sub_quality(r: np.ndarray) -> QualityInputs | None:
            return quality(rows[r])

        try:
            _, lr = cross_validated(work.method, found, subset, sub_quality)
        except InputError:
            continue
        ok = np.isfinite(lr)
        if ok.any():
            values.append(_auc_cllr(lr[ok], subset.truth[ok]))
    aucs, cllrs = [v[0] for v in values], [v[1] for v in values]
    return {
        "auc": [round(min(aucs), 6), round(max(aucs), 6)] if values else None,
        "cllr": [round(min(cllrs), 6), round(max(cllrs), 6)] if values else None,
        "seeds": len(values),
        "trials": len(rows),
    }
