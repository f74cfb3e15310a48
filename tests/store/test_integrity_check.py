"""The integrity check catches changes made behind the store's back with plain sqlite3."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from taveer_desktop.store import KNOWN, DamagedStore, ProjectStore, StoreError

from .evidence_builders import default_model_name, engine_result, model_bytes, write


@pytest.fixture
def project(tmp_path):
    """A closed project with a case, two documents, a model and a stored run."""
    path = tmp_path / "evidence.taveer"
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1", title="Original title")
        known = write(tmp_path / "k.txt", "Known text. It is mine. " * 10)
        questioned = write(tmp_path / "q.txt", "Questioned text. Whose is it? " * 10)
        (k,) = store.documents.add(case.id, KNOWN, [known]).added
        (q,) = store.documents.add(case.id, "questioned", [questioned]).added
        model = store.models.add_bytes(model_bytes(), "model.json")
        store.runs.store(case.id, model.id, q.id, [k.id], engine_result())
    return path


def _tamper(path, *statements):
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        conn.execute(statement)
    conn.close()


def _problems(path) -> list[tuple[str, str]]:
    with ProjectStore.open(path, verify=False) as store:
        report = store.check_integrity()
    return [(p.kind, p.subject) for p in report.problems]


def test_untouched_project_passes(project):
    with ProjectStore.open(project) as store:
        report = store.last_integrity_report
        assert report.ok, report.problems
        assert (report.documents_checked, report.models_checked, report.runs_checked) == (2, 1, 1)
        assert report.audit_entries_checked == 6
        assert report.audit_head_hash == store.audit.head().entry_hash
        assert store.read_only_reason is None


def test_guards_refuse_plain_updates_and_deletes(project):
    conn = sqlite3.connect(project, isolation_level=None)
    for statement in (
        "UPDATE documents SET original_bytes = x'00' WHERE id = 1",
        "UPDATE models SET model_json = x'00'",
        "UPDATE runs SET prediction = 'Y'",
        "UPDATE audit_log SET action = 'nothing' WHERE seq = 1",
        "DELETE FROM audit_log WHERE seq = 2",
        # deletion is guarded like update (store version 3)
        "DELETE FROM documents WHERE id = 1",
        "DELETE FROM runs",
        "DELETE FROM models",
        "DELETE FROM cases",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(statement)
    conn.close()


def _flip_one_byte(path, table, column, row_id, trigger):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"DROP TRIGGER {trigger}")
    (data,) = conn.execute(f"SELECT {column} FROM {table} WHERE id = ?", (row_id,)).fetchone()
    changed = bytearray(data)
    changed[len(changed) // 2] ^= 0x01
    conn.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (bytes(changed), row_id))
    conn.close()


def test_one_byte_changed_in_a_document(project):
    _flip_one_byte(project, "documents", "original_bytes", 1, "documents_evidence_immutable")
    problems = _problems(project)
    assert ("document", "document 1") in problems
    assert ("schema", "trigger documents_evidence_immutable") in problems


def test_document_changed_together_with_its_hash(project):
    forged = "Forged text."
    digest = hashlib.sha256(forged.encode()).hexdigest()
    _tamper(
        project,
        "DROP TRIGGER documents_evidence_immutable",
        f"UPDATE documents SET text = '{forged}', text_sha256 = '{digest}' WHERE id = 2",
    )
    with ProjectStore.open(project, verify=False) as store:
        report = store.check_integrity()
    messages = [p.message for p in report.problems if p.subject == "document 2"]
    assert len(messages) == 1 and messages[0].startswith("differs from its seal in audit entry")


def test_one_byte_changed_in_a_model(project):
    _flip_one_byte(project, "models", "model_json", 1, "models_immutable")
    assert ("model", f"model 1 ({default_model_name()})") in _problems(project)


def test_run_result_changed(project):
    _flip_one_byte(project, "runs", "result_json_zlib", 1, "runs_immutable")
    assert ("run", "run 1") in _problems(project)
    with ProjectStore.open(project, verify=False) as store, pytest.raises(DamagedStore):
        store.runs.result(1)


def test_run_result_round_trips(project):
    with ProjectStore.open(project) as store:
        assert store.runs.result(1) == engine_result()


def test_case_details_changed(project):
    _tamper(project, "UPDATE cases SET title = 'Rewritten title'")
    assert ("case", "case 1") in _problems(project)


def test_audit_entry_changed(project):
    _tamper(
        project,
        "DROP TRIGGER audit_log_no_update",
        "UPDATE audit_log SET actor = 'someone@else' WHERE seq = 3",
    )
    problems = _problems(project)
    assert ("audit", "audit entry 3") in problems
    assert ("schema", "trigger audit_log_no_update") in problems


def test_audit_entry_deleted_from_the_middle(project):
    _tamper(project, "DROP TRIGGER audit_log_no_delete", "DELETE FROM audit_log WHERE seq = 3")
    problems = _problems(project)
    assert ("audit", "audit entry 4") in problems  # its link points to the deleted entry
    assert ("document", "document 1") in problems  # its import is no longer recorded


def test_last_audit_entry_cut_off(project):
    _tamper(project, "DROP TRIGGER audit_log_no_delete", "DELETE FROM audit_log WHERE seq = 6")
    problems = _problems(project)
    assert ("audit", "audit log") in problems  # the head in store_meta says 6
    assert ("run", "run 1") in problems


def test_failed_store_opens_read_only(project, tmp_path):
    _tamper(project, "UPDATE cases SET title = 'Rewritten title'")
    with ProjectStore.open(project) as store:
        assert not store.last_integrity_report.ok
        assert "integrity check" in store.read_only_reason
        assert store.cases.find("C-1").title == "Rewritten title"  # reading still works
        with pytest.raises(StoreError, match="read-only"):
            store.cases.create("C-2")
        with pytest.raises(StoreError, match="read-only"):
            store.documents.add(1, KNOWN, [write(tmp_path / "new.txt", "New text.")])


def test_reading_tampered_evidence_is_refused(project):
    _tamper(
        project,
        "DROP TRIGGER documents_evidence_immutable",
        "UPDATE documents SET original_bytes = x'41424344' WHERE id = 1",
    )
    with ProjectStore.open(project, verify=False) as store:
        with pytest.raises(DamagedStore, match="no longer match"):
            store.documents.original_bytes(1)
        assert store.documents.text(2)  # an untouched document is still handed out


def test_sqlite_level_check_reports_missing_rows(project):
    _tamper(
        project,
        "PRAGMA foreign_keys = OFF",
        "DROP TRIGGER models_immutable",
        "DROP TRIGGER models_no_delete",
        "DELETE FROM models",
    )
    problems = _problems(project)
    assert ("sqlite", "runs row 1") in problems
    assert ("model", f"model 1 ({default_model_name()})") not in problems


@pytest.mark.parametrize(
    ("statements", "table"),
    [
        (["UPDATE cases SET title = x'ff00fe'"], "cases"),
        (["UPDATE cases SET model_id = 'one'"], "cases"),
        (
            [
                "DROP TRIGGER audit_log_no_update",
                "UPDATE audit_log SET actor = x'00' WHERE seq = 1",
            ],
            "audit_log",
        ),
        (["UPDATE store_meta SET value = x'ff' WHERE key = 'audit_head_seq'"], "store_meta"),
    ],
    ids=["blob-title", "text-model-id", "blob-actor", "blob-audit-head"],
)
def test_a_value_of_a_type_the_program_never_writes(project, statements, table):
    """Found by the soak's probes: a store edited with another tool to hold a BLOB in a text
    column (or text in a number column) ended every command, `taveer check` included, in an
    internal error (bytes not JSON serializable, int() of bytes). The check names it; opening
    the store for work or for reading is refused in one sentence."""
    _tamper(project, "PRAGMA foreign_keys = OFF", *statements)
    problems = _problems(project)
    assert ("value", f"table {table}") in problems
    for opener in (ProjectStore.open, ProjectStore.open_for_reading):
        with pytest.raises(DamagedStore) as refused:
            opener(project)
        message = str(refused.value)
        assert f"cannot be read: in table {table}, a row's" in message, message
        assert "it was changed by another tool" in message and "\n" not in message
    with ProjectStore.open_for_check(project) as store:
        assert not store.check_integrity().ok  # the check itself still reports


def test_a_missing_table_is_one_sentence_where_the_case_state_is_read(project):
    """Found by the soak's probes: with the table of stability checks dropped, `case show`
    ended in an internal error (the digest of the case state read it through the raw
    connection); it is the same sentence as every other read of a missing table."""
    conn = sqlite3.connect(project, isolation_level=None)
    triggers = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'stability_checks'"
    ).fetchall()
    conn.close()
    _tamper(
        project,
        "PRAGMA foreign_keys = OFF",
        *[f'DROP TRIGGER "{name}"' for (name,) in triggers],
        "DROP TABLE stability_checks",
    )
    with ProjectStore.open(project) as store:
        assert not store.last_integrity_report.ok
        with pytest.raises(StoreError, match=r"could not be read \(no such table"):
            store.declarations.standing(store.cases.find("C-1").id)
