"""Unit tests of every formula: distance, similarity, thresholds, ensemble median, Algorithm 1,
and the evaluation measures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from taveer_desktop.core.methods.taveer.ensemble import (
    eer_threshold,
    ensemble_similarities,
    median_thresholds,
    search_ensembles,
)
from taveer_desktop.core.methods.taveer.interpret import interpret
from taveer_desktop.core.methods.taveer.scoring import (
    manhattan_distance,
    similarity,
    similarity_array,
)
from taveer_desktop.core.validation.evaluation import compute_metrics, roc_auc


def test_manhattan_distance_of_normalised_vectors():
    x = {"a": 2, "b": 2}  # (0.5, 0.5, 0)
    y = {"b": 1, "c": 3}  # (0, 0.25, 0.75)
    assert manhattan_distance(x, y) == pytest.approx(0.5 + 0.25 + 0.75)
    assert manhattan_distance(x, x) == 0.0
    assert manhattan_distance({"a": 1}, {"b": 5}) == 2.0
    assert manhattan_distance({}, y) is None
    assert manhattan_distance(x, {}) is None


@pytest.mark.parametrize(
    ("d", "theta", "expected"),
    [
        (0.0, 0.3, 1.0),
        (0.3, 0.3, 0.5),
        (0.15, 0.3, 0.75),
        (2.0, 0.3, 0.0),
        (1.15, 0.3, 0.25),  # halfway between θ and d_max
        (1.0, 1.0, 0.5),
        (1.8, 1.8, 0.5),
        (1.9, 1.8, 0.25),
    ],
)
def test_similarity_matches_the_papers_equation(d, theta, expected):
    assert similarity(d, theta) == pytest.approx(expected)


def test_similarity_guards_theta_at_the_bounds():
    assert similarity(0.0, 0.0) == 1.0
    assert similarity(0.5, 0.0) < 0.5
    assert similarity(2.0, 2.0) <= 0.5
    assert similarity(1.0, 2.0) > 0.5
    assert all(0.0 <= v <= 1.0 for v in (similarity(0.0, 2.0), similarity(2.0, 0.0)))


def test_vectorised_similarity_equals_scalar_and_keeps_nan():
    d = np.array([[0.0, 0.3, np.nan], [2.0, 1.1, 0.7]])
    thetas = np.array([0.3, 1.0, 1.8])
    s = similarity_array(d, thetas)
    assert math.isnan(s[0, 2])
    for i in range(2):
        for j in range(3):
            if not math.isnan(d[i, j]):
                assert s[i, j] == pytest.approx(similarity(d[i, j], thetas[j]))


def test_median_threshold_ignores_abstaining_cases():
    d = np.array([[0.2, np.nan], [0.4, 1.0], [0.9, np.nan], [np.nan, np.nan]])
    thetas = median_thresholds(d)
    assert thetas[0] == pytest.approx(0.4)
    assert thetas[1] == pytest.approx(1.0)


def test_eer_threshold_on_an_unbalanced_corpus():
    # 2 Y cases close together, 6 N cases far; the exact EER separates them perfectly,
    # while the median (of 8 values) would put 2 N cases on the Y side.
    d = np.array([0.10, 0.20, 0.50, 0.60, 0.70, 0.80, 0.90, 1.00])
    truth = np.array([True, True, False, False, False, False, False, False])
    theta = eer_threshold(d, truth)
    assert 0.20 < theta <= 0.50
    assert np.median(d) == pytest.approx(0.65)


def test_eer_threshold_with_ties_is_deterministic():
    d = np.array([0.5, 0.5, 0.5, 0.5])
    truth = np.array([True, False, True, False])
    assert eer_threshold(d, truth) == eer_threshold(d.copy(), truth.copy())


def test_ensemble_median_leaves_out_abstaining_categories():
    s = np.array([[0.9, 0.1, np.nan, 0.6], [np.nan, np.nan, np.nan, np.nan]])
    members = np.array([[0, 1, 2, 3], [0, 2, 3, 1]])
    result = ensemble_similarities(s, members)
    assert result[0, 0] == pytest.approx(0.6)  # median of 0.1, 0.6, 0.9
    assert result[0, 1] == pytest.approx(0.6)
    assert result[1, 0] == 0.5  # every member abstains


def test_search_prefers_accuracy_then_size_then_atomic_median():
    # Category 0 is perfect, everything else is noise that agrees with it on half the cases.
    truth = np.array([True, False] * 10)
    rng = np.random.default_rng(7)
    s = rng.uniform(0, 1, size=(20, 11))
    s[:, 0] = np.where(truth, 0.9, 0.1)
    result = search_ensembles(s, truth)
    assert result.best_correct == 20
    assert "F1" in result.best
    assert result.atomic_correct["F1"] == 20


def test_interpretation_algorithm_1():
    unknown = {"a": 2, "b": 1, "c": 1}  # x = (0.5, 0.25, 0.25, 0)
    known = {"a": 1, "b": 1, "d": 2}  # y = (0.25, 0.25, 0, 0.5)
    result = interpret("F6", unknown, known, threshold=0.8)
    assert result.m == 4
    assert result.theta_prime == pytest.approx(0.2)
    phi = {e.feature: e for e in result.phi}
    assert phi["a"].distance == pytest.approx(0.25)
    assert phi["b"].distance == pytest.approx(0.0)
    assert sum(e.distance for e in result.phi) == pytest.approx(manhattan_distance(unknown, known))
    assert [f for f, _ in result.l_y] == ["b"]
    assert result.l_y[0][1] == pytest.approx(0.2)
    assert [f for f, _ in result.l_n] == ["d", "a", "c"]  # λ: 0.3, 0.05, 0.05 (tie by name)
    assert [v for _, v in result.l_n] == pytest.approx([0.3, 0.05, 0.05])
    assert phi["a"].count_unknown == 2 and phi["d"].count_known == 2


def test_interpretation_abstains_without_features():
    result = interpret("F3", {}, {"..": 1}, threshold=1.0)
    assert result.abstained and result.phi == () and result.l_y == () and result.l_n == ()


def test_metrics_by_hand():
    scores = np.array([0.9, 0.7, 0.5, 0.2, 0.6, 0.1])
    truth = np.array([True, True, True, False, False, False])
    m = compute_metrics(scores, truth)
    assert (m.tp, m.fn, m.fp, m.tn) == (2, 1, 1, 2)
    assert m.accuracy == pytest.approx(4 / 6)
    assert m.unanswered == 1
    # c@1: 4 correct answered, 1 unanswered, n = 6
    assert m.c_at_1 == pytest.approx((4 + 1 * 4 / 6) / 6)
    # F0.5u: TP 2, FN 0 answered + 1 unanswered, FP 1
    assert m.f05u == pytest.approx(1.25 * 2 / (1.25 * 2 + 0.25 * 1 + 1))
    assert m.brier == pytest.approx(1 - np.mean((scores - truth) ** 2))
    assert m.auc == pytest.approx(roc_auc(scores, truth))


def test_auc_counts_ties_half():
    assert roc_auc(np.array([0.5, 0.5]), np.array([True, False])) == 0.5
    assert roc_auc(np.array([0.9, 0.1]), np.array([True, False])) == 1.0
    assert roc_auc(np.array([0.1, 0.9]), np.array([True, False])) == 0.0
    assert math.isnan(roc_auc(np.array([0.1]), np.array([True])))
