"""A comparison system validated on the trials TAVeer is validated on.

``core/validation/validation.py`` builds the trials (folds by author, repeated with seeds seed,
seed + 1, …) and hands them, for every comparison system it is asked for, to
``validate_comparison``:

1. **The trial's texts** and 2. **impostors** (``comparison_trials.py``): the very sentences
   TAVeer counted, and for methods that ``need_impostors`` the population's documents by
   authors of the *other* folds of the trial's repeat — never the trial's own authors, as in
   a case the population never holds the candidate.
3. **Features** of every trial, in ``workers`` processes (the population's texts go to each
   process once; the processes are renewed after ``RENEW_AFTER_CHUNKS`` chunks of at most 25
   trials each, so that memory a compression method's ``pyppmd`` never gives back stays
   bounded), each trial with its own generator seeded by (method seed, repeat, trial
   index), so a trial's value does not depend on the process or the order; a chunk's trials
   are given to the method together (``features_many``: Generalised Unmasking unmasks them
   at once, each trial's numbers its own). A trial the method
   cannot compare (``CannotCompare``) is counted with its reason and left out of the method's
   figures.
4. **Per fold** of every repeat: ``learn`` on the compared trials of the other folds, ``score``,
   a logistic calibration of the raw score with length terms where the declared questioned
   length is a range (``fit_bounded_calibration``: bounded by the ELUB of its own training
   LRs), shrunk towards LR = 1 by the κ that cross-validation over the training trials' own
   author folds chooses (``core/calibration/calibration_shrinkage.py``), applied to the held-out
   fold.
5. **The final part** (``comparison_model.ComparisonPart``): learned on all compared trials;
   the calibration **cross-fitted** — fitted on the trials' held-out raw scores of step 4, not
   on scores of trials the method learned from, so a method that learns is not calibrated on
   its own optimism — shrunk by the κ cross-validation over the folds chooses, and bounded by
   the ELUB of the cross-validated LRs, overall and per band of questioned length, as TAVeer's
   and LambdaG's are. Every coefficient stays within what the model reader accepts
   (``core/calibration/calibration.py``), so a validation never writes a model the program refuses.
6. **Seed spread** of a non-deterministic method: the features of the first repeat's trials
   (at most ``SPREAD_TRIALS``) again with each of ``SPREAD_SEEDS`` other method seeds, put in
   place of the validation's own in the trials' features, and step 4 again on *all* the
   trials; the lowest and highest AUC and Cllr over those seeds and the validation's own (the
   reported figures) are reported. Every value is thus the reported figure on the same trials
   with the same folds, differing only in the redrawn trials' seeds, and the reported figure
   always lies within its spread. (Before, the other seeds' figures were taken on the redrawn
   trials alone, each fold calibrated on a fifth as many trials, beside the own seed's figures
   on all repeats: a different, harder measurement, which put IM's reported AUC 0.890 outside
   its "seed spread" 0.820–0.868.) Cost: ``SPREAD_SEEDS`` × min(``SPREAD_TRIALS``, first
   repeat's trials) more feature computations (with 3 repeats of 200+ trials, about as many as
   the validation's) and ``SPREAD_SEEDS`` more rounds of step 4.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import QualityInputs, cllr
from taveer_desktop.core.calibration.score_measures import roc_auc
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.processes import default_workers, in_processes
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.methods.systems.catalogue import comparison_method
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.methods.systems.comparison_calibration import (
    QualityOf,
    cross_fitted_calibration,
    cross_validated,
    finite_scores,
)
from taveer_desktop.core.methods.systems.comparison_model import (
    ComparisonPart,
    check_impostor_size,
    encode_impostors,
)
from taveer_desktop.core.methods.systems.comparison_trials import (
    Impostors,
    PoolKey,
    impostors_of,
    trial_case,
)
from taveer_desktop.core.trials.folds import Ranges, quality_inputs
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.trials.validation_trials import TrialSet

RENEW_AFTER_CHUNKS = (
    12  # helpers renewed after this many chunks each (``core/ground/processes.py``)
)
SPREAD_SEEDS = 3  # method seeds besides the validation's own (non-deterministic methods)
SPREAD_TRIALS = 200  # at most this many trials of the first repeat
SPREAD_SEED_OFFSET = 1_000_003  # the other seeds: seed + k × this (far from the repeats' seeds)

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
    found = work.method.features_many(  # the chunk's trials at once where the method can
        [
            (case, work.impostors.of(key), np.random.default_rng(list(seed)))
            for _, case, key, seed in tasks
        ]
    )
    for (row, *_), vector in zip(tasks, found, strict=True):
        if isinstance(vector, CannotCompare):
            out.append((row, str(vector) or "the method cannot compare these texts"))
        else:
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
        in_processes(
            _in_worker, chunks, take, progress, n_workers, [__name__], _start, (work,),
            chunks_per_worker=RENEW_AFTER_CHUNKS,
        )  # fmt: skip
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
    cv_raw, cv_lr = cross_validated(method, features.matrix, features.compared, trials, quality)
    compared = features.compared & np.isfinite(cv_lr)
    learned = method.learn(features.matrix[compared], truth[compared])
    raw = finite_scores(
        method, method.score(features.matrix[compared], learned), int(compared.sum())
    )
    calibration = cross_fitted_calibration(
        cv_raw, cv_lr, compared, trials, quality, declared_bands(settings)
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
    quality: QualityOf,
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
    mine = features.compared & np.isfinite(cv_log10_lr)
    if mine.any():  # the validation's own seed: the reported figures themselves
        values.append(_auc_cllr(cv_log10_lr[mine], trials.truth[mine]))
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
        matrix, compared = features.matrix.copy(), features.compared.copy()
        if matrix.shape[1] != found.matrix.shape[1]:
            continue
        matrix[rows], compared[rows] = found.matrix, found.compared
        try:
            _, lr = cross_validated(work.method, matrix, compared, trials, quality)
        except InputError:
            continue
        ok = np.isfinite(lr)
        if ok.any():
            values.append(_auc_cllr(lr[ok], trials.truth[ok]))
    aucs, cllrs = [v[0] for v in values], [v[1] for v in values]
    return {
        "auc": [round(min(aucs), 6), round(max(aucs), 6)] if values else None,
        "cllr": [round(min(cllrs), 6), round(max(cllrs), 6)] if values else None,
        "seeds": len(values),
        "trials": len(rows),
    }
