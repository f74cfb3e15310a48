"""Training a TAVeer model on a corpus of verification cases with known truth.

1. For every case and category: the Manhattan distance between the unknown document and the
   profile of the known documents (cases streamed; extraction spread over a process pool whose
   results are placed by case index, so they equal a single-process run).
2. Thresholds θ_F per category (median, or exact EER).
3. Similarities of every case under every category, then the best of all 2047 ensembles.
4. The conditions the model is validated under (text lengths and distances of its own cases,
   ``core/gate/conditions.py``), which the fitness-for-purpose gate holds later cases against.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from typing import Protocol

import numpy as np

from taveer_desktop import __version__
from taveer_desktop.core.calibration.calibration import QualityInputs, fit_bounded_calibration
from taveer_desktop.core.calibration.inconclusive_band import fit_inconclusive_band
from taveer_desktop.core.features.feature_stream import case_features, encode_document
from taveer_desktop.core.features.features import CATEGORY_IDS, DocumentFeatures
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.conditions import describe_population, measure_conditions
from taveer_desktop.core.gate.gate import CaseMeasures, measure_case
from taveer_desktop.core.ground.errors import InputError, TaveerError
from taveer_desktop.core.ground.processes import default_workers, worker_context
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.intake.corpus import Case, Corpus
from taveer_desktop.core.methods.taveer.ensemble import (
    ensemble_similarities,
    search_ensembles,
    thresholds_for,
    training_similarities,
)
from taveer_desktop.core.methods.taveer.model_fields import THRESHOLD_METHODS, Model, TrainingInfo

MIN_TRAINING_CASES = 4
PARALLEL_MIN_CASES = 16
CHUNK_CASES = 8


def case_distances(features_unknown: DocumentFeatures, profile: DocumentFeatures) -> np.ndarray:
    """Distance per category (NaN where the category abstains) for one case."""
    return features_unknown.distances(profile)


def distances_of_texts(
    known_texts: Iterable[str], unknown_text: str, lexicon: Lexicon
) -> np.ndarray:
    known = [encode_document(t, lexicon) for t in known_texts]
    profile, questioned = case_features(known, encode_document(unknown_text, lexicon))
    return case_distances(questioned, profile)


class CaseScorer(Protocol):
    """Other methods' raw scores of one case from its texts (``evaluate`` with a model of
    another method than TAVeer, ``core/evaluation_methods.MethodScorer``): one score per method
    of ``methods``, in that order, NaN where a method cannot compare the case. Picklable, so
    that worker processes can score their cases too."""

    @property
    def methods(self) -> tuple[str, ...]: ...

    def __call__(self, known_texts: tuple[str, ...], unknown_text: str) -> Sequence[float]: ...


_worker_lexicon: Lexicon | None = None
_worker_scorer: CaseScorer | None = None


def _init_worker(lexicon: Lexicon, scorer: CaseScorer | None = None) -> None:
    global _worker_lexicon, _worker_scorer
    _worker_lexicon, _worker_scorer = lexicon, scorer


# distances, measures, the other methods' scores (one per method of the scorer)
_CaseRow = tuple[np.ndarray, CaseMeasures | None, np.ndarray]


def _case_work(
    known_texts: tuple[str, ...],
    unknown_text: str,
    lexicon: Lexicon,
    measure: bool,
    scorer: CaseScorer | None = None,
) -> _CaseRow:
    distances = distances_of_texts(known_texts, unknown_text, lexicon)
    measured = measure_case(known_texts, unknown_text, lexicon) if measure else None
    other = np.empty(0) if scorer is None else np.asarray(scorer(known_texts, unknown_text), float)
    return distances, measured, other


_WorkerRows = list[_CaseRow]


def _worker_cases(cases: list[tuple[tuple[str, ...], str]], measure: bool) -> _WorkerRows:
    """Distances (with ``measure`` also the gate's measures, with a scorer also its score) of
    a chunk of cases."""
    assert _worker_lexicon is not None
    return [_case_work(k, u, _worker_lexicon, measure, _worker_scorer) for k, u in cases]


@dataclass
class CorpusDistances:
    """Distances of every case of a corpus (cases × 11) with ids and truth, the text lengths
    of every case (characters of the questioned text, and of the known texts together) and,
    if asked for, the measures the fitness-for-purpose gate needs."""

    case_ids: list[str]
    distances: np.ndarray
    truth: np.ndarray | None
    questioned_chars: np.ndarray
    known_chars: np.ndarray
    measures: list[CaseMeasures] | None = None
    # the ``scorer``'s scores of every case (cases × methods), if one was given, and its methods
    scored: np.ndarray | None = None
    scored_methods: tuple[str, ...] = ()

    def raw_scores(self) -> dict[str, np.ndarray]:
        """Each scored method's raw score of every case, by method id (NaN: not compared)."""
        if self.scored is None:
            return {}
        return {m: self.scored[:, j] for j, m in enumerate(self.scored_methods)}


def _resolve_workers(workers: int | None) -> int:
    return default_workers(workers)


def corpus_distances(
    corpus: Corpus,
    lexicon: Lexicon | None = None,
    workers: int | None = None,
    progress: Progress = NO_PROGRESS,
    measure: bool = False,
    scorer: CaseScorer | None = None,
) -> CorpusDistances:
    """Distances of every case, computed with ``workers`` processes (1 = in this process);
    with ``measure`` also the gate's measures of every case, with ``scorer`` also its scores of
    every case, one per method (in the same processes, from the same reading of the texts)."""
    lexicon = lexicon or default_lexicon()
    total = len(corpus)
    matrix = np.full((total, len(CATEGORY_IDS)), np.nan)
    lengths = np.zeros((total, 2), dtype=np.int64)
    measures: list[CaseMeasures | None] = [None] * total
    scored_methods = () if scorer is None else tuple(scorer.methods)
    scored = np.full((total, len(scored_methods)), np.nan)
    n_workers = _resolve_workers(workers)

    def cases() -> Iterator[Case]:
        for index, case in enumerate(corpus.iter_cases()):
            lengths[index] = len(case.unknown_text), sum(len(t) for t in case.known_texts)
            yield case

    if n_workers == 1 or total < PARALLEL_MIN_CASES:
        for index, case in enumerate(cases()):
            matrix[index], measures[index], scored[index] = _case_work(
                case.known_texts, case.unknown_text, lexicon, measure, scorer
            )
            progress.step(index + 1, total, f"features of case {case.case_id}")
    else:
        _parallel_distances(
            cases(), (matrix, measures, scored), measure, lexicon, scorer, n_workers, progress
        )
    truth = None
    if corpus.has_truth:
        truth = np.array([corpus.truth[cid] for cid in corpus.case_ids], dtype=bool)
    return CorpusDistances(
        list(corpus.case_ids),
        matrix,
        truth,
        lengths[:, 0],
        lengths[:, 1],
        [m for m in measures if m is not None] if measure else None,
        scored if scorer is not None else None,
        scored_methods,
    )


def _parallel_distances(
    cases: Iterator[Case],
    into: tuple[np.ndarray, list[CaseMeasures | None], np.ndarray],
    measure: bool,
    lexicon: Lexicon,
    scorer: CaseScorer | None,
    n_workers: int,
    progress: Progress,
) -> None:
    """``n_workers`` processes: this one and ``n_workers - 1`` helpers. Cases go out in
    chunks of ``CHUNK_CASES`` (fewer round trips), at most two chunks per helper in flight
    (memory does not grow with the corpus); this process reads the cases and works on every
    chunk the helpers have no room for, so it is never idle and a helper's start-up (importing
    numpy and the engine) costs no wall time."""
    helpers = n_workers - 1
    window = 2 * helpers
    # forked, or from a fork server that imports the engine once (core/ground/processes.py)
    context = worker_context([__name__])
    done = 0
    matrix, measures, scored = into
    total = len(matrix)

    def place(start: int, rows: _WorkerRows) -> None:
        nonlocal done
        for offset, (distances, measured, other) in enumerate(rows):
            row = start + offset
            matrix[row], measures[row], scored[row] = distances, measured, other
        done += len(rows)
        progress.step(done, total, "extracting features")

    with ProcessPoolExecutor(
        max_workers=helpers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(lexicon, scorer),
    ) as pool:
        pending: dict[Future[_WorkerRows], int] = {}
        exhausted = False
        index = 0
        try:
            while pending or not exhausted:
                while not exhausted and len(pending) < window:
                    chunk = [(c.known_texts, c.unknown_text) for c in islice(cases, CHUNK_CASES)]
                    if not chunk:
                        exhausted = True
                        break
                    pending[pool.submit(_worker_cases, chunk, measure)] = index
                    index += len(chunk)
                own = [] if exhausted else list(islice(cases, CHUNK_CASES))
                finished: Iterable[Future[_WorkerRows]]
                if own:
                    place(
                        index,
                        [
                            _case_work(c.known_texts, c.unknown_text, lexicon, measure, scorer)
                            for c in own
                        ],
                    )
                    index += len(own)
                    finished = [future for future in pending if future.done()]
                else:
                    exhausted = True
                    finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    progress.check()
                for future in finished:
                    start = pending.pop(future)
                    try:
                        place(start, future.result())
                    except BrokenProcessPool:
                        raise TaveerError(
                            "a feature-extraction process ended unexpectedly (out of memory?); "
                            "try again with one process (--workers 1)"
                        ) from None
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def fit_model(
    data: CorpusDistances,
    name: str,
    corpus: Corpus,
    threshold_method: str,
    lexicon: Lexicon,
    seconds: float,
    with_inconclusive_band: bool = False,
    genre: str | None = None,
    population: str | None = None,
    quality: QualityInputs | None = None,
) -> Model:
    """Thresholds, similarities and the ensemble search on precomputed distances, then the
    calibration of the chosen ensemble's scores (with ``quality``, the lengths of the cases and
    the validated range of each: the quality-measure map), bounded by the ELUB of its own
    training cases' log10 LRs (and, if asked for, the inconclusive band)."""
    if threshold_method not in THRESHOLD_METHODS:
        raise ValueError(f"unknown threshold method {threshold_method!r}")
    truth = data.truth
    assert truth is not None
    thetas = thresholds_for(threshold_method, data.distances, truth)
    similarities = training_similarities(data.distances, thetas)
    search = search_ensembles(similarities, truth)
    members = np.array([[CATEGORY_IDS.index(c) for c in search.best]])
    scores = ensemble_similarities(similarities, members)[:, 0]
    both_classes = bool(truth.any() and (~truth).any())
    calibration = fit_bounded_calibration(scores, truth, quality) if both_classes else None
    band = fit_inconclusive_band(scores, truth) if with_inconclusive_band else None
    n = len(truth)
    info = TrainingInfo(
        corpus_name=corpus.name,
        corpus_layout=corpus.layout,
        corpus_sha256=corpus.sha256,
        cases=n,
        cases_y=int(truth.sum()),
        cases_n=int(n - truth.sum()),
        accuracy=round(search.accuracy, 6),
        atomic_accuracy={c: round(v / n, 6) for c, v in search.atomic_correct.items()},
        abstentions={
            c: int(np.isnan(data.distances[:, j]).sum()) for j, c in enumerate(CATEGORY_IDS)
        },
        ensembles_tied=search.tied_on_all_keys,
        seconds=round(seconds, 3),
    )
    return Model(
        name=name,
        thresholds={c: float(thetas[j]) for j, c in enumerate(CATEGORY_IDS)},
        ensemble=search.best,
        threshold_method=threshold_method,
        lexicon_sha256=lexicon.sha256,
        software_version=__version__,
        created_utc=datetime.now(UTC).replace(microsecond=0).isoformat(),
        training=info,
        calibration=calibration,
        inconclusive_band=band,
        conditions=measure_conditions(
            data.questioned_chars,
            data.known_chars,
            data.distances,
            genre or "genre not stated",
            population or describe_population(corpus.name, genre or "genre not stated"),
        ),
    )


def train(
    corpus: Corpus,
    name: str | None = None,
    threshold_method: str = "median",
    lexicon: Lexicon | None = None,
    workers: int | None = None,
    progress: Progress = NO_PROGRESS,
    with_inconclusive_band: bool = False,
    genre: str | None = None,
    population: str | None = None,
) -> Model:
    """Train a TAVeer model on a corpus with truth. ``genre`` and ``population`` describe the
    training texts and their authors (recorded in the model's conditions; Hd names them)."""
    started = time.perf_counter()
    lexicon = lexicon or default_lexicon()
    corpus.require_truth()
    if len(corpus) < MIN_TRAINING_CASES:
        raise InputError(
            f"a training corpus needs at least {MIN_TRAINING_CASES} cases, it has {len(corpus)}",
            corpus.path,
        )
    data = corpus_distances(corpus, lexicon, workers, progress)
    progress.step(len(corpus), len(corpus), "searching the 2047 ensembles")
    return fit_model(
        data,
        name or f"TAVeer model ({corpus.name})",
        corpus,
        threshold_method,
        lexicon,
        time.perf_counter() - started,
        with_inconclusive_band,
        genre,
        population,
    )
