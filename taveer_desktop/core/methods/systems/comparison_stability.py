"""A comparison system's raw score under the stability check's resamples
(``core/methods/taveer/stability.py``).

The stability check leaves out a random tenth of the questioned text's sentences and,
independently, of the known texts' sentences, in each of B seeded resamples. For a model whose
stated ratio is one of the ten comparison systems', that system scores every resample too:

- **the texts**: each resample's questioned and known texts are rebuilt from the sentences it
  kept — the very sentences TAVeer's resample kept (the same 0/1 weights; every method splits
  the prepared text into the same sentences, ``core/text.sentence_spans``). A sentence is taken
  with the white space that follows it up to the next sentence (a paragraph break stays a
  paragraph break), so a resample that keeps every sentence is exactly the run's text. A known
  document of which no sentence is kept is left out of that resample.
- **the score**: the model's comparison part scores the rebuilt texts as it scores the case
  (``ComparisonScorer.score``: the model's impostors, never a document of the case). A
  resample the method cannot compare (``CannotCompare``) has no score (NaN).
- **the random draws**: a method that draws at random (``MethodInfo.deterministic`` False:
  impostors, chunks, feature subsets) draws each resample with its own generator, seeded by the
  check's seed and the resample's number, ``(seed, b)``. Its resampled ratios then vary with
  both the sentences left out and the random draws, so a ratio that hangs on one seed shows as
  a wide interval. A deterministic method draws nothing; it is scored as the run scores it.

Scoring is one case per resample: milliseconds for the compression and profile methods, tenths
of a second for the impostor and unmasking methods (``benchmarks/comparison_stability.py``,
``docs/performance.md``); a method that ``BATCHES`` (Generalised Unmasking) scores ``BATCH``
resamples at once (``ComparisonScorer.score_many``, the same scores). When the first
resample's time says the rest would take longer than ``PROCESS_BEYOND_SECONDS`` in this
process, they are scored in worker processes (``core/ground/processes.py``: as many as
``default_workers`` allows, as a validation scores its trials); each resample's score is the
same wherever it is computed. Progress is reported per resample (per ``BATCH`` where scored
at once); cancelling takes effect between them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.text import sentence_spans
from taveer_desktop.core.ground.processes import default_workers, in_processes
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.methods.systems.comparison import CaseTexts
from taveer_desktop.core.methods.systems.comparison_verify import ComparisonScorer

PROCESS_BEYOND_SECONDS = 2.0  # the rest would take longer than this here: in processes
CHUNK = 5  # resamples per task sent to a worker process
BATCH = 25  # resamples scored together by a method that ``BATCHES`` (per task, too)


def _segments(prepared: str) -> tuple[str, ...]:
    """Each sentence of a prepared text with the white space up to the next sentence (the
    first also with what precedes it): joined, they are the text again."""
    starts = [start for start, _ in sentence_spans(prepared)]
    if not starts:
        return ()
    cuts = [0, *starts[1:], len(prepared)]
    return tuple(prepared[a:b] for a, b in pairwise(cuts))


@dataclass(frozen=True)
class SentenceSegments:
    """A case's prepared texts cut into sentences (see the module)."""

    questioned: tuple[str, ...]
    known: tuple[tuple[str, ...], ...]  # per known document, in order

    @classmethod
    def of(cls, known_texts: Sequence[str], unknown_text: str) -> SentenceSegments:
        return cls(
            _segments(prepare_text(unknown_text)),
            tuple(_segments(prepare_text(t)) for t in known_texts),
        )

    @property
    def counts(self) -> tuple[int, int]:
        """(questioned, known) sentence counts."""
        return len(self.questioned), sum(len(k) for k in self.known)

    def case(self, keep_unknown: np.ndarray, keep_known: np.ndarray) -> CaseTexts:
        """The texts rebuilt from the kept sentences (0/1 weights: one per questioned
        sentence, one per known sentence over the known documents in order)."""
        known: list[str] = []
        first = 0
        for document in self.known:
            kept = keep_known[first : first + len(document)]
            first += len(document)
            text = "".join(s for s, k in zip(document, kept, strict=True) if k)
            if text:
                known.append(text)
        questioned = "".join(s for s, k in zip(self.questioned, keep_unknown, strict=True) if k)
        return CaseTexts(tuple(known), questioned)


