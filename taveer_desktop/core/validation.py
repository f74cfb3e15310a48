"""Validation under the conditions of the case, on a relevant population.

The protocol (``docs/validation.md`` states it for readers):

1. **Folds by author.** The population's authors are shuffled with the seed and dealt into
   ``folds`` groups (at most one fold per two authors). Every trial is built from the authors
   of one fold, so no author is on both sides of a cross-validation split.
2. **Trials built like the case.** A same-author trial takes one document of an author as the
   questioned text and the author's other documents (in a seeded order) as the known text; a
   different-author trial keeps that same known text and takes as questioned text a document
   of another author of the same fold. The two are made in pairs, so the classes are balanced;
   at most ``max_trials`` trials are made (half of each class), chosen with the seed. The
   questioned text is cut to ``questioned_chars`` from a seeded starting sentence, the known
   text to ``known_chars`` over its documents, both at the sentence boundary nearest the
   target length; a document (or an author's other documents together) shorter than
   ``MIN_LENGTH_SHARE`` of the target cannot represent the case and gives no trial. Trials are
   counted from the documents' integer streams (``CodedDocument.features``); no text is
   extracted again.
3. **Cross-validation.** For each fold: thresholds, ensemble and logistic calibration learned on
   the trials of the other folds, the held-out fold's trials scored with them. The pooled
   held-out likelihood ratios give the figures: Cllr, Cllr_min (PAV), Cllr_cal, EER, AUC,
   accuracy, rates of misleading evidence, ECE — each with a 95 % bootstrap interval over
   authors (the known author of a trial is the resampled unit).
4. **The final model** is fitted on all trials, its likelihood ratios bounded as below, its
   validated conditions measured from the trials' lengths and distances, and a summary of this
   validation written into it (key ``validation``).

**The bound.** Every calibration is clipped to the empirical lower and upper bound (ELUB) of
Vergeer et al. (2016, *Science & Justice* 56(6):482–491; ``core/elub.py``): the range of log10
LR within which trials show the system doing no worse than one that always says LR = 1, with
one misleading trial of each class added. In each fold the bound is the ELUB of the fold's
training trials' own log10 LRs (as ``taveer train`` does; the logistic map has two parameters,
so in-sample LRs are close to held-out ones). The **final model's** bound is the ELUB of the
**cross-validated** log10 LRs of all trials — each trial's LR from the model learned without its
fold, within that fold's bound — which are the LRs the record lists and its figures are
computed from, so anyone can recompute the bound from the record. With balanced classes (as
here) the ELUB is never wider than ±log10 n (n trials a class), the count rule used before.

**The minimum.** Fewer than ``MIN_TRIALS_PER_CLASS`` (20) trials of either class is refused.

Acceptance criteria are fixed in ``ValidationSettings`` before any trial is built and recorded,
with the time they were set, beside the figures and whether each was met.
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np

from taveer_desktop import __version__
from taveer_desktop.core.atomic_file import write_text_atomically
from taveer_desktop.core.calibration import (
    cllr,
    fit_bounded_calibration,
    misleading_rates,
    pav_log10_lr,
    reliability_bins,
    with_elub,
)
from taveer_desktop.core.conditions import LengthRange, ValidatedConditions
from taveer_desktop.core.corpus import Corpus
from taveer_desktop.core.elub import ELUB_REFERENCE
from taveer_desktop.core.ensemble import (
    ensemble_similarities,
    search_ensembles,
    thresholds_for,
    training_similarities,
)
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.evaluation import roc_auc
from taveer_desktop.core.feature_counts import DocumentFeatures
from taveer_desktop.core.feature_stream import CodedDocument
from taveer_desktop.core.features import CATEGORY_IDS
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import THRESHOLD_METHODS, Model
from taveer_desktop.core.population import Population, PopulationDocument
from taveer_desktop.core.processes import worker_context
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.training import CorpusDistances, fit_model

# the sentences first … stop - 1 of a document: the part of it a trial used
Cut: TypeAlias = tuple[CodedDocument, int, int]

MIN_TRIALS_PER_CLASS = 20
MIN_LENGTH_SHARE = 0.8
DEFAULT_FOLDS = 5
DEFAULT_MAX_TRIALS = 5000
DEFAULT_BOOTSTRAP = 200
METHODS = ("taveer", "lambdag", "fusion")
METHOD_TITLES = {"taveer": "TAVeer", "lambdag": "LambdaG", "fusion": "TAVeer + LambdaG"}
RECORD_FORMAT = "taveer-validation-record"
RECORD_FORMAT_VERSION = 1
BOUND_RULE = (
    "log10 LR clipped to the empirical lower and upper bound (ELUB) of the cross-validated "
    "log10 LRs of all trials (one misleading trial of each class added; computed exactly): "
    f"{ELUB_REFERENCE}"
)
FIGURES = (
    "cllr",
    "cllr_min",
    "cllr_cal",
    "eer",
    "auc",
    "accuracy",
    "misleading_y",
    "misleading_n",
    "ece",
)


@dataclass(frozen=True)
class AcceptanceCriteria:
    """Limits set before the run; None: not a criterion."""

    max_cllr: float | None = None
    max_misleading: float | None = None  # both rates of misleading evidence at most this
    set_utc: str = ""

    @classmethod
    def now(
        cls, max_cllr: float | None = None, max_misleading: float | None = None
    ) -> AcceptanceCriteria:
        """Criteria set now (their time is recorded: before the run)."""
        return cls(max_cllr, max_misleading, _now())

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_cllr": self.max_cllr,
            "max_misleading": self.max_misleading,
            "set_utc": self.set_utc,
        }

    def assess(self, figures: dict[str, float]) -> dict[str, bool]:
        """Each criterion given, met or not (on the cross-validated figures)."""
        results = {}
        if self.max_cllr is not None:
            results["cllr"] = bool(figures["cllr"] <= self.max_cllr)
        if self.max_misleading is not None:
            results["misleading"] = bool(
                max(figures["misleading_y"], figures["misleading_n"]) <= self.max_misleading
            )
        return results


@dataclass(frozen=True)
class ValidationSettings:
    questioned_chars: int | None = None  # None: the whole document
    known_chars: int | None = None
    folds: int = DEFAULT_FOLDS
    max_trials: int = DEFAULT_MAX_TRIALS
    seed: int = 0
    method: str = "taveer"
    threshold_method: str = "median"
    bootstrap: int = DEFAULT_BOOTSTRAP
    criteria: AcceptanceCriteria = field(default_factory=AcceptanceCriteria)
    lambdag_order: int = 10  # the highest order tried (method lambdag or fusion)
    lambdag_samples: int = 30  # reference samples per trial

    def check(self) -> None:
        if self.method not in METHODS:
            raise InputError(
                f"unknown validation method {self.method!r} (use {', '.join(METHODS)})"
            )
        if self.threshold_method not in THRESHOLD_METHODS:
            raise InputError(f"unknown threshold method {self.threshold_method!r}")
        if not 1 <= self.lambdag_order <= 16 or self.lambdag_samples < 1:
            raise InputError("--lambdag-order must be 1 to 16 and --lambdag-samples at least 1")
        for name in ("questioned_chars", "known_chars"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InputError(f"{name.replace('_', '-')} must be a whole number ≥ 1")
        if self.folds < 2:
            raise InputError("cross-validation needs at least 2 folds")
        for name, value in (
            ("--accept-cllr", self.criteria.max_cllr),
            ("--accept-misleading", self.criteria.max_misleading),
        ):
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise InputError(f"{name} must be a number ≥ 0")
        if self.max_trials < 2 * MIN_TRIALS_PER_CLASS:
            raise InputError(
                f"--max-trials must be at least {2 * MIN_TRIALS_PER_CLASS} "
                f"({MIN_TRIALS_PER_CLASS} per class)"
            )


@dataclass
class TrialSet:
    """The trials: who is on each side, the truth, the fold, the lengths and the distances."""

    known_author: list[str]
    questioned_author: list[str]
    truth: np.ndarray
    fold: np.ndarray
    questioned_chars: np.ndarray
    known_chars: np.ndarray
    distances: np.ndarray  # trials × 11, NaN where a category abstains
    folds: int
    candidates_same: int  # same-author trials the population allowed before the cap
    # the cut of each trial, for methods that read the texts' streams (LambdaG): questioned
    # (document, first, stop); known [(document, first, stop), …]
    questioned_cuts: list[Cut] = field(default_factory=list)
    known_cuts: list[list[Cut]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.truth)


# --- cutting ---------------------------------------------------------------------------------


def _run_chars(document: CodedDocument, first: int, count: int) -> int:
    if count == 0:
        return 0
    return document.spans[first + count - 1][1] - document.spans[first][0]


def nearest_cut(document: CodedDocument, n_chars: int, first: int = 0) -> int:
    """How many whole sentences from ``first`` come nearest to ``n_chars`` characters (at least
    one, and never past the document's end)."""
    within = document.sentences_within(n_chars, first)
    remaining = document.n_sentences - first
    if within >= remaining:
        return remaining
    if within == 0:
        return 1
    below = n_chars - _run_chars(document, first, within)
    above = _run_chars(document, first, within + 1) - n_chars
    return within + 1 if above < below else within


def questioned_cut(
    document: CodedDocument, n_chars: int | None, rng: np.random.Generator
) -> tuple[int, int]:
    """The sentences (first, stop) of a trial's questioned text: the whole document, or a run
    nearest to ``n_chars`` from a random sentence from which that much text remains."""
    if n_chars is None or document.n_chars <= n_chars:
        return 0, document.n_sentences
    ends = document.sentence_spans[:, 1]
    starts = document.sentence_spans[:, 0]
    room = np.flatnonzero(ends[-1] - starts >= n_chars)
    first = int(rng.choice(room)) if len(room) else 0
    return first, first + nearest_cut(document, n_chars, first)


def questioned_part(
    document: CodedDocument, n_chars: int | None, rng: np.random.Generator
) -> DocumentFeatures:
    """The features of ``questioned_cut``."""
    return document.features(*questioned_cut(document, n_chars, rng))


def known_cut(documents: list[CodedDocument], n_chars: int | None) -> list[Cut]:
    """The known text of a trial: the documents in the given order, the last one cut at the
    sentence boundary nearest to what remains of ``n_chars``; (document, first, stop) each."""
    if n_chars is None:
        return [(d, 0, d.n_sentences) for d in documents]
    parts, remaining = [], n_chars
    for document in documents:
        if remaining <= 0:
            break
        if document.n_chars <= remaining:
            parts.append((document, 0, document.n_sentences))
            remaining -= document.n_chars
        else:
            count = nearest_cut(document, remaining)
            parts.append((document, 0, count))
            remaining -= _run_chars(document, 0, count)
    return parts


def known_part(documents: list[CodedDocument], n_chars: int | None) -> DocumentFeatures:
    """The features of ``known_cut``."""
    return DocumentFeatures.combine(d.features(a, b) for d, a, b in known_cut(documents, n_chars))


def _long_enough(chars: int, target: int | None) -> bool:
    return target is None or chars >= MIN_LENGTH_SHARE * target


# --- trials ----------------------------------------------------------------------------------


def assign_folds(authors: list[str], folds: int, seed: int) -> tuple[dict[str, int], int]:
    """Authors shuffled with the seed and dealt round-robin into at most ``len // 2`` folds."""
    k = min(folds, len(authors) // 2)
    if k < 2:
        raise InputError(
            f"the population has {len(authors)} authors; cross-validation by author needs at "
            "least 4 (two folds of two)"
        )
    order = np.random.default_rng(seed).permutation(len(authors))
    return {authors[i]: position % k for position, i in enumerate(order)}, k


def build_trials(
    population: Population,
    settings: ValidationSettings,
    progress: Progress = NO_PROGRESS,
) -> TrialSet:
    """Balanced same- and different-author trials cut to the case's lengths (see the module)."""
    rng = np.random.default_rng(settings.seed)
    authors = population.authors
    fold_of, k = assign_folds(authors, settings.folds, settings.seed)
    docs = population.documents
    q_target, k_target = settings.questioned_chars, settings.known_chars

    def questioned_ok(document: PopulationDocument) -> bool:
        return _long_enough(document.coded.n_chars, q_target)

    candidates = []  # (author, index of the questioned document)
    for author in authors:
        total = sum(d.coded.n_chars for d in docs[author])
        for index, document in enumerate(docs[author]):
            if questioned_ok(document) and _long_enough(total - document.coded.n_chars, k_target):
                candidates.append((author, index))
    by_fold: dict[int, list[str]] = {f: [] for f in range(k)}
    for author in authors:
        if any(questioned_ok(d) for d in docs[author]):
            by_fold[fold_of[author]].append(author)
    usable = [
        c for c in candidates if len(by_fold[fold_of[c[0]]]) - (c[0] in by_fold[fold_of[c[0]]]) > 0
    ]
    n_candidates = len(usable)
    order = rng.permutation(n_candidates)[: settings.max_trials // 2]
    chosen = sorted((usable[i] for i in order), key=lambda c: (fold_of[c[0]], c[0], c[1]))
    n_pairs = len(chosen)
    if n_pairs < MIN_TRIALS_PER_CLASS:
        raise InputError(
            f"the population gives {n_pairs} same-author and {n_pairs} different-author trials "
            f"under these conditions (questioned {q_target or 'whole'}, known "
            f"{k_target or 'whole'} characters); at least {MIN_TRIALS_PER_CLASS} of each are "
            "needed: add authors or documents, or validate for shorter texts",
            population.source,
        )
    rows_known, rows_questioned, fold, q_cuts, k_cuts = [], [], [], [], []
    lengths = np.zeros((2 * n_pairs, 2), dtype=np.int64)
    distances = np.full((2 * n_pairs, len(CATEGORY_IDS)), np.nan)
    for p, (author, q_index) in enumerate(chosen):
        progress.check()
        others = [d.coded for i, d in enumerate(docs[author]) if i != q_index]
        others = [others[i] for i in rng.permutation(len(others))]
        known_parts = known_cut(others, k_target)
        known = DocumentFeatures.combine(d.features(a, b) for d, a, b in known_parts)
        rivals = [a for a in by_fold[fold_of[author]] if a != author]
        rival = rivals[int(rng.integers(len(rivals)))]
        rival_docs = [d for d in docs[rival] if questioned_ok(d)]
        pairs = (
            (author, docs[author][q_index].coded),
            (rival, rival_docs[int(rng.integers(len(rival_docs)))].coded),
        )
        for offset, (q_author, document) in enumerate(pairs):
            row = 2 * p + offset
            first, stop = questioned_cut(document, q_target, rng)
            questioned = document.features(first, stop)
            q_cuts.append((document, first, stop))
            k_cuts.append(known_parts)
            distances[row] = questioned.distances(known)
            lengths[row] = questioned.n_chars, known.n_chars
            rows_known.append(author)
            rows_questioned.append(q_author)
            fold.append(fold_of[author])
        if p % 25 == 0 or p == n_pairs - 1:
            progress.step(p + 1, n_pairs, "cutting trials")
    return TrialSet(
        known_author=rows_known,
        questioned_author=rows_questioned,
        truth=np.array([i % 2 == 0 for i in range(2 * n_pairs)]),
        fold=np.array(fold),
        questioned_chars=lengths[:, 0],
        known_chars=lengths[:, 1],
        distances=distances,
        folds=k,
        candidates_same=n_candidates,
        questioned_cuts=q_cuts,
        known_cuts=k_cuts,
    )


# --- learning and scoring --------------------------------------------------------------------


@dataclass(frozen=True)
class Learned:
    thresholds: np.ndarray
    members: np.ndarray
    ensemble: tuple[str, ...]
    calibration: Any


def learn(distances: np.ndarray, truth: np.ndarray, threshold_method: str) -> Learned:
    """Thresholds, the best ensemble and its bounded calibration, learned on these trials."""
    thetas = thresholds_for(threshold_method, distances, truth)
    similarities = training_similarities(distances, thetas)
    search = search_ensembles(similarities, truth)
    members = np.array([[CATEGORY_IDS.index(c) for c in search.best]])
    scores = ensemble_similarities(similarities, members)[:, 0]
    return Learned(thetas, members, search.best, fit_bounded_calibration(scores, truth))


def score(learned: Learned, distances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ensemble similarity, bounded log10 LR) of trials under a learned model."""
    similarities = training_similarities(distances, learned.thresholds)
    scores = ensemble_similarities(similarities, learned.members)[:, 0]
    return scores, np.asarray(learned.calibration.log10_lr(scores), dtype=float)


def _fold_work(
    distances: np.ndarray, truth: np.ndarray, held_out: np.ndarray, threshold_method: str
) -> tuple[np.ndarray, np.ndarray]:
    learned = learn(distances[~held_out], truth[~held_out], threshold_method)
    return score(learned, distances[held_out])


def cross_validate(
    trials: TrialSet,
    threshold_method: str,
    workers: int | None = 1,
    progress: Progress = NO_PROGRESS,
) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (score, bounded log10 LR) of every trial: each fold scored by what was learned
    on the others. With ``workers`` > 1 the folds go to a process pool; results are placed by
    fold, so they equal a single-process run."""
    scores, log10_lr = np.zeros(len(trials)), np.zeros(len(trials))
    masks = [trials.fold == f for f in range(trials.folds)]
    n_workers = min(max(1, workers or os.cpu_count() or 1), trials.folds)
    if n_workers == 1:
        for f, held_out in enumerate(masks):
            scores[held_out], log10_lr[held_out] = _fold_work(
                trials.distances, trials.truth, held_out, threshold_method
            )
            progress.step(f + 1, trials.folds, "cross-validating by author")
        return scores, log10_lr
    context = worker_context([__name__])
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context) as pool:
        pending = {
            pool.submit(_fold_work, trials.distances, trials.truth, held_out, threshold_method): f
            for f, held_out in enumerate(masks)
        }
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                progress.check()
                for future in finished:
                    f = pending.pop(future)
                    scores[masks[f]], log10_lr[masks[f]] = future.result()
                    progress.step(trials.folds - len(pending), trials.folds, "cross-validating")
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return scores, log10_lr


def equal_error_rate(values: np.ndarray, truth: np.ndarray) -> float:
    """The error rate where misses (same-author below a threshold) equal false alarms."""
    values, truth = np.asarray(values, dtype=float), np.asarray(truth, dtype=bool)
    thresholds = np.concatenate(([-np.inf], np.unique(values), [np.inf]))
    same, different = np.sort(values[truth]), np.sort(values[~truth])
    miss = np.searchsorted(same, thresholds, side="left") / len(same)
    false_alarm = 1.0 - np.searchsorted(different, thresholds, side="left") / len(different)
    i = int(np.argmin(np.abs(miss - false_alarm)))
    return float((miss[i] + false_alarm[i]) / 2.0)


def figures_of(scores: np.ndarray, log10_lr: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    """Every figure of a set of scored trials."""
    value = cllr(log10_lr, truth)
    minimum = cllr(pav_log10_lr(log10_lr, truth), truth)
    misleading_y, misleading_n = misleading_rates(log10_lr, truth)
    return {
        "cllr": value,
        "cllr_min": minimum,
        "cllr_cal": value - minimum,
        "eer": equal_error_rate(log10_lr, truth),
        "auc": roc_auc(log10_lr, truth),
        "accuracy": float(np.mean((scores > 0.5) == truth)),
        "misleading_y": misleading_y,
        "misleading_n": misleading_n,
        "ece": reliability_bins(log10_lr, truth)[1],
    }


def bootstrap_intervals(
    scores: np.ndarray,
    log10_lr: np.ndarray,
    truth: np.ndarray,
    units: list[str],
    resamples: int,
    seed: int,
    progress: Progress = NO_PROGRESS,
) -> dict[str, tuple[float, float]]:
    """95 % percentile intervals of every figure, resampling ``units`` (authors) with
    replacement; a resample lacking one class is drawn again (at most ``3 × resamples`` draws)."""
    names = sorted(set(units))
    index = {name: i for i, name in enumerate(names)}
    unit_of = np.array([index[u] for u in units])
    members = [np.flatnonzero(unit_of == i) for i in range(len(names))]
    rng = np.random.default_rng(seed)
    collected: dict[str, list[float]] = {name: [] for name in FIGURES}
    draws = 0
    while len(collected["cllr"]) < resamples and draws < 3 * resamples:
        if draws % 20 == 0:
            progress.step(len(collected["cllr"]), resamples, "bootstrap over authors")
        draws += 1
        picked = rng.integers(len(names), size=len(names))
        rows = np.concatenate([members[i] for i in picked])
        t = truth[rows]
        if t.all() or not t.any():
            continue
        for name, value in figures_of(scores[rows], log10_lr[rows], t).items():
            collected[name].append(value)
    return {
        name: (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5)))
        if v
        else (math.nan, math.nan)
        for name, v in collected.items()
    }


@dataclass
class ValidationResult:
    """The final model and the validation record (a JSON-ready dictionary)."""

    model: Model
    record: dict[str, Any]
    trials: TrialSet
    cv_scores: np.ndarray
    cv_log10_lr: np.ndarray

    @property
    def figures(self) -> dict[str, float]:
        figures: dict[str, float] = self.record["figures"]
        return figures

    @property
    def acceptance(self) -> dict[str, Any]:
        acceptance: dict[str, Any] = self.record["acceptance"]
        return acceptance


def _round(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), 6)


