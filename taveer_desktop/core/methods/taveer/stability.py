"""How stable is a decision? Resampling the sentences of the documents.

In each of B resamples (seeded, reproducible) a random 10 % of the sentences of the questioned
document and, independently, of the known profile are left out, and the rest is verified with
the same model. Reported: the share of resamples whose answer agrees with the decision on the
original documents, and a 95 % percentile interval of the ensemble similarity. A decision that
flips in many resamples hinges on a handful of sentences.

Leaving sentences out shortens the documents a little, and shorter documents lie slightly
further apart, so the interval leans a little towards lower similarity. A bootstrap (drawing
sentences with replacement) was tried and rejected: repeated sentences concentrate the feature
counts, which inflates every distance much more, so its resamples lean strongly towards
"different authors" whatever the documents.

Sentence counts are computed once, as integer codes (``feature_counts.count_per_sentence``: every
sentence of a document counted on its own in one numpy pass, no feature string made); each
resample is a weighted sum of them, done with numpy, so B = 200 costs about as much as a few
verifications.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

import numpy as np

from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.core.features.feature_codes import CATEGORY_SHIFT
from taveer_desktop.core.features.feature_counts import count_per_sentence, first_occurrences
from taveer_desktop.core.features.features import CATEGORY_IDS, encode_document
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import METHOD_IDS, capabilities_of
from taveer_desktop.core.methods.taveer.ensemble import ensemble_similarities
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.scoring import similarity_array
from taveer_desktop.core.methods.taveer.verify import decide

# the methods whose stated ratio is resampled too (``core/stability/stated_stability.py``): all but
# TAVeer
RATIO_RESAMPLED = tuple(m for m in METHOD_IDS if capabilities_of(m).ratio_resampled)

# a sentences × features count matrix as (row indices, column indices, values)
_Sparse: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]

DEFAULT_RESAMPLES = 200
DEFAULT_SEED = 20261125
DEFAULT_KEEP_FRACTION = 0.9
RESAMPLE_BLOCK = 20
PIECE_CHARS = 200_000
BLOCK_NONZEROS = 1_000_000  # resamples × non-zero counts counted in one go (16 MB of work)


@dataclass(frozen=True)
class RatioStability:
    """The stability of a model's stated ratio where it is not TAVeer's
    (``core/stability/stated_stability.py``): how many resamples gave a ratio on the same side of 1
    as the run's, the 95 % interval of the resampled log10 ratios, how many resamples gave no
    ratio at all, and the methods that drew at random with another seed in each resample (the
    interval then covers the random draws as well as the sentences left out)."""

    method: str  # the stated method: "lambdag", "fusion" or a comparison system's id
    resamples: int
    agreeing: int
    log10_lr_interval: tuple[float, float]
    without_ratio: int = 0
    drawn_afresh: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "resamples": self.resamples,
            "agreeing": self.agreeing,
            "log10_lr_interval": [round(x, 6) for x in self.log10_lr_interval],
            "without_ratio": self.without_ratio,
            **({"drawn_afresh": list(self.drawn_afresh)} if self.drawn_afresh else {}),
        }

    @classmethod
    def from_dict(cls, data: Any) -> RatioStability | None:
        """The figures of a stored dict (None if it is not one)."""
        try:
            low, high = (float(x) for x in data["log10_lr_interval"])
            ratio = cls(
                str(data["method"]),
                int(data["resamples"]),
                int(data["agreeing"]),
                (low, high),
                int(data.get("without_ratio", 0)),
                tuple(str(m) for m in data.get("drawn_afresh", ())),
            )
        except (KeyError, TypeError, ValueError):
            return None
        ok = (
            ratio.method in RATIO_RESAMPLED
            and 0 <= ratio.agreeing <= ratio.resamples
            and all(m in RATIO_RESAMPLED for m in ratio.drawn_afresh)
        )
        return ratio if ok else None


@dataclass(frozen=True)
class Stability:
    resamples: int
    seed: int
    keep_fraction: float
    agreement: float  # share of resamples with the original answer
    similarity_interval: tuple[float, float]  # 2.5 % and 97.5 % percentiles
    answers: dict[str, int]  # how many resamples gave each answer
    ratio: RatioStability | None = None  # the stated ratio's, where it is not TAVeer's

    def with_ratio(self, ratio: RatioStability) -> Stability:
        return replace(self, ratio=ratio)

    @property
    def agreeing(self) -> int:
        """How many resamples agree with the original classification (agreement × resamples)."""
        return round(self.agreement * self.resamples)

    def to_dict(self) -> dict[str, Any]:
        return {
            "resamples": self.resamples,
            "seed": self.seed,
            "keep_fraction": self.keep_fraction,
            "agreement": self.agreement,
            "similarity_interval": list(self.similarity_interval),
            "answers": self.answers,
            **({"ratio": self.ratio.to_dict()} if self.ratio else {}),
        }


def _pieces(text: str, size: int) -> Iterator[str]:
    """``text`` in pieces of about ``size`` characters, each ending at a paragraph break.

    Sentences never cross a paragraph break, so the sentences of the pieces are exactly the
    sentences of the whole text, in order (a text without breaks stays one piece).
    """
    start = 0
    while len(text) - start > size:
        cut = text.find("\n\n", start + size)
        if cut < 0:
            break
        yield text[start : cut + 2]
        start = cut + 2
    yield text[start:]


class _SentenceCounts:
    """The non-zero (sentence, feature code, count) triplets of a run of documents' sentences.

    Built piece by piece as the texts are read (``_pieces``), so the streams of a huge
    document never exist all at once; the triplets are kept as compact integer arrays.
    """

    def __init__(self) -> None:
        self.sentences = 0
        self._parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add_text(self, text: str, lexicon: Lexicon) -> None:
        for piece in _pieces(text, PIECE_CHARS):
            document = encode_document(piece, lexicon)
            rows, codes, counts = count_per_sentence(document.streams(), document.codebook)
            self._parts.append((rows + self.sentences, codes, counts))
            self.sentences += document.n_sentences

    def triplets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self._parts:
            return np.zeros(0, np.intp), np.zeros(0, np.uint64), np.zeros(0, np.int64)
        rows, codes, counts = (np.concatenate(column) for column in zip(*self._parts, strict=True))
        return rows, codes, counts


def _by_category(
    unknown: _SentenceCounts, known: _SentenceCounts
) -> tuple[list[_Sparse], list[_Sparse], np.ndarray]:
    """Per category, the (sentence, column, count) triplets of each side and the number of
    columns. Both sides share one vocabulary per category whose columns are numbered in order
    of first appearance, the questioned document's sentences first, then the known ones'."""
    rows_u, codes_u, counts_u = unknown.triplets()
    rows_k, codes_k, counts_k = known.triplets()
    codes = np.concatenate((codes_u, codes_k))
    distinct = codes[first_occurrences(codes)[0]]  # in order of first appearance
    category_of = (distinct >> CATEGORY_SHIFT).astype(np.intp)
    sizes = np.bincount(category_of, minlength=len(CATEGORY_IDS))
    by_category = np.argsort(category_of, kind="stable")
    column_of = np.empty(len(distinct), dtype=np.intp)
    column_of[by_category] = np.arange(len(distinct)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    sorter = np.argsort(distinct)
    columns = column_of[sorter[np.searchsorted(distinct, codes, sorter=sorter)]]
    category = (codes >> CATEGORY_SHIFT).astype(np.intp)
    sides = []
    for rows, counts, part in (
        (rows_u, counts_u, slice(0, len(codes_u))),
        (rows_k, counts_k, slice(len(codes_u), len(codes))),
    ):
        side_category, side_columns = category[part], columns[part]
        sides.append(
            [
                (rows[chosen], side_columns[chosen], counts[chosen].astype(float))
                for j in range(len(CATEGORY_IDS))
                for chosen in [side_category == j]
            ]
        )
    return sides[0], sides[1], sizes


def _resampled_distribution(weights: np.ndarray, sparse: _Sparse, size: int) -> np.ndarray:
    """Relative frequencies (resamples × features); rows without features are NaN."""
    rows, cols, values = sparse
    n = weights.shape[0]
    if n * len(values) <= BLOCK_NONZEROS:
        # the whole block in one count: resample b's features are the bins b·size + column
        bins = (np.arange(n)[:, None] * size + cols).ravel()
        counts: np.ndarray = np.bincount(
            bins, weights=(weights[:, rows] * values).ravel(), minlength=n * size
        )
        counts = counts.reshape(n, size)
    else:
        # one resample at a time: a resamples × non-zeros matrix took gigabytes for a
        # document of millions of characters (the sums are the same, element by element:
        # whole numbers, added exactly in any order)
        counts = np.zeros((n, size))
        for b in range(n):
            counts[b] = np.bincount(cols, weights=weights[b, rows] * values, minlength=size)
    totals = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, counts / totals, np.nan)


def _subsample_weights(
    n: int, resamples: int, keep_fraction: float, rng: np.random.Generator
) -> np.ndarray:
    """0/1 weights keeping a random ``keep_fraction`` of ``n`` sentences in each resample.

    Booleans (one byte each, not eight: a huge document has ~100,000 sentences); they multiply
    as 0 and 1.
    """
    weights = np.zeros((resamples, n), dtype=bool)
    if n == 0:
        return weights
    keep = max(1, round(keep_fraction * n))
    chosen = np.argsort(rng.random((resamples, n)), axis=1)[:, :keep]
    np.put_along_axis(weights, chosen, True, axis=1)
    return weights


def _sentence_counts(
    known_texts: Sequence[str], unknown_text: str, lexicon: Lexicon, progress: Progress
) -> tuple[_SentenceCounts, _SentenceCounts]:
    unknown = _SentenceCounts()
    unknown.add_text(unknown_text, lexicon)
    known = _SentenceCounts()
    for text in known_texts:
        progress.check()
        known.add_text(text, lexicon)
    return unknown, known


def _weights(
    unknown: _SentenceCounts, known: _SentenceCounts, resamples: int, seed: int, keep: float
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w_unknown = _subsample_weights(unknown.sentences, resamples, keep, rng)
    return w_unknown, _subsample_weights(known.sentences, resamples, keep, rng)


def resample_weights(
    known_texts: Sequence[str],
    unknown_text: str,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    lexicon: Lexicon | None = None,
    keep_fraction: float = DEFAULT_KEEP_FRACTION,
) -> tuple[np.ndarray, np.ndarray]:
    """The sentences each resample keeps, (questioned, known) 0/1 weights (resamples ×
    sentences): the very draws ``decision_stability`` makes with the same seed."""
    unknown, known = _sentence_counts(
        known_texts, unknown_text, lexicon or default_lexicon(), NO_PROGRESS
    )
    return _weights(unknown, known, resamples, seed, keep_fraction)


@dataclass(frozen=True)
class ResampledScores:
    """TAVeer's ensemble score in each resample (NaN where every category abstains), with
    the 0/1 weights of the sentences each resample kept."""

    scores: np.ndarray
    abstains: np.ndarray
    keep_unknown: np.ndarray
    keep_known: np.ndarray


def resampled_scores(
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    lexicon: Lexicon | None = None,
    keep_fraction: float = DEFAULT_KEEP_FRACTION,
    progress: Progress = NO_PROGRESS,
) -> ResampledScores:
    """TAVeer's score under ``resamples`` seeded resamples of the sentences (see the module)."""
    lexicon = lexicon or default_lexicon()
    unknown, known = _sentence_counts(known_texts, unknown_text, lexicon, progress)
    w_unknown, w_known = _weights(unknown, known, resamples, seed, keep_fraction)
    sparse_unknown, sparse_known, sizes = _by_category(unknown, known)
    distances = np.full((resamples, len(CATEGORY_IDS)), np.nan)
    for j in range(len(CATEGORY_IDS)):
        progress.check()
        size = int(sizes[j])
        if not size:
            continue
        # resamples in blocks: resamples × vocabulary matrices of a huge document's 4-grams
        # took hundreds of megabytes each (the distances are the same)
        for first in range(0, resamples, RESAMPLE_BLOCK):
            block = slice(first, first + RESAMPLE_BLOCK)
            x = _resampled_distribution(w_unknown[block], sparse_unknown[j], size)
            y = _resampled_distribution(w_known[block], sparse_known[j], size)
            distances[block, j] = np.abs(x - y).sum(axis=1)  # NaN where a side has no feature
    thetas = np.array([model.thresholds[c] for c in CATEGORY_IDS])
    similarities = similarity_array(np.clip(distances, 0.0, 2.0), thetas)
    members = np.array([[CATEGORY_IDS.index(c) for c in model.ensemble]])
    scores = ensemble_similarities(similarities, members)[:, 0]
    all_abstain = np.all(np.isnan(similarities[:, members[0]]), axis=1)
    return ResampledScores(scores, all_abstain, w_unknown, w_known)


