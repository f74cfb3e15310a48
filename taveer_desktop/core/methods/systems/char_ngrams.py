"""Character n-gram counts and profiles, vectorised with numpy (the comparison methods' one place
for them: ProfAV, the Impostors Method and BAFF read characters through this module).

A text becomes an array of Unicode code points; its n-grams are the rows of a sliding window
over that array. To count them, the rows are turned into integers in a mixed radix over the
text's own alphabet (the distinct code points, in code-point order), so ``numpy.unique`` sorts
and counts them in one pass; where the alphabet is too large for 63 bits the rows are compared
as raw big-endian bytes instead (same order, slower). In both cases the distinct n-grams come
out in **lexicographic code-point order**, which makes every tie-break below (a profile's last
places among equally frequent n-grams) independent of the process, the platform and the other
texts of the call.

Two kinds of n-gram:

* **plain** — every n consecutive characters, spaces included (the "character n-grams" of
  Keselj et al. 2003 and of Potha and Stamatatos 2014);
* **space-free** — Koppel and Winter's (2014) "space-free character n-grams": every n
  consecutive characters inside one whitespace-separated token, and each token shorter than n
  as one n-gram of its own (kept apart from the others by padding it with spaces, which no
  in-token n-gram contains).

Several texts of one side (the known documents) are counted separately and their counts added
(``document_ngrams``): no n-gram spans two documents. ``NgramMatrix`` puts several documents
on one shared vocabulary, stored row by row as sparse (id, count) lists, so that similarities
to many impostors are computed in a few array operations. ``population`` indexes a pool of
impostor documents once (its vocabulary, rows and document frequencies) and finds a case's
n-grams in it; a validation fold or a model passes the same pool case after case.

Counting a 100 KB text takes some 15-20 ms; the counts of a text (4,096 texts) and the last
four pools are cached, keyed by the texts themselves, so a cached answer is always the answer
for those texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

_MAX_KEY = 2**63  # mixed-radix keys must stay below this to fit an int64
_WHITESPACE = np.array([cp for cp in range(0x3001) if chr(cp).isspace()], dtype=np.uint32)
_PAD = 0x20  # pads a space-free token shorter than n (no in-token n-gram contains a space)


@dataclass(frozen=True)
class NgramCounts:
    """The distinct n-grams of a text (rows of code points, lexicographic order) and counts."""

    grams: np.ndarray  # uint32, shape (distinct, n)
    counts: np.ndarray  # int64, shape (distinct,)

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    def strings(self) -> list[str]:
        """The n-grams as strings (for tests and explanations; padding spaces kept)."""
        return ["".join(map(chr, row)) for row in self.grams.tolist()]


def code_points(text: str) -> np.ndarray:
    """The text's code points as a uint32 array (no Python loop)."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def _unique_rows(
    rows: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of a (m, n) uint32 matrix in lexicographic order, their summed weights
    (1 per row by default) and, for every input row, the index of its distinct row."""
    m, n = rows.shape
    if m == 0:
        empty = np.zeros((0, n), dtype=np.uint32)
        return empty, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.intp)
    # the alphabet by a presence table (no sort): code point -> rank among those present
    present = np.zeros(int(rows.max()) + 1, dtype=bool)
    present[rows] = True
    alphabet = np.flatnonzero(present).astype(np.uint32)
    rank = np.cumsum(present, dtype=np.int64) - 1
    base = len(alphabet)
    if base**n < _MAX_KEY:
        keys = np.zeros(m, dtype=np.int64)
        for j in range(n):
            keys = keys * base + rank[rows[:, j]]
        distinct_keys, inverse = np.unique(keys, return_inverse=True)
        grams = np.empty((len(distinct_keys), n), dtype=np.uint32)
        rest = distinct_keys
        for j in range(n - 1, -1, -1):
            grams[:, j] = alphabet[rest % base]
            rest = rest // base
    else:  # a huge alphabet: compare rows as big-endian bytes (the same lexicographic order)
        raw = np.ascontiguousarray(rows.astype(">u4")).view(np.dtype((np.void, 4 * n)))[:, 0]
        distinct_raw, inverse = np.unique(raw, return_inverse=True)
        grams = distinct_raw.view(">u4").reshape(-1, n).astype(np.uint32)
    inverse = inverse.reshape(-1)
    if weights is None:
        counts = np.bincount(inverse, minlength=len(grams)).astype(np.int64)
    else:
        counts = np.bincount(inverse, weights=weights, minlength=len(grams)).astype(np.int64)
    return grams, counts, inverse


def _plain_rows(points: np.ndarray, n: int) -> np.ndarray:
    if len(points) < n:
        return np.zeros((0, n), dtype=np.uint32)
    return np.lib.stride_tricks.sliding_window_view(points, n)


def _space_free_rows(points: np.ndarray, n: int) -> np.ndarray:
    """In-token n-grams plus each token shorter than n, padded with spaces."""
    space = np.isin(points, _WHITESPACE)
    rows = _plain_rows(points, n)
    if len(rows):
        spaces_before = np.concatenate(([0], np.cumsum(space)))
        inside = spaces_before[n:] - spaces_before[:-n] == 0
        rows = rows[inside]
    # tokens: runs of non-space characters
    edges = np.diff(np.concatenate(([True], space, [True])).astype(np.int8))
    starts = np.flatnonzero(edges == -1)
    lengths = np.flatnonzero(edges == 1) - starts
    short = lengths < n
    starts, lengths = starts[short], lengths[short]
    padded = np.full((len(starts), n), _PAD, dtype=np.uint32)
    for j in range(n - 1):
        has = lengths > j
        padded[has, j] = points[starts[has] + j]
    return np.concatenate((np.asarray(rows, dtype=np.uint32), padded))


def text_ngrams(text: str, n: int, space_free: bool = False) -> NgramCounts:
    """The character n-grams of one text, counted (cached; the arrays are read-only)."""
    return _counted(text, n, space_free)  # one cache key however the caller passes arguments


@lru_cache(maxsize=4096)
def _counted(text: str, n: int, space_free: bool) -> NgramCounts:
    if n < 1:
        raise ValueError(f"n-gram order must be at least 1, not {n}")
    points = code_points(text)
    rows = _space_free_rows(points, n) if space_free else _plain_rows(points, n)
    grams, counts, _ = _unique_rows(rows)
    grams.flags.writeable = False
    counts.flags.writeable = False
    return NgramCounts(grams, counts)


def document_ngrams(texts: Sequence[str], n: int, space_free: bool = False) -> NgramCounts:
    """The n-grams of several texts of one side, counted per text and added (none spans two)."""
    parts = [text_ngrams(t, n, space_free) for t in texts]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return NgramCounts(np.zeros((0, n), dtype=np.uint32), np.zeros(0, dtype=np.int64))
    grams, counts, _ = _unique_rows(
        np.concatenate([p.grams for p in parts]),
        np.concatenate([p.counts for p in parts]).astype(float),
    )
    return NgramCounts(grams, counts)


def top_ngrams(counts: NgramCounts, size: int) -> np.ndarray:
    """Indices of the ``size`` most frequent n-grams (a profile): by count, ties broken in
    lexicographic order; all of them if the text has fewer."""
    order = np.lexsort((np.arange(len(counts.counts)), -counts.counts))
    return order[:size]


@dataclass(frozen=True)
class NgramMatrix:
    """Several documents on one vocabulary (lexicographic), row by row as sparse counts:
    row ``i`` has columns ``ids[indptr[i]:indptr[i+1]]`` (ascending) with ``values`` there."""

    vocabulary: np.ndarray  # uint32 (size, n): the n-grams of the columns, lexicographic
    indptr: np.ndarray
    ids: np.ndarray
    values: np.ndarray  # counts, or relative frequencies after ``relative()``

    @classmethod
    def of(cls, documents: Sequence[NgramCounts]) -> NgramMatrix:
        lengths = [len(d.counts) for d in documents]
        n = documents[0].grams.shape[1] if documents else 1
        rows = (
            np.concatenate([d.grams for d in documents])
            if documents
            else np.zeros((0, n), dtype=np.uint32)
        )
        vocabulary, _, inverse = _unique_rows(rows)
        values = (
            np.concatenate([d.counts for d in documents]).astype(float)
            if documents
            else np.zeros(0)
        )
        indptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.intp)
        return cls(vocabulary, indptr, inverse.astype(np.intp), values)

    @property
    def size(self) -> int:
        return len(self.vocabulary)

    @property
    def rows(self) -> int:
        return len(self.indptr) - 1

    @cached_property
    def row_of(self) -> np.ndarray:
        """For every stored value, the index of its row."""
        return np.repeat(np.arange(self.rows), np.diff(self.indptr))

    @cached_property
    def totals(self) -> np.ndarray:
        """Each row's sum."""
        return np.bincount(self.row_of, weights=self.values, minlength=self.rows)

    def relative(self) -> NgramMatrix:
        """Every row divided by its total (relative frequencies; an empty row stays empty)."""
        totals = self.totals
        scale = np.where(totals > 0, totals, 1.0)[self.row_of]
        return NgramMatrix(self.vocabulary, self.indptr, self.ids, self.values / scale)

    def dense(self, rows: Sequence[int] | np.ndarray) -> np.ndarray:
        """The chosen rows as a dense (len(rows), size) array."""
        out = np.zeros((len(rows), self.size))
        for out_row, row in enumerate(rows):
            span = slice(self.indptr[row], self.indptr[row + 1])
            out[out_row, self.ids[span]] = self.values[span]
        return out

    def minmax_to(self, vector: np.ndarray, vector_total: float | None = None) -> np.ndarray:
        """Min-max similarity of every row to a dense vector on this vocabulary:
        sum(min(x, y)) / sum(max(x, y)), 0 where both are empty. ``vector_total`` is the
        vector's whole mass where some of it lies outside this vocabulary (default: its sum)."""
        # only the stored values in a column where the vector is non-zero have a non-zero
        # minimum (the values are not negative); they are taken in their stored order, so the
        # sums are added in the same order as over every value, and come out the same
        at = np.flatnonzero((vector != 0.0)[self.ids])
        mins = np.minimum(self.values[at], vector[self.ids[at]])
        sum_min = np.bincount(self.row_of[at], weights=mins, minlength=self.rows)
        total = vector.sum() if vector_total is None else vector_total
        sum_max = self.totals + total - sum_min  # max = x + y - min
        similarity: np.ndarray = np.divide(
            sum_min, sum_max, out=np.zeros(self.rows), where=sum_max > 0
        )
        return similarity


