"""The length-aware calibration (quality-measure terms), per-band bounds and the intervals'
consistency (``core/calibration/quality_measures.py``, ``core/calibration/length_bands.py``,
``core/calibration/calibration.py``, ``core/validation/validation_figures.py``)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from taveer_desktop.core.calibration.calibration import (
    Calibration,
    fit_bounded_calibration,
    fit_calibration,
    fit_logistic_calibration,
    with_elub,
)
from taveer_desktop.core.calibration.length_bands import BandBound, band_of, length_bands
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import MODEL_FORMAT_VERSION, model_from_dict
from taveer_desktop.core.trials.validation_settings import AcceptanceCriteria
from taveer_desktop.core.validation.validation_figures import (
    FIGURES,
    bc_interval,
    bootstrap_intervals,
)


def _trials(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores whose separation grows with the questioned length (as TAVeer's and LambdaG's
    do): at 500 characters the classes overlap, at 8,000 they are well apart."""
    rng = np.random.default_rng(seed)
    chars = np.exp(rng.uniform(math.log(500), math.log(8000), n)).astype(int)
    truth = rng.random(n) < 0.5
    separation = 0.04 * np.log(chars / 400.0)
    scores = np.clip(0.5 + np.where(truth, separation, -separation) + rng.normal(0, 0.08, n), 0, 1)
    return scores, truth, chars


QUALITY = {"questioned_chars": (500, 8000)}


def _fit(scores, truth, chars) -> Calibration:
    return fit_calibration(scores, truth, ({"questioned_chars": chars}, QUALITY))


def test_the_length_terms_lower_the_held_out_cost_where_separation_grows_with_length():
    from taveer_desktop.core.calibration.calibration import cllr

    scores, truth, chars = _trials(3000, 1)
    test_scores, test_truth, test_chars = _trials(3000, 2)
    plain = fit_logistic_calibration(scores, truth)
    quality = _fit(scores, truth, chars)
    assert quality.quality is not None and quality.quality.interactions[0] > 0
    held_out_plain = cllr(plain.log10_lr(test_scores), test_truth)
    held_out_quality = cllr(quality.log10_lr(test_scores, test_chars), test_truth)
    assert held_out_quality < held_out_plain - 0.01


def test_the_map_rises_with_the_score_at_every_length_and_is_clamped_to_the_range():
    scores, truth, chars = _trials(2000, 3)
    calibration = _fit(scores, truth, chars)
    grid = np.linspace(0, 1, 101)
    for length in (100, 500, 900, 2000, 5000, 8000, 50_000):
        values = calibration.log10_lr(grid, length)
        assert np.all(np.diff(values) >= 0), length
    # outside the range the map is that of the range's end, never extrapolated
    assert calibration.log10_lr(0.9, 100) == calibration.log10_lr(0.9, 500)
    assert calibration.log10_lr(0.9, 50_000) == calibration.log10_lr(0.9, 8000)
    assert calibration.log10_lr(0.9, 8000) > calibration.log10_lr(0.9, 500)
    with pytest.raises(ValueError, match="questioned"):
        calibration.log10_lr(0.9)


def test_an_interaction_that_would_reverse_the_slope_is_dropped():
    # separation *shrinks* with length and is tiny: an unconstrained fit would turn the slope
    # negative at one end; the fitted map must still rise with the score everywhere
    rng = np.random.default_rng(4)
    chars = np.exp(rng.uniform(math.log(500), math.log(8000), 2000)).astype(int)
    truth = rng.random(2000) < 0.5
    separation = 0.3 - 0.035 * np.log(chars / 400.0)
    scores = 0.5 + np.where(truth, separation, -separation) * 0.2 + rng.normal(0, 0.05, 2000)
    calibration = _fit(scores, truth, chars)
    if calibration.quality is not None:
        assert calibration.quality.min_slope(calibration.slope) >= 0


