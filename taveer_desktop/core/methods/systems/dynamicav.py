"""DynamicAV: similarity of the most frequent n-grams of a feature category.

Ahmed, Hossam (2018), "The Role of Linguistic Feature Categories in Authorship Verification",
Procedia Computer Science 142 (ACLing 2018), 214–221, doi:10.1016/j.procs.2018.10.478. A
similarity-based, author-profiling method without negative (other-author) training data: the
known and the questioned text are each reduced to the top ``x`` % most frequent n-grams of one
feature category ``F``, the two profiles are compared, and the similarity is set against a
threshold. Which category, which ``x`` and which ``n`` work best is chosen on training data
("dynamic"); the seed tuned them per training corpus (its Table 4).

Per category ``F`` with n-gram order ``n`` and share ``x``::

    P_F(T)       = the ceil(x/100 * |distinct n-grams of T|) most frequent n-grams of T
                   (ties broken by the n-gram's text, so the profile is fixed)
    V            = P_F(K) ∪ P_F(Q)
    sim_F(K, Q)  = cosine of the relative frequencies of K and Q over V
                 = Σ_v f_K(v) f_Q(v) / (‖f_K‖ ‖f_Q‖),   f_T(v) = count_T(v) / Σ_u count_T(u)

``K`` is the known documents joined (n-grams never cross a document boundary), ``Q`` the
questioned text. ``features`` returns ``sim_F`` for every category below, in ``CATEGORIES``
order; the raw score is the similarity of the chosen category.

Hyperparameters (the seed's StackExchange column, Table 4): ``category`` = "token", ``top`` =
15 (%), ``n`` = 4. ``category`` may also be "learned": ``learn`` then picks, among the
categories, the one whose similarity separates the training trials best (highest AUC), the
dynamic choice the original makes on training data; with a named category nothing is learned
and the calibration replaces the threshold.

Categories (all computed from the text itself):

* ``token``: word and punctuation tokens, lower-cased (the seed's F = Token);
* ``character``: characters, white space runs shown as one space;
* ``punctuation``: the sequence of punctuation marks alone.

Deviations: the original's POS-tag and lemma categories need a tagger (the seed used spaCy's
``en_core_web_lg``), which is not available offline and may not be downloaded, so they are
left out; so is the diacritics category, which the seed discarded too. The original's exact
similarity function is not in the material available to us (only its abstract and the seed's
description); we use the cosine above. Refused (``CannotCompare``): a known or questioned
text with fewer than ``n`` tokens. A category without any n-gram in a text (no punctuation)
gives similarity 0.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)

CATEGORIES = ("token", "character", "punctuation")
LEARNED = "learned"  # ``category`` value: choose the category on the training trials

_TOKEN = re.compile(r"\w+|[^\w\s]")
_PUNCTUATION = re.compile(r"[^\w\s]")
_SPACE = re.compile(r"\s+")


def units(text: str, category: str) -> list[str]:
    """The text as the sequence of units whose n-grams the category counts."""
    if category == "token":
        return _TOKEN.findall(text.lower())
    if category == "character":
        return list(_SPACE.sub(" ", text).strip())
    return _PUNCTUATION.findall(text)


def ngram_counts(documents: Iterable[str], category: str, n: int) -> Counter[str]:
    """Counts of the category's n-grams over the documents (none crosses a document). An
    n-gram is written as one string: tokens joined by a space (a token holds none), characters
    and punctuation marks side by side (one character each)."""
    counts: Counter[str] = Counter()
    for document in documents:
        seq = units(document, category)
        if category == "token":
            counts.update(" ".join(seq[i : i + n]) for i in range(len(seq) - n + 1))
        else:
            joined = "".join(seq)
            counts.update(joined[i : i + n] for i in range(len(joined) - n + 1))
    return counts


def top_share(counts: Counter[str], percent: float) -> set[str]:
    """The ceil(percent % of the distinct n-grams) most frequent ones (ties by text)."""
    if not counts:
        return set()
    keep = max(1, math.ceil(len(counts) * percent / 100.0))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return {gram for gram, _ in ranked[:keep]}


def profile_similarity(known: Counter[str], questioned: Counter[str], percent: float) -> float:
    """Cosine of the two texts' relative frequencies over the union of their top profiles."""
    vocabulary = sorted(top_share(known, percent) | top_share(questioned, percent))
    if not vocabulary:
        return 0.0
    k = np.array([known[g] for g in vocabulary], dtype=float) / sum(known.values())
    q = np.array([questioned[g] for g in vocabulary], dtype=float) / sum(questioned.values())
    norm = float(np.linalg.norm(k) * np.linalg.norm(q))
    return float(k @ q) / norm if norm > 0 else 0.0


class DynamicAv(ComparisonMethod):
    """DynamicAV (see the module)."""

    info = method_info(MethodId.DYNAMICAV)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {"category": "token", "top": 15, "n": 4}

    def check_params(self, params: Mapping[str, Any]) -> None:
        name = self.info.name
        if params.get("category") not in (*CATEGORIES, LEARNED):
            raise ValueError(
                f"{name}: category must be one of {', '.join((*CATEGORIES, LEARNED))}, "
                f"not {params.get('category')!r}"
            )
        top = params.get("top")
        if isinstance(top, bool) or not isinstance(top, int | float) or not 0 < top <= 100:
            raise ValueError(f"{name}: top must be a share in per cent above 0 and at most 100")
        n = params.get("n")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10:
            raise ValueError(f"{name}: n must be a whole number from 1 to 10")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        n, top = self.params["n"], float(self.params["top"])
        similarities = []
        for category in CATEGORIES:
            known = ngram_counts(case.known, category, n)
            questioned = ngram_counts((case.questioned,), category, n)
            if category == "token":
                for what, counts in (("known", known), ("questioned", questioned)):
                    if not counts:
                        raise CannotCompare(
                            f"{self.info.name} compares token {n}-grams; the {what} text has "
                            f"fewer than {n} tokens"
                        )
            similarities.append(profile_similarity(known, questioned, top))
        return np.array(similarities)

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        if self.params["category"] != LEARNED:
            return {}
        rows, truth = np.asarray(features, dtype=float), np.asarray(truth, dtype=bool)
        if truth.all() or not truth.any():
            return {"category": CATEGORIES[0]}
        from taveer_desktop.core.calibration.score_measures import (
            roc_auc,  # only when learning
        )

        aucs = [roc_auc(rows[:, i], truth) for i in range(len(CATEGORIES))]
        return {"category": CATEGORIES[int(np.argmax(aucs))]}

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        category = self.params["category"]
        if category == LEARNED:
            category = learned.get("category", CATEGORIES[0])
        return np.asarray(features, dtype=float)[:, CATEGORIES.index(category)]

    def check_learned(self, learned: Mapping[str, Any]) -> None:
        if "category" in learned and learned["category"] not in CATEGORIES:
            raise ValueError(
                f"{self.info.name}: learned category must be one of {', '.join(CATEGORIES)}"
            )


METHOD = DynamicAv
