"""λG of every validation trial at every order, for LambdaG's validation
(``core/methods/lambdag/lambdag_validation.py``, step 1).

Each trial's questioned and known texts are the same sentences TAVeer counted
(``TrialSet.questioned_cuts`` / ``known_cuts``), masked
(``core/methods/lambdag/lambdag_masking.py``). The reference population of a trial is the
population's documents by authors of the *other* folds — never the trial's own authors. Reference
samples hold as many sentences as the trial's known text; the trials of one fold whose known texts
have the same number of sentences (to within 2.5 %, ``sample_size``; to within 5 % when the
declared known lengths are a range, ``RANGE_SAMPLE_STEP``) share their r samples, drawn with a
generator seeded by the seed, the fold and that number. The folds are scored in worker processes
when asked (``lambdag_trial_scores``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.features.feature_stream import CodedDocument
from taveer_desktop.core.ground.processes import default_workers, worker_context
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.methods.lambdag.kneser_ney import (
    KneserNeyModel,
    ModelStack,
    SentenceStream,
)
from taveer_desktop.core.methods.lambdag.lambdag import (
    ReferencePool,
    score_questioned,
    vocabulary_size_of,
)
from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_trials import TrialSet

SAMPLE_STEP = 1.05
RANGE_SAMPLE_STEP = 1.10


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
    n_workers = default_workers(workers, len(folds))
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
