"""Store version 6: every record sealed, every entry carrying the seals of what it changed, and
the check working on a store of any version as it is (read-only, never migrated)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.audit_actions import ACTIONS, SEALING_ACTION, Transition
from taveer_desktop.store.audit_chain import AUDIT_COLUMNS, entry_from_row
from taveer_desktop.store.integrity import check_integrity
from taveer_desktop.store.record_seal import current_state, row_seal, state_root
from taveer_desktop.store.schema import SCHEMA_VERSION
from taveer_desktop.store.state_replay import sealing_details

from .test_forgeries import append, forge

FIXTURES = Path(__file__).parent / "fixtures"


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_every_fixture_is_checked_as_its_version_without_being_changed(version):
    path = FIXTURES / f"store_v{version}.taveer"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    conn = _read_only(path)
    try:
        report = check_integrity(conn, path)
    finally:
        conn.close()
    assert report.ok, report.problems
    assert report.store_version == version
    assert report.sealed == (version >= 6)
    if version < 6:
        assert f"records not sealed (store version {version})" in report.summary()
        assert report.state_root == ""
    else:
        assert len(report.state_root) == 64
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_the_migration_to_version_6_seals_every_record(tmp_path):
    path = tmp_path / "v5.taveer"
    shutil.copyfile(FIXTURES / "store_v5.taveer", path)
    with ProjectStore.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION and store.last_integrity_report.ok
        (sealing,) = [e for e in store.audit.entries() if e.action == SEALING_ACTION]
        report = store.check_integrity()
    conn = _read_only(path)
    state = current_state(conn)
    conn.close()
    assert {(t, i): s for t, i, s in sealing.details["seals"]} == state
    assert sealing.details["records"] == len(state) == 18  # 2 cases, 6 documents, 2 models, …
    assert sealing.details["state_root"] == state_root(state) == report.state_root
    assert report.sealed and report.ok


def test_after_sealing_the_older_entries_still_count(tmp_path):
    """A v5 store migrated: a second create appended for a record the older entries created is
    found, as is a records_sealed entry the program would never write twice."""
    path = tmp_path / "v5.taveer"
    shutil.copyfile(FIXTURES / "store_v5.taveer", path)
    with ProjectStore.open(path):
        pass
    append(path, "document_added", 1, {"document_id": 1})
    append(path, SEALING_ACTION, None, {"seals": [], "state_root": state_root({})})
    conn = _read_only(path)
    problems = [f"{p.subject}: {p.message}" for p in check_integrity(conn, path).problems]
    conn.close()
    assert any("document_added creates document 1 again" in p for p in problems), problems
    assert any("a second records_sealed entry" in p for p in problems), problems


def test_an_older_store_checked_read_only_keeps_the_older_rules(tmp_path):
    """Without seals a v5 store still has the replay: an entry the program never writes and a
    second create are found; a field no entry recorded is not (the reason for version 6)."""
    path = tmp_path / "v5.taveer"
    shutil.copyfile(FIXTURES / "store_v5.taveer", path)
    forge(path, "UPDATE documents SET encoding = 'KOI8-R' WHERE id = 1")
    conn = _read_only(path)
    assert check_integrity(conn, path, version=5).ok  # not covered before sealing
    conn.close()
    append(path, "document_added", 1, {"document_id": 1})
    append(path, "run_deleted", 1, {"run_id": 1})
    conn = _read_only(path)
    report = check_integrity(conn, path, version=5)
    conn.close()
    messages = [p.message for p in report.problems]
    assert any("creates document 1 again" in m for m in messages), messages
    assert any("'run_deleted' is not one the program writes" in m for m in messages), messages
    assert not report.sealed


def test_every_entry_the_program_writes_carries_its_seals():
    """The v6 fixture was made through the program: every entry of an action that creates or
    changes records names their seals (a removal names the last seal)."""
    conn = _read_only(FIXTURES / "store_v6.taveer")
    entries = [
        entry_from_row(row) for row in conn.execute(f"SELECT {AUDIT_COLUMNS} FROM audit_log")
    ]
    conn.close()
    checked = 0
    for entry in entries:
        for effect in ACTIONS[entry.action]:
            seal = entry.details.get(effect.seal_key)
            if effect.transition is Transition.DELETE_IF_PRESENT and seal is None:
                continue
            assert isinstance(seal, str) and len(seal) == 64, (entry.seq, effect)
            checked += 1
    assert checked > 30


def test_a_row_seal_covers_every_column_and_tells_a_number_from_text():
    row = {"id": 1, "cllr": 0.5, "record_json": b"{}", "note": None}
    seal = row_seal("validation_records", row)
    assert seal != row_seal("validation_records", {**row, "cllr": "0.5"})
    assert seal != row_seal("validation_records", {**row, "extra": 1})
    assert seal != row_seal("validation_records", {**row, "record_json": b"{ }"})
    assert seal != row_seal("models", row)


def test_a_version_set_back_is_found_before_and_after_the_program_migrates_it(tmp_path):
    """Setting a sealed store's version back to 5 would have it checked with the older rules
    (and sealed anew by the migration, forged fields and all): the chain remembers the version."""
    path = tmp_path / "v6.taveer"
    shutil.copyfile(FIXTURES / "store_v6.taveer", path)
    forge(path, "UPDATE documents SET encoding = 'KOI8-R' WHERE id = 1", "PRAGMA user_version = 5")
    conn = _read_only(path)
    problems = [f"{p.subject}: {p.message}" for p in check_integrity(conn, path).problems]
    conn.close()
    assert any("records store version 6, but the file says version 5" in p for p in problems)
    with ProjectStore.open(path, verify=False) as store:  # the program migrates it to 6 again
        report = store.check_integrity()
    assert any(
        "migrates from store version 5, but audit entry 1" in p.message for p in report.problems
    )


def test_a_records_sealed_entry_appended_to_a_store_created_sealed_is_found(tmp_path):
    """Appending a records_sealed entry with the forged rows' seals must not turn the older
    entries into unsealed ones: a store created at version 6 is sealed from its first entry."""
    path = tmp_path / "v6.taveer"
    shutil.copyfile(FIXTURES / "store_v6.taveer", path)
    forge(path, "UPDATE documents SET encoding = 'KOI8-R' WHERE id = 1")
    conn = sqlite3.connect(path)
    details = sealing_details(current_state(conn))
    conn.close()
    append(path, SEALING_ACTION, None, details)
    conn = _read_only(path)
    problems = [f"{p.subject}: {p.message}" for p in check_integrity(conn, path).problems]
    conn.close()
    assert any("a second records_sealed entry" in p for p in problems), problems
    assert any(p.startswith("document 1: differs from its seal") for p in problems), problems
