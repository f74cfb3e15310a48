"""Store version 4: relevant populations and validation records — imported through the evidence
intake, hashed, audited, immutable, held to the audit chain both ways; ``case validate`` takes
the case's lengths, stores model and record and chooses the model; the report cites it."""

from __future__ import annotations

import json
import sqlite3

import pytest

from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import case_lengths, validate_case
from taveer_desktop.store.errors import Conflict, StoreError
from tests.cli.test_cli import run
from tests.core.validation_fixtures import make_demo_population
from tests.store.test_reconciliation import _forge, _problems

DESCRIPTION = "Brontë chapters and Federalist papers; public domain; too small for casework"


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("store-population"))


@pytest.fixture
def project(tmp_path, demo_folder):
    """A case (two Madison papers known, one questioned) and the demo population."""
    path = tmp_path / "p.taveer"
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1")
        store.documents.add(case.id, KNOWN, madison[:2])
        store.documents.add(case.id, QUESTIONED, [madison[2]])
        store.populations.add_folder("demo", demo_folder, DESCRIPTION)
    return path


def test_population_is_stored_hashed_and_audited(project, demo_folder):
    with ProjectStore.open(project) as store:
        (population,) = store.populations.list_all()
        texts = store.populations.texts(population.id)
        entry = [e for e in store.audit.entries() if e.action == "population_added"][-1]
        assert population.author_count == 6 and population.document_count == sum(
            len(v) for v in texts.values()
        )
        assert set(texts) == {p.name for p in demo_folder.iterdir() if p.is_dir()}
        assert entry.details["sha256"] == population.sha256
        assert entry.details["description"] == DESCRIPTION
        assert store.populations.load(population.id).sha256 == population.sha256
        with pytest.raises(Conflict):
            store.populations.add_folder("demo", demo_folder, DESCRIPTION)
        with pytest.raises(StoreError, match="description"):
            store.populations.add_folder("other", demo_folder, "  ")
    assert _problems(project) == []


def test_population_rows_are_immutable_and_tampering_is_found(project):
    for statement in (
        "UPDATE population_documents SET author = 'Jay' WHERE id = 1",
        "DELETE FROM population_documents WHERE id = 1",
        "UPDATE populations SET description = 'x'",
        "DELETE FROM populations",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="cannot be"):
            _forge(project, statement)
    _forge(
        project,
        "DELETE FROM population_documents WHERE id = 1",
        unguard="population_documents_no_delete",
    )
    assert any(
        p.startswith("the set of documents of population 1: differs from its seal")
        for p in _problems(project)
    )


def test_a_population_deleted_outside_the_program_is_reported(project):
    _forge(
        project,
        "DELETE FROM population_documents",
        "DELETE FROM populations",
        unguard=("population_documents_no_delete", "populations_no_delete"),
    )
    assert any(p.startswith("population 1: is missing") for p in _problems(project))