@dataclass(frozen=True)
class PopulationNgrams:
    """The n-grams of a pool of impostor documents, indexed once for many cases (``population``):
    each document's counts on the pool's vocabulary, each n-gram's document frequency, and a
    way to find a case's n-grams in that vocabulary."""

    counts: NgramMatrix  # one row per pool document
    frequencies: NgramMatrix  # the same rows as relative frequencies
    document_frequency: np.ndarray  # int64 per vocabulary entry
    _keys: np.ndarray  # the vocabulary's rows as big-endian bytes: sorted, as the vocabulary

    def locate(self, grams: np.ndarray) -> np.ndarray:
        """The vocabulary index of each row of ``grams`` (uint32 (m, n)), -1 where the pool
        does not have it."""
        if len(self._keys) == 0:
            return np.full(len(grams), -1, dtype=np.intp)
        index = np.searchsorted(self._keys, _row_keys(grams))
        index = np.minimum(index, len(self._keys) - 1).astype(np.intp)
        found = np.all(self.counts.vocabulary[index] == grams, axis=1)
        return np.where(found, index, -1)


def _row_keys(grams: np.ndarray) -> np.ndarray:
    """Rows of code points as big-endian bytes, one opaque value each: they sort as the rows
    do, lexicographically."""
    n = grams.shape[1]
    return np.ascontiguousarray(grams.astype(">u4")).view(np.dtype((np.void, 4 * n)))[:, 0]


@lru_cache(maxsize=4)
def _population(texts: tuple[str, ...], n: int, space_free: bool) -> PopulationNgrams:
    counts = NgramMatrix.of([text_ngrams(t, n, space_free) for t in texts])
    frequency = np.bincount(counts.ids, minlength=counts.size).astype(np.int64)
    return PopulationNgrams(counts, counts.relative(), frequency, _row_keys(counts.vocabulary))


def population(texts: Sequence[str], n: int, space_free: bool = False) -> PopulationNgrams:
    """The pool's n-gram index (cached: a validation fold or a model passes the same impostors
    case after case, so the pool is counted and indexed once)."""
    return _population(tuple(texts), n, space_free)
