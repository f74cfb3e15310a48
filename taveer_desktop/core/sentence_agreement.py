"""Sentence by sentence: which way TAVeer's features and LambdaG's shares point, and where both
point the same way.

LambdaG's share of a sentence is the sum of its tokens' shares of λG (``core/method_findings``).
TAVeer decides on whole-text profiles, not sentences, but its interpretation (Algorithm 1)
puts each feature of the questioned text on the same-author side (L_Y) or the other (L_N) with
an importance λ. Here a feature's λ is shared equally among its occurrences in the questioned
text (``core/occurrences``), and a sentence's **TAVeer lean** is the sum, over the ensemble's
categories, of +λ/n for every occurrence of an L_Y feature in it and −λ/n for every occurrence
of an L_N feature (n the feature's count in the questioned text). Features found only in the
known texts have no place in the questioned text and are left out. Categories of different
scales are added as they are: the lean says which way a sentence's features point, not how far.

A sentence where both are non-zero and of the same sign is one where **both methods point the
same way** (towards Hp if positive, Hd if negative) — the sentences an examiner may show first.
The desktop's evidence view and the report mark exactly these.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taveer_desktop.core.interpret import Interpretation
from taveer_desktop.core.lexicon import Lexicon
from taveer_desktop.core.method_findings import LambdaGEvidence
from taveer_desktop.core.occurrences import category_occurrences


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


def taveer_leans(
    questioned_text: str,
    interpretation: Mapping[str, Interpretation],
    ensemble: Sequence[str],
    lexicon: Lexicon,
    spans: Sequence[tuple[int, int]],
) -> list[float]:
    """TAVeer's lean of each sentence span of the questioned text's prepared text."""
    starts = [start for start, _ in spans]
    leans = [0.0] * len(spans)
    for category in ensemble:
        found = interpretation.get(category)
        if found is None or found.abstained:
            continue
        _, occurrences = category_occurrences(questioned_text, lexicon, category)
        signed = {feature: lam for feature, lam in found.l_y}
        signed.update({feature: -lam for feature, lam in found.l_n})
        for feature, places in occurrences.items():
            weight = signed.get(feature)
            if not weight or not places:
                continue
            share = weight / len(places)
            for place in places:
                index = bisect_right(starts, place.start) - 1
                if index >= 0 and place.end <= spans[index][1]:
                    leans[index] += share
    return leans


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
