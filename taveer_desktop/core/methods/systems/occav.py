"""OCCAV: a one-class decision whose threshold is the known text's own dissimilarity.

Halvani, Graner, Vogel (2018), "Authorship Verification in the Absence of Explicit Features
and Thresholds", ECIR 2018 (LNCS 10772). The paper's claim, in its abstract: a
parameter-free method that "derives its thresholds for each verification case individually"
from compression alone, without explicit features or a training corpus. As the seed states,
OCCAV uses PPMd and the CBC dissimilarity (``ppmd_compression``).

The case's own threshold is how unlike the known author's text is to itself; the questioned
text is accepted when it is no more unlike the known text than that. With ``K`` the known
documents joined, ``K1`` and ``K2`` its two halves (cut at the white space nearest to the
middle character) and ``Q`` the questioned text::

    threshold  t = CBC(K1, K2)                        (the author against themself)
    distance   d = (CBC(K1, Q) + CBC(K2, Q)) / 2      (the questioned text against the author)
    decision value  s = t - d                         (s >= 0: same author; raw score = s)

Comparing ``Q`` with each half rather than with the whole of ``K`` keeps the two sides of the
comparison at the same length of reference text. Hyperparameter: ``order`` (PPMd model order,
7 as the seed fixes). ``features`` returns ``(t, d)``; ``score`` is ``t - d``; nothing is
learned (the method has no threshold to learn, and the calibration only maps ``s`` to a
likelihood ratio).

Deviation and what could not be checked: the ECIR paper's full text was not available to us
(only its abstract and the seed's description); how exactly it cuts the texts and aggregates
the dissimilarities into the case's threshold is our reading of "derives its thresholds for
each verification case individually", written down above. A known text too short to cut into
two halves with text in each is refused (``CannotCompare``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.compression_method import CompressionMethod


def halves(text: str) -> tuple[str, str]:
    """The text cut in two at the white space nearest to its middle character (the white
    space itself dropped); ``("", text)`` if it has no white space between words."""
    middle = len(text) // 2
    for offset in range(len(text)):
        for cut in (middle - offset, middle + offset):
            if 0 < cut < len(text) - 1 and text[cut].isspace():
                return text[:cut], text[cut + 1 :]
    return "", text


class Occav(CompressionMethod):
    """OCCAV (see the module)."""

    info = method_info(MethodId.OCCAV)

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        known, questioned = self.texts(case)
        first, second = halves(known)
        if not first.strip() or not second.strip():
            raise CannotCompare(
                f"{self.info.name} cuts the known text in two halves to learn its own "
                "threshold; the known text is too short to cut"
            )
        lengths = self.lengths()
        threshold = lengths.cbc(first, second)
        distance = (lengths.cbc(first, questioned) + lengths.cbc(second, questioned)) / 2.0
        return np.array([threshold, distance])

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        rows = np.asarray(features, dtype=float)
        decision: np.ndarray = rows[:, 0] - rows[:, 1]
        return decision


METHOD = Occav