def _population_text(population: Population) -> str:
    text = f"the population {population.name!r}"
    if population.description.strip():
        text += f" ({population.description.strip()})"
    return text


def validate(
    population: Population,
    settings: ValidationSettings,
    name: str | None = None,
    genre: str | None = None,
    lexicon: Lexicon | None = None,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
) -> ValidationResult:
    """Build the trials, cross-validate by author, fit the final model; see the module.
    With ``workers`` > 1 the folds are learned in that many processes (same result)."""
    started = time.perf_counter()
    settings.check()
    criteria = settings.criteria
    if not criteria.set_utc:
        criteria = replace(criteria, set_utc=_now())
    lexicon = lexicon or default_lexicon()
    trials = build_trials(population, settings, progress)
    truth = trials.truth
    cv_scores, cv_lr = cross_validate(trials, settings.threshold_method, workers, progress)
    taveer_cv_lr = cv_lr
    second = None
    if settings.method != "taveer":  # LambdaG or the fusion: core/lambdag_validation.py
        from taveer_desktop.core.lambdag_validation import second_opinion

        second = second_opinion(population, trials, settings, cv_lr, progress, workers)
        cv_scores, cv_lr = second.cv_scores, second.cv_log10_lr
    figures = figures_of(cv_scores, cv_lr, truth)
    intervals = bootstrap_intervals(
        cv_scores, cv_lr, truth, trials.known_author, settings.bootstrap, settings.seed, progress
    )
    met = criteria.assess(figures)
    seconds = time.perf_counter() - started
    population_text = _population_text(population)
    model = fit_model(
        CorpusDistances(
            [f"trial-{i + 1}" for i in range(len(trials))],
            trials.distances,
            truth,
            trials.questioned_chars,
            trials.known_chars,
        ),
        name or f"{METHOD_TITLES[settings.method]} model validated on {population.name}",
        Corpus(
            path=Path(population.source),
            name=population.name,
            layout="population",
            case_ids=[],
            truth={},
            sha256=population.sha256,
        ),
        settings.threshold_method,
        lexicon,
        seconds,
        genre=genre,
        population=population_text,
    )
    assert model.calibration is not None and model.conditions is not None
    calibration = with_elub(model.calibration, taveer_cv_lr, truth)
    model = replace(
        model, calibration=calibration, conditions=_with_targets(model.conditions, settings)
    )
    low, high = (
        second.stated_bounds
        if second is not None
        else (calibration.min_log10_lr, calibration.max_log10_lr)
    )
    acceptance = {
        "criteria": criteria.to_dict(),
        "results": met,
        "met": all(met.values()) if met else None,
    }
    summary = {
        "population": {
            "name": population.name,
            "description": population.description,
            "sha256": population.sha256,
            "authors": len(population.documents),
            "documents": population.n_documents,
        },
        "protocol": _protocol(settings, trials),
        "figures": {k: _round(v) for k, v in figures.items()},
        "intervals": {k: [_round(a), _round(b)] for k, (a, b) in intervals.items()},
        "acceptance": acceptance,
        "bound": {
            "min_log10_lr": low,
            "max_log10_lr": high,
            "rule": BOUND_RULE,
            "trials_same": int(truth.sum()),
            "trials_different": int((~truth).sum()),
        },
    }
    if second is not None:
        summary.update(second.summary())
    model = replace(model, extra={**model.extra, "validation": summary})
    if second is not None:
        model = second.attach(model)
    record = {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "created_utc": _now(),
        "software_version": __version__,
        **summary,
        "population": {**summary["population"], "source": population.source},
        "model": {"name": model.name, "sha256": model.sha256, "ensemble": list(model.ensemble)},
        "seconds": round(time.perf_counter() - started, 3),
        "warnings": list(population.warnings),
        "trials": [
            {
                "known_author": trials.known_author[i],
                "questioned_author": trials.questioned_author[i],
                "same": bool(truth[i]),
                "fold": int(trials.fold[i]),
                "questioned_chars": int(trials.questioned_chars[i]),
                "known_chars": int(trials.known_chars[i]),
                "score": round(float(cv_scores[i]), 6),
                "log10_lr": round(float(cv_lr[i]), 6),
            }
            for i in range(len(trials))
        ],
    }
    if second is not None:
        second.annotate(record)
    return ValidationResult(model, record, trials, cv_scores, cv_lr)


