"""Chunks of words, and the most-frequent-word counts of chunks, for the two unmasking methods.

Unmasking (Koppel and Schler 2004) cuts each text into consecutive chunks of a fixed number of
words; Generalised Unmasking (Bevendorff et al. 2019) draws each chunk's words at random, with
replacement, from the whole text, so that a short text still gives as many chunks as wanted.
Either way a chunk is represented by how often each of the most frequent words of the two texts
occurs in it.

Words are runs of letters and digits, an apostrophe inside a word kept ("don't"), lower-cased
(Unmasking) or with their case kept (Generalised Unmasking, as its reference code's tokeniser).
A pair of texts is encoded once as integer word ids (``encode_pair``), so that chunks are 2-D
id arrays and counting them is one ``bincount``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

_WORD = re.compile(r"\w+(?:['’]\w+)*")


def words(text: str, keep_case: bool = False) -> list[str]:
    """The words of a text, in order, lower-cased unless ``keep_case``."""
    return _WORD.findall(text if keep_case else text.lower())


@dataclass(frozen=True)
class EncodedPair:
    """Two texts as word ids into one shared vocabulary (sorted alphabetically)."""

    first: np.ndarray  # word ids of the first text, in order
    second: np.ndarray  # word ids of the second text, in order
    vocabulary: tuple[str, ...]


def encode_pair(first: str, second: str, keep_case: bool = False) -> EncodedPair:
    """Both texts' words (``words``) as ids into their joint vocabulary."""
    words_a, words_b = words(first, keep_case), words(second, keep_case)
    vocabulary, ids = np.unique(np.array(words_a + words_b, dtype=object), return_inverse=True)
    ids = ids.astype(np.intp)
    return EncodedPair(ids[: len(words_a)], ids[len(words_a) :], tuple(vocabulary.tolist()))


def consecutive_chunks(ids: np.ndarray, size: int) -> np.ndarray:
    """The text cut into consecutive chunks of ``size`` words, (n, size); a last, shorter
    piece is left out."""
    n = len(ids) // size
    return np.asarray(ids[: n * size]).reshape(n, size)


def oversampled_chunks(
    ids: np.ndarray, n_chunks: int, size: int, rng: np.random.Generator, runs: int = 1
) -> np.ndarray:
    """``runs`` × ``n_chunks`` chunks of ``size`` words drawn with replacement from the whole
    text, (runs, n_chunks, size)."""
    if len(ids) == 0:
        raise ValueError("cannot draw words from an empty text")
    return np.asarray(ids)[rng.integers(0, len(ids), size=(runs, n_chunks, size))]


def most_frequent(pair: EncodedPair, n_words: int) -> np.ndarray:
    """Ids of the ``n_words`` words with the highest average relative frequency in the two
    texts (as many as there are if fewer); ties go to the alphabetically first word."""
    size = len(pair.vocabulary)
    share = np.zeros(size)
    for ids in (pair.first, pair.second):
        if len(ids):
            share += np.bincount(ids, minlength=size) / len(ids)
    order = np.lexsort((np.arange(size), -share))  # by share descending, then by id
    return order[: min(n_words, size)]


def most_frequent_in_chunks(
    first: np.ndarray, second: np.ndarray, vocabulary_size: int, n_words: int
) -> np.ndarray:
    """For each of R runs, the ids of the ``n_words`` words with the highest average relative
    frequency in that run's chunks of the two texts, ``first`` and ``second`` (R, n, size)
    word ids, (R, n_words); ties go to the lower id. A run whose chunks hold fewer different
    words lists them all, then −1 (no word) for the rest."""
    runs = first.shape[0]
    share = np.zeros((runs, vocabulary_size))
    offsets = (np.arange(runs) * vocabulary_size)[:, None]
    for chunks in (first, second):
        flat = chunks.reshape(runs, -1)
        counts = np.bincount((flat + offsets).ravel(), minlength=runs * vocabulary_size)
        share += counts.reshape(runs, vocabulary_size) / flat.shape[1]
    ids = np.broadcast_to(np.arange(vocabulary_size), share.shape)
    order = np.lexsort((ids, -share), axis=1)[:, :n_words]  # by share descending, then by id
    chosen = np.take_along_axis(share, order, axis=1) > 0
    return np.where(chosen, order, -1)


def chunk_counts(chunks: np.ndarray, features: np.ndarray, vocabulary_size: int) -> np.ndarray:
    """How often each feature word occurs in each chunk: ``chunks`` (..., n, size) of ids →
    (..., n, len(features)) counts, feature columns in the order of ``features``; a feature id
    of −1 (no word) gives a column of zeros."""
    column = np.full(vocabulary_size, -1, dtype=np.intp)
    real = np.asarray(features) >= 0
    column[np.asarray(features)[real]] = np.flatnonzero(real)
    chunks = np.asarray(chunks)
    n_rows = int(np.prod(chunks.shape[:-1]))
    cols = column[chunks.reshape(n_rows, chunks.shape[-1])]
    rows = np.broadcast_to(np.arange(n_rows)[:, None], cols.shape)
    kept = cols >= 0
    flat = rows[kept] * len(features) + cols[kept]
    counts = np.bincount(flat, minlength=n_rows * len(features)).astype(float)
    return counts.reshape(*chunks.shape[:-1], len(features))
