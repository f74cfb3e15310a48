"""The empirical lower and upper bound (``core/calibration/elub.py``): cases worked by hand, then
properties against a direct evaluation of the normalised Bayes error on a fine grid of
thresholds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taveer_desktop.core.calibration.elub import elub


def _trials(same, different):
    values = np.array(list(same) + list(different), dtype=float)
    return values, np.array([True] * len(same) + [False] * len(different))


def test_perfectly_separated_balanced_trials_reach_log10_n_on_both_sides():
    # 20 + 20, every LR far beyond any bound: for t ≥ 0 only the added misleading trials err,
    # E = 1/21 + θ/21 ≤ 1 while θ ≤ 20; the lower side mirrors it.
    result = elub(*_trials([5.0] * 20, [-5.0] * 20))
    assert result.upper == pytest.approx(math.log10(20))
    assert result.lower == pytest.approx(-math.log10(20))
    assert (result.n_same, result.n_different) == (20, 20)


def test_the_bound_never_passes_the_largest_same_source_lr():
    # the same separation, but the same-source LRs are only 10: at θ = 10 every one of them is a
    # miss (an LR equal to the threshold does not support going beyond it)
    result = elub(*_trials([1.0] * 20, [-5.0] * 20))
    assert result.upper == pytest.approx(1.0)
    assert result.lower == pytest.approx(-math.log10(20))


def test_a_single_misleading_different_source_trial():
    # 10 + 10; one different-source LR of 100 among nine of 1/1000. Upper side, for 1 ≤ θ < 100:
    # E = 1/11 + θ·2/11 ≤ 1 ⇔ θ ≤ 5. Lower side, for 1/1000 < θ < 1:
    # E = 1/11 + θ·2/11 ≤ θ ⇔ θ ≥ 1/9.
    result = elub(*_trials([3.0] * 10, [2.0] + [-3.0] * 9))
    assert result.upper == pytest.approx(math.log10(5))
    assert result.lower == pytest.approx(-math.log10(9))


def test_a_single_misleading_same_source_trial_mirrors_it():
    result = elub(*_trials([-2.0] + [3.0] * 9, [-3.0] * 10))
    assert result.lower == pytest.approx(-math.log10(5))
    assert result.upper == pytest.approx(math.log10(9))


def test_one_trial_of_each_class_supports_nothing():
    # E(1) = 1/2 + 1/2 = 1 and grows with θ: the bound is LR = 1 on both sides
    result = elub(*_trials([2.0], [-2.0]))
    assert (result.lower, result.upper) == (0.0, 0.0)


def test_a_system_worse_than_neutral_is_bounded_to_lr_one():
    result = elub(*_trials([-1.0] * 5, [1.0] * 5))
    assert (result.lower, result.upper) == (0.0, 0.0)


def test_unbalanced_classes_can_exceed_the_count_rule_on_one_side():
    # 30 same-source, 20 different-source, perfectly separated: upper = log10(21 · 30/31) =
    # log10 20.32, a little above log10 20; lower = −log10(31 · 20/21) = −log10 29.52
    result = elub(*_trials([5.0] * 30, [-5.0] * 20))
    assert result.upper == pytest.approx(math.log10(21 * 30 / 31))
    assert result.upper > math.log10(20)
    assert result.lower == pytest.approx(-math.log10(31 * 20 / 21))
    assert result.lower > -math.log10(30)


def test_refusals():
    with pytest.raises(ValueError, match="both classes"):
        elub([1.0, 2.0], [True, True])
    with pytest.raises(ValueError, match="NaN"):
        elub([1.0, float("nan")], [True, False])
    with pytest.raises(ValueError, match="same length"):
        elub([1.0], [True, False])


def _grid_upper(same: np.ndarray, different: np.ndarray, grid: np.ndarray) -> tuple[float, float]:
    """(last threshold of the grid before the system is first worse than neutral, first one at
    which it is), evaluating the normalised Bayes error with one added misleading trial a class.

    The error grows with the threshold between two trial values and drops at each, so a stretch
    where the system is worse can be narrower than the grid's step (hypothesis found one:
    0.0792–0.08): the grid also holds a point just below every positive trial value."""
    values = np.concatenate([same, different])
    grid = np.unique(np.concatenate([grid, values[values > 0] - 1e-9]))
    theta = 10.0**grid
    misses = (same[:, None] <= grid[None, :]).sum(axis=0) + 1.0
    false_alarms = (different[:, None] > grid[None, :]).sum(axis=0) + 1.0
    error = misses / (len(same) + 1) + theta * false_alarms / (len(different) + 1)
    worse = np.flatnonzero(error > 1.0 + 1e-12)
    first = worse[0]
    return (grid[first - 1] if first else 0.0), grid[first]


lrs = st.lists(
    st.floats(min_value=-4, max_value=4, allow_nan=False).map(lambda x: round(x, 2)),
    min_size=1,
    max_size=25,
)


@settings(max_examples=150, deadline=None, derandomize=True)  # the same examples in every run
@given(same=lrs, different=lrs)
def test_properties_against_a_direct_evaluation(same, different):
    same, different = np.array(same), np.array(different)
    values, truth = _trials(same, different)
    result = elub(values, truth)
    n_s, n_d = len(same), len(different)
    # straddles 0, and never beyond what the counts allow
    assert result.lower <= 0.0 <= result.upper
    assert result.upper <= math.log10((n_d + 1) * n_s / (n_s + 1)) + 1e-12
    assert result.lower >= -math.log10((n_s + 1) * n_d / (n_d + 1)) - 1e-12
    if n_s == n_d:  # balanced, as validation's trials are: within the old count rule
        assert -math.log10(n_s) - 1e-12 <= result.lower and result.upper <= math.log10(n_d) + 1e-12
    # never beyond what the trials showed
    assert result.upper <= max(0.0, same.max()) + 1e-12
    assert result.lower >= min(0.0, different.min()) - 1e-12
    # the exact bound lies where a fine grid sees the system first become worse than neutral
    grid = np.round(np.arange(0.0, 5.0, 0.001), 3)
    good, bad = _grid_upper(same, different, grid)
    assert good - 1e-9 <= result.upper <= bad + 1e-9
    good, bad = _grid_upper(-different, -same, grid)
    assert good - 1e-9 <= -result.lower <= bad + 1e-9
    # and reordering the trials changes nothing
    order = np.random.default_rng(0).permutation(len(values))
    assert elub(values[order], truth[order]) == result