def stability_of(
    model: Model, resampled: ResampledScores, original_answer: str, seed: int, keep_fraction: float
) -> Stability:
    """The stability of TAVeer's classification from its resampled scores."""
    answers = [
        Classification.INSUFFICIENT.value if abstain else decide(model, float(s)).value
        for s, abstain in zip(resampled.scores, resampled.abstains, strict=True)
    ]
    tally: dict[str, int] = {}
    for answer in answers:
        tally[answer] = tally.get(answer, 0) + 1
    resamples = len(answers)
    low, high = np.percentile(resampled.scores, [2.5, 97.5])
    return Stability(
        resamples=resamples,
        seed=seed,
        keep_fraction=keep_fraction,
        agreement=tally.get(str(original_answer), 0) / resamples,
        similarity_interval=(float(low), float(high)),
        answers=dict(sorted(tally.items())),
    )


def decision_stability(
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    original_answer: str,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    lexicon: Lexicon | None = None,
    keep_fraction: float = DEFAULT_KEEP_FRACTION,
    progress: Progress = NO_PROGRESS,
) -> Stability:
    """Resample sentences ``resamples`` times and compare each answer with ``original_answer``.

    ``progress`` is only checked (after each document and each category), so a caller's
    cancelling takes effect there; it reports no steps of its own.
    """
    resampled = resampled_scores(
        model, known_texts, unknown_text, resamples, seed, lexicon, keep_fraction, progress
    )
    return stability_of(model, resampled, original_answer, seed, keep_fraction)
