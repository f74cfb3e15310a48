"""The plot data of a validation record (``core/validation/validation_curves.py``): Tippett curves,
empirical cross-entropy and score distributions, checked numerically on synthetic trials of
known shape and on a real record of the public-domain demo population."""

from __future__ import annotations

import math

import numpy as np
import pytest

from taveer_desktop.core.calibration.calibration import cllr, misleading_rates, pav_log10_lr
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.validation.validation_curves import (
    curves_of,
    ece_curves,
    empirical_cross_entropy,
    prior_grid,
    score_distributions,
    tippett,
    trials_of,
)
from tests.core.validation_fixtures import demo_validation_record


def synthetic_record(n: int = 400, seed: int = 3, shift: float = 0.8) -> dict:
    """A record whose trials have Gaussian log10 LRs (same-author ones shifted up)."""
    rng = np.random.default_rng(seed)
    trials = []
    for i in range(2 * n):
        same = i % 2 == 0
        value = rng.normal(shift / 2 if same else -shift / 2, 0.7)
        trials.append(
            {
                "same": same,
                "log10_lr": round(float(np.clip(value, -2.5, 2.5)), 6),
                "score": float(1 / (1 + math.exp(-value))),
                "questioned_chars": 1500 + i % 7,
                "known_chars": 4000,
            }
        )
    return {"trials": trials}


@pytest.fixture(scope="module")
def record():
    return synthetic_record()


def test_tippett_shares_fall_from_one_to_zero_and_match_misleading_rates(record):
    trials = trials_of(record)
    curves = tippett(trials.log10_lr, trials.same)
    for shares in (curves.same, curves.different):
        assert np.all(np.diff(shares) <= 0), "a Tippett curve never rises"
        assert shares.min() >= 0.0 and shares.max() <= 1.0 and shares[-1] == 0.0
    # at x = 0: the different-author curve is the rate of misleading evidence for Hp
    _, misleading_n = misleading_rates(trials.log10_lr, trials.same)
    same_at_0, different_at_0 = curves.share_above(0.0)
    assert different_at_0 == pytest.approx(misleading_n)
    assert 1.0 - same_at_0 >= misleading_rates(trials.log10_lr, trials.same)[0]
    # a direct count at an arbitrary point
    x = 0.37
    expected = np.mean(trials.log10_lr[trials.same] > x)
    assert curves.share_above(x)[0] == pytest.approx(expected)
    assert curves.share_above(curves.x_range[0]) == (1.0, 1.0)


def test_tippett_steps_are_a_staircase_across_the_axis(record):
    trials = trials_of(record)
    curves = tippett(trials.log10_lr, trials.same)
    xs, ys = curves.steps(curves.same)
    assert len(xs) == len(ys) == 2 * len(curves.x) + 2
    assert xs[0] == curves.x_range[0] and xs[-1] == curves.x_range[1]
    assert np.all(np.diff(xs) >= 0) and np.all(np.diff(ys) <= 0)
    assert ys[0] == 1.0 and ys[-1] == 0.0
    assert curves.x_range[0] < 0 < curves.x_range[1]


def test_ece_at_even_odds_is_cllr_and_pav_is_never_worse(record):
    trials = trials_of(record)
    curves = ece_curves(trials.log10_lr, trials.same)
    assert 0.0 in curves.prior_log10_odds
    validated, calibrated, neutral = curves.at_even_odds()
    assert validated == pytest.approx(cllr(trials.log10_lr, trials.same), abs=1e-12)
    pav = pav_log10_lr(trials.log10_lr, trials.same)
    assert calibrated == pytest.approx(cllr(pav, trials.same), abs=1e-12)
    assert neutral == pytest.approx(1.0)
    assert np.all(curves.calibrated <= curves.validated + 1e-12)
    assert np.all(curves.calibrated <= curves.neutral + 1e-12), "PAV is never worse than LR=1"
    # the neutral curve is the prior's entropy, symmetric about 0
    p = 1 / (1 + 10.0**-curves.prior_log10_odds)
    entropy = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    assert np.allclose(curves.neutral, entropy)


