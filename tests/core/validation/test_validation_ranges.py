"""One validation over a declared range of lengths, repeated over seeds, reported per length
band and judged pessimistically (issue 21; ``core/validation/validation.py`` and its modules), on
the public-domain demo population (Brontë chapters and Federalist papers)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from taveer_desktop.core.gate.conditions import LENGTHS_DECLARED
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import model_from_dict
from taveer_desktop.core.methods.taveer.verify import verify
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.validation.validation import (
    MIN_CASEWORK_AUTHORS,
    AcceptanceCriteria,
    ValidationSettings,
    build_trials,
    parse_length_range,
    validate,
)
from taveer_desktop.store.population_folder import read_population_folder
from tests.core.validation_fixtures import make_demo_population

QUESTIONED, KNOWN = (1500, 6000), (4000, 16000)


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    folder = make_demo_population(tmp_path_factory.mktemp("ranges"))
    files = read_population_folder(folder)
    return population_from_texts(files.texts(), "demo", str(folder), "Brontës and Federalist")


@pytest.fixture(scope="module")
def result(population):
    settings = ValidationSettings(
        questioned_chars=QUESTIONED,
        known_chars=KNOWN,
        folds=3,
        seed=5,
        bootstrap=60,
        repeats=2,
        max_trials=600,
        criteria=AcceptanceCriteria.now(max_cllr=0.9, max_misleading=0.3),
    )
    return validate(population, settings)


def test_a_single_length_means_that_length_and_bad_ranges_are_refused():
    assert ValidationSettings(questioned_chars=3000).questioned_chars == (3000, 3000)
    assert parse_length_range("1500:6000", "--q") == (1500, 6000)
    assert parse_length_range("2500", "--q") == (2500, 2500)
    for bad in ("6000:1500", "0:10", "abc", "1500:", "-5"):
        with pytest.raises(InputError, match="--q"):
            parse_length_range(bad, "--q")
    with pytest.raises(InputError, match="--repeats"):
        ValidationSettings(repeats=0).check()
    with pytest.raises(InputError, match="questioned-chars"):
        ValidationSettings(questioned_chars=(10, 5)).check()


def test_trial_lengths_spread_log_uniformly_across_the_declared_range(population):
    settings = ValidationSettings(questioned_chars=QUESTIONED, known_chars=KNOWN, folds=3)
    trials = build_trials(population, settings)
    q, k = trials.questioned_chars, trials.known_chars
    # within the range (cuts fall to the nearest sentence boundary, a few per cent either side)
    assert q.min() >= 0.8 * QUESTIONED[0] and q.max() <= 1.2 * QUESTIONED[1]
    assert k.min() >= 0.8 * KNOWN[0] and k.max() <= 1.2 * KNOWN[1]
    # log-uniform: each half of the log range holds a good share of the trials
    middle = math.sqrt(QUESTIONED[0] * QUESTIONED[1])
    assert 0.25 < np.mean(q < middle) < 0.75
    # both trials of a pair share the known text and the questioned target
    assert np.array_equal(k[0::2], k[1::2])
    assert np.all(trials.known_documents >= 1)
    assert trials.known_documents.max() >= 2  # long known texts take several documents
    # seeded: the same again; another repeat re-draws folds, choice and cuts
    again = build_trials(population, settings)
    assert np.array_equal(again.questioned_chars, q)
    other = build_trials(population, settings, repeat=1)
    assert not np.array_equal(other.questioned_chars[: len(q)], q[: len(other)])


def test_the_record_carries_conditions_repeats_bands_and_casework(result):
    record = result.record
    assert record["conditions"] == {"questioned_chars": [1500, 6000], "known_chars": [4000, 16000]}
    repeats = record["repeats"]
    assert repeats["count"] == 2 and repeats["seeds"] == [5, 6]
    assert sum(repeats["trials"]) == len(record["trials"]) <= 600  # the total over repeats
    assert {t["repeat"] for t in record["trials"]} == {0, 1}
    for name in ("cllr", "auc", "misleading_y", "misleading_n"):
        values = repeats[name]
        assert len(values) == 2
        assert repeats["spread"][name] == pytest.approx(max(values) - min(values), abs=1e-6)
    casework = record["casework"]
    assert casework["authors"] == 6 < MIN_CASEWORK_AUTHORS and casework["too_small"]
    assert any("6 authors" in r for r in casework["reasons"])
    # distinct trials: a pair drawn again in the other repeat counts once
    assert casework["trials_same"] <= record["protocol"]["trials_same"]


def test_bands_cover_the_range_and_hold_their_own_figures_and_bounds(result):
    record, model = result.record, result.model
    bands = record["bands"]
    assert len(bands) == 3
    assert bands[0]["questioned_chars"][0] == 1500 and bands[-1]["questioned_chars"][1] == 6000
    for left, right in itertools.pairwise(bands):
        assert right["questioned_chars"][0] == left["questioned_chars"][1] + 1
    assert sum(b["trials_same"] + b["trials_different"] for b in bands) == len(record["trials"])
    by_band = {tuple(b.questioned_chars): b for b in model.calibration.bands}
    for band in bands:
        if band["figures"] is None:
            continue
        for name, (low, high) in band["intervals"].items():
            value = band["figures"][name]
            assert value is None or low <= value <= high, (band["questioned_chars"], name)
        lo, hi = band["questioned_chars"]
        bound = by_band[(lo, hi)]
        assert (bound.min_log10_lr, bound.max_log10_lr) == pytest.approx(
            (band["bound"]["min_log10_lr"], band["bound"]["max_log10_lr"])
        )
        # the model applies the bound of the case's band
        assert model.calibration.log10_lr(50.0, (lo + hi) // 2, 8000) == pytest.approx(
            bound.max_log10_lr
        )


def test_every_interval_contains_its_figure(result):
    figures, intervals = result.record["figures"], result.record["intervals"]
    for name, (low, high) in intervals.items():
        assert low <= figures[name] <= high, name


def test_criteria_are_judged_on_the_pessimistic_end(result):
    acceptance = result.record["acceptance"]
    assert acceptance["judged_on"] == "pessimistic"
    judged, intervals = acceptance["judged_values"], result.record["intervals"]
    assert judged["cllr"] >= intervals["cllr"][1] >= result.record["figures"]["cllr"]
    assert judged["cllr"] >= max(result.record["repeats"]["cllr"])
    assert acceptance["results"]["cllr"] == (judged["cllr"] <= 0.9)
    assert acceptance["met"] == all(acceptance["results"].values())


def test_the_model_is_validated_over_the_declared_range_and_length_aware(result, tmp_path):
    model = result.model
    conditions = model.conditions
    assert conditions.lengths_basis == LENGTHS_DECLARED
    assert (conditions.questioned_chars.low, conditions.questioned_chars.high) == QUESTIONED
    assert (conditions.known_chars.low, conditions.known_chars.high) == KNOWN
    assert conditions.questioned_chars.shortest <= QUESTIONED[0]
    calibration = model.calibration
    assert calibration.quality is not None
    assert calibration.quality.ranges == (QUESTIONED,)
    assert calibration.quality.min_slope(calibration.slope) >= 0
    # the model file round-trips exactly, and a case is verified with its own lengths
    assert model_from_dict(model.to_dict(), "m.json") == model
    known = " ".join(["The committee met on Tuesday and agreed on the plan."] * 120)
    questioned = "It was decided that the plan would go ahead. " * 60
    outcome = verify(model, [known], questioned)
    assert outcome.calibration_lengths == (len(questioned), len(known))
    assert outcome.log10_lr is None or math.isfinite(outcome.log10_lr)


def test_a_record_of_one_length_and_one_repeat_keeps_todays_meaning(population):
    settings = ValidationSettings(
        questioned_chars=3000, known_chars=9000, folds=3, seed=7, bootstrap=30, repeats=1
    )
    result = validate(population, settings)
    record = result.record
    assert record["conditions"] == {"questioned_chars": [3000, 3000], "known_chars": [9000, 9000]}
    assert len(record["bands"]) == 1 and record["repeats"]["seeds"] == [7]
    assert result.model.calibration.quality is None and result.model.calibration.bands == ()
    assert record["bands"][0]["figures"] == record["figures"]


@pytest.mark.slow
def test_no_seed_of_the_demo_population_meets_the_demo_criteria():
    """Seeds 0–9 at DEMO-001's lengths, criteria Cllr ≤ 0.9 and misleading evidence ≤ 30 %
    (the demo's): none is met. On the point figures seeds 3 and 4 would have been, and seed 4
    on the intervals alone; the worst repeat decides (docs/validation.md)."""
    from tests.core.validation_fixtures import SHIPPED_POPULATION

    files = read_population_folder(SHIPPED_POPULATION)
    shipped = population_from_texts(files.texts(), "demo", str(SHIPPED_POPULATION), "demo")
    point_would_pass = 0
    for seed in range(10):
        settings = ValidationSettings(
            questioned_chars=12146,
            known_chars=61751,
            folds=3,
            seed=seed,
            bootstrap=100,
            criteria=AcceptanceCriteria.now(0.9, 0.3),
        )
        record = validate(shipped, settings).record
        figures = record["figures"]
        point_would_pass += (
            figures["cllr"] <= 0.9 and max(figures["misleading_y"], figures["misleading_n"]) <= 0.3
        )
        assert record["acceptance"]["met"] is False, seed
        assert record["casework"]["too_small"]
    assert point_would_pass >= 1  # the pessimistic rule is what keeps them out
