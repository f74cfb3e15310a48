"""Validation on a relevant population: populations, trials cut like the case, cross-validation
by author, figures with intervals, the likelihood-ratio bound, the acceptance criteria and the
model and record that result (``core/trials/population.py``,
``core/validation/validation.py``)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from conftest import corpus_path

from taveer_desktop.core.calibration.calibration import cllr, misleading_rates
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
from taveer_desktop.core.features.feature_stream import encode_document
from taveer_desktop.core.features.feature_vectors import DocumentFeatures
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.ground.errors import Cancelled, InputError
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.model import load_model, parse_model, save_model
from taveer_desktop.core.methods.taveer.verify import verify
from taveer_desktop.core.trials.population import population_from_corpus, population_from_texts
from taveer_desktop.core.validation.record_basis import read_record_file
from taveer_desktop.core.validation.validation import (
    MIN_TRIALS_PER_CLASS,
    AcceptanceCriteria,
    ValidationSettings,
    build_trials,
    equal_error_rate,
    known_part,
    nearest_cut,
    questioned_part,
    save_record,
    validate,
)
from taveer_desktop.store.population_folder import read_population_folder
from tests.core.validation_fixtures import make_demo_population


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("population"))


@pytest.fixture(scope="module")
def population(demo_folder):
    files = read_population_folder(demo_folder)
    return population_from_texts(files.texts(), "demo", str(demo_folder), "Brontës and Federalist")


@pytest.fixture(scope="module")
def result(population):
    settings = ValidationSettings(
        questioned_chars=3000,
        known_chars=9000,
        folds=3,
        seed=7,
        bootstrap=50,
        criteria=AcceptanceCriteria.now(max_cllr=5.0, max_misleading=0.01),
    )
    return validate(population, settings)


def test_population_folder_reads_every_author_through_the_intake(demo_folder, population):
    (demo_folder / "Jay" / "notes.pdf").write_bytes(b"%PDF-1.4 not a text")
    try:
        files = read_population_folder(demo_folder)
    finally:
        (demo_folder / "Jay" / "notes.pdf").unlink()
    assert any("notes.pdf" in r and "unsupported" in r for r in files.refused)
    assert set(population.authors) == {
        "Anne_Bronte",
        "Charlotte_Bronte",
        "Emily_Bronte",
        "Hamilton",
        "Jay",
        "Madison",
    }
    assert population.documents["Jay"][0].coded.n_sentences > 10
    assert len(population.sha256) == 64


def test_authors_with_one_document_are_left_out_and_too_few_authors_refused():
    texts = {f"a{i}": [("one.txt", f"A sentence by {i}. Another one there.")] for i in range(6)}
    texts["a0"].append(("two.txt", "A second text. With two sentences."))
    with pytest.raises(InputError, match="at least 4"):
        population_from_texts(texts, "tiny", "tiny")


def test_cuts_fall_on_the_sentence_boundary_nearest_the_target(population):
    document = population.documents["Hamilton"][0].coded
    count = nearest_cut(document, 2000)
    end = document.spans[count - 1][1] - document.spans[0][0]
    shorter = document.spans[count - 2][1] - document.spans[0][0]
    longer = document.spans[count][1] - document.spans[0][0]
    assert abs(end - 2000) <= abs(shorter - 2000) and abs(end - 2000) <= abs(longer - 2000)
    rng = np.random.default_rng(0)
    part = questioned_part(document, 2000, rng)
    assert part.n_sentences > 0 and abs(part.n_chars - 2000) < 1000
    assert questioned_part(document, None, rng) == document.features()
    docs = [d.coded for d in population.documents["Madison"][:3]]
    assert known_part(docs, None) == DocumentFeatures.combine(d.features() for d in docs)
    known = known_part(docs, 6000)
    assert abs(known.n_chars - 6000) < 1000


def test_trials_are_balanced_author_disjoint_seeded_and_capped(population):
    settings = ValidationSettings(questioned_chars=3000, known_chars=9000, folds=3, seed=1)
    trials = build_trials(population, settings)
    assert trials.truth.sum() == (~trials.truth).sum() >= MIN_TRIALS_PER_CLASS
    fold_of = {}
    for known, questioned, fold, same in zip(
        trials.known_author, trials.questioned_author, trials.fold, trials.truth, strict=True
    ):
        assert (known == questioned) == same
        for author in (known, questioned):
            assert fold_of.setdefault(author, fold) == fold  # one fold per author
    assert len(set(fold_of.values())) == trials.folds == 3
    assert np.all(np.abs(trials.questioned_chars - 3000) < 1500)
    assert np.all(trials.known_chars >= 0.8 * 9000)
    again = build_trials(population, settings)
    assert np.array_equal(again.distances, trials.distances, equal_nan=True)
    other = build_trials(population, ValidationSettings(3000, 9000, folds=3, seed=2))
    assert not np.array_equal(other.distances, trials.distances, equal_nan=True)
    capped = build_trials(
        population, ValidationSettings(3000, 9000, folds=3, max_trials=40, repeats=1)
    )
    assert len(capped) == 40
    # max_trials is the total over the repeats: each repeat takes its share of the 20 pairs
    shares = [
        len(
            build_trials(
                population, ValidationSettings(3000, 9000, folds=3, max_trials=40), repeat=r
            )
        )
        for r in range(3)
    ]
    assert shares == [14, 14, 12]


def test_too_few_trials_per_class_is_refused_with_one_message(population):
    with pytest.raises(InputError, match=r"at least 20 of each are needed"):
        validate(population, ValidationSettings(questioned_chars=30000, folds=3))


def test_cross_validated_figures_come_from_the_held_out_scores(result):
    record = result.record
    log10_lr = np.array([t["log10_lr"] for t in record["trials"]])
    truth = np.array([t["same"] for t in record["trials"]])
    assert record["figures"]["cllr"] == pytest.approx(cllr(log10_lr, truth), abs=1e-5)
    y, n = misleading_rates(log10_lr, truth)
    assert record["figures"]["misleading_y"] == pytest.approx(y, abs=1e-6)
    assert record["figures"]["misleading_n"] == pytest.approx(n, abs=1e-6)
    figures = record["figures"]
    assert figures["cllr_cal"] == pytest.approx(figures["cllr"] - figures["cllr_min"], abs=1e-5)
    assert 0.5 < figures["auc"] <= 1.0 and 0.0 <= figures["eer"] < 0.5
    for name, (low, high) in record["intervals"].items():
        assert low <= high, name
    assert record["intervals"]["auc"][0] < figures["auc"] < record["intervals"]["auc"][1] + 1e-9


def test_acceptance_criteria_are_recorded_as_met_or_not(result):
    acceptance = result.record["acceptance"]
    assert acceptance["criteria"]["max_cllr"] == 5.0 and acceptance["criteria"]["set_utc"]
    assert acceptance["results"]["cllr"] is True  # Cllr ≤ 5
    assert acceptance["results"]["misleading"] is False  # not both rates ≤ 1 %
    assert acceptance["met"] is False
    criteria = AcceptanceCriteria()
    assert criteria.assess(result.figures) == {}


def test_final_model_is_bounded_conditioned_and_loads(result, population, tmp_path):
    model = result.model
    n_same = int(result.trials.truth.sum())
    n_different = len(result.trials) - n_same
    # the bound is the ELUB of the cross-validated LRs the record lists (recomputable from it)
    listed = result.record["trials"]
    bounds = elub([t["log10_lr"] for t in listed], [t["same"] for t in listed])
    low, high = model.calibration.min_log10_lr, model.calibration.max_log10_lr
    assert (low, high) == pytest.approx((bounds.lower, bounds.upper), abs=1e-5)
    assert (low, high) == pytest.approx(bounds_of(result.cv_log10_lr, result.trials.truth))
    bound = result.record["bound"]
    assert (bound["min_log10_lr"], bound["max_log10_lr"]) == (low, high)
    assert "ELUB" in bound["rule"] and "cross-validated" in bound["rule"]
    assert (bound["trials_same"], bound["trials_different"]) == (n_same, n_different)
    # balanced classes: never wider than the count rule ±log10 n
    assert -math.log10(n_same) <= low <= 0.0 <= high <= math.log10(n_different)
    assert model.calibration.log10_lr(50.0) == pytest.approx(high)
    assert model.calibration.log10_lr(-50.0) == pytest.approx(low)
    conditions = model.conditions
    assert conditions.questioned_chars.low <= 3000 <= conditions.questioned_chars.high
    assert conditions.known_chars.low <= 9000 <= conditions.known_chars.high
    assert "demo" in conditions.population and conditions.cases == len(result.trials)
    path = tmp_path / "validated.json"
    save_model(model, path)
    loaded = load_model(path)
    assert loaded.calibration == model.calibration
    assert loaded.extra["validation"]["figures"] == result.record["figures"]
    assert loaded.sha256 == model.sha256 == result.record["model"]["sha256"]
    record_path = tmp_path / "record.json"
    save_record(result.record, record_path)
    assert json.loads(record_path.read_text(encoding="utf-8"))["model"]["sha256"] == model.sha256
    # the record as the basis of a conclusion (its figures recomputed from its trials)
    basis = read_record_file(record_path)
    outcome = verify(
        model, ["A short known text. " * 200], "A short questioned text. " * 120, basis=basis
    )
    assert outcome.log10_lr is None or low - 1e-9 <= outcome.log10_lr <= high + 1e-9
    # its validation did not meet the criteria set before it (misleading ≤ 1 %): the gate keeps
    # every conclusion of this model investigative at most, and says why
    findings = {f.rule: f for f in outcome.conclusion.findings}
    assert GateRule.VALIDATION_NOT_MET in findings
    message = findings[GateRule.VALIDATION_NOT_MET].message
    assert "did not meet the acceptance criteria" in message
    assert "above the 1 % set" in message and "Cllr" not in message  # Cllr ≤ 5 was met
    assert outcome.conclusion.kind is not ConclusionKind.EVALUATIVE
    # the model file's own claim of a met validation is not a record: no validation at all
    met = replace(model, extra={**model.extra, "validation": {"acceptance": {"met": True}}})
    rules = {
        f.rule
        for f in verify(
            met, ["A short known text. " * 200], "A short text. " * 120
        ).conclusion.findings
    }
    assert GateRule.NO_VALIDATION in rules and GateRule.VALIDATION_NOT_MET not in rules


def bounds_of(log10_lr, truth) -> tuple[float, float]:
    found = elub(log10_lr, truth)
    return found.lower, found.upper


def test_unbounded_calibrations_keep_their_old_json(result):
    plain = replace(result.model.calibration, min_log10_lr=None, max_log10_lr=None)
    assert "max_log10_lr" not in plain.to_dict()
    text = replace(result.model, calibration=plain).to_json()
    assert parse_model(text, "m").calibration == plain


def test_validation_can_be_cancelled(population):
    progress = Progress()
    progress.cancel()
    with pytest.raises(Cancelled):
        validate(population, ValidationSettings(3000, 9000, folds=3), progress=progress)


def test_settings_are_checked_before_the_run(population):
    for settings, message in (
        (ValidationSettings(folds=1), "2 folds"),
        (ValidationSettings(max_trials=10), "max-trials"),
        (ValidationSettings(method="bogus"), "unknown validation method"),
        (ValidationSettings(method="lambdag", lambdag_order=0), "lambdag-order"),
        (ValidationSettings(criteria=AcceptanceCriteria(max_cllr=-1.0)), "accept-cllr"),
        (
            ValidationSettings(criteria=AcceptanceCriteria(max_misleading=float("nan"))),
            "accept-misleading",
        ),
    ):
        with pytest.raises(InputError, match=message):
            validate(population, settings)


def test_equal_error_rate():
    truth = np.array([True] * 4 + [False] * 4)
    assert equal_error_rate(np.array([4, 5, 6, 7, 0, 1, 2, 3.0]), truth) == 0.0
    assert equal_error_rate(np.array([0, 1, 2, 3, 4, 5, 6, 7.0]), truth) == 1.0
    assert equal_error_rate(np.array([1, 3, 5, 7, 0, 2, 4, 6.0]), truth) == pytest.approx(0.5)


def test_population_from_a_pan_corpus_takes_authors_from_its_provenance():
    folder = open_corpus(corpus_path("stackexchange", "train"))
    jsonl = open_corpus(corpus_path("stackexchange-jsonl", "train"))
    lexicon = default_lexicon()
    a = population_from_corpus(folder, lexicon=lexicon)
    b = population_from_corpus(jsonl, lexicon=lexicon)
    assert len(a.authors) >= 40
    assert a.authors == b.authors
    assert all(len(docs) >= 2 for docs in a.documents.values())
    # a document read twice (the same post in two cases) is kept once
    for docs in a.documents.values():
        assert len({d.text_sha256 for d in docs}) == len(docs)
    assert encode_document("One. Two.", lexicon).n_sentences == 2


def test_equal_error_rate_with_one_error_each_way():
    truth = np.array([True] * 4 + [False] * 4)
    # one same-author value below every different-author one, one different-author above all
    values = np.array([0.0, 5, 6, 7, 1, 2, 3, 8])
    assert equal_error_rate(values, truth) == pytest.approx(0.25)


def test_folds_learned_in_processes_equal_one_process(population):
    settings = ValidationSettings(3000, 9000, folds=3, seed=5)
    trials = build_trials(population, settings)
    from taveer_desktop.core.validation.validation import cross_validate

    one = cross_validate(trials, "median", workers=1)
    two = cross_validate(trials, "median", workers=2)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])


def test_each_repeat_keeps_its_own_fit_bounded_by_its_own_trials(result, demo_folder):
    """Issue 30 (a ratio no seed can flip): the model keeps what each repeat alone learned."""
    from taveer_desktop.core.methods.taveer.repeat_models import repeat_fits
    from taveer_desktop.core.validation.cross_validation import learn, score

    model = parse_model(result.model.to_json(), "validated.json")
    fits = repeat_fits(model, "validated.json")
    seeds = result.record["repeats"]["seeds"]
    assert fits is not None and [f.seed for f in fits] == seeds
    trials, truth = result.trials, result.trials.truth
    for r, fit in enumerate(fits):
        rows = trials.repeat == r
        # bounded by the ELUB of the repeat's own cross-validated ratios, as the final model's
        # is by all of them
        bounds = bounds_of(result.cv_log10_lr[rows], truth[rows])
        assert (fit.calibration.min_log10_lr, fit.calibration.max_log10_lr) == pytest.approx(bounds)
        # the fit is TAVeer learned on the repeat's trials alone (thresholds, ensemble)
        learned = learn(trials.distances[rows], truth[rows], model.threshold_method)
        assert fit.ensemble == learned.ensemble
        assert [fit.thresholds[c] for c in sorted(fit.thresholds, key=lambda c: int(c[1:]))] == (
            pytest.approx(list(learned.thresholds))
        )
        assert np.isfinite(score(learned, trials.distances[rows])[1]).all()
    # a case verified with the model is checked against every repeat
    from taveer_desktop.core.verification.method_verify import verify_with_method

    papers = sorted((demo_folder / "Hamilton").glob("*.txt"))
    known = [p.read_text(encoding="utf-8") for p in papers[:2]]
    checked = verify_with_method(model, known, papers[2].read_text(encoding="utf-8")).repeats
    assert checked is not None and checked.seeds == tuple(seeds)
    assert len(checked.log10_lrs) == len(seeds)