def test_a_calibration_without_length_terms_gives_exactly_what_it_always_gave():
    scores, truth, chars = _trials(500, 5)
    plain = fit_bounded_calibration(scores, truth)
    assert plain.quality is None and plain.bands == () and not plain.needs_lengths
    expected = np.clip(
        (plain.intercept + plain.slope * scores - plain.prior_log_odds) / math.log(10.0),
        plain.min_log10_lr,
        plain.max_log10_lr,
    )
    assert np.array_equal(plain.log10_lr(scores), expected)
    assert np.array_equal(plain.log10_lr(scores, chars, chars * 3), expected)  # lengths ignored
    assert set(plain.to_dict()) == {
        "intercept",
        "slope",
        "prior_log_odds",
        "method",
        "penalty",
        "training_cllr",
        "training_cllr_min",
        "min_log10_lr",
        "max_log10_lr",
    }


def test_one_length_or_no_range_falls_back_to_the_plain_map():
    scores, truth, _ = _trials(500, 6)
    same = fit_calibration(scores, truth, ({"questioned_chars": np.full(500, 3000)}, {}))
    assert same == fit_logistic_calibration(scores, truth)


def test_bands_are_log_spaced_contiguous_and_one_when_lo_equals_hi():
    assert length_bands(3000, 3000) == [(3000, 3000)]
    bands = length_bands(500, 8000)
    assert bands == [(500, 1260), (1261, 3175), (3176, 8000)]
    assert band_of(bands, 100) == 0 and band_of(bands, 1261) == 1 and band_of(bands, 9e9) == 2
    assert length_bands(10, 11) == [(10, 10), (11, 11)]


