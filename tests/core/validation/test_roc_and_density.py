"""The ROC curve the model view draws is the engine's, and its area is the engine's AUC."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.calibration.similarity_density import MIN_BANDWIDTH, bandwidth, density
from taveer_desktop.core.validation.evaluation import (
    compute_metrics,
    curve_area,
    roc_auc,
    roc_curve,
)


def test_roc_area_equals_the_engines_auc_with_ties():
    rng = np.random.default_rng(7)
    for _ in range(20):
        scores = np.round(rng.random(60), 1)  # many ties
        truth = rng.random(60) < 0.5
        fpr, tpr = roc_curve(scores, truth)
        assert fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1
        assert curve_area(fpr, tpr) == pytest.approx(roc_auc(scores, truth), abs=1e-12)
        assert curve_area(fpr, tpr) == pytest.approx(compute_metrics(scores, truth).auc)


def test_roc_of_a_perfect_and_of_an_inverted_ranking():
    truth = np.array([True, True, False, False])
    fpr, tpr = roc_curve(np.array([0.9, 0.8, 0.2, 0.1]), truth)
    assert list(fpr) == [0.0, 0.0, 0.0, 0.5, 1.0] and list(tpr) == [0.0, 0.5, 1.0, 1.0, 1.0]
    assert curve_area(fpr, tpr) == 1.0
    fpr, tpr = roc_curve(np.array([0.1, 0.2, 0.8, 0.9]), truth)
    assert curve_area(fpr, tpr) == 0.0 == roc_auc(np.array([0.1, 0.2, 0.8, 0.9]), truth)


def test_density_is_non_negative_and_reflects_at_the_bounds():
    grid = np.linspace(0, 1, 101)
    values = density([0.0, 0.01, 0.02, 0.5, np.nan], grid)
    assert (values >= 0).all() and values[0] > values[50]
    assert not density([], grid).any()


def test_density_integrates_to_one_on_the_unit_interval():
    grid = np.linspace(0, 1, 2001)
    values = density(np.random.default_rng(3).random(40), grid)
    assert curve_area(grid, values) == pytest.approx(1.0, abs=1e-3)


def test_the_bandwidth_never_falls_below_its_floor():
    assert bandwidth(np.array([0.5, 0.5, 0.5])) == MIN_BANDWIDTH
    assert bandwidth(np.linspace(0, 1, 50)) > MIN_BANDWIDTH
