"""COAV: the compression-based cosine between the known and the questioned text.

Halvani, Winter, Graner (2017), "On the Usefulness of Compression Models for Authorship
Verification", ARES 2017 (preprint arXiv:1706.00516, "Authorship Verification based on
Compression-Models"). The method has three parts only: a compressor (PPMd), a dissimilarity
(CBC) and a threshold learned on a training corpus.

With ``K`` the known documents joined into one text (a blank line between documents, as COAV
joins a case's known documents into one reference text) and ``Q`` the questioned text::

    feature  d = CBC(K, Q) = 1 - (C(K) + C(Q) - C(KQ)) / sqrt(C(K) * C(Q))
    raw score    = -d        (higher = more like the same author)

``C`` is the PPMd compressed length (``ppmd_compression``; variant H, model order 7 as the
seed fixes for all three compression methods). Hyperparameter: ``order`` (7).

Deviation from the original: COAV accepts the authorship when ``d`` is below a threshold
learned on the training corpus (the equal-error-rate point); here the validation's calibration
takes the threshold's place and turns ``-d`` into a likelihood ratio, so ``learn`` learns
nothing. The known text comes first in ``KQ`` (the original does not say which order it uses;
CBC is nearly symmetric).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.comparison import CaseTexts
from taveer_desktop.core.methods.systems.compression_method import CompressionMethod


class Coav(CompressionMethod):
    """COAV (see the module)."""

    info = method_info(MethodId.COAV)

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        known, questioned = self.texts(case)
        return np.array([self.lengths().cbc(known, questioned)])

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        return -np.asarray(features, dtype=float)[:, 0]


METHOD = Coav