def test_a_case_gets_its_bands_bound_and_the_overall_bound_outside_the_bands():
    scores, truth, chars = _trials(3000, 7)
    calibration = _fit(scores, truth, chars)
    own = calibration.log10_lr(scores, chars)
    bands = length_bands(500, 8000)
    bounded = with_elub(calibration, own, truth, chars, bands)
    assert len(bounded.bands) == 3
    assert bounded.bands[0].max_log10_lr < bounded.bands[2].max_log10_lr  # short texts: less
    for band in bounded.bands:
        lo, hi = band.questioned_chars
        assert bounded.log10_lr(1.0, (lo + hi) // 2) == pytest.approx(band.max_log10_lr)
        assert bounded.log10_lr(0.0, (lo + hi) // 2) == pytest.approx(band.min_log10_lr)
    assert bounded.log10_lr(1.0, 20_000) == pytest.approx(bounded.max_log10_lr)
    with pytest.raises(ValueError, match="questioned"):
        bounded.log10_lr(1.0)


def _model_dict(calibration: Calibration, version: int = MODEL_FORMAT_VERSION) -> dict:
    thresholds = {f"F{i}": 0.5 for i in range(1, 12)}
    return {
        "format": "taveer-model",
        "format_version": version,
        "name": "m",
        "created_utc": "2026-11-28T00:00:00+00:00",
        "software_version": "x",
        "lexicon_sha256": "0" * 64,
        "threshold_method": "median",
        "thresholds": thresholds,
        "ensemble": ["F1"],
        "training": {
            "corpus_name": "c",
            "corpus_layout": "population",
            "corpus_sha256": "0" * 64,
            "cases": 10,
            "cases_y": 5,
            "cases_n": 5,
            "accuracy": 0.5,
            "atomic_accuracy": {c: 0.5 for c in thresholds},
            "abstentions": {c: 0 for c in thresholds},
            "ensembles_tied": 0,
            "seconds": 1.0,
        },
        "calibration": calibration.to_dict(),
        "inconclusive_band": None,
    }


def test_the_model_file_keeps_length_terms_and_bands_and_refuses_nonsense():
    scores, truth, chars = _trials(3000, 8)
    calibration = _fit(scores, truth, chars)
    calibration = with_elub(
        calibration, calibration.log10_lr(scores, chars), truth, chars, length_bands(500, 8000)
    )
    data = json.loads(json.dumps(_model_dict(calibration)))
    assert model_from_dict(data, "m.json").calibration == calibration
    bad = [
        ("quality", "weights", [float("inf")]),
        ("quality", "weights", [1e9]),
        ("quality", "interactions", [-1e3]),
        ("quality", "ranges", [[8000, 500]]),
        ("quality", "measures", ["pages"]),
        ("bands", None, [{"questioned_chars": [500, 900], "min_log10_lr": 0.2, "max_log10_lr": 1}]),
        ("bands", None, [{"questioned_chars": [900, 500], "min_log10_lr": -1, "max_log10_lr": 1}]),
    ]
    for key, field, value in bad:
        broken = json.loads(json.dumps(data))
        if field is None:
            broken["calibration"][key] = value
        else:
            broken["calibration"][key][field] = value
        with pytest.raises(InputError, match="calibration"):
            model_from_dict(broken, "m.json")
    old = json.loads(json.dumps(data))
    old["format_version"] = 3
    with pytest.raises(InputError, match="format version 4"):
        model_from_dict(old, "m.json")


def test_a_plain_model_of_format_3_still_loads():
    scores, truth, _ = _trials(300, 9)
    plain = fit_bounded_calibration(scores, truth)
    assert model_from_dict(_model_dict(plain, 3), "old.json").calibration == plain


@pytest.mark.parametrize("seed", range(8))
def test_every_interval_contains_its_figure_on_random_data(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 400))
    truth = rng.random(n) < rng.uniform(0.3, 0.7)
    truth[:2] = [True, False]
    log10_lr = rng.normal(0, 1, n) * rng.uniform(0.1, 2) + np.where(truth, 0.3, -0.3)
    scores = 1 / (1 + 10 ** (-log10_lr))
    units = [f"a{int(u)}" for u in rng.integers(0, int(rng.integers(4, 30)), n)]
    from taveer_desktop.core.validation.validation_figures import figures_of

    figures = figures_of(scores, log10_lr, truth)
    intervals = bootstrap_intervals(scores, log10_lr, truth, units, 60, seed)
    for name in FIGURES:
        low, high = intervals[name]
        assert low <= figures[name] <= high, (name, low, figures[name], high)


def test_an_estimate_outside_every_resample_widens_the_interval_to_it():
    samples = np.linspace(0.5, 0.6, 100)
    assert bc_interval(samples, 0.4)[0] == 0.4
    assert bc_interval(samples, 0.7)[1] == 0.7
    low, high = bc_interval(samples, 0.55)
    assert 0.5 <= low < 0.55 < high <= 0.6


def test_criteria_are_judged_on_the_pessimistic_end_of_the_interval():
    criteria = AcceptanceCriteria(max_cllr=0.9, max_misleading=0.3)
    intervals = {
        "cllr": (0.7, 0.95),  # the point figure (say 0.8) would pass; the upper end does not
        "misleading_y": (0.1, 0.25),
        "misleading_n": (0.1, 0.28),
    }
    assert criteria.assess(intervals) == {"cllr": False, "misleading": True}
    assert criteria.judged_values(intervals) == {"cllr": 0.95, "misleading": 0.28}
    assert criteria.assess({**intervals, "cllr": (math.nan, math.nan)})["cllr"] is False


def test_band_bound_records_are_what_the_model_applies():
    band = BandBound((500, 900), -0.2, 0.3)
    assert band.to_dict() == {
        "questioned_chars": [500, 900],
        "min_log10_lr": -0.2,
        "max_log10_lr": 0.3,
    }


def test_the_bound_that_applies_is_the_bands_or_the_overall_one():
    from taveer_desktop.core.calibration.length_bands import bound_at

    bands = (BandBound((500, 900), -0.2, 0.3), BandBound((901, 2000), -0.5, 0.6))
    assert bound_at(bands, 700, -1.0, 1.0) == (-0.2, 0.3)
    assert bound_at(bands, 901, -1.0, 1.0) == (-0.5, 0.6)
    assert bound_at(bands, 5000, -1.0, 1.0) == (-1.0, 1.0)
    assert bound_at(bands, None, -1.0, 1.0) == (-1.0, 1.0)
    assert bound_at((), 700, None, None) == (None, None)
