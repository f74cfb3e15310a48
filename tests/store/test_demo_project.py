"""The demo project: the demo cases with their documents, both bundled models, the public-domain
demo population and the validation of DEMO-001 on it (no Qt)."""

from __future__ import annotations

import json

import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.validation.validation import MIN_TRIALS_PER_CLASS
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore, demo_project
from taveer_desktop.store.case_validation import case_lengths
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.population_folder import read_population_folder


@pytest.mark.slow
def test_seeding_adds_the_demo_cases_models_population_and_validation_once(tmp_path):
    with ProjectStore.create(tmp_path / "fresh.taveer") as store:
        assert demo_project.is_empty(store)
        steps = []
        result = demo_project.seed_demo_project(
            store, Progress(lambda d, t, m: steps.append((d, t, m)))
        )
        assert result.case_numbers == ("DEMO-001", "DEMO-002")
        assert result.default_model == "TAVeer default (Stack Exchange)"
        assert result.case_model == "TAVeer formal prose (public-domain demo)"
        assert result.validated_case == "DEMO-001"
        assert result.added_anything
        assert steps[-1] == (steps[-1][1], steps[-1][1], "demo ready")
        assert any(m.startswith("validating demo case DEMO-001: cutting trials") for *_, m in steps)
        for number in result.case_numbers:
            case = store.cases.find(number)
            assert "Federalist Papers" in case.description
            assert len(store.documents.list_for_case(case.id, KNOWN)) == 4
            questioned = store.documents.list_for_case(case.id, QUESTIONED)
            assert [d.file_name for d in questioned] == ["federalist_51_questioned.txt"]
            assert questioned[0].metadata["source_path"].endswith("federalist_51_questioned.txt")
        # the validated model is DEMO-001's; DEMO-002 keeps the bundled formal-prose model
        assert len(store.models.list_all()) == 3
        first, second = store.cases.find("DEMO-001"), store.cases.find("DEMO-002")
        assert store.models.get(second.model_id).name == result.case_model
        (stored,) = store.validations.for_case(first.id)
        assert stored.model_id == first.model_id
        assert store.validations.for_model(first.model_id).id == stored.id
        assert not store.validations.for_case(second.id)
        assert not demo_project.is_empty(store)
        again = demo_project.seed_demo_project(store)
        assert not again.added_anything
        assert len(store.cases.list_all()) == 2 and len(store.models.list_all()) == 3
        assert len(store.populations.list_all()) == 1
        assert len(store.validations.for_case(first.id)) == 1
        assert store.check_integrity().ok


@pytest.mark.slow
def test_the_demo_validation_is_honest_about_its_population(tmp_path):
    with ProjectStore.create(tmp_path / "demo.taveer") as store:
        result = demo_project.seed_demo_project(store)
        (population,) = store.populations.list_all()
        assert population.name == result.population
        assert population.author_count == 6 and population.document_count == 60
        description = population.description
        assert "Far too small for casework" in description and "another genre" in description
        case = store.cases.find("DEMO-001")
        (stored,) = store.validations.for_case(case.id)
        record = store.validations.record(stored.id)
        model = store.models.load(case.model_id)
    # the record says it: the population's description travels with it, and Hd names it
    assert record["population"]["description"] == description
    assert "Far too small for casework" in model.conditions.population
    assert model.conditions.genre.startswith("formal English prose")
    # built like `case validate`: the trials are cut to DEMO-001's own lengths ...
    protocol = record["protocol"]
    with ProjectStore.open(tmp_path / "demo.taveer") as store:
        lengths = case_lengths(store, store.cases.find("DEMO-001").id)
    assert (protocol["questioned_chars"], protocol["known_chars"]) == tuple([n, n] for n in lengths)
    # ... and the minimum of 20 trials a class is met at those lengths, not weakened
    assert protocol["min_trials_per_class"] == MIN_TRIALS_PER_CLASS == 20
    assert protocol["trials_same"] == protocol["trials_different"] >= MIN_TRIALS_PER_CLASS
    # criteria were set before the run, from the manifest, and are judged
    criteria = record["acceptance"]["criteria"]
    assert (criteria["max_cllr"], criteria["max_misleading"]) == (0.9, 0.3) and criteria["set_utc"]
    # the model's bound is the ELUB of the cross-validated LRs the record lists
    trials = record["trials"]
    bounds = elub([t["log10_lr"] for t in trials], [t["same"] for t in trials])
    assert abs(record["bound"]["max_log10_lr"] - bounds.upper) < 1e-5
    assert abs(record["bound"]["min_log10_lr"] - bounds.lower) < 1e-5
    assert model.calibration.max_log10_lr == record["bound"]["max_log10_lr"]
    # criteria not met (seed 0): DEMO-001's conclusion is for investigation only, and says why
    assert record["acceptance"]["met"] is False
    with ProjectStore.open(tmp_path / "demo.taveer") as store:
        case = store.cases.find("DEMO-001")
        (run,) = verify_case(store, case.id, stability_resamples=None)
        result = store.runs.result(run.id)
    assert run.conclusion is ConclusionKind.INVESTIGATIVE
    rules = [f["rule"] for f in result["conclusion"]["findings"]]
    assert GateRule.VALIDATION_NOT_MET.value in rules
    # six authors: too small for casework, whatever its figures, so no seed makes it evaluative
    too_small = [f for f in result["conclusion"]["findings"] if f["rule"] == "validation_too_small"]
    assert too_small and too_small[0]["measured"] == 6 and too_small[0]["limit"] == 20
    assert result["validation"]["record_id"] == stored.id


