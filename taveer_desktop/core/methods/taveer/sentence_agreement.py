"""Sentence by sentence: which way TAVeer's features and LambdaG's shares point, and where both
point the same way.

LambdaG's share of a sentence is the sum of its tokens' shares of λG (``core/method_findings``).
TAVeer decides on whole-text profiles, not sentences; a sentence's **TAVeer lean** is what the
sentence does to TAVeer's distances: for each category of the ensemble, how much farther the
questioned text would lie from the known texts if the sentence were left out (its distance
without the sentence minus its distance with it), divided by the category's threshold θ so
that categories of different scales can be added; the lean is the sum over the ensemble. A
positive lean means the sentence brings the questioned text closer to the known author's
profile (towards Hp); a negative one, farther away (towards Hd). Everything needed is in the
interpretation's Φ (each feature's count in the questioned text and relative frequency in the
known texts) and the features' occurrences in the questioned text (``core/occurrences``); a
category whose features all sit in the one sentence has no distance without it and adds
nothing.

(Adding up L_Y's and L_N's importances over a sentence's features was tried first and
rejected: the features found only in the known texts — most of them L_Y — have no place in the
questioned text, so nearly every sentence leaned towards Hd even when TAVeer decided for Hp.)

A sentence where both are non-zero and of the same sign is one where **both methods point the
same way** (towards Hp if positive, Hd if negative) — the sentences an examiner may show first.
The desktop's evidence view and the report mark exactly these.

Leaving one sentence out changes the total count T of a category to T′ = T − t_s, so every
relative frequency changes; the distance Σ_j |U_j / T′ − y_j| is evaluated for all sentences at
once from the features sorted by y_j / U_j (a piecewise-linear function of 1 / T′), and only
the sentence's own features are corrected one by one — no pass over the whole vocabulary per
sentence.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.occurrences import Occurrence, categories_occurrences
from taveer_desktop.core.methods.taveer.interpret import Interpretation


@dataclass(frozen=True)
class SentenceLeaning:
    """One questioned sentence: its span, TAVeer's lean and LambdaG's share (see the module)."""

    start: int
    end: int
    taveer: float
    lambdag: float

    @property
    def both_point_same_way(self) -> bool:
        return self.taveer != 0 and self.lambdag != 0 and (self.taveer > 0) == (self.lambdag > 0)

    @property
    def direction(self) -> int:
        """+1 (both towards Hp), −1 (both towards Hd), 0 (they differ or one is silent)."""
        if not self.both_point_same_way:
            return 0
        return 1 if self.lambdag > 0 else -1


def _spread(a: np.ndarray, counts: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Σ_j |a · U_j − y_j| for every value of ``a`` (U_j: ``counts``, y_j: ``known``)."""
    seen = counts > 0
    constant = float(known[~seen].sum())
    u, y = counts[seen], known[seen]
    order = np.argsort(y / u)
    u, y = u[order], y[order]
    breaks = y / u
    below_u = np.concatenate(([0.0], np.cumsum(u)))
    below_y = np.concatenate(([0.0], np.cumsum(y)))
    k = np.searchsorted(breaks, a, side="right")  # terms with a · U_j ≥ y_j
    above_u, above_y = below_u[-1] - below_u[k], below_y[-1] - below_y[k]
    result: np.ndarray = a * below_u[k] - below_y[k] + above_y - a * above_u + constant
    return result


def _category_lean(
    found: Interpretation,
    occurrences: Mapping[str, list[Occurrence]],
    starts: list[int],
    ends: list[int],
) -> np.ndarray:
    """(distance without the sentence − distance) / θ for every sentence, in one category."""
    n = len(starts)
    index = {entry.feature: j for j, entry in enumerate(found.phi)}
    counts = np.array([entry.count_unknown for entry in found.phi], dtype=float)
    known = np.array([entry.y for entry in found.phi], dtype=float)
    rows, cols = [], []
    for feature, places in occurrences.items():
        j = index.get(feature)
        if j is None:
            continue
        for place in places:
            s = bisect_right(starts, place.start) - 1
            if s >= 0 and place.end <= ends[s]:
                rows.append(s)
                cols.append(j)
    total = counts.sum()
    if total == 0 or not rows:
        return np.zeros(n)
    # (sentence, feature) → occurrences of the feature in the sentence
    pair = np.array(rows, dtype=np.int64) * len(counts) + np.array(cols, dtype=np.int64)
    pairs, per_pair = np.unique(pair, return_counts=True)
    sentence, column = pairs // len(counts), pairs % len(counts)
    left = total - np.bincount(sentence, weights=per_pair, minlength=n)
    lean = np.zeros(n)
    usable = left > 0
    if not usable.any():
        return lean
    a = np.where(usable, 1.0 / np.where(usable, left, 1.0), 0.0)
    without = _spread(a, counts, known)
    a_pair = a[sentence]
    correction = np.abs(a_pair * (counts[column] - per_pair) - known[column]) - np.abs(
        a_pair * counts[column] - known[column]
    )
    without += np.bincount(sentence, weights=correction, minlength=n)
    distance = float(np.abs(counts / total - known).sum())
    lean[usable] = (without[usable] - distance) / found.threshold
    return lean


def taveer_leans(
    questioned_text: str,
    interpretation: Mapping[str, Interpretation],
    ensemble: Sequence[str],
    lexicon: Lexicon,
    spans: Sequence[tuple[int, int]],
) -> list[float]:
    """TAVeer's lean of each sentence span of the questioned text's prepared text."""
    starts = [start for start, _ in spans]
    ends = [end for _, end in spans]
    leans = np.zeros(len(spans))
    usable = {
        c: found
        for c in ensemble
        if (found := interpretation.get(c)) is not None
        and not found.abstained
        and found.phi
        and found.threshold > 0
    }
    _, occurrences = categories_occurrences(questioned_text, lexicon, list(usable))
    for category, found in usable.items():
        leans += _category_lean(found, occurrences[category], starts, ends)
    return [float(x) for x in leans]


def sentence_leanings(
    questioned_text: str,
    interpretation: Mapping[str, Interpretation],
    ensemble: Sequence[str],
    lexicon: Lexicon,
    evidence: LambdaGEvidence,
) -> list[SentenceLeaning]:
    """Each sentence of LambdaG's evidence with TAVeer's lean beside LambdaG's share."""
    spans = [(s.start, s.end) for s in evidence.sentences]
    leans = taveer_leans(questioned_text, interpretation, ensemble, lexicon, spans)
    return [
        SentenceLeaning(s.start, s.end, lean, s.share)
        for s, lean in zip(evidence.sentences, leans, strict=True)
    ]
