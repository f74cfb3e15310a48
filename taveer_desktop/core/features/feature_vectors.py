"""Feature counts as sparse integer vectors: profiles, distances, display.

A document's (or profile's) features are two parallel numpy arrays — feature codes
(``feature_codes``: category in the top bits) and their counts — grouped by category F1…F11 and,
within a category, in the order the features first occur (the order features are listed in).
The distance below adds each category's terms from the smallest to the largest, an order that
depends only on the counts, never on the order in which documents or features arrived: the same
texts give the same distances to the last bit whichever importer read them and in whatever order
their files came (``scoring.manhattan_distance``, the string-based reference, adds the same way).
Strings are built only when ``counts`` is read, for display. The counting that makes these
vectors is in ``feature_counts.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

import numpy as np

from taveer_desktop.core.features.feature_codes import CATEGORY_IDS, CATEGORY_SHIFT, Codebook

N_CATEGORIES = len(CATEGORY_IDS)
_EMPTY = np.zeros(0, dtype=np.uint64)
D_MAX = 2.0
_CATEGORY_ROWS = np.arange(N_CATEGORIES)
_CATEGORY_NUMBERS = np.arange(N_CATEGORIES + 1, dtype=np.uint64)


class DocumentFeatures:
    """Feature counts of one document (or of a profile of several) per category."""

    def __init__(
        self,
        keys: np.ndarray,
        values: np.ndarray,
        bounds: np.ndarray,
        n_sentences: int,
        n_chars: int,
        codebook: Codebook,
    ) -> None:
        self.keys = keys  # uint64 feature codes, grouped by category, first occurrence first
        self.values = values  # int64 counts
        self.bounds = bounds  # 12 offsets: category j is keys[bounds[j]:bounds[j + 1]]
        self.n_sentences = n_sentences
        self.n_chars = n_chars
        self.codebook = codebook

    def __repr__(self) -> str:
        sizes = ", ".join(f"{c}={self.size(c)}" for c in CATEGORY_IDS)
        return f"DocumentFeatures({sizes}, sentences={self.n_sentences}, chars={self.n_chars})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DocumentFeatures):
            return NotImplemented
        return (
            self.codebook is other.codebook
            and (self.n_sentences, self.n_chars) == (other.n_sentences, other.n_chars)
            and np.array_equal(self.bounds, other.bounds)
            and np.array_equal(self.keys, other.keys)
            and np.array_equal(self.values, other.values)
        )

    __hash__ = None  # type: ignore[assignment]  # unhashable: equality compares the arrays

    def _span(self, category: str) -> tuple[int, int]:
        j = CATEGORY_IDS.index(category)
        return int(self.bounds[j]), int(self.bounds[j + 1])

    def category(self, category: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes and counts of one category (views, in listing order)."""
        a, b = self._span(category)
        return self.keys[a:b], self.values[a:b]

    def total(self, category: str) -> int:
        """Number of feature occurrences of a category."""
        a, b = self._span(category)
        return int(self.values[a:b].sum())

    def size(self, category: str) -> int:
        """Number of distinct features of a category."""
        a, b = self._span(category)
        return b - a

    def totals(self) -> np.ndarray:
        """Occurrences per category (11 integers)."""
        cumulative = np.concatenate(([0], self.values.cumsum()))
        totals: np.ndarray = cumulative[self.bounds[1:]] - cumulative[self.bounds[:-1]]
        return totals

    @cached_property
    def counts(self) -> dict[str, dict[str, int]]:
        """Display form: per category, feature string → count, in listing order."""
        decode = self.codebook.decode
        keys, values = self.keys.tolist(), self.values.tolist()
        out = {}
        for j, category in enumerate(CATEGORY_IDS):
            a, b = int(self.bounds[j]), int(self.bounds[j + 1])
            out[category] = {decode(j, k): v for k, v in zip(keys[a:b], values[a:b], strict=True)}
        return out

    @staticmethod
    def combine(parts: Iterable[DocumentFeatures]) -> DocumentFeatures:
        """The profile of several documents: counts added up category by category (features
        listed in order of first occurrence across the parts, as if counted one after another)."""
        parts = list(parts)
        if not parts:
            raise ValueError("a profile needs at least one document")
        if len(parts) == 1:
            return parts[0]
        codebook = parts[0].codebook
        if any(p.codebook is not codebook for p in parts):
            raise ValueError("a profile's documents must be counted with the same lexicon")
        keys = np.concatenate([p.keys for p in parts])
        values = np.concatenate([p.values for p in parts])
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        sums = np.zeros(len(unique), dtype=np.int64)
        np.add.at(sums, inverse, values)
        order = np.lexsort((first, unique >> CATEGORY_SHIFT))
        keys = unique[order]
        return DocumentFeatures(
            keys=keys,
            values=sums[order],
            bounds=category_bounds(keys),
            n_sentences=sum(p.n_sentences for p in parts),
            n_chars=sum(p.n_chars for p in parts),
            codebook=codebook,
        )

    def distance(self, other: DocumentFeatures, category: str) -> float | None:
        """The distance of one category (None where a side has no feature of it)."""
        j = CATEGORY_IDS.index(category)
        parts = []
        for side in (self, other):
            keys, values = side.category(category)
            bounds = np.array([0] * (j + 1) + [len(keys)] * (N_CATEGORIES - j), dtype=np.intp)
            parts.append(DocumentFeatures(keys, values, bounds, 0, 0, side.codebook))
        value = parts[0].distances(parts[1])[j]
        return None if np.isnan(value) else float(value)

    def distances(self, other: DocumentFeatures) -> np.ndarray:
        """Manhattan distance of the L1-normalised vectors per category (NaN where a side has
        no feature): the terms of every feature of either side, added smallest first."""
        out = np.full(N_CATEGORIES, np.nan)
        totals_x, totals_y = self.totals(), other.totals()
        active = (totals_x > 0) & (totals_y > 0)
        if not active.any():
            return out
        sizes_x = self.bounds[1:] - self.bounds[:-1]
        sizes_y = other.bounds[1:] - other.bounds[:-1]
        safe_x, safe_y = np.maximum(totals_x, 1), np.maximum(totals_y, 1)
        order_y = other.keys.argsort()
        sorted_y = other.keys[order_y]
        at = np.minimum(sorted_y.searchsorted(self.keys), max(len(sorted_y) - 1, 0))
        found = sorted_y[at] == self.keys if len(sorted_y) else np.zeros(len(self.keys), bool)
        matched_y = order_y[at[found]]
        y_at_x = np.zeros(len(self.keys), dtype=np.int64)
        y_at_x[found] = other.values[matched_y]
        terms_x = np.abs(self.values / safe_x.repeat(sizes_x) - y_at_x / safe_y.repeat(sizes_x))
        rest = np.ones(len(other.keys), dtype=bool)
        rest[matched_y] = False
        terms_y = (other.values / safe_y.repeat(sizes_y))[rest]
        kept_before = np.concatenate(([0], rest.cumsum()))[other.bounds]
        sizes_rest = kept_before[1:] - kept_before[:-1]
        sums = _ascending_sums(terms_x, sizes_x, terms_y, sizes_rest)
        out[active] = np.clip(sums[active], 0.0, D_MAX)
        return out


