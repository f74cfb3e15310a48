"""The Impostors Method (IM) of Koppel and Winter (2014), "Determining if two documents are
written by the same author", JASIST 65(1), 178-187.

Documents are vectors of relative frequencies of **space-free character 4-grams** (4 characters
inside one token, or a whole token shorter than 4; ``char_ngrams``), compared with the
**min-max similarity** sim(x, y) = Σ min(x_i, y_i) / Σ max(x_i, y_i). For a pair (X, Y) the
method asks how robustly X is closer to Y than to impostors of Y:

1. from the impostor documents keep the M most similar to Y (potential impostors) and draw N of
   them at random (the impostors);
2. k times: choose half of the features at random; the iteration counts when, on those
   features, sim(X, Y) > sim(X, I) for every impostor I;
3. score(X, Y) = the fraction of the k iterations that counted.

The original computes both directions and averages them. Here X = the known documents (counted
together), Y = the questioned text:

    IM = ( score(known, questioned) + score(questioned, known) ) / 2

score(known, questioned) draws impostors similar to the questioned text (the direction the
seed describes) and score(questioned, known) draws them similar to the known documents. The
raw score is IM (higher = more like the same author); the original's threshold σ* is replaced
by the validation's calibration. Features: [IM, score(known, questioned), score(questioned, known)].

Hyperparameters (``DEFAULTS``): the seed's table of tuned baseline settings, StackExchange
column: M = 100, N = 10, k = 50 (the seed tunes them per corpus; its Yelp/Reddit/Amazon
columns are 100/10/100, 100/100/100 and 100/10/50). The feature share per iteration is one
half, as in the original.

Impostors: documents of other authors of the validation population (the engine never passes
one of the case's authors); the original fetched them with search-engine queries. With fewer
than N impostors the method cannot compare; with fewer than M all of them are potential
impostors. The feature set of one direction is the vocabulary of X, Y and the N impostors (the
original fixed the corpus's 100,000 most frequent 4-grams; on documents of a few thousand
characters the two agree on what matters). Randomness: only the given generator (impostor draw
and feature halves), so a seed fixes the score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.systems.char_ngrams import (
    NgramCounts,
    NgramMatrix,
    PopulationNgrams,
    document_ngrams,
    population,
    text_ngrams,
)
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.methods.systems.param_checks import whole_number

ORDER = 4  # space-free character 4-grams (Koppel and Winter 2014)


def random_halves(rng: np.random.Generator, iterations: int, size: int) -> np.ndarray:
    """``iterations`` masks over ``size`` features, each choosing exactly half (rounded down,
    at least one) at random without replacement."""
    half = max(1, size // 2)
    keys = rng.random((iterations, size))
    return keys <= _kth_smallest(keys, half - 1)


def _kth_smallest(keys: np.ndarray, kth: int) -> np.ndarray:
    """(rows, 1): each row's ``kth`` smallest value (0-based), exactly as ``np.partition``
    finds it, but sorting only the values in a narrow band where it must lie (uniform keys: the
    order statistic lies within a few standard deviations of its expected value); a row whose
    band misses it (chance about 1e-9) is partitioned whole."""
    rows, size = keys.shape
    share = (kth + 0.5) / size
    spread = 8.0 * np.sqrt(share * (1.0 - share) / size) + 2.0 / size
    low, high = share - spread, share + spread
    if size < 256 or low <= 0.0 or high >= 1.0:
        return np.partition(keys, kth, axis=1)[:, kth : kth + 1]
    below = np.count_nonzero(keys < low, axis=1)
    band = (keys >= low) & (keys < high)
    in_band = np.count_nonzero(band, axis=1)
    place = kth - below
    found = (place >= 0) & (place < in_band)
    padded = np.full((rows, int(in_band.max())), np.inf)
    row_of = np.repeat(np.arange(rows), in_band)
    column = np.arange(len(row_of)) - np.repeat(np.cumsum(in_band) - in_band, in_band)
    padded[row_of, column] = keys[band]
    padded.sort(axis=1)
    cut = padded[np.arange(rows), np.where(found, place, 0)]
    for row in np.flatnonzero(~found):
        cut[row] = np.partition(keys[row], kth)[kth]
    return cut[:, None]


def impostor_score(
    anchor: np.ndarray, target: np.ndarray, impostors: np.ndarray, masks: np.ndarray
) -> float:
    """The fraction of feature masks on which sim(anchor, target) > sim(anchor, I) for every
    impostor row I (min-max similarity on the masked features; 0 where both sums are 0)."""
    others = np.vstack([target, impostors])
    mins = masks.astype(float) @ np.minimum(anchor, others).T  # (iterations, 1 + impostors)
    maxs = masks.astype(float) @ np.maximum(anchor, others).T
    sims = np.divide(mins, maxs, out=np.zeros_like(mins), where=maxs > 0)
    return float(np.mean(sims[:, 0] > sims[:, 1:].max(axis=1)))


class ImpostorsMethod(ComparisonMethod):
    """Koppel and Winter's Impostors Method (see the module)."""

    info = method_info(MethodId.IM)
    DEFAULTS: ClassVar[Mapping[str, Any]] = {"M": 100, "N": 10, "k": 50}

    def check_params(self, params: Mapping[str, Any]) -> None:
        m = whole_number(params, "M", 1, 100_000)
        whole_number(params, "N", 1, m)
        whole_number(params, "k", 1, 100_000)

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        needed = self.params["N"]
        if len(impostors) < needed:
            raise CannotCompare(
                f"the Impostors Method needs at least {needed} impostor documents (N = "
                f"{needed}); {len(impostors)} were given"
            )
        known = document_ngrams(case.known, ORDER, space_free=True)
        questioned = text_ngrams(case.questioned, ORDER, space_free=True)
        for side, counts in (("questioned text", questioned), ("known documents", known)):
            if counts.total == 0:
                raise CannotCompare(
                    f"the Impostors Method needs words in both texts; the {side} has none"
                )
        pool = population(impostors, ORDER, space_free=True)
        forward = self._direction(known, questioned, impostors, pool, rng)
        backward = self._direction(questioned, known, impostors, pool, rng)
        return np.array([(forward + backward) / 2.0, forward, backward])

    def _direction(
        self,
        anchor: NgramCounts,
        target: NgramCounts,
        impostors: Sequence[str],
        pool: PopulationNgrams,
        rng: np.random.Generator,
    ) -> float:
        """score(anchor, target) with impostors drawn among the M most similar to ``target``."""
        ids = pool.locate(target.grams)
        vector = np.zeros(pool.frequencies.size)
        vector[ids[ids >= 0]] = target.counts[ids >= 0] / target.total
        similarity = pool.frequencies.minmax_to(vector, vector_total=1.0)
        potential = np.argsort(-similarity, kind="stable")[: self.params["M"]]
        chosen = rng.choice(potential, size=self.params["N"], replace=False)
        rows = [text_ngrams(impostors[i], ORDER, space_free=True) for i in chosen.tolist()]
        matrix = NgramMatrix.of([anchor, target, *rows]).relative()  # this direction's features
        dense = matrix.dense(range(matrix.rows))
        masks = random_halves(rng, self.params["k"], matrix.size)
        return impostor_score(dense[0], dense[1], dense[2:], masks)


METHOD = ImpostorsMethod
