"""SPATIUM-L1 of Kocher and Savoy (2017), "A simple and efficient algorithm for authorship
verification", JASIST 68(1), 259-269 (first at PAN 2015: "UniNE at CLEF 2015: Author
Identification").

Terms are the runs of non-space characters (the text split at white space, punctuation kept on
its word, case kept), as the authors' own code (github.com/pan-webis-de/kocher15a,
``WordDict.dictFromFile``) reads a text; the paper describes "isolated words and punctuation
symbols". The features are the questioned text's ``terms`` most frequent terms, keeping only
those seen more often than the text's rarest term (so hapaxes of a longer text drop out), as
relative frequencies; equally frequent terms at the cut are taken in descending order of the
term itself, as that code's ``featureSelection`` sorts them. The distance of a text or profile
A to the questioned text Q is

    L1(Q, A) = Σ over the selected terms t of | f_Q(t) − f_A(t) |

where f_A(t) is t's relative frequency among all of A's terms (the known documents are counted
together as one profile). One comparison draws m impostors at random and sets

    ρ = min over the m impostors of L1(Q, I)  /  L1(Q, known)

ρ > 1 when the known documents are closer to Q than every impostor. A ratio within the
original's dead band (1 − δ, 1 + δ) counts as exactly 1 (no decision). The score is the mean of
ρ over r comparisons (higher = more like the same author); the original then maps it to [0, 1]
and calls values near 0.5 unanswered, which the validation's calibration replaces.

Hyperparameters (``DEFAULTS``) as the authors' own implementation sets them (the seed ran it
"with unmodified hyperparameter settings"): terms = 200, m = 3 impostors, r = 5 comparisons,
δ = 0.025. Each ρ is rounded to two decimals, as that code rounds it. On the shared Stack
Exchange corpus (340 cases, the same impostor draws) these functions give the reference's
scores exactly (largest difference 0.0, every verdict the same;
``benchmarks/spatium_reference_agreement.py``, docs/method.md).

Deviations: the impostors are documents of other authors of the validation population, drawn
uniformly (the original drew the known documents of other problems of the same corpus,
preferring problems with as many known documents); where L1(Q, known) is 0 (no selected term
differs) ρ is ``RATIO_CAP`` (1 if an impostor matches as well), and no ρ exceeds the cap.
There is no random feature subset in SPATIUM: its randomness is the impostor draw (only the
given generator is used).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.methods.systems.param_checks import real_number, whole_number

RATIO_CAP = 100.0  # ρ where the known documents match the questioned text on every term


def terms_of(text: str) -> list[str]:
    """The text's runs of non-space characters, in order."""
    return text.split()


def selected_terms(questioned: Sequence[str], size: int) -> list[str]:
    """The questioned text's ``size`` most frequent terms that occur more often than its rarest
    term (equally frequent terms in descending order of the term, as the authors' code)."""
    counts = Counter(questioned)
    if not counts:
        return []
    rarest = min(counts.values())
    ranked = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)[:size]
    return [term for term, count in ranked if count > rarest]


def relative_frequencies(texts: Sequence[Sequence[str]], selected: Sequence[str]) -> np.ndarray:
    """(len(texts), len(selected)) relative frequencies of the selected terms, each row among
    all of that text's terms (a row of several texts is one profile: pass their terms joined)."""
    index = {term: i for i, term in enumerate(selected)}
    out = np.zeros((len(texts), len(selected)))
    for row, terms in enumerate(texts):
        ids = np.fromiter((index.get(t, -1) for t in terms), dtype=np.intp, count=len(terms))
        hits = np.bincount(ids[ids >= 0], minlength=len(selected))
        out[row] = hits / max(len(terms), 1)
    return out


def comparison_ratio(known_distance: float, impostor_distances: np.ndarray, band: float) -> float:
    """ρ for one draw of impostors (module docstring), with the dead band applied, rounded to
    two decimals."""
    nearest = float(impostor_distances.min())
    if known_distance == 0:  # the known documents match on every term: a tie if an impostor does
        ratio = 1.0 if nearest == 0 else RATIO_CAP
    elif nearest == 0:  # an impostor matches on every term: no decision, as the authors' code
        ratio = 1.0
    else:
        ratio = min(nearest / known_distance, RATIO_CAP)
    return 1.0 if 1.0 - band < ratio < 1.0 + band else round(ratio, 2)


READING = {"terms": "split at white space, as kocher15a"}  # what a model learned with


class SpatiumL1(ComparisonMethod):
    """Kocher and Savoy's SPATIUM-L1 (see the module). Nothing is learned but ``READING``,
    which marks a model as validated with this reading of the terms: a model of an earlier
    reading (terms as words and punctuation apart, which scores differently) is refused, not
    scored with a calibration that no longer fits."""

    info = method_info(MethodId.SPATIUM)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {"terms": 200, "m": 3, "r": 5, "delta": 0.025}

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        return dict(READING)

    def check_learned(self, learned: Mapping[str, Any]) -> None:
        if dict(learned) != READING:
            raise ValueError(
                "SPATIUM-L1: this model was validated with an earlier reading of the method "
                "(terms as words and punctuation apart); validate it again"
            )

    def check_params(self, params: Mapping[str, Any]) -> None:
        whole_number(params, "terms", 1, 100_000)
        whole_number(params, "m", 1, 10_000)
        whole_number(params, "r", 1, 10_000)
        real_number(params, "delta", 0.0, 0.5)

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        m = self.params["m"]
        if len(impostors) < m:
            raise CannotCompare(
                f"SPATIUM-L1 needs at least {m} impostor documents (m = {m}); "
                f"{len(impostors)} were given"
            )
        questioned = terms_of(case.questioned)
        known = [t for text in case.known for t in terms_of(text)]
        if not questioned or not known:
            side = "questioned text" if not questioned else "known documents"
            raise CannotCompare(f"SPATIUM-L1 needs words in both texts; the {side} has none")
        selected = selected_terms(questioned, self.params["terms"])
        if not selected:
            raise CannotCompare(
                "SPATIUM-L1 needs terms that occur more than once in the questioned text; "
                "every term of this one occurs equally often"
            )
        draws = [rng.choice(len(impostors), size=m, replace=False) for _ in range(self.params["r"])]
        used = sorted({int(i) for draw in draws for i in draw})
        rows = relative_frequencies(
            [questioned, known, *(terms_of(impostors[i]) for i in used)], selected
        )
        distance = np.abs(rows[1:] - rows[0]).sum(axis=1)  # known, then each used impostor
        where = {doc: 1 + pos for pos, doc in enumerate(used)}
        ratios = [
            comparison_ratio(
                distance[0], distance[[where[int(i)] for i in draw]], self.params["delta"]
            )
            for draw in draws
        ]
        return np.array([float(np.mean(ratios)), float(distance[0]), float(len(selected))])


METHOD = SpatiumL1