def test_ece_of_a_perfect_and_of_a_wrong_way_system():
    same = np.array([True] * 50 + [False] * 50)
    theta = prior_grid(2.0, 41)
    perfect = np.where(same, np.inf, -np.inf)
    assert np.all(empirical_cross_entropy(perfect, same, theta) == 0.0)
    wrong = np.where(same, -2.0, 2.0)
    assert np.all(empirical_cross_entropy(wrong, same, theta) > ece_curves(wrong, same).neutral[0])
    # PAV of a wrong-way system pools everything: it is the neutral reference
    curves = ece_curves(wrong, same, theta)
    assert np.allclose(curves.calibrated, curves.neutral)


def test_score_distributions_are_shares_of_each_class(record):
    trials = trials_of(record)
    scores = score_distributions(trials.scores, trials.same, bins=10)
    assert len(scores.edges) == 11 and scores.edges[0] == 0.0 and scores.edges[-1] == 1.0
    assert scores.same_counts.sum() == trials.n_same
    assert scores.different_counts.sum() == trials.n_different
    assert scores.same_shares.sum() == pytest.approx(1.0)
    assert scores.different_shares.sum() == pytest.approx(1.0)
    # the densities integrate to about 1 over [0, 1]
    step = scores.grid[1] - scores.grid[0]
    assert np.sum(scores.same_density) * step == pytest.approx(1.0, abs=0.03)
    # the same-author scores lie higher
    middle = (scores.edges[:-1] + scores.edges[1:]) / 2
    assert middle @ scores.same_shares > middle @ scores.different_shares
    # a score of exactly 1 counts in the last bin
    edge = score_distributions(np.array([1.0, 0.0]), np.array([True, False]), bins=4)
    assert edge.same_counts[-1] == 1 and edge.different_counts[0] == 1


@pytest.mark.parametrize(
    "trials, message",
    [
        (None, "holds no trials"),
        ([], "holds no trials"),
        ([{"same": True, "log10_lr": 0.1, "score": 0.5}], "trial 1"),
        ([{"same": "yes", "log10_lr": 0.1, "score": 0.5}], "trial 1"),
        (
            [
                {
                    "same": True,
                    "log10_lr": float("nan"),
                    "score": 0.5,
                    "questioned_chars": 1,
                    "known_chars": 1,
                }
            ],
            "trial 1",
        ),
        (
            [
                {
                    "same": True,
                    "log10_lr": 0.1,
                    "score": 0.5,
                    "questioned_chars": 1,
                    "known_chars": 1,
                }
            ],
            "lacks same-author or different-author",
        ),
    ],
)
def test_bad_trials_are_refused_in_one_sentence(trials, message):
    with pytest.raises(InputError, match=message):
        trials_of({"trials": trials})
    with pytest.raises(InputError):
        curves_of([])  # not even a dictionary


@pytest.fixture(scope="module")
def demo_record(tmp_path_factory):
    return demo_validation_record(tmp_path_factory.mktemp("population"))


def test_curves_of_a_real_record(demo_record):
    curves = curves_of(demo_record)
    figures = demo_record["figures"]
    validated, calibrated, _ = curves.ece.at_even_odds()
    assert validated == pytest.approx(figures["cllr"], abs=2e-6)
    assert calibrated == pytest.approx(figures["cllr_min"], abs=2e-6)
    assert curves.tippett.share_above(0.0)[1] == pytest.approx(figures["misleading_n"])
    # the cross-validated LRs were each bounded by their fold's ELUB, which with the fold's
    # balanced training trials never exceeds ±log10 n; the final model's bound is the ELUB of
    # these same LRs (core/calibration/elub.py), so some of them may lie outside it
    n = demo_record["protocol"]["trials_same"]
    assert -math.log10(n) - 1e-6 <= curves.tippett.x[0] <= curves.tippett.x[-1] <= math.log10(n)
    trials = demo_record["trials"]
    bound = elub([t["log10_lr"] for t in trials], [t["same"] for t in trials])
    assert demo_record["bound"]["min_log10_lr"] == pytest.approx(bound.lower, abs=1e-5)
    assert demo_record["bound"]["max_log10_lr"] == pytest.approx(bound.upper, abs=1e-5)
    assert curves.trials.n_same == n == curves.scores.same_counts.sum()