def test_case_validate_stores_model_and_record_and_chooses_the_model(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        questioned, known = case_lengths(store, case.id)
        settings = ValidationSettings(
            folds=3, bootstrap=30, criteria=AcceptanceCriteria.now(max_cllr=3.0)
        )
        done = validate_case(store, case.id, "demo", settings)
        assert done.result.record["protocol"]["questioned_chars"] == [questioned, questioned]
        assert done.result.record["protocol"]["known_chars"] == [known, known]
        assert store.cases.get(case.id).model_id == done.model.id
        assert store.validations.for_model(done.model.id) == done.validation
        assert [v.id for v in store.validations.for_case(case.id)] == [done.validation.id]
        record = store.validations.record(done.validation.id)
        assert record["figures"] == done.result.record["figures"]
        # the case's three documents are Madison papers of the population: found before the
        # validation used it, left out of its trials, and named in the record
        own = [w for w in record["warnings"] if "is the case's own" in w]
        assert len(own) == 3 and all(w.startswith("Madison/") for w in own)
        assert done.validation.criteria_met is True
        model = store.models.load(done.model.id)
        assert "demo" in model.conditions.population
        actions = [e.action for e in store.audit.entries(case.id)]
        assert actions[-2:] == ["validation_stored", "case_model_chosen"]
    assert _problems(project) == []
    _forge(
        project,
        "UPDATE validation_records SET cllr = 0.01",
        unguard="validation_records_immutable",
    )
    # the figure column is sealed with the row (store version 6) …
    assert any("validation record 1: differs from its seal" in p for p in _problems(project))
    _forge(
        project,
        "UPDATE validation_records SET record_json = CAST('{}' AS BLOB)",
        unguard="validation_records_immutable",
    )
    assert any("validation record 1" in p for p in _problems(project))  # … and the record


@pytest.mark.slow
def test_population_and_case_validate_commands(project, tmp_path, demo_folder):
    listed = run("--project", project, "population", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    (population,) = json.loads(listed.stdout)["populations"]
    assert population["name"] == "demo" and population["description"] == DESCRIPTION
    done = run(
        "--project", project, "case", "validate", "C-1", "--population", "demo",
        "--folds", "3", "--accept-cllr", "3", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"authors", "trials", "cllr", "acceptance", "model", "record"} <= set(data)
    assert data["acceptance"]["met"] is True and data["case"] == "C-1"
    verified = run("--project", project, "case", "verify", "C-1", "--stability", "0", "--json")
    assert verified.returncode == 0, verified.stderr
    conclusion = json.loads(verified.stdout)["runs"][0]["conclusion"]
    assert "demo" in conclusion["propositions"]["hd"]
    missing = run("--project", project, "case", "validate", "C-1", "--population", "nobody")
    assert missing.returncode == 2 and "no population named 'nobody'" in missing.stderr
    added = run(
        "--project", tmp_path / "new.taveer", "population", "add", "demo", demo_folder,
        "--description", DESCRIPTION, "--json",
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["author_count"] == 6


@pytest.mark.slow
def test_report_summarises_the_validation(project):
    pytest.importorskip("PySide6")
    from taveer_desktop.report.content import _validation
    from taveer_desktop.report.inputs import gather_inputs
    from taveer_desktop.store.case_verification import verify_case

    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        validate_case(store, case.id, "demo", ValidationSettings(folds=3, bootstrap=20))
        verify_case(store, case.id, stability_resamples=None)
        inputs = gather_inputs(store, "C-1")
    # the report reads the record without its per-trial list (a summary, not the trials)
    assert inputs.validation is not None and "trials" not in inputs.validation.raw
    blocks = [inner for b in _validation(inputs) for inner in getattr(b, "blocks", (b,))]
    text = " ".join(getattr(b, "html", "") or getattr(b, "text", "") for b in blocks)
    assert "relevant population" in text and "demo" in text
    assert "No acceptance criteria were set" in text
    assert "bootstrap over authors" in text
    # six authors (the case's three Madison papers are left out of the population, Madison's
    # other papers stay): the report says plainly that this is too small for casework, and
    # states the bound (the ELUB of the cross-validated LRs) as ratios, not rounded
    assert "Too small for casework: 6 authors" in text
    assert "ELUB" in text and "between 1/" in text


def test_audit_view_words_for_populations_and_validations(project):
    pytest.importorskip("PySide6")
    from taveer_desktop.ui.audit_table_model import action_word, details_summary

    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        validate_case(
            store,
            case.id,
            "demo",
            ValidationSettings(folds=3, bootstrap=10, criteria=AcceptanceCriteria.now(9.0)),
        )
        entries = {e.action: e for e in store.audit.entries()}
    added, stored = entries["population_added"], entries["validation_stored"]
    assert action_word(added) == "Population imported"
    assert details_summary(added) == "demo: 6 authors, {} documents".format(
        added.details["documents"]
    )
    assert action_word(stored) == "Validation stored"
    assert details_summary(stored).endswith("criteria met")
    assert "Cllr 0." in details_summary(stored)
