"""Deleting is no longer invisible: what the audit chain recorded must still exist as recorded.

Each attack is done with plain ``sqlite3`` on a closed project, as a forger holding the file
would; before reconciliation every one of them left ``taveer check`` saying "Integrity check
passed".
"""

from __future__ import annotations

import sqlite3

import pytest

from taveer_desktop.store import KNOWN, ProjectStore

from .evidence_builders import engine_result, model_bytes, write


@pytest.fixture
def project(tmp_path):
    """A case with a known and a questioned document, a model and a run; a second case."""
    path = tmp_path / "evidence.taveer"
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1")
        store.cases.create("C-2")
        known = write(tmp_path / "k.txt", "Known text. It is mine. " * 10)
        spare = write(tmp_path / "s.txt", "A spare known text. Also mine. " * 10)
        questioned = write(tmp_path / "q.txt", "Questioned text. Whose is it? " * 10)
        (k,) = store.documents.add(case.id, KNOWN, [known]).added
        store.documents.add(case.id, KNOWN, [spare])
        (q,) = store.documents.add(case.id, "questioned", [questioned]).added
        model = store.models.add_bytes(model_bytes(), "model.json")
        store.runs.store(case.id, model.id, q.id, [k.id], engine_result())
    return path


def _forge(path, *statements, unguard: str | tuple[str, ...] = ()):
    """Run SQL as a forger would; dropped guard triggers are put back afterwards."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = OFF")
    guards = []
    for name in (unguard,) if isinstance(unguard, str) else unguard:
        (sql,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (name,)
        ).fetchone()
        conn.execute(f"DROP TRIGGER {name}")
        guards.append(sql)
    for statement in statements:
        conn.execute(statement)
    for sql in guards:
        conn.execute(sql)
    conn.close()


def test_plain_deletes_are_refused_by_the_guards(project):
    """Deletion is guarded like update: without dropping a trigger, no DELETE goes through."""
    for statement in (
        "DELETE FROM documents WHERE id = 2",
        "DELETE FROM runs",
        "DELETE FROM models",
        "DELETE FROM cases WHERE number = 'C-2'",
    ):
        with pytest.raises(sqlite3.IntegrityError, match=r"cannot be deleted|audited removal"):
            _forge(project, statement)
    assert _problems(project) == []


def _problems(path) -> list[str]:
    with ProjectStore.open(path, verify=False) as store:
        report = store.check_integrity(include_sqlite_check=False)
    return [f"{p.subject}: {p.message}" for p in report.problems]


def test_untouched_and_audited_removal_pass(project):
    assert _problems(project) == []
    with ProjectStore.open(project) as store:
        store.documents.remove(2, "imported by mistake")  # the spare known document
    assert _problems(project) == []


def test_plain_delete_of_a_document(project):
    _forge(project, "DELETE FROM documents WHERE id = 2", unguard="documents_no_plain_delete")
    problems = _problems(project)
    assert any(p.startswith("document 2: is missing") for p in problems), problems


def test_plain_delete_of_a_run_and_of_a_model(project):
    _forge(
        project,
        "DELETE FROM runs",
        "DELETE FROM models",
        unguard=("runs_no_delete", "models_no_delete"),
    )
    problems = _problems(project)
    assert any(p.startswith("run 1: is missing") for p in problems), problems
    assert any(p.startswith("model 1: is missing") for p in problems), problems


def test_plain_delete_of_a_case(project):
    _forge(project, "DELETE FROM cases WHERE number = 'C-2'", unguard="cases_no_delete")
    assert any("case 2: is missing" in p for p in _problems(project))


def test_known_document_turned_questioned(project):
    _forge(
        project,
        "UPDATE documents SET role = 'questioned' WHERE id = 2",
        unguard="documents_evidence_immutable",
    )
    problems = _problems(project)
    assert any(p.startswith("document 2: differs from its seal in audit") for p in problems), (
        problems
    )


def test_document_moved_to_another_case(project):
    _forge(
        project,
        "UPDATE documents SET case_id = 2 WHERE id = 2",
        unguard="documents_evidence_immutable",
    )
    assert any("document 2: differs from its seal" in p for p in _problems(project))


def test_what_the_examiner_set_is_held_to_the_chain(project):
    """Exclusions, the case's model and stored stability checks (store version 2): undone,
    changed or deleted with plain SQL, each is reported."""
    from taveer_desktop.core.methods.taveer.stability import Stability

    with ProjectStore.open(project) as store:
        store.documents.exclude(2, "written by the secretary")
        store.cases.choose_model(1, 1)
        stability = Stability(50, 7, 0.9, 0.98, (0.4, 0.6), {"N": 49, "Y": 1})
        store.runs.store_stability(1, stability)
        store.documents.exclude(3, "a draft")
        store.documents.include(3, "the draft is the questioned text after all")
    assert _problems(project) == []
    _forge(
        project,
        "DELETE FROM document_exclusions WHERE document_id = 2",
        unguard="document_exclusions_no_plain_delete",
    )
    assert any("the exclusion of document 2: is missing" in p for p in _problems(project))
    _forge(
        project,
        "INSERT INTO document_exclusions VALUES (2, 'written by the secretary', 'x')",
        "INSERT INTO document_exclusions VALUES (3, 'a draft', 'x')",
    )
    assert any(
        "the exclusion of document 3: is not in the audit chain" in p for p in _problems(project)
    )
    _forge(
        project,
        "DELETE FROM document_exclusions WHERE document_id = 3",
        unguard="document_exclusions_no_plain_delete",
    )
    _forge(project, "UPDATE cases SET model_id = NULL WHERE id = 1")
    assert any("case 1: differs from its seal" in p for p in _problems(project))
    _forge(project, "UPDATE cases SET model_id = 1 WHERE id = 1")
    # every column is sealed: the exclusion put back with another time is still found
    (left,) = _problems(project)
    assert left.startswith("the exclusion of document 2: differs from its seal"), left
    _forge(
        project,
        "UPDATE stability_checks SET agreeing = 50",
        unguard="stability_checks_immutable",
    )
    assert any("stability check 1: differs from its seal" in p for p in _problems(project))
    _forge(project, "DELETE FROM stability_checks", unguard="stability_checks_no_delete")
    assert any("stability check 1: is missing" in p for p in _problems(project))


def test_entries_without_an_id_or_with_details_that_are_no_object_are_reported(project):
    """An entry whose id is gone or whose details are not a JSON object breaks the chain and is
    reported; the check itself never stops on it (before, a document_excluded entry without
    its document id made sorting the ids fail, a case entry holding a list failed on .get)."""
    with ProjectStore.open(project) as store:
        store.documents.exclude(2, "written by the secretary")
    _forge(
        project,
        'UPDATE audit_log SET details_json = \'{"reason": "x"}\''
        " WHERE action = 'document_excluded'",
        "UPDATE audit_log SET details_json = '[1, 2]' WHERE action = 'case_created'",
        unguard="audit_log_no_update",
    )
    problems = _problems(project)
    changed = [p for p in problems if "does not match its hash: it was changed" in p]
    assert len(changed) == 3, problems  # the exclusion and both cases' creation entries
    assert any(p.endswith("document_excluded names no document id") for p in problems), problems
    assert any(p.startswith("the exclusion of document 2: is not in the audit") for p in problems)
    assert any(p.startswith("case 1: is not in the audit chain") for p in problems)
