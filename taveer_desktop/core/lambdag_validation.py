"""LambdaG and its fusion with TAVeer, validated on the trials TAVeer is validated on.

``core/validation.py`` builds the trials (cut like the case, author-disjoint folds) and
cross-validates TAVeer; for ``--method lambdag`` or ``--method fusion`` it hands the same trials
to ``second_opinion``:

1. **λG of every trial, every order.** Each trial's questioned and known texts are the same
   sentences TAVeer counted (``TrialSet.questioned_cuts`` / ``known_cuts``), masked
   (``core/lambdag_masking.py``). The reference population of a trial is the population's
   documents by authors of the *other* folds — never the trial's own authors, as in a case,
   where the population does not contain the candidate. Reference samples hold as many
   sentences as the trial's known text; the trials of one fold whose known texts have the same
   number of sentences (to within 2.5 %, ``sample_size``; to within 5 % when the declared known
   lengths are a range, ``RANGE_SAMPLE_STEP``: the known texts then have many more sizes, and
   building the samples was half of LambdaG's time) share their r samples (drawn with a
   generator seeded by the seed, the fold and that number), which is what makes 2,000 trials
   take seconds rather than minutes.
   Both trials of a pair share the known text, so they share its model. The population's
   sentences are kept as masked tokens (two bytes a position, ``SentenceStream``); n-gram keys
   (sixteen bytes a position and order) are made only for the texts being modelled or scored
   — a sample, a known text, a questioned text — and dropped with them, so memory grows with
   the population's tokens, not with tokens × order.
2. **Order chosen by validation, calibration.** For each fold, on the trials of the other folds:
   the order 1 … N whose logistically calibrated λG has the lowest Cllr, and that calibration
   bounded, as TAVeer's, by the ELUB of its own training LRs; the held-out fold's trials are
   scored with them.
3. **Fusion.** For each fold, the logistic-regression fusion (``core/fusion.py``) of TAVeer's and
   LambdaG's cross-validated log10 LRs is learned on the other folds and applied to the held-out
   one (bounded by the ELUB of its training trials' fused LRs).
4. **The final model**: order and calibration from all trials; fusion from all cross-validated
   log10 LRs; each bounded, as TAVeer's final model, by the ELUB of its method's
   cross-validated LRs (``stated_bounds``); the reference population (all its authors) stored
   in the model (``core/lambdag_model.py``).

The figures of every method (TAVeer alone, LambdaG alone and, for the fusion, the fusion) come
from the same held-out trials and go into the record side by side.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration import (
    Calibration,
    QualityInputs,
    fit_bounded_calibration,
    with_elub,
)
from taveer_desktop.core.cross_validation import Ranges, fold_masks, quality_inputs
from taveer_desktop.core.elub import elub
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.evaluation import posterior_scores
from taveer_desktop.core.feature_stream import CodedDocument
from taveer_desktop.core.fusion import Fusion, fit_fusion
from taveer_desktop.core.kneser_ney import (
    END,
    KneserNeyModel,
    ModelStack,
    SentenceStream,
)
from taveer_desktop.core.lambdag import ReferencePool, score_questioned, vocabulary_size_of
from taveer_desktop.core.lambdag_masking import join_sentences, masked_sentences
from taveer_desktop.core.lambdag_model import LambdaGPart, encode_reference
from taveer_desktop.core.length_bands import band_bounds
from taveer_desktop.core.model import MAX_MODEL_BYTES, Model
from taveer_desktop.core.population import Population
from taveer_desktop.core.processes import worker_context
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.validation_figures import figures_of
from taveer_desktop.core.validation_settings import ValidationSettings, declared_bands
from taveer_desktop.core.validation_trials import TrialSet

FUSED = ("taveer", "lambdag")
SAMPLE_STEP = 1.05
RANGE_SAMPLE_STEP = 1.10
# the model file must stay readable (``model.MAX_MODEL_BYTES``): room for everything else
MAX_REFERENCE_BYTES = MAX_MODEL_BYTES - 1024 * 1024


# --- λG of the trials ------------------------------------------------------------------------


class _DocumentSentences:
    """The masked sentences of every population document, as token streams (two bytes a
    position); n-gram keys are made from them only for the texts being modelled or scored."""

    def __init__(self, population: Population):
        self.by_document: dict[int, SentenceStream] = {}
        self.by_author: dict[str, list[SentenceStream]] = {}
        for author in population.authors:
            for document in population.documents[author]:
                stream = SentenceStream.of(masked_sentences(document.coded))
                self.by_document[id(document.coded)] = stream
                self.by_author.setdefault(author, []).append(stream)

    def cut(self, document: CodedDocument, first: int, stop: int) -> SentenceStream:
        return self.by_document[id(document)].select(np.arange(first, stop))

    def vocabulary_size(self) -> int:
        return vocabulary_size_of(np.concatenate([s.tokens for s in self.by_document.values()]))

    def pool(self, authors: list[str]) -> SentenceStream:
        """The reference population of these authors (sentences with at least one token)."""
        stream = SentenceStream.concatenate([s for a in authors for s in self.by_author[a]])
        return stream.select(np.flatnonzero(stream.sentence_lengths() > 1))


@dataclass(frozen=True)
class TrialScores:
    raw: np.ndarray  # (trials, N) λG at every order
    seconds: float
    reference_models: int


# one pair's texts as tokens: (pair index, known text, questioned text of row 2p, of row 2p + 1)
_PairTexts = tuple[int, SentenceStream, SentenceStream, SentenceStream]


@dataclass(frozen=True)
class _FoldJob:
    """Everything one fold's λG needs, as tokens (a few MB, sent to a worker process whole):
    the reference population of the fold (the other folds' authors) and, per shared sample
    size, the pairs whose known texts have about that many sentences."""

    fold: int
    reference: SentenceStream
    groups: tuple[tuple[int, tuple[_PairTexts, ...]], ...]
    seed: int  # the repeat's seed


def _score_fold(
    job: _FoldJob,
    order: int,
    samples: int,
    vocabulary: int,
    on_pair: Callable[[], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """(trial rows, λG of each at every order, reference models made) of one fold; the same
    in any process, because every sample's generator is seeded by (the repeat's seed, fold,
    sample size)."""
    pool = ReferencePool(job.reference, order, vocabulary)
    rows: list[int] = []
    values: list[np.ndarray] = []
    made = 0
    for n_sentences, pairs in job.groups:
        rng = np.random.default_rng([job.seed, job.fold, n_sentences])
        references = ModelStack(pool.sample_models(n_sentences, samples, rng))
        made += references.size
        for pair, known, first, second in pairs:
            known_model = KneserNeyModel(known.keys(order), vocabulary)
            for row, questioned in ((2 * pair, first), (2 * pair + 1, second)):
                rows.append(row)
                values.append(
                    score_questioned(known_model, references, questioned.keys(order)).by_order
                )
            if on_pair is not None:
                on_pair()
    return np.array(rows, dtype=np.int64), np.array(values).reshape(len(rows), order), made


def lambdag_trial_scores(
    population: Population,
    trials: TrialSet,
    order: int,
    samples: int,
    seed: int,
    fold_of_author: dict[str, int] | None = None,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    sample_step: float = SAMPLE_STEP,
) -> TrialScores:
    """λG of every trial at every order 1 … ``order`` (see the module, step 1). The trials of
    several repeats are scored fold by fold of each repeat, with its own folds and the seed
    ``seed + repeat``. With ``workers`` > 1 the folds of all repeats are scored in that many
    processes (the same values)."""
    started = time.perf_counter()
    documents = _DocumentSentences(population)
    vocabulary = documents.vocabulary_size()
    repeat_of = trials.repeat if len(trials.repeat) == len(trials) else np.zeros(len(trials), int)
    folds_by_repeat: dict[int, dict[str, int]] = {}
    for row in range(len(trials)):
        mine = folds_by_repeat.setdefault(int(repeat_of[row]), {})
        for author in (trials.known_author[row], trials.questioned_author[row]):
            mine[author] = int(trials.fold[row])
    if fold_of_author is not None:
        folds_by_repeat = {r: fold_of_author for r in folds_by_repeat}
    n_pairs = len(trials) // 2

    def texts(p: int) -> _PairTexts:
        known = [documents.cut(d, a, b) for d, a, b in trials.known_cuts[2 * p]]
        first, second = (documents.cut(*trials.questioned_cuts[2 * p + i]) for i in (0, 1))
        return p, SentenceStream.concatenate(known), first, second

    pairs = [texts(p) for p in range(n_pairs)]  # as tokens: keys are made when scored
    groups: dict[tuple[int, int, int], list[_PairTexts]] = {}
    for pair in pairs:
        size = sample_size(pair[1].n_sentences, sample_step)
        row = 2 * pair[0]
        groups.setdefault((int(repeat_of[row]), int(trials.fold[row]), size), []).append(pair)
    folds = sorted({(r, fold) for r, fold, _ in groups})

    def job(key: tuple[int, int]) -> _FoldJob:
        repeat, fold = key
        fold_of = folds_by_repeat[repeat]
        others = [a for a in population.authors if fold_of.get(a, -1) != fold]
        return _FoldJob(
            fold,
            documents.pool(others),
            tuple((n, tuple(g)) for (r, f, n), g in sorted(groups.items()) if (r, f) == key),
            seed + repeat,
        )

    raw = np.zeros((len(trials), order))
    made = done = 0
    n_workers = min(max(1, workers or os.cpu_count() or 1), len(folds))
    if n_workers == 1:

        def on_pair() -> None:
            nonlocal done
            done += 1
            progress.step(done, n_pairs, "LambdaG: scoring the trials")

        for fold in folds:  # one fold's reference population at a time
            rows, values, count = _score_fold(job(fold), order, samples, vocabulary, on_pair)
            raw[rows], made = values, made + count
        return TrialScores(raw, time.perf_counter() - started, made)
    context = worker_context([__name__])
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context) as pool:
        pending = {
            pool.submit(_score_fold, job(fold), order, samples, vocabulary): fold for fold in folds
        }
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                progress.check()
                for future in finished:
                    pending.pop(future)
                    rows, values, count = future.result()
                    raw[rows], made = values, made + count
                    done += len(rows) // 2
                    progress.step(done, n_pairs, "LambdaG: scoring the trials")
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return TrialScores(raw, time.perf_counter() - started, made)


def sample_size(n_sentences: int, step_factor: float = SAMPLE_STEP) -> int:
    """The number of sentences of the reference samples for a known text of ``n_sentences``:
    the same, rounded to the nearest step of a 5 % geometric ladder (1, 2, …, 20, 21, 22, 23,
    24, 26, …), so that the trials of a fold share their samples (at most 2.5 % off)."""
    if n_sentences <= 1:
        return max(n_sentences, 1)
    step = round(math.log(n_sentences) / math.log(step_factor))
    return max(1, round(step_factor**step))


# --- order, calibration, fusion --------------------------------------------------------------


def choose_order(
    raw: np.ndarray, truth: np.ndarray, quality: QualityInputs | None = None
) -> tuple[int, Calibration]:
    """The order whose calibrated λG has the lowest Cllr on these trials, and its calibration
    (with ``quality``, length terms; bounded by the ELUB of its own LRs on these trials)."""
    best: tuple[float, int, Calibration] | None = None
    for n in range(1, raw.shape[1] + 1):
        calibration = fit_bounded_calibration(raw[:, n - 1], truth, quality)
        value = calibration.training_cllr
        if value is not None and math.isfinite(value) and (best is None or value < best[0]):
            best = (value, n, calibration)
    assert best is not None
    return best[1], best[2]


def bounded_fusion(
    both: np.ndarray, truth: np.ndarray, bounding_lrs: np.ndarray | None = None
) -> Fusion:
    """The fusion fitted on these trials, clipped to the ELUB of ``bounding_lrs`` (default:
    its own fused LRs on them)."""
    fitted = fit_fusion(FUSED, both, truth)
    bounds = elub(fitted.log10_lr(both) if bounding_lrs is None else bounding_lrs, truth)
    return replace(fitted, min_log10_lr=bounds.lower, max_log10_lr=bounds.upper)


@dataclass
class SecondOpinion:
    """LambdaG (and the fusion) cross-validated on the trials, and the final fitted parts."""

    method: str
    truth: np.ndarray
    cv_by_method: dict[str, np.ndarray]
    raw: np.ndarray
    fold_orders: list[int]
    part: LambdaGPart
    fusion: Fusion | None
    lambdag_seconds: float
    reference_models: int
    reference_sentences: int

    @property
    def cv_log10_lr(self) -> np.ndarray:
        return self.cv_by_method[self.method]

    @property
    def stated_bounds(self) -> tuple[float | None, float | None]:
        """(lower, upper) log10 LR bound of the stated method's final model."""
        if self.method == "fusion" and self.fusion is not None:
            return self.fusion.min_log10_lr, self.fusion.max_log10_lr
        return self.part.calibration.min_log10_lr, self.part.calibration.max_log10_lr

    @property
    def cv_scores(self) -> np.ndarray:
        return posterior_scores(self.cv_log10_lr)

    def figures_by_method(self) -> dict[str, dict[str, float | None]]:
        out = {}
        for method, log10_lr in self.cv_by_method.items():
            scores = posterior_scores(log10_lr)
            figures = figures_of(scores, log10_lr, self.truth)
            out[method] = {
                k: None if not math.isfinite(v) else round(float(v), 6) for k, v in figures.items()
            }
        return out

    def summary(self) -> dict[str, Any]:
        """What the record and the model's ``validation`` say beyond TAVeer's summary."""
        n = len(self.truth)
        return {
            "methods": self.figures_by_method(),
            "lambdag": {
                "max_order": int(self.raw.shape[1]),
                "order": self.part.order,
                "fold_orders": self.fold_orders,
                "samples": self.part.samples,
                "reference": "per trial: the population's authors of the other folds; "
                "in the final model: all its authors",
                "reference_sentences": self.reference_sentences,
                "reference_models": self.reference_models,
                "seconds": round(self.lambdag_seconds, 3),
                "seconds_per_trial": round(self.lambdag_seconds / max(n, 1), 6),
            },
        }

    def attach(self, model: Model) -> Model:
        """The model with its method, LambdaG part and (for the fusion) fusion."""
        extra = {**model.extra, "method": self.method, "lambdag": self.part.to_dict()}
        if self.fusion is not None:
            extra["fusion"] = self.fusion.to_dict()
        return replace(model, extra=extra)

    def annotate(self, record: dict[str, Any]) -> None:
        """Every trial's log10 LR by each method, beside the stated one."""
        for i, trial in enumerate(record["trials"]):
            trial["log10_lr_by_method"] = {
                m: round(float(v[i]), 6) for m, v in self.cv_by_method.items()
            }
            trial["lambdag_raw"] = round(float(self.raw[i, self.part.order - 1]), 6)


