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

Sentence counts are computed once; each resample is a weighted sum of them, done with numpy
for all resamples at once, so B = 200 costs about as much as a few verifications.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.ensemble import ensemble_similarities
from taveer_desktop.core.features import CATEGORY_IDS, extract_sentence_features
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import Model
from taveer_desktop.core.outcome import Classification
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.scoring import similarity_array
from taveer_desktop.core.verify import decide

DEFAULT_RESAMPLES = 200
DEFAULT_SEED = 20261125
DEFAULT_KEEP_FRACTION = 0.9
RESAMPLE_BLOCK = 20
PIECE_CHARS = 200_000


@dataclass(frozen=True)
class Stability:
    resamples: int
    seed: int
    keep_fraction: float
    agreement: float  # share of resamples with the original answer
    similarity_interval: tuple[float, float]  # 2.5 % and 97.5 % percentiles
    answers: dict[str, int]  # how many resamples gave each answer

    @property
    def agreeing(self) -> int:
        """How many resamples agree with the original classification (agreement × resamples)."""
        return round(self.agreement * self.resamples)

    def to_dict(self) -> dict:
        return {
            "resamples": self.resamples,
            "seed": self.seed,
            "keep_fraction": self.keep_fraction,
            "agreement": self.agreement,
            "similarity_interval": list(self.similarity_interval),
            "answers": self.answers,
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


class _SparseCounts:
    """Per category, the non-zero (sentence, feature, count) triplets of a run of sentences.

    Built sentence by sentence as the texts are read piece by piece, so the per-sentence
    dictionaries of a huge document never exist all at once (they took ~250 MB for five
    million characters); the triplets are kept in compact typed arrays.
    """

    def __init__(self, vocabularies: dict[str, dict[str, int]]):
        self.vocabularies = vocabularies
        self.sentences = 0
        self._triplets = {c: (array("l"), array("l"), array("d")) for c in CATEGORY_IDS}

    def add_text(self, text: str, lexicon: Lexicon) -> None:
        for piece in _pieces(text, PIECE_CHARS):
            for counts in extract_sentence_features(piece, lexicon):
                for category in CATEGORY_IDS:
                    vocabulary = self.vocabularies[category]
                    rows, cols, values = self._triplets[category]
                    for feature, count in counts[category].items():
                        rows.append(self.sentences)
                        cols.append(vocabulary.setdefault(feature, len(vocabulary)))
                        values.append(count)
                self.sentences += 1

    def category(self, category: str):
        rows, cols, values = self._triplets[category]
        return (
            np.frombuffer(rows, dtype=np.int_) if rows else np.zeros(0, np.intp),
            np.frombuffer(cols, dtype=np.int_) if cols else np.zeros(0, np.intp),
            np.frombuffer(values, dtype=float) if values else np.zeros(0),
        )


def _resampled_distribution(weights: np.ndarray, sparse, size: int) -> np.ndarray:
    """Relative frequencies (resamples × features); rows without features are NaN."""
    rows, cols, values = sparse
    counts = np.zeros((weights.shape[0], size))
    if len(values):
        # one resample at a time: a resamples × non-zeros matrix took gigabytes for a
        # document of millions of characters (the sums are the same, element by element)
        for b in range(weights.shape[0]):
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
    lexicon = lexicon or default_lexicon()
    rng = np.random.default_rng(seed)
    vocabularies: dict[str, dict[str, int]] = {c: {} for c in CATEGORY_IDS}
    unknown = _SparseCounts(vocabularies)
    unknown.add_text(unknown_text, lexicon)
    known = _SparseCounts(vocabularies)
    for text in known_texts:
        progress.check()
        known.add_text(text, lexicon)
    w_unknown = _subsample_weights(unknown.sentences, resamples, keep_fraction, rng)
    w_known = _subsample_weights(known.sentences, resamples, keep_fraction, rng)
    distances = np.full((resamples, len(CATEGORY_IDS)), np.nan)
    for j, category in enumerate(CATEGORY_IDS):
        progress.check()
        size = len(vocabularies[category])
        if not size:
            continue
        sparse_u, sparse_k = unknown.category(category), known.category(category)
        # resamples in blocks: resamples × vocabulary matrices of a huge document's 4-grams
        # took hundreds of megabytes each (the distances are the same)
        for first in range(0, resamples, RESAMPLE_BLOCK):
            block = slice(first, first + RESAMPLE_BLOCK)
            x = _resampled_distribution(w_unknown[block], sparse_u, size)
            y = _resampled_distribution(w_known[block], sparse_k, size)
            distances[block, j] = np.abs(x - y).sum(axis=1)  # NaN where a side has no feature
    thetas = np.array([model.thresholds[c] for c in CATEGORY_IDS])
    similarities = similarity_array(np.clip(distances, 0.0, 2.0), thetas)
    members = np.array([[CATEGORY_IDS.index(c) for c in model.ensemble]])
    scores = ensemble_similarities(similarities, members)[:, 0]
    all_abstain = np.all(np.isnan(similarities[:, members[0]]), axis=1)
    answers = [
        Classification.INSUFFICIENT.value if abstain else decide(model, float(s)).value
        for s, abstain in zip(scores, all_abstain, strict=True)
    ]
    tally: dict[str, int] = {}
    for answer in answers:
        tally[answer] = tally.get(answer, 0) + 1
    low, high = np.percentile(scores, [2.5, 97.5])
    return Stability(
        resamples=resamples,
        seed=seed,
        keep_fraction=keep_fraction,
        agreement=tally.get(str(original_answer), 0) / resamples,
        similarity_interval=(float(low), float(high)),
        answers=dict(sorted(tally.items())),
    )