def _ascending_sums(
    first: np.ndarray, first_sizes: np.ndarray, second: np.ndarray, second_sizes: np.ndarray
) -> np.ndarray:
    """Per category, the sum of its run of ``first`` and its run of ``second`` (non-negative
    terms), added one term after another from the smallest to the largest: the result depends
    on the terms alone, not on their order. Each category's terms are laid out in one row of a
    zero-padded matrix, each row sorted (the padding's zeros come first and change no sum) and
    accumulated along its length."""
    lengths = first_sizes + second_sizes
    width = int(lengths.max()) if len(lengths) else 0
    if width == 0:
        return np.zeros(N_CATEGORIES)
    if N_CATEGORIES * width > 4 * (len(first) + len(second)) + 4096:
        # one category far larger than the rest: accumulate row by row instead of padding
        sums = np.zeros(N_CATEGORIES)
        a, b = first_sizes.cumsum() - first_sizes, second_sizes.cumsum() - second_sizes
        for j in np.flatnonzero(lengths).tolist():
            terms = np.concatenate(
                (first[a[j] : a[j] + first_sizes[j]], second[b[j] : b[j] + second_sizes[j]])
            )
            sums[j] = np.cumsum(np.sort(terms))[-1]
        return sums
    rows = np.concatenate(
        (
            _CATEGORY_ROWS.repeat(first_sizes),
            _CATEGORY_ROWS.repeat(second_sizes),
        )
    )
    columns = np.concatenate(
        (
            np.arange(len(first)) - (first_sizes.cumsum() - first_sizes).repeat(first_sizes),
            np.arange(len(second))
            - (second_sizes.cumsum() - second_sizes - first_sizes).repeat(second_sizes),
        )
    )
    matrix = np.zeros((N_CATEGORIES, width))
    matrix[rows, columns] = np.concatenate((first, second))
    matrix.sort(axis=1)
    return matrix.cumsum(axis=1)[:, -1]


def category_bounds(keys: np.ndarray) -> np.ndarray:
    """Offsets of each category in codes grouped by category."""
    bounds: np.ndarray = (keys >> CATEGORY_SHIFT).searchsorted(_CATEGORY_NUMBERS)
    return bounds
