"""Thresholds and the search for the best ensemble over all 2047 category subsets.

Everything here works on a matrix of training distances (cases × 11, NaN where a category
abstains) and the Y/N truth, vectorised with numpy. Ranking of ensembles, all descending:
1. number of correctly classified training cases (the accuracy),
2. number of categories in the ensemble,
3. median of the atomic (single-category) accuracies of its members,
then, as the documented final tie-break, the ensemble whose list of category numbers is
lexicographically smallest (F1 before F2 …), so the same data always gives the same model.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.methods.taveer.scoring import D_MAX, similarity_array

N_CATEGORIES = len(CATEGORY_IDS)
UNDECIDED_SIMILARITY = 0.5  # the score of a case on which every category abstains


def median_thresholds(distances: np.ndarray) -> np.ndarray:
    """θ_F = median of the training distances of category F (abstaining cases left out)."""
    thetas = np.full(distances.shape[1], D_MAX / 2)
    for j in range(distances.shape[1]):
        column = distances[:, j]
        column = column[~np.isnan(column)]
        if column.size:
            thetas[j] = float(np.median(column))
    return thetas


def eer_threshold(distances: np.ndarray, truth: np.ndarray) -> float:
    """The θ where false rejections of Y cases equal false acceptances of N cases.

    A case is accepted (Y) when d < θ. Candidates are 0, d_max and the midpoints between
    neighbouring distinct distances; the chosen θ minimises |FAR − FRR|, then FAR + FRR, then
    the distance to the median, then θ itself. Falls back to the median without both classes.
    """
    valid = ~np.isnan(distances)
    d, y = distances[valid], truth[valid]
    if d.size == 0:
        return D_MAX / 2
    d_y, d_n = np.sort(d[y]), np.sort(d[~y])
    if d_y.size == 0 or d_n.size == 0:
        return float(np.median(d))
    distinct = np.unique(d)
    candidates = np.concatenate(([0.0], (distinct[:-1] + distinct[1:]) / 2.0, [D_MAX]))
    frr = 1.0 - np.searchsorted(d_y, candidates, side="left") / d_y.size  # d_y >= θ
    far = np.searchsorted(d_n, candidates, side="left") / d_n.size  # d_n < θ
    median = float(np.median(d))
    order = np.lexsort(
        (candidates, np.abs(candidates - median), far + frr, np.round(np.abs(far - frr), 12))
    )
    return float(candidates[order[0]])


def eer_thresholds(distances: np.ndarray, truth: np.ndarray) -> np.ndarray:
    return np.array([eer_threshold(distances[:, j], truth) for j in range(distances.shape[1])])


def _subset_table() -> list[np.ndarray]:
    """For each size k = 1..11 the array of all k-subsets of category indices (lexicographic)."""
    return [
        np.array(list(itertools.combinations(range(N_CATEGORIES), k)), dtype=np.intp)
        for k in range(1, N_CATEGORIES + 1)
    ]


SUBSETS_BY_SIZE = _subset_table()
_ALL_MASKS = np.arange(1 << N_CATEGORIES)  # a set of categories as bits (bit j = category j)
_BITS = 1 << np.arange(N_CATEGORIES)
_POPCOUNT = np.array([bin(m).count("1") for m in _ALL_MASKS.tolist()], dtype=np.int16)
_MASKS_BY_SIZE = [_BITS[members].sum(axis=1) for members in SUBSETS_BY_SIZE]


def ensemble_similarities(similarities: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Median similarity per case for each ensemble of equal size (cases × ensembles).

    ``members`` is (ensembles × k) category indices; abstaining (NaN) categories are left out of
    the median, and a case on which all members abstain gets 0.5.
    """
    gathered = similarities[:, members]  # cases × ensembles × k
    gathered = np.sort(gathered, axis=-1)  # NaN sort last
    valid = (~np.isnan(gathered)).sum(axis=-1)
    lo_index = np.maximum(valid - 1, 0) // 2
    hi_index = np.maximum(valid, 1) // 2
    lo_index = np.minimum(lo_index, gathered.shape[-1] - 1)
    hi_index = np.minimum(hi_index, gathered.shape[-1] - 1)
    lo = np.take_along_axis(gathered, lo_index[..., None], axis=-1)[..., 0]
    hi = np.take_along_axis(gathered, hi_index[..., None], axis=-1)[..., 0]
    median = (lo + hi) / 2.0
    return np.where(valid > 0, median, UNDECIDED_SIMILARITY)


@dataclass(frozen=True)
class EnsembleSearch:
    """Outcome of the search: the winner and the figures it was ranked by."""

    best: tuple[str, ...]
    best_correct: int
    n_cases: int
    atomic_correct: dict[str, int]
    tied_on_all_keys: int
    n_ensembles: int

    @property
    def accuracy(self) -> float:
        return self.best_correct / self.n_cases if self.n_cases else 0.0


