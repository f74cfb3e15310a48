"""Word chunks and their most-frequent-word counts, against hand counts."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.methods.systems import chunks


def test_words_lower_case_and_keep_inner_apostrophes() -> None:
    assert chunks.words("The cat, the Hat: don't 42!") == [
        "the",
        "cat",
        "the",
        "hat",
        "don't",
        "42",
    ]


def test_encode_pair_shares_one_sorted_vocabulary() -> None:
    pair = chunks.encode_pair("b a b", "c a")
    assert pair.vocabulary == ("a", "b", "c")
    assert pair.first.tolist() == [1, 0, 1] and pair.second.tolist() == [2, 0]


def test_consecutive_chunks_leave_out_the_short_rest() -> None:
    cut = chunks.consecutive_chunks(np.arange(12), 5)
    assert cut.tolist() == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert chunks.consecutive_chunks(np.arange(4), 5).shape == (0, 5)


def test_oversampled_chunks_draw_only_the_text_s_words_with_replacement() -> None:
    ids = np.array([3, 7, 7, 9])
    drawn = chunks.oversampled_chunks(ids, 30, 700, np.random.default_rng(1), runs=2)
    assert drawn.shape == (2, 30, 700)
    assert set(np.unique(drawn)) == {3, 7, 9}
    assert np.mean(drawn == 7) == pytest.approx(0.5, abs=0.01)  # 7 is half the text
    again = chunks.oversampled_chunks(ids, 30, 700, np.random.default_rng(1), runs=2)
    assert np.array_equal(drawn, again)
    with pytest.raises(ValueError):
        chunks.oversampled_chunks(np.array([], dtype=int), 1, 1, np.random.default_rng(1))


def test_most_frequent_by_average_relative_frequency_ties_alphabetical() -> None:
    # first text: a 2/4, b 1/4, c 1/4; second: c 1/2, d 1/2 → averages a .25, b .125, c .375,
    # d .25: c, then a and d tied (a first), then b
    pair = chunks.encode_pair("a a b c", "c d")
    order = [pair.vocabulary[i] for i in chunks.most_frequent(pair, 10)]
    assert order == ["c", "a", "d", "b"]
    assert len(chunks.most_frequent(pair, 2)) == 2


def test_chunk_counts_by_hand() -> None:
    pair = chunks.encode_pair("x y x z", "y y w")
    v = {word: i for i, word in enumerate(pair.vocabulary)}
    features = np.array([v["y"], v["x"]])
    two = np.array([[v["x"], v["y"], v["x"]], [v["z"], v["y"], v["y"]]])
    counts = chunks.chunk_counts(two, features, len(pair.vocabulary))
    assert counts.tolist() == [[1.0, 2.0], [2.0, 0.0]]
    batched = chunks.chunk_counts(np.stack([two, two[::-1]]), features, len(pair.vocabulary))
    assert batched.shape == (2, 2, 2) and batched[1].tolist() == [[2.0, 0.0], [1.0, 2.0]]


def test_words_can_keep_their_case_and_a_pair_then_tells_them_apart() -> None:
    kept = chunks.words("The cat saw the Cat", keep_case=True)
    assert kept == ["The", "cat", "saw", "the", "Cat"]
    pair = chunks.encode_pair("The the", "THE", keep_case=True)
    assert pair.vocabulary == ("THE", "The", "the")
    assert chunks.encode_pair("The the", "THE").vocabulary == ("the",)