@pytest.mark.slow
def test_the_demo_cases_are_investigative_and_say_why(tmp_path):
    """DEMO-002 and the shipped models have no validation record: investigative, with the
    reason; DEMO-001 validated with a seed whose criteria are met stays investigative too
    (too small for casework)."""
    from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
    from taveer_desktop.store.case_validation import validate_case

    with ProjectStore.create(tmp_path / "demo.taveer") as store:
        demo_project.seed_demo_project(store)
        second = store.cases.find("DEMO-002")
        (run,) = verify_case(store, second.id, stability_resamples=None)
        result = store.runs.verification(run.id)
        assert run.conclusion is ConclusionKind.INVESTIGATIVE
        assert GateRule.NO_VALIDATION in {f.rule for f in result.conclusion.findings}
        assert result.validation is None
        first = store.cases.find("DEMO-001")
        spec = demo_project.demo_population()
        settings = ValidationSettings(
            seed=1, criteria=AcceptanceCriteria.now(max_cllr=5.0, max_misleading=1.0)
        )
        done = validate_case(store, first.id, spec.name, settings)
        assert done.validation.criteria_met is True and done.chosen
        (run,) = verify_case(store, first.id, stability_resamples=None)
        result = store.runs.verification(run.id)
    assert run.conclusion is ConclusionKind.INVESTIGATIVE
    rules = {f.rule for f in result.conclusion.findings}
    assert GateRule.VALIDATION_TOO_SMALL in rules
    assert not rules & {GateRule.NO_VALIDATION, GateRule.VALIDATION_NOT_MET}


def test_the_shipped_population_matches_its_readme_and_manifest():
    demo = paths.resource("demo")
    manifest = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))
    files = read_population_folder(demo / manifest["population"]["folder"])
    assert not files.refused
    counts = {author: len(docs) for author, docs in files.documents.items()}
    assert counts == {
        "Anne_Bronte": 16,
        "Charlotte_Bronte": 8,
        "Emily_Bronte": 8,
        "Hamilton": 12,
        "Jay": 5,
        "Madison": 11,
    }
    readme = (demo / "README.md").read_text(encoding="utf-8")
    for author, docs in files.documents.items():
        for document in docs:
            assert f"{document.sha256}  population/{author}/{document.file_name}" in readme
            # no paper names its author, and none is a paper of a demo case
            assert "\nHAMILTON" not in document.text and "\nMADISON" not in document.text
            assert "\nJAY\n" not in document.text
    case_files = {name.split("/")[-1] for c in manifest["cases"] for name in c["known"]}
    names = {d.file_name for docs in files.documents.values() for d in docs}
    assert not names & (case_files | {"federalist_51.txt"})


@pytest.mark.slow
def test_an_interrupted_seeding_is_completed(tmp_path):
    with ProjectStore.create(tmp_path / "half.taveer") as store:
        spec = demo_project.demo_cases()[0]
        store.cases.create(spec.case_number, title=spec.title)  # as if stopped right here
        demo_project.seed_demo_project(store)
        case = store.cases.find(spec.case_number)
        assert (case.known_count, case.questioned_count) == (4, 1)
        assert len(store.validations.for_case(case.id)) == 1