def correct_by_mask(similarities: np.ndarray, truth: np.ndarray, chunk_cases: int) -> np.ndarray:
    """For every set of categories (bit j = category j, 2048 sets), how many cases its
    ensemble classifies correctly: those whose median similarity (``ensemble_similarities``)
    is above 0.5 exactly when the truth is Y.

    No median is taken. Of the n members that do not abstain, let a be those above 0.5: for
    odd n the median is above 0.5 exactly when 2a > n; for even n likewise, except when
    2a = n, where the median is the mean of the largest value not above 0.5 and the smallest
    above it, computed as ``ensemble_similarities`` computes it. a and n are bit counts of
    each case's bits of "above" and "not abstaining"; the largest and smallest values of
    all 2048 sets are built up one category at a time (sets with bit j are those without it
    plus j), 11 numpy operations for every block of cases.
    """
    correct = np.zeros(len(_ALL_MASKS), dtype=np.int64)
    for start in range(0, similarities.shape[0], chunk_cases):
        s = similarities[start : start + chunk_cases]
        valid = ~np.isnan(s)
        above = valid & (s > 0.5)
        n = _POPCOUNT[_ALL_MASKS & (valid @ _BITS)[:, None]]
        twice_a = 2 * _POPCOUNT[_ALL_MASKS & (above @ _BITS)[:, None]]
        low = np.where(valid & ~above, s, -np.inf)
        high = np.where(above, s, np.inf)
        largest_low = np.empty((len(s), len(_ALL_MASKS)))
        smallest_high = np.empty_like(largest_low)
        largest_low[:, 0], smallest_high[:, 0] = -np.inf, np.inf
        for j in range(N_CATEGORIES):
            w = 1 << j
            np.maximum(largest_low[:, :w], low[:, j : j + 1], out=largest_low[:, w : 2 * w])
            np.minimum(smallest_high[:, :w], high[:, j : j + 1], out=smallest_high[:, w : 2 * w])
        with np.errstate(invalid="ignore"):  # -inf + inf where a set has no tie: not used
            tie_above = (largest_low + smallest_high) / 2.0 > 0.5
        predicted_y = (twice_a > n) | ((twice_a == n) & (n > 0) & tie_above)
        correct += (predicted_y == truth[start : start + chunk_cases, None]).sum(axis=0)
    return correct


def search_ensembles(
    similarities: np.ndarray, truth: np.ndarray, chunk_cases: int = 64
) -> EnsembleSearch:
    """Rank all 2047 ensembles on the training similarities (cases × 11) and pick the best."""
    truth = np.asarray(truth, dtype=bool)
    n_cases = similarities.shape[0]
    by_mask = correct_by_mask(similarities, truth, chunk_cases)
    correct_parts: list[np.ndarray] = []
    sizes: list[np.ndarray] = []
    member_lists: list[tuple[int, ...]] = []
    for members, masks in zip(SUBSETS_BY_SIZE, _MASKS_BY_SIZE, strict=True):
        correct_parts.append(by_mask[masks])
        sizes.append(np.full(members.shape[0], members.shape[1]))
        member_lists.extend(tuple(row) for row in members)
    correct_all = np.concatenate(correct_parts)
    size_all = np.concatenate(sizes)
    atomic = correct_parts[0]  # size-1 ensembles, in category order
    median_atomic_x2 = np.array(
        [_median_x2(sorted(int(atomic[i]) for i in members)) for members in member_lists]
    )
    lexicographic_rank = np.empty(len(member_lists), dtype=np.int64)
    lexicographic_rank[np.array(sorted(range(len(member_lists)), key=member_lists.__getitem__))] = (
        np.arange(len(member_lists))
    )
    order = np.lexsort((lexicographic_rank, -median_atomic_x2, -size_all, -correct_all))
    best = order[0]
    keys = (correct_all, size_all, median_atomic_x2)
    tied = int(np.sum(np.all([k == k[best] for k in keys], axis=0)))
    return EnsembleSearch(
        best=tuple(CATEGORY_IDS[i] for i in member_lists[best]),
        best_correct=int(correct_all[best]),
        n_cases=n_cases,
        atomic_correct={CATEGORY_IDS[i]: int(atomic[i]) for i in range(N_CATEGORIES)},
        tied_on_all_keys=tied,
        n_ensembles=len(member_lists),
    )


def _median_x2(values: list[int]) -> int:
    """Twice the median of sorted integers (kept integral so ties compare exactly)."""
    k = len(values)
    return values[(k - 1) // 2] + values[k // 2]


def thresholds_for(method: str, distances: np.ndarray, truth: np.ndarray) -> np.ndarray:
    if method == "median":
        return median_thresholds(distances)
    if method == "eer":
        return eer_thresholds(distances, truth)
    raise ValueError(f"unknown threshold method {method!r} (use median or eer)")


def training_similarities(distances: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    return similarity_array(distances, thresholds)