def second_opinion(
    population: Population,
    trials: TrialSet,
    settings: ValidationSettings,
    taveer_cv_log10_lr: np.ndarray,
    progress: Progress = NO_PROGRESS,
    workers: int | None = 1,
    ranges: Ranges | None = None,
) -> SecondOpinion:
    """LambdaG (and, for ``method == "fusion"``, the fusion) on the trials; see the module.
    With ``workers`` > 1 the folds' λG is computed in that many processes (the same values)."""
    truth = trials.truth
    everything = [
        sentence
        for author in population.authors
        for document in population.documents[author]
        for sentence in masked_sentences(document.coded)
        if len(sentence)
    ]
    stream = join_sentences(everything)
    reference = encode_reference(stream)
    if len(reference["data"]) > MAX_REFERENCE_BYTES:  # refused before the long part
        raise InputError(
            f"the population is too large for a LambdaG model to carry: its masked text takes "
            f"{len(reference['data']) / 1e6:.1f} MB, at most {MAX_REFERENCE_BYTES / 1e6:.1f} MB "
            "fit in a model file; validate with fewer authors or documents",
            population.source,
        )
    known = settings.known_chars
    scored = lambdag_trial_scores(
        population,
        trials,
        settings.lambdag_order,
        settings.lambdag_samples,
        settings.seed,
        progress=progress,
        workers=workers,
        sample_step=RANGE_SAMPLE_STEP if known is not None and known[0] < known[1] else SAMPLE_STEP,
    )
    raw = scored.raw
    lambdag_seconds, reference_models = scored.seconds, scored.reference_models
    ranges = dict(ranges or {})
    q_chars, k_chars = trials.questioned_chars, trials.known_chars

    def quality(rows: np.ndarray) -> QualityInputs | None:
        return quality_inputs(ranges, q_chars[rows], k_chars[rows])

    cv_lambdag = np.zeros(len(trials))
    fold_orders = []
    masks = fold_masks(trials)
    for train, held_out in masks:
        order, calibration = choose_order(raw[train], truth[train], quality(train))
        fold_orders.append(order)
        cv_lambdag[held_out] = calibration.log10_lr(
            raw[held_out, order - 1], q_chars[held_out], k_chars[held_out]
        )
    cv = {"taveer": np.asarray(taveer_cv_log10_lr, dtype=float), "lambdag": cv_lambdag}
    bands = declared_bands(settings)
    fusion = None
    if settings.method == "fusion":
        both = np.column_stack([cv["taveer"], cv["lambdag"]])
        fused = np.zeros(len(trials))
        for train, held_out in masks:
            fitted = bounded_fusion(both[train], truth[train])
            fused[held_out] = fitted.log10_lr(both[held_out])
        cv["fusion"] = fused
        fusion = bounded_fusion(both, truth, fused)
        if bands is not None:
            fusion = replace(fusion, bands=band_bounds(fused, truth, q_chars, bands))
    everything_rows = np.arange(len(trials))
    order, calibration = choose_order(raw, truth, quality(everything_rows))
    calibration = with_elub(calibration, cv_lambdag, truth, q_chars, bands)
    vocabulary = vocabulary_size_of(np.append(stream, END))
    part = LambdaGPart(
        order=order,
        samples=settings.lambdag_samples,
        seed=settings.seed,
        vocabulary_size=vocabulary,
        calibration=calibration,
        reference=reference,
        population_sha256=population.sha256,
        raw_range=(float(raw[:, order - 1].min()), float(raw[:, order - 1].max())),
    )
    return SecondOpinion(
        method=settings.method,
        truth=truth,
        cv_by_method=cv,
        raw=raw,
        fold_orders=fold_orders,
        part=part,
        fusion=fusion,
        lambdag_seconds=lambdag_seconds,
        reference_models=reference_models,
        reference_sentences=len(everything),
    )
