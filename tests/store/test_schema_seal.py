"""The forgery sweep of issue 31 (items 2 and 3): the schema is part of the seal, receipts list
every later entry, and what the program never writes is a finding.

Each construction forges a copy of a real project (the version 6 fixture, after a report was
exported with its receipt: ``test_forgeries.issued``) with plain ``sqlite3``; the check is the
store's own (``ProjectStore.open_for_check``), and for the receipt the real ``taveer check``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from taveer_desktop.store import QUESTIONED, ProjectStore
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.schema_check import expected_schema, schema_problems
from tests.store.test_forgeries import append, forge, issued, taveer  # noqa: F401 (fixture)

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def project(issued, tmp_path) -> Path:  # noqa: F811 - the module fixture of test_forgeries
    for name in ("p.taveer", "r.pdf", "r.pdf.receipt.json"):
        shutil.copyfile(issued / name, tmp_path / name)
    return tmp_path / "p.taveer"


def findings(path: Path) -> list[str]:
    store = ProjectStore.open_for_check(path)
    try:
        report = store.check_integrity(include_sqlite_check=False)
    finally:
        store.close()
    return [f"{p.subject}: {p.message}" for p in report.problems]


def run_sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        conn.execute(statement)
    conn.close()


# -- the schema ---------------------------------------------------------------------------------
@pytest.mark.parametrize("version", range(1, 8))
def test_every_fixture_store_has_exactly_the_schema_of_its_version(version):
    fixture = FIXTURES / f"store_v{version}.taveer"
    conn = sqlite3.connect(f"file:{fixture}?mode=ro&immutable=1", uri=True)  # no -wal/-shm made
    try:
        assert schema_problems(conn, version) == []
    finally:
        conn.close()
    assert ("trigger", "audit_log_no_update") in expected_schema(version)


def test_a_store_migrated_from_version_1_has_exactly_the_schema_of_today(tmp_path):
    shutil.copyfile(FIXTURES / "store_v1.taveer", tmp_path / "p.taveer")
    ProjectStore.open(tmp_path / "p.taveer").close()  # migrated to the current version
    assert findings(tmp_path / "p.taveer") == []


PLANTED_TEXT = (
    "CREATE TRIGGER documents_evidence_immutable AFTER INSERT ON documents "
    "WHEN NEW.role = 'questioned' BEGIN SELECT 1; END"
)


def test_a_same_named_trigger_planted_in_place_of_a_guard_is_named_with_its_sql(project):
    run_sql(project, "DROP TRIGGER documents_evidence_immutable", PLANTED_TEXT)
    found = findings(project)
    assert len(found) == 1, found
    assert found[0].startswith("trigger documents_evidence_immutable: is not the one of store")
    assert "the guard against changing stored records was replaced" in found[0]
    assert "AFTER INSERT ON documents WHEN NEW.role = 'questioned'" in found[0]
    # the program refuses to add evidence on top of it: the store opens read-only
    store = ProjectStore.open(project)
    try:
        assert store.read_only_reason is not None
        letter = project.parent / "q.txt"
        letter.write_text("A questioned letter of some length. " * 40, encoding="utf-8")
        with pytest.raises(StoreError, match="read-only"):
            store.documents.add(1, QUESTIONED, [letter])
    finally:
        store.close()


def test_a_guard_replaced_by_a_no_op_is_found(project):
    run_sql(
        project,
        "DROP TRIGGER audit_log_no_delete",
        "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT 1; END",
    )
    found = findings(project)
    assert len(found) == 1, found
    assert found[0].startswith("trigger audit_log_no_delete: is not the one of store version")
    assert "BEFORE DELETE ON audit_log BEGIN SELECT 1; END" in found[0]


def test_the_review_trigger_plant_is_found_in_a_version_7_store(tmp_path):
    shutil.copyfile(FIXTURES / "store_v7.taveer", tmp_path / "p.taveer")
    run_sql(
        tmp_path / "p.taveer",
        "CREATE TRIGGER review_outcome AFTER INSERT ON technical_reviews BEGIN "
        "UPDATE technical_reviews SET outcome = 'approved' WHERE id = NEW.id; END",
    )
    found = findings(tmp_path / "p.taveer")
    assert found == [
        "trigger review_outcome: is not part of store version 7 (added outside the program, on "
        "technical_reviews): CREATE TRIGGER review_outcome AFTER INSERT ON technical_reviews "
        "BEGIN UPDATE technical_reviews SET outcome = 'approved' WHERE id = NEW.id; END"
    ]


def test_extra_views_tables_and_indexes_and_a_dropped_guard_are_named(project):
    run_sql(
        project,
        "CREATE VIEW cases_shown AS SELECT * FROM cases",
        "CREATE TABLE notes (x)",
        "CREATE INDEX documents_by_name ON documents (file_name)",
        "DROP TRIGGER models_no_delete",
    )
    found = findings(project)
    subjects = sorted(line.split(":")[0] for line in found)
    assert subjects == [
        "index documents_by_name",
        "table notes",
        "trigger models_no_delete",
        "view cases_shown",
    ], found
    assert "trigger models_no_delete: is missing: the guard against changing stored records " in (
        "\n".join(found)
    )


# -- what the program never writes --------------------------------------------------------------
def test_an_entry_dated_before_the_one_before_it_is_found(project):
    forge(project, "UPDATE cases SET title = 'Backdated' WHERE id = 1")
    append(project, "case_updated", 1, {"case_id": 1}, "2020-01-01T00:00:00.000000Z")
    found = "\n".join(findings(project))
    assert "is dated 2020-01-01T00:00:00.000000Z, before audit entry" in found
    assert "the program writes its entries forward in time" in found


def test_an_entry_filed_under_another_case_than_the_one_it_changes_is_found(project):
    forge(project, "UPDATE cases SET title = 'Changed from afar' WHERE id = 1")
    append(project, "case_updated", 2, {"case_id": 1})
    found = "\n".join(findings(project))
    assert "case_updated names case 1 but is filed under case 2" in found


@pytest.mark.parametrize(
    "examiner", ["A. Exam\u202einer", "A.\u200bExaminer", " A. Examiner", "A\x07Examiner"]
)
def test_a_case_value_the_door_refuses_is_found_when_stored(tmp_path, examiner):
    project = tmp_path / "p.taveer"
    shutil.copyfile(FIXTURES / "store_v7.taveer", project)  # created with the door in place
    forge(project, ("UPDATE cases SET examiner = ? WHERE id = 1", (examiner,)))
    append(project, "case_updated", 1, {"case_id": 1})
    found = findings(project)
    assert len(found) == 1 and found[0].startswith("case 1: holds a value the program "), found


def test_a_case_made_before_the_door_existed_is_not_a_forgery(project):
    """A store created at version 6 (before case fields refused invisible characters) may hold
    one legitimately: it is not a finding there."""
    forge(project, ("UPDATE cases SET examiner = ? WHERE id = 1", ("A.\u200bExaminer",)))
    append(project, "case_updated", 1, {"case_id": 1})
    assert findings(project) == []


def test_a_declaration_with_hidden_characters_and_a_self_review_are_found(tmp_path):
    path = tmp_path / "p.taveer"
    shutil.copyfile(FIXTURES / "store_v7.taveer", path)
    conn = sqlite3.connect(path)
    examiner = conn.execute("SELECT examiner FROM declarations").fetchone()[0]
    conn.close()
    forge(
        path,
        ("UPDATE declarations SET role = ? WHERE id = 1", ("Senior\u2066 examiner",)),
        ("UPDATE technical_reviews SET reviewer = ? WHERE id = 1", (f"  {examiner.upper()}",)),
    )
    found = "\n".join(findings(path))
    assert "declaration 1: holds a value the program refuses (the examiner's role holds" in found
    assert "technical review 1: its reviewer's name has spaces around it" in found


# -- receipts list everything after them -------------------------------------------------------
def test_every_entry_after_the_receipt_is_listed_and_a_later_report_entry_is_named(project):
    forged = project.parent / "forged.pdf"
    forged.write_bytes(b"%PDF-1.7 forged\n")
    sha = hashlib.sha256(forged.read_bytes()).hexdigest()
    append(project, "report_exported", 1, {"sha256": sha, "file_name": "forged.pdf"})
    forge(project, "UPDATE cases SET title = 'Later' WHERE id = 1")
    append(project, "case_updated", 1, {"case_id": 1})
    receipt = project.parent / "r.pdf.receipt.json"
    length = json.loads(receipt.read_text())["chain_length"]
    done = taveer("--project", project, "check", "--quick", "--receipt", receipt, "--json")
    listed = json.loads(done.stdout)["receipt"]["entries_after_receipt"]
    assert [(e["seq"], e["action"]) for e in listed] == [
        (length + 1, "report_exported"),
        (length + 2, "case_updated"),
    ]
    assert listed[0]["case_number"] == "FIXTURE-1"
    text = taveer(
        "--project", project, "check", "--quick", "--receipt", receipt, "--report", forged
    )
    assert f"2 entries after the receipt (entries {length + 1}–{length + 2})" in text.stdout
    unanchored = f"entries {length + 1}–{length + 2} (of {length + 2}) are sealed by the program"
    assert unanchored in text.stdout
    assert "recorded after the receipt, which does not cover it" in text.stdout, text.stdout


def test_a_receipt_with_nothing_after_it_says_so(project):
    receipt = project.parent / "r.pdf.receipt.json"
    done = taveer("--project", project, "check", "--quick", "--receipt", receipt)
    assert done.returncode == 0, done.stdout
    assert "No entry was appended after the receipt." in done.stdout
    assert "Every entry is held to the receipt given" in done.stdout
    plain = taveer("--project", project, "check", "--quick", "--json")
    length = json.loads(receipt.read_text())["chain_length"]
    assert json.loads(plain.stdout)["unanchored_entries"] == [1, length]