@dataclass(frozen=True)
class _Work:
    scorer: ComparisonScorer
    segments: SentenceSegments
    seed: int | None  # the check's seed for a method that draws at random; None: the model's


Task = tuple[int, np.ndarray, np.ndarray]  # (resample, questioned weights, known weights)


def _score(work: _Work, tasks: Sequence[Task]) -> list[tuple[int, float]]:
    cases = [
        (
            work.segments.case(keep_unknown, keep_known),
            None if work.seed is None else (work.seed, b),
        )
        for b, keep_unknown, keep_known in tasks
    ]  # scored together where the method can (``ComparisonScorer.score_many``)
    found = work.scorer.score_many(cases)
    return [
        (b, raw if isinstance(raw, float) else np.nan)
        for (b, *_), raw in zip(tasks, found, strict=True)
    ]


_WORK: _Work | None = None


def _start(work: _Work) -> None:
    global _WORK
    _WORK = work


def _in_worker(tasks: Sequence[Task]) -> list[tuple[int, float]]:
    assert _WORK is not None
    return _score(_WORK, tasks)


def resampled_comparison(
    scorer: ComparisonScorer,
    known_texts: Sequence[str],
    unknown_text: str,
    keep_unknown: np.ndarray,
    keep_known: np.ndarray,
    seed: int,
    progress: Progress = NO_PROGRESS,
    workers: int | None = None,
) -> np.ndarray:
    """The comparison system's raw score in each resample (NaN: it cannot compare that one):
    ``keep_unknown`` (resamples × questioned sentences) and ``keep_known`` (resamples × known
    sentences) say which sentences each resample keeps; ``seed`` is the check's, from which a
    method that draws at random seeds each resample (see the module). ``workers``: processes
    for the resamples after the first — None: ``processes.default_workers`` (the processors
    this process may use) if the rest would take longer than ``PROCESS_BEYOND_SECONDS`` here (at
    the first one's pace), else none; a number: that many (1: none)."""
    segments = SentenceSegments.of(known_texts, unknown_text)
    if (keep_unknown.shape[1], keep_known.shape[1]) != segments.counts:
        raise ValueError("the resamples' weights do not match the texts' sentences")
    work = _Work(scorer, segments, None if scorer.method.info.deterministic else seed)
    tasks: list[Task] = [(b, keep_unknown[b], keep_known[b]) for b in range(len(keep_unknown))]
    raws = np.full(len(tasks), np.nan)
    name = scorer.method.info.short_name
    done = 0

    def take(found: list[tuple[int, float]]) -> None:
        nonlocal done
        for b, raw in found:
            raws[b] = raw
        done += len(found)
        progress.step(done, len(tasks), f"{name}'s ratio in each resample")

    if not tasks:
        return raws
    scorer.impostors()  # decoded once here, not timed as the first resample's work
    started = time.perf_counter()
    take(_score(work, tasks[:1]))
    slow = (time.perf_counter() - started) * (len(tasks) - 1) > PROCESS_BEYOND_SECONDS
    n_workers = default_workers(workers if workers is not None or slow else 1, len(tasks) - 1)
    together = BATCH if scorer.method.BATCHES else 1
    if n_workers <= 1:
        for first in range(1, len(tasks), together):
            take(_score(work, tasks[first : first + together]))
        return raws
    size = max(CHUNK, together)
    rest = [tasks[i : i + size] for i in range(1, len(tasks), size)]
    in_processes(_in_worker, rest, take, progress, n_workers, [__name__], _start, (work,))
    return raws