def _with_targets(
    conditions: ValidatedConditions, settings: ValidationSettings
) -> ValidatedConditions:
    """The trials were cut to the case's lengths at sentence boundaries, so they fall a little
    either side of them; the central ranges are widened to include the target lengths
    themselves, so the case the trials were built for lies within the validated conditions."""

    def widen(lengths: LengthRange, target: int | None) -> LengthRange:
        if target is None:
            return lengths
        return LengthRange(
            min(lengths.shortest, target), min(lengths.low, target), max(lengths.high, target)
        )

    return replace(
        conditions,
        questioned_chars=widen(conditions.questioned_chars, settings.questioned_chars),
        known_chars=widen(conditions.known_chars, settings.known_chars),
    )


def _protocol(settings: ValidationSettings, trials: TrialSet) -> dict[str, Any]:
    return {
        "method": settings.method,
        "threshold_method": settings.threshold_method,
        "questioned_chars": settings.questioned_chars,
        "known_chars": settings.known_chars,
        "min_length_share": MIN_LENGTH_SHARE,
        "folds": trials.folds,
        "folds_asked": settings.folds,
        "max_trials": settings.max_trials,
        "seed": settings.seed,
        "bootstrap": settings.bootstrap,
        "trials_same": int(trials.truth.sum()),
        "trials_different": int((~trials.truth).sum()),
        "same_author_trials_possible": trials.candidates_same,
        "min_trials_per_class": MIN_TRIALS_PER_CLASS,
        "cut": "at the sentence boundary nearest the target length",
        "pairing": "each same-author trial paired with a different-author trial "
        "with the same known text",
        "folds_by": "author (trials are built within a fold)",
    }


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def record_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def save_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a validation record atomically (never half-written; a ``FileWriteError`` names it)."""
    write_text_atomically(path, record_json(record))


def settings_dict(settings: ValidationSettings) -> dict[str, Any]:
    return asdict(settings)
