"""LambdaG over the lexicon's masking: what the masking keeps, λG determinism under a seed, the
split of λG into tokens and sentences, the fusion, and validation through the trial builder."""

from __future__ import annotations

import json

import numpy as np
import pytest

from taveer_desktop.core.features.feature_codes import FIRST_ENTRY_ID, PUNCTUATION_BASE
from taveer_desktop.core.features.feature_stream import encode_document
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.methods.fusion.fusion import fit_fusion
from taveer_desktop.core.methods.lambdag.kneser_ney import SentenceStream, sentence_keys
from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool, contributions, lambda_g
from taveer_desktop.core.methods.lambdag.lambdag_masking import (
    OTHER_SYMBOL,
    PLACEHOLDER,
    is_kept,
    masked_ids,
    masked_sentences,
    masked_token_text,
    split_sentences,
)
from taveer_desktop.core.methods.lambdag.lambdag_model import decode_reference, encode_reference

TEXT = (
    "The zeppelin drifted over Hamburg, and nobody noticed it at all. "
    "In spite of the rain, Margarethe photographed 42 gulls; they were, as a matter of fact, "
    "quite tame! Was it worth it? 😀 Perhaps."
)


@pytest.fixture(scope="module")
def lexicon():
    return default_lexicon()


def test_masking_keeps_only_lexicon_words_and_punctuation(lexicon):
    document = encode_document(TEXT, lexicon)
    ids = masked_ids(document)
    codebook = document.codebook
    words = [int(i) for i in ids if i != 0]
    for token in words:
        assert token in (PLACEHOLDER, OTHER_SYMBOL) or is_kept(token, codebook)
        if FIRST_ENTRY_ID <= token < PUNCTUATION_BASE and token != OTHER_SYMBOL:
            assert masked_token_text(token, codebook) in lexicon
    shown = [masked_token_text(t, codebook) for t in words]
    for topic_word in ("zeppelin", "drifted", "hamburg", "margarethe", "gulls", "42"):
        assert topic_word not in shown
    assert {"the", "and", "in spite of", "as a matter of fact", ",", ";", "!", "?"} <= set(shown)
    assert "#" in shown and "¤" in shown  # the placeholder, and the rare symbol 😀
    # one sentence of the stream per sentence of the document
    assert len(masked_sentences(document)) == document.n_sentences == 4
    assert [len(s) for s in split_sentences(ids)] == [len(s) for s in masked_sentences(document)]


def test_the_reference_round_trips_through_the_model_encoding(lexicon):
    stream = masked_ids(encode_document(TEXT, lexicon))
    data = encode_reference(stream)
    assert "zeppelin" not in json.dumps(data)
    np.testing.assert_array_equal(decode_reference(data, "m.json"), stream)


def _sentences(seed: int, n: int, vocabulary: int = 12):
    rng = np.random.default_rng(seed)
    return [
        rng.integers(2, vocabulary, size=rng.integers(2, 14)).astype(np.uint16) for _ in range(n)
    ]


def test_lambda_g_is_deterministic_under_a_seed():
    pool = ReferencePool.from_sentences(_sentences(1, 300), 6)
    known = sentence_keys(_sentences(2, 30), 6)
    questioned = [sentence_keys(_sentences(3, 10), 6), sentence_keys(_sentences(4, 10), 6)]

    def run(seed):
        return [
            s.by_order for s in lambda_g(known, questioned, pool, 8, np.random.default_rng(seed))
        ]

    first, again, other = run(7), run(7), run(8)
    # a pool joined from several documents' streams (validation) draws the same samples
    sentences = _sentences(1, 300)
    parts = [SentenceStream.of(sentences[:120]), SentenceStream.of(sentences[120:])]
    pool = ReferencePool(SentenceStream.concatenate(parts), 6, pool.vocabulary_size)
    np.testing.assert_array_equal(run(7)[0], first[0])
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0])


def test_lambda_g_favours_the_known_author_and_splits_into_tokens_and_sentences():
    # "authors" with different habits: the known author and the questioned text share them
    rng = np.random.default_rng(0)
    habit = np.array([2, 3, 4, 5], dtype=np.uint16)

    def author(n, with_habit):
        out = []
        for _ in range(n):
            s = rng.integers(2, 20, size=rng.integers(3, 10)).astype(np.uint16)
            out.append(np.concatenate([habit, s]) if with_habit else s)
        return out

    pool = ReferencePool.from_sentences(author(400, False), 4)
    known = sentence_keys(author(40, True), 4)
    same, different = sentence_keys(author(15, True), 4), sentence_keys(author(15, False), 4)
    scores = lambda_g(known, [same, different], pool, 10, np.random.default_rng(0))
    assert scores[0].by_order[3] > 0 > scores[1].by_order[3]
    split = contributions(scores[0], same, 4)
    assert split.per_sentence.shape == (15,)
    assert split.total == pytest.approx(scores[0].by_order[3])
    assert split.per_sentence.sum() == pytest.approx(scores[0].by_order[3])


def test_fusion_of_two_independent_opinions_beats_each_and_keeps_weights_positive():
    rng = np.random.default_rng(0)
    truth = np.repeat([True, False], 300)
    signal = np.where(truth, 0.4, -0.4)
    a = signal + rng.normal(0, 0.6, 600)
    b = signal + rng.normal(0, 0.6, 600)
    noise = rng.normal(0, 0.6, 600)  # a "method" that knows nothing
    from taveer_desktop.core.calibration.calibration import cllr

    fused = fit_fusion(("a", "b"), np.column_stack([a, b]), truth)
    assert all(w > 0 for w in fused.weights)
    assert fused.training_cllr < min(cllr(a, truth), cllr(b, truth))
    useless = fit_fusion(("a", "noise"), np.column_stack([a, -np.abs(noise) * signal]), truth)
    assert min(useless.weights) >= 0.0
    bounded = fit_fusion(("a", "b"), np.column_stack([a, b]), truth, bounds=(-1.0, 1.5))
    values = bounded.log10_lr(np.column_stack([a * 10, b * 10]))
    assert values.min() >= -1.0 and values.max() <= 1.5


def test_a_population_too_large_for_a_model_is_refused_before_scoring(monkeypatch):
    from types import SimpleNamespace

    from taveer_desktop import paths
    from taveer_desktop.core.ground.errors import InputError
    from taveer_desktop.core.methods.lambdag import lambdag_validation
    from taveer_desktop.core.trials.population import population_from_texts
    from taveer_desktop.core.validation.validation import ValidationSettings

    # eight distinct real texts (the population reader leaves near-duplicates under two
    # authors out, so one text with a number appended would leave no author)
    papers = sorted(paths.resource("demo", "federalist").glob("*.txt"))[:8]
    texts = {
        f"author{a}": [(p.name, p.read_text(encoding="utf-8")) for p in papers[2 * a : 2 * a + 2]]
        for a in range(4)
    }
    population = population_from_texts(texts, "tiny", "tiny-folder")
    monkeypatch.setattr(lambdag_validation, "MAX_REFERENCE_BYTES", 10)
    scored = []
    monkeypatch.setattr(
        lambdag_validation, "lambdag_trial_scores", lambda *a, **k: scored.append(1)
    )
    with pytest.raises(InputError, match="too large for a LambdaG model"):
        lambdag_validation.second_opinion(
            population,
            SimpleNamespace(truth=np.array([True, False])),
            ValidationSettings(method="lambdag"),
            np.zeros(2),
        )
    assert not scored
