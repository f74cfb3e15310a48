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

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.ensemble import ensemble_similarities
from taveer_desktop.core.errors import CancelToken
from taveer_desktop.core.features import CATEGORY_IDS, extract_sentence_features
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import Model
from taveer_desktop.core.outcome import Classification
from taveer_desktop.core.scoring import similarity_array
from taveer_desktop.core.verify import decide

DEFAULT_RESAMPLES = 200
DEFAULT_SEED = 20261125
DEFAULT_KEEP_FRACTION = 0.9


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


def _sparse_category(sentences: list[dict], category: str, vocabulary: dict[str, int]):
    rows, cols, values = [], [], []
    for index, counts in enumerate(sentences):
        for feature, count in counts[category].items():
            rows.append(index)
            cols.append(vocabulary.setdefault(feature, len(vocabulary)))
            values.append(count)
    return np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp), np.array(values, float)


def _resampled_distribution(weights: np.ndarray, sparse, size: int) -> np.ndarray:
    """Relative frequencies (resamples × features); rows without features are NaN."""
    rows, cols, values = sparse
    counts = np.zeros((weights.shape[0], size))
    if len(values):
        contributions = weights[:, rows] * values  # resamples × non-zeros
        for b in range(weights.shape[0]):
            counts[b] = np.bincount(cols, weights=contributions[b], minlength=size)
    totals = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, counts / totals, np.nan)


def _subsample_weights(
    n: int, resamples: int, keep_fraction: float, rng: np.random.Generator
) -> np.ndarray:
    """0/1 weights keeping a random ``keep_fraction`` of ``n`` sentences in each resample."""
    weights = np.zeros((resamples, n))
    if n == 0:
        return weights
    keep = max(1, round(keep_fraction * n))
    chosen = np.argsort(rng.random((resamples, n)), axis=1)[:, :keep]
    np.put_along_axis(weights, chosen, 1.0, axis=1)
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
    cancel: CancelToken | None = None,
) -> Stability:
    """Resample sentences ``resamples`` times and compare each answer with ``original_answer``.

    ``cancel`` is checked after each document and each category (raises ``Cancelled``).
    """
    lexicon = lexicon or default_lexicon()
    cancel = cancel or CancelToken()
    rng = np.random.default_rng(seed)
    unknown_sentences = extract_sentence_features(unknown_text, lexicon)
    known_sentences = []
    for text in known_texts:
        cancel.raise_if_cancelled()
        known_sentences += extract_sentence_features(text, lexicon)
    w_unknown = _subsample_weights(len(unknown_sentences), resamples, keep_fraction, rng)
    w_known = _subsample_weights(len(known_sentences), resamples, keep_fraction, rng)
    distances = np.full((resamples, len(CATEGORY_IDS)), np.nan)
    for j, category in enumerate(CATEGORY_IDS):
        cancel.raise_if_cancelled()
        vocabulary: dict[str, int] = {}
        sparse_u = _sparse_category(unknown_sentences, category, vocabulary)
        sparse_k = _sparse_category(known_sentences, category, vocabulary)
        x = _resampled_distribution(w_unknown, sparse_u, len(vocabulary))
        y = _resampled_distribution(w_known, sparse_k, len(vocabulary))
        if vocabulary:
            distances[:, j] = np.abs(x - y).sum(axis=1)  # NaN where a side has no feature
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
