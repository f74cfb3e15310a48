"""The interpolated Kneser–Ney models behind LambdaG: probabilities that sum to one, a tiny
model checked by hand, the stack of reference models equal to the models one by one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taveer_desktop.core.methods.lambdag.kneser_ney import (
    END,
    KneserNeyModel,
    ModelStack,
    SentenceStream,
    sentence_keys,
)

A, B, C = 2, 3, 4


def _probabilities(model: KneserNeyModel, history: list[int], vocabulary: list[int], order: int):
    """P(w | history) for every w of the vocabulary under the models of order 1 … order."""
    rows = []
    for w in vocabulary:
        sentence = np.array(history + ([] if w == END else [w]), dtype=np.uint16)
        keys = sentence_keys([sentence], order)
        rows.append(10 ** model.log10_probabilities(keys)[:, len(history)])
    return np.array(rows)  # (vocabulary, order)


sentences_strategy = st.lists(
    st.lists(st.integers(min_value=2, max_value=7), min_size=0, max_size=8),
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(
    corpus=sentences_strategy,
    history=st.lists(st.integers(min_value=2, max_value=8), max_size=6),
    order=st.integers(min_value=1, max_value=5),
)
def test_probabilities_sum_to_one_over_the_vocabulary_for_any_context(corpus, history, order):
    vocabulary = [*range(2, 9), END]  # token 8 is never seen in training
    model = KneserNeyModel(
        sentence_keys([np.array(s, dtype=np.uint16) for s in corpus], order), len(vocabulary)
    )
    totals = _probabilities(model, history, vocabulary, order).sum(axis=0)
    np.testing.assert_allclose(totals, 1.0, rtol=1e-9)


def test_a_tiny_model_checked_by_hand():
    # sentences "a b" and "a c", order 2, vocabulary {a, b, c, end}
    corpus = [np.array([A, B], dtype=np.uint16), np.array([A, C], dtype=np.uint16)]
    model = KneserNeyModel(sentence_keys(corpus, 2), vocabulary_size=4)
    got = 10 ** model.log10_probabilities(sentence_keys([np.array([A, B])], 2))
    # order 1 (counts a 2, b 1, c 1, end 2; n1 = 2, n2 = 2, D = 1/3): P(w) = c(w) / 6
    np.testing.assert_allclose(got[0], [2 / 6, 1 / 6, 2 / 6])
    # order 2: D = 4 / (4 + 2·1) = 2/3 (four bigrams once, <s> a twice); the lower order is the
    # continuation unigram (a 1, b 1, c 1, end 2 distinct predecessors; D' = 0.6), which gives
    # P'(w) = c'(w) / 5. So P(a | <s>) = (2 − 2/3 + 2/3 · 1 · 0.2) / 2,
    # P(b | a) = (1 − 2/3 + 2/3 · 2 · 0.2) / 2, P(end | b) = (1 − 2/3 + 2/3 · 1 · 0.4) / 1
    d = 2 / 3
    expected = [(2 - d + d * 0.2) / 2, (1 - d + d * 2 * 0.2) / 2, (1 - d + d * 0.4) / 1]
    np.testing.assert_allclose(got[1], expected)
    assert got[1].tolist() == pytest.approx([0.733333, 0.3, 0.6], abs=1e-6)


def test_a_stack_of_models_gives_the_mean_of_the_models_one_by_one():
    rng = np.random.default_rng(3)

    def corpus(n):
        return [rng.integers(2, 30, size=rng.integers(0, 12)).astype(np.uint16) for _ in range(n)]

    models = [KneserNeyModel(sentence_keys(corpus(25), 6), 40) for _ in range(5)]
    questioned = sentence_keys(corpus(12), 6)
    one_by_one = np.mean([m.log10_probabilities(questioned) for m in models], axis=0)
    np.testing.assert_allclose(ModelStack(models).mean_log10_probabilities(questioned), one_by_one)


def test_selecting_sentences_gives_the_keys_of_those_sentences_alone():
    rng = np.random.default_rng(5)
    corpus = [rng.integers(2, 9, size=rng.integers(0, 7)).astype(np.uint16) for _ in range(9)]
    keys = sentence_keys(corpus, 4)
    chosen = np.array([7, 2, 5])
    alone = sentence_keys([corpus[i] for i in chosen], 4)
    picked = keys.select(chosen)
    np.testing.assert_array_equal(picked.grams, alone.grams)
    np.testing.assert_array_equal(picked.contexts, alone.contexts)
    np.testing.assert_array_equal(picked.offsets, alone.offsets)


def test_keys_made_from_a_stream_selection_are_the_keys_of_those_sentences():
    # validation keeps sentences as token streams and makes keys only for what it models
    rng = np.random.default_rng(6)
    corpus = [rng.integers(2, 9, size=rng.integers(0, 12)).astype(np.uint16) for _ in range(40)]
    parts = [SentenceStream.of(corpus[:15]), SentenceStream.of(corpus[15:])]
    stream = SentenceStream.concatenate(parts)
    assert stream.n_sentences == 40 and stream.n_positions == sum(len(s) + 1 for s in corpus)
    chosen = np.array([39, 0, 14, 15, 7])
    for order in (1, 3, 10):
        made = stream.select(chosen).keys(order)
        whole = sentence_keys(corpus, order).select(chosen)
        for field in ("grams", "contexts", "tokens", "offsets"):
            np.testing.assert_array_equal(getattr(made, field), getattr(whole, field))
        assert made.tokens.dtype == np.uint16 and made.grams.dtype == np.uint64


def test_an_order_beyond_the_keys_is_refused():
    keys = sentence_keys([np.array([A, B], dtype=np.uint16)], 2)
    with pytest.raises(ValueError):
        KneserNeyModel(keys, 4, order=3)
