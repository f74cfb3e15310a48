"""A comparison system validated on TAVeer's trials
(``core/methods/systems/comparison_validation.py``, ``method_runs.py`` and the record of
``core/validation/validation.py``), with the small real methods of ``trigram_methods.py``: held-out
trials never seen in learning or calibration (recomputed by brute force), impostors never by the
trial's authors, the ELUB bound, trials that cannot be compared counted and left out, seeds,
workers and cancelling."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.calibration.calibration import fit_bounded_calibration
from taveer_desktop.core.calibration.calibration_shrinkage import choose_shrinkage, inner_folds
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.ground.errors import Cancelled
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.methods.systems.comparison_trials import impostors_of, trial_case
from taveer_desktop.core.methods.systems.comparison_validation import validate_comparison
from taveer_desktop.core.trials.folds import calibration_ranges, quality_inputs
from taveer_desktop.core.trials.validation_trials import assign_folds
from taveer_desktop.core.validation.method_figures import method_figures
from taveer_desktop.core.validation.validation import FIGURES, build_trials, pool_trials, validate
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings
from tests.core.methods.systems.trigram_methods import TrigramCosine, TrigramImpostors, installed


@pytest.fixture(scope="module")
def catalogue():
    with installed():
        yield


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    return demo_population(tmp_path_factory.mktemp("population"))


@pytest.fixture(scope="module")
def trials(population):
    settings = small_settings("im")
    return pool_trials([build_trials(population, settings, repeat=r) for r in range(2)])


@pytest.fixture(scope="module")
def im_run(catalogue, population, trials):
    settings = small_settings("im")
    TrigramCosine.seen.clear()
    done = validate_comparison("im", population, trials, settings, calibration_ranges(settings))
    return done, list(TrigramCosine.seen)


@pytest.fixture(scope="module")
def compared(catalogue, population):
    return validate(population, small_settings("im", ("profav", "unmasking")))


def test_held_out_trials_never_inform_their_own_learning_or_calibration(im_run, population, trials):
    """Every held-out log10 LR recomputed from scratch: features again, the offset learned,
    the shrinkage chosen and the calibration fitted on the other folds of the trial's repeat
    only."""
    done, _ = im_run
    settings = small_settings("im")
    pools = impostors_of(population, trials, settings)
    method = TrigramImpostors()
    features = np.array(
        [
            method.features(
                trial_case(trials, i),
                pools.of((int(trials.repeat[i]), int(trials.fold[i]))),
                np.random.default_rng([settings.seed, int(trials.repeat[i]), i]),
            )
            for i in range(len(trials))
        ]
    )
    ranges = calibration_ranges(settings)
    for i in range(len(trials)):
        train = (trials.repeat == trials.repeat[i]) & (trials.fold != trials.fold[i])
        assert not train[i]
        offset = features[train, 1].mean()
        raw = features[train, 0] - features[train, 1] + offset
        q_chars, k_chars = trials.questioned_chars[train], trials.known_chars[train]
        quality = quality_inputs(ranges, q_chars, k_chars)
        shrinkage = choose_shrinkage(  # chosen by folds of the training trials alone
            raw,
            trials.truth[train],
            inner_folds(trials.fold[train]),
            lambda sub, q=q_chars, k=k_chars: quality_inputs(ranges, q[sub], k[sub]),
            lambda sub, q=q_chars, k=k_chars: (q[sub], k[sub]),
        )
        calibration = fit_bounded_calibration(raw, trials.truth[train], quality, shrinkage)
        mine = features[i, 0] - features[i, 1] + offset
        expected = calibration.log10_lr(mine, trials.questioned_chars[i], trials.known_chars[i])
        assert done.cv_log10_lr[i] == pytest.approx(expected, abs=1e-9)
        assert done.cv_raw[i] == pytest.approx(mine, abs=1e-12)


def test_impostors_are_never_by_the_trials_authors(im_run, population, trials):
    _, seen = im_run
    author_of = {d.coded.text: a for a in population.authors for d in population.documents[a]}
    by_case = {trial_case(trials, i): i for i in range(len(trials))}
    assert len(seen) == len(trials) + 3 * 50  # and again with three more seeds on repeat 0
    for case, impostors in seen:
        i = by_case[case]
        own = {trials.known_author[i], trials.questioned_author[i]}
        authors = {author_of[t] for t in impostors}
        assert impostors and not authors & own
        # all the documents of the other folds of the trial's repeat, no fewer
        fold_of, _ = assign_folds(population.authors, 3, 3 + int(trials.repeat[i]))
        others = [a for a in population.authors if fold_of[a] != trials.fold[i]]
        assert len(impostors) == sum(len(population.documents[a]) for a in others)


def test_the_final_calibration_is_bounded_by_the_elub_of_the_cross_validated_lrs(im_run, trials):
    done, _ = im_run
    bound = elub(done.cv_log10_lr[done.compared], trials.truth[done.compared])
    calibration = done.part.calibration
    assert (calibration.min_log10_lr, calibration.max_log10_lr) == (bound.lower, bound.upper)
    assert calibration.bands  # a declared range of questioned lengths: per band too
    assert calibration.quality is not None  # with length terms, as TAVeer's and LambdaG's


def test_the_record_holds_every_methods_figures_side_by_side(compared):
    record, model = compared.record, compared.model
    blocks = method_figures(record)
    assert list(blocks) == ["taveer", "im", "profav", "unmasking"]
    for block in blocks.values():
        assert set(FIGURES) <= set(block.figures)
        assert block.trials + block.cannot_compare == 100
        assert block.seconds_per_trial is not None and block.seconds_per_trial > 0
    assert blocks["profav"].deterministic and blocks["profav"].seed_spread is None
    spread = blocks["im"].seed_spread
    assert spread is not None and spread["auc"][0] <= spread["auc"][1]
    assert spread["cllr"][0] <= spread["cllr"][1]
    assert record["methods"]["im"]["seed_spread"]["seeds"] == 4
    assert record["comparison"] == {
        "methods": ["im", "profav", "unmasking"],
        "stated": "im",
        "rule": None,
        "rule_set_utc": None,
        "rule_values": {},
    }
    assert record["figures"] == blocks["im"].figures  # the stated method's, from the same LRs
    for trial in record["trials"]:
        assert set(trial["log10_lr_by_method"]) == {"taveer", "im", "profav", "unmasking"}
        assert trial["log10_lr"] == trial["log10_lr_by_method"]["im"]
    assert model.extra["method"] == "im" and model.extra["comparison"]["id"] == "im"
    assert (record["bound"]["min_log10_lr"], record["bound"]["max_log10_lr"]) == (
        model.extra["comparison"]["calibration"]["min_log10_lr"],
        model.extra["comparison"]["calibration"]["max_log10_lr"],
    )


def test_trials_a_method_cannot_compare_are_counted_and_left_out(compared):
    block = method_figures(compared.record)["unmasking"]
    assert 0 < block.cannot_compare < 100
    assert compared.record["methods"]["unmasking"]["cannot_compare_reasons"] == {
        "the questioned text has fewer than 2600": block.cannot_compare
    }
    refused = [t for t in compared.record["trials"] if t["log10_lr_by_method"]["unmasking"] is None]
    assert len(refused) == block.cannot_compare


def test_a_stated_method_that_cannot_compare_some_trials_is_judged_on_the_others(
    catalogue, population
):
    result = validate(population, small_settings("unmasking", repeats=1, max_trials=80))
    block = method_figures(result.record)["unmasking"]
    assert len(result.record["trials"]) == block.trials == len(result.trials)
    assert result.record["protocol"]["method"] == "unmasking"
    assert (
        result.record["protocol"]["trials_same"] + result.record["protocol"]["trials_different"]
        == block.trials
    )
    assert all(t["questioned_chars"] >= 2600 for t in result.record["trials"])


def test_a_rule_set_before_the_run_chooses_the_stated_method(catalogue, population):
    settings = small_settings("im", ("profav",), repeats=1, choose_by="lowest_pessimistic_cllr")
    record = validate(population, settings).record
    values = record["comparison"]["rule_values"]
    assert set(values) == {"im", "profav"}
    best = min(values, key=lambda m: values[m])
    assert record["comparison"]["stated"] == best == record["protocol"]["method"]
    assert record["comparison"]["rule_set_utc"] == settings.criteria.set_utc


def test_workers_give_the_same_values(im_run, catalogue, population, trials):
    done, _ = im_run
    settings = small_settings("im")
    again = validate_comparison(
        "im", population, trials, settings, calibration_ranges(settings), workers=2
    )
    np.testing.assert_array_equal(again.cv_log10_lr, done.cv_log10_lr)
    assert again.seed_spread == done.seed_spread


def test_cancelling_stops_the_features(catalogue, population, trials):
    progress = Progress()
    progress.cancel()
    with pytest.raises(Cancelled):
        validate_comparison("profav", population, trials, small_settings("profav"), None, progress)
