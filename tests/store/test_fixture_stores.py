"""Every store version ever released still opens, migrates and verifies with today's code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.schema import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VERSIONS = range(1, SCHEMA_VERSION + 1)


def test_there_is_a_fixture_for_every_schema_version():
    found = sorted(int(p.stem.split("_v")[1]) for p in FIXTURES.glob("store_v*.taveer"))
    assert found == list(VERSIONS), "run tests/store/fixtures/make_fixtures.py"


@pytest.mark.parametrize("version", VERSIONS)
def test_fixture_store_opens_migrates_and_verifies(tmp_path, version):
    source = FIXTURES / f"store_v{version}.taveer"
    manifest = json.loads(source.with_suffix(".json").read_text("utf-8"))
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    with ProjectStore.open(copy) as store:
        assert store.last_integrity_report.ok, store.last_integrity_report.problems
        assert store.schema_version == SCHEMA_VERSION
        assert (store.migration_backup is None) == (version == SCHEMA_VERSION)
        case = store.cases.find(manifest["case_number"])
        documents = store.documents.list_for_case(case.id)
        assert {d.file_name: d.sha256 for d in documents} == manifest["documents"]
        for doc in documents:
            assert store.documents.original_bytes(doc.id)  # re-hashed on read
        model = store.models.find(manifest["model"]["name"])
        assert model.sha256 == manifest["model"]["sha256"]
        assert store.models.load(model.id).name == model.name
        runs = store.runs.list_for_case(case.id)
        assert [{"id": r.id, "prediction": r.prediction} for r in runs] == manifest["runs"]
        assert store.runs.result(runs[0].id)["prediction"] == runs[0].prediction
        # every stored result is readable by the one typed reader; older ones carry no
        # assessed conditions, so they never read as more than investigative
        typed = store.runs.verification(runs[0].id)
        assert typed.prediction == runs[0].prediction
        if "excluded" not in manifest:
            assert typed.conclusion.kind.value in ("investigative", "none")
            assert runs[0].conclusion is None
        else:
            assert runs[0].conclusion == typed.conclusion.kind
            assert {d.file_name: d.excluded_reason for d in documents if d.excluded} == (
                manifest["excluded"]
            )
            checks = store.runs.stability_checks(runs[0].id)
            assert len(checks) == manifest["stability_checks"]
        if "population" in manifest:  # store version 4: populations and validation records
            population = store.populations.find(manifest["population"]["name"])
            assert population.sha256 == manifest["population"]["sha256"]
            assert population.document_count == manifest["population"]["documents"]
            validation = store.validations.get(manifest["validation"]["id"])
            assert validation.record_sha256 == manifest["validation"]["record_sha256"]
            assert store.validations.record(validation.id)["population"]["name"] == (
                population.name
            )
            assert (
                store.models.get(validation.model_id).name == (manifest["validation"]["model_name"])
            )
        if "population" in manifest:  # store version 8: the population's topic labels kept
            labels = store.populations.labels(population.id)
            expected = manifest.get("population_topics", {"source": None, "topics": 0})
            assert (labels.source if labels else None) == expected["source"]
            assert (len(set(labels.of.values())) if labels else 0) == expected["topics"]
        if "population" in manifest:  # store version 9: the documents' dates kept
            dates = store.populations.load(population.id).dates
            expected = manifest.get("population_dates", {"source": None, "documents": 0})
            assert (dates.source if dates else None) == expected["source"]
            assert (len(dates.of) if dates else 0) == expected["documents"]
        if "validation_use" in manifest:  # store version 5: a validation used for another case
            expected = manifest["validation_use"]
            other = store.cases.find(expected["case_number"])
            (use,) = store.validation_uses.for_case(other.id)
            assert (use.id, use.validation_id, use.reason) == (
                expected["id"],
                expected["validation_id"],
                expected["reason"],
            )
        else:  # an older store gains the table, empty
            assert store.validation_uses.list_all() == []
        standing = store.declarations.standing(case.id)
        if "declaration" in manifest:  # store version 7: declaration and technical review
            assert standing.declaration.examiner == manifest["declaration"]["examiner"]
            assert standing.review.reviewer == manifest["review"]["reviewer"]
            assert standing.final, standing.missing
        else:  # an older store gains the tables, empty: its reports are drafts
            assert standing.declaration is None and not standing.final
        entries = store.audit.entries()
        assert len(entries) >= manifest["audit_entries"]
        assert entries[manifest["audit_entries"] - 1].entry_hash == manifest["audit_head_hash"]
        # the migrated store accepts new work
        store.cases.create("AFTER-OPEN")
        assert store.check_integrity().ok
