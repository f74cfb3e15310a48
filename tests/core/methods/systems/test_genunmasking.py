"""Generalised Unmasking: curve features by hand, a hand-built case, refusals, determinism and
a sanity check on a small real population."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.genunmasking import METHOD, GeneralisedUnmasking
from tests.core.methods.systems.unmasking_trials import (
    GENUNMASKING_SMALL,
    cross_fitted_auc,
    demo_population_cases,
)

SMALL = GENUNMASKING_SMALL


def test_module_exposes_the_method_with_the_paper_s_settings() -> None:
    assert METHOD is GeneralisedUnmasking
    assert GeneralisedUnmasking().params == {
        "chunks": 30,
        "chunk_words": 700,
        "initial_features": 250,
        "eliminated_per_side": 5,
        "iterations": 24,
        "folds": 10,
        "runs": 10,
    }
    assert GeneralisedUnmasking().feature_length() == 120


def test_curve_features_by_hand() -> None:
    curve = np.array([1.0, 0.9, 0.7, 0.6])
    first = [-0.1, -0.15, -0.15, -0.1]  # one-sided at the ends, central inside
    second = [-0.05, -0.025, 0.025, 0.05]  # the same differences of the first
    expected = [*curve, *first, *second, *sorted(first), *sorted(second)]
    method = GeneralisedUnmasking({"iterations": 4, "initial_features": 50})
    np.testing.assert_allclose(method.curve_features(curve), expected, atol=1e-12)


def test_texts_without_a_shared_word_stay_apart_in_every_round() -> None:
    # six words per text, none shared: the 12 features are all of them, each round removes one
    # of each text's, and what is left still separates the chunks perfectly: the averaged
    # curve is 1 throughout and its gradients are 0
    known = " ".join(f"k{i % 6}" for i in range(300))
    questioned = " ".join(f"q{i % 6}" for i in range(200))
    features = GeneralisedUnmasking(SMALL).features(
        CaseTexts((known,), questioned), (), np.random.default_rng(0)
    )
    np.testing.assert_allclose(features, [1.0] * 4 + [0.0] * 16, atol=1e-12)


def test_same_text_twice_is_hard_to_tell_apart() -> None:
    text = " ".join(f"w{(i * 7) % 40}" for i in range(400))
    features = GeneralisedUnmasking(SMALL).features(
        CaseTexts((text,), text), (), np.random.default_rng(0)
    )
    assert features[:4].mean() < 0.75  # chance is one half


def test_deterministic_for_a_seed_and_varying_across_seeds() -> None:
    words = [f"w{(i * i) % 37}" for i in range(500)]
    case = CaseTexts((" ".join(words[:300]),), " ".join(words[300:]))
    method = GeneralisedUnmasking(SMALL)
    first = method.features(case, (), np.random.default_rng(1))
    assert first.shape == (20,) and np.all(np.isfinite(first))
    assert np.array_equal(first, method.features(case, (), np.random.default_rng(1)))
    others = [method.features(case, (), np.random.default_rng(s)) for s in range(2, 6)]
    assert any(not np.array_equal(first, other) for other in others)


def test_a_text_without_words_cannot_be_compared() -> None:
    with pytest.raises(CannotCompare, match="the questioned text has none"):
        GeneralisedUnmasking().features(
            CaseTexts(("some words",), " ... "), (), np.random.default_rng(0)
        )


def test_too_few_different_words_cannot_be_compared() -> None:
    case = CaseTexts((" ".join(f"a{i}" for i in range(100)),), " ".join(f"b{i}" for i in range(80)))
    with pytest.raises(CannotCompare, match=r"at least 231 different words.*they have 180"):
        GeneralisedUnmasking().features(case, (), np.random.default_rng(0))


@pytest.mark.parametrize(
    "params",
    [{"chunks": 5}, {"runs": 0}, {"folds": 1}, {"iterations": 30}, {"chunk_words": "700"}],
)
def test_bad_params_refused(params: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="Generalised Unmasking"):
        GeneralisedUnmasking(params)


@pytest.mark.slow
def test_scores_separate_same_from_different_authors_in_the_demo_population() -> None:
    # 42 cases of the shipped demo population (1,500 words each), cross-fitted, with the
    # method's own 10 runs: measured AUC 0.63 since the curves follow the Webis reference (0.71
    # before, with 3 runs; with the reference's curves 3 runs give 0.59, too noisy for the
    # floor). The floor says: better than chance.
    method = GeneralisedUnmasking()
    assert cross_fitted_auc(method, demo_population_cases(1500)) > 0.6


def test_a_classifier_learned_on_earlier_curves_is_refused() -> None:
    method = GeneralisedUnmasking(SMALL)
    rows = np.random.default_rng(0).normal(size=(8, method.feature_length()))
    learned = method.learn(rows, np.array([True, False] * 4))
    method.check_learned(learned)
    assert method.score(rows, learned).shape == (8,)
    earlier = {k: v for k, v in learned.items() if k not in GeneralisedUnmasking.LEARNED_MARK}
    with pytest.raises(ValueError, match="earlier version of the method; validate it again"):
        method.check_learned(earlier)
