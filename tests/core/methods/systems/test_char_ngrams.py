"""The shared character n-gram counts against a plain-Python count, on both key paths."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.char_ngrams import (
    NgramMatrix,
    document_ngrams,
    text_ngrams,
    top_ngrams,
)

SAMPLES = (
    "The cat sat on the mat. The cat sat!",
    "a  b\tcd\nefgh ijklm, nopq — «ünïcödé» 😀😀 x",
    "aaaa aaaa",
    "",
    "abc",
)


def plain(text: str, n: int) -> Counter:
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def space_free(text: str, n: int) -> Counter:
    grams: Counter = Counter()
    for token in text.split():
        if len(token) < n:
            grams[token + " " * (n - len(token))] += 1
        grams.update(token[i : i + n] for i in range(len(token) - n + 1))
    return grams


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_counts_match_a_plain_count(text, n):
    counts = text_ngrams(text, n)
    assert dict(zip(counts.strings(), counts.counts.tolist(), strict=True)) == plain(text, n)
    free = text_ngrams(text, n, space_free=True)
    assert dict(zip(free.strings(), free.counts.tolist(), strict=True)) == space_free(text, n)
    assert counts.strings() == sorted(counts.strings())  # lexicographic code-point order


def test_huge_alphabet_takes_the_byte_path_with_the_same_result():
    rng = np.random.default_rng(0)
    text = "".join(chr(c) for c in rng.integers(0x4E00, 0x4E00 + 3000, 4000))
    counts = text_ngrams(text, 6)  # 3000**6 > 2**63: rows compared as bytes
    assert dict(zip(counts.strings(), counts.counts.tolist(), strict=True)) == plain(text, 6)
    assert counts.strings() == sorted(counts.strings())


def test_documents_are_counted_apart_and_added():
    counts = document_ngrams(["ab", "ba"], 2)
    assert dict(zip(counts.strings(), counts.counts.tolist(), strict=True)) == {"ab": 1, "ba": 1}
    assert document_ngrams([], 2).total == 0


def test_profile_ties_break_lexicographically():
    counts = text_ngrams("dcba", 1)
    assert [counts.strings()[i] for i in top_ngrams(counts, 2)] == ["a", "b"]
    counts = text_ngrams("zzyyx", 1)
    assert [counts.strings()[i] for i in top_ngrams(counts, 3)] == ["y", "z", "x"]


def test_matrix_minmax_against_a_loop():
    texts = ["the cat sat on the mat", "the dog sat on a log", "", "cats and dogs"]
    matrix = NgramMatrix.of([text_ngrams(t, 2) for t in texts]).relative()
    rows = matrix.dense(range(matrix.rows))
    target = rows[0]
    expected = [
        np.minimum(r, target).sum() / np.maximum(r, target).sum()
        if np.maximum(r, target).sum() > 0
        else 0.0
        for r in rows
    ]
    assert np.allclose(matrix.minmax_to(target), expected)
    assert np.allclose(rows.sum(axis=1), [1, 1, 0, 1])
