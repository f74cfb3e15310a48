"""NNCD: nearest neighbour of the questioned text by compression dissimilarity, among the known
documents and impostors.

Veenman, Li (2013), "Authorship Verification with Compression Features", Notebook for PAN at
CLEF 2013. The questioned text is attributed to the known author when its nearest neighbour
under the CDM dissimilarity (``ppmd_compression``; PPMd, as the original, at the seed's model
order 7) is one of the known documents rather than an impostor, a document by someone else.
The original gathered its impostors with web-search queries; the seed (as Kocher and Savoy
did for SPATIUM) takes them from the evaluation corpus instead, and so do we: the impostors
are documents of *other* authors of the validation population (``needs_impostors``).

With ``K_1 … K_m`` the known documents, ``I_1 … I_n`` the impostors used and ``Q`` the
questioned text::

    d_known    = min_i CDM(K_i, Q)        CDM(x, Q) = C(xQ) / (C(x) + C(Q))
    d_impostor = min_j CDM(I_j, Q)
    decision value  s = d_impostor - d_known   (s > 0: the nearest neighbour is a known
                                                document, same author; raw score = s)

``features`` returns ``(d_known, d_impostor)``; ``score`` is their difference; nothing is
learned (the nearest-neighbour rule has no threshold; the calibration maps ``s`` to a
likelihood ratio).

Hyperparameters: ``order`` (PPMd model order, 7) and ``impostors`` (30): at most that many
impostors are compared, chosen without chance — those whose length is nearest to the
questioned text's (a compression dissimilarity drifts with length, so length-matched
impostors are the fair neighbours), earlier ones first at equal distance. The number of
impostor documents the original retrieved per problem is not stated in the material available
to us; 30 is our cap for speed: each impostor costs one compression of the impostor joined
with the questioned text (about 1 ms per 5,000 characters); impostors' own lengths are
remembered across trials.

Refused (``CannotCompare``): no known or no questioned text, or no impostor with text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.compression_method import CompressionMethod

IMPOSTORS = 30  # impostors compared per case at most (see the module)


def nearest_in_length(texts: Sequence[str], length: int, count: int) -> list[str]:
    """At most ``count`` texts whose length is nearest to ``length`` (earlier first on ties)."""
    order = sorted(range(len(texts)), key=lambda i: (abs(len(texts[i]) - length), i))
    return [texts[i] for i in order[:count]]


class Nncd(CompressionMethod):
    """NNCD (see the module)."""

    info = method_info(MethodId.NNCD)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {**CompressionMethod.DEFAULTS, "impostors": IMPOSTORS}

    def check_params(self, params: Mapping[str, Any]) -> None:
        super().check_params(params)
        count = params.get("impostors")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"{self.info.name}: impostors must be a whole number of at least 1")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        name = self.info.name
        self.texts(case)  # refused when the known or the questioned text is empty
        known = [text for text in case.known if text.strip()]
        own = {*known, case.questioned}
        usable = [text for text in impostors if text.strip() and text not in own]
        if not usable:
            raise CannotCompare(
                f"{name} compares the questioned text with documents of other authors of the "
                "population; none was given"
            )
        chosen = nearest_in_length(usable, len(case.questioned), self.params["impostors"])
        lengths = self.lengths()
        d_known = min(lengths.cdm(text, case.questioned) for text in known)
        d_impostor = min(lengths.cdm(text, case.questioned) for text in chosen)
        return np.array([d_known, d_impostor])

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        rows = np.asarray(features, dtype=float)
        decision: np.ndarray = rows[:, 1] - rows[:, 0]
        return decision


METHOD = Nncd
