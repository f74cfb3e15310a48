"""Opening files that are not (usable) stores, and upgrading old stores step by step.

Each refusal must leave the file byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from taveer_desktop import paths
from taveer_desktop.store import (
    Conflict,
    DamagedStore,
    NewerStoreVersion,
    NotAProjectStore,
    ProjectStore,
    StoreError,
)
from taveer_desktop.store.migrations import migrate
from taveer_desktop.store.schema import MIGRATIONS, SCHEMA_VERSION

FIXTURE_V1 = Path(__file__).resolve().parent / "fixtures" / "store_v1.taveer"


def _fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def _refused_untouched(path: Path, error_type) -> str:
    before = _fingerprint(path)
    with pytest.raises(error_type) as caught:
        ProjectStore.open(path)
    assert _fingerprint(path) == before
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    for sidecar in (".lock", "-wal", "-shm"):
        assert not Path(str(path) + sidecar).exists()
    return message


def _v1_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "old.taveer"
    shutil.copyfile(FIXTURE_V1, copy)
    return copy


def test_text_file_is_not_a_store(tmp_path):
    path = tmp_path / "notes.taveer"
    path.write_text("just some notes, not a database")
    assert "not an SQLite database" in _refused_untouched(path, NotAProjectStore)


def test_empty_file_is_not_a_store(tmp_path):
    path = tmp_path / "empty.taveer"
    path.write_bytes(b"")
    assert "is empty" in _refused_untouched(path, NotAProjectStore)


def test_other_programs_sqlite_database_is_not_a_store(tmp_path):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    assert "another program" in _refused_untouched(path, NotAProjectStore)


def test_store_from_a_newer_version_is_refused(tmp_path):
    path = _v1_copy(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    message = _refused_untouched(path, NewerStoreVersion)
    assert f"store version {SCHEMA_VERSION + 5}" in message
    assert f"reads up to {SCHEMA_VERSION}" in message


def test_damaged_store_is_refused(tmp_path):
    path = _v1_copy(tmp_path)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    for page in range(1, len(data) // page_size):  # every page but the header page
        start = page * page_size
        data[start : start + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    assert "damaged" in _refused_untouched(path, DamagedStore)


def test_truncated_store_is_refused(tmp_path):
    path = _v1_copy(tmp_path)
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 3)
    _refused_untouched(path, (DamagedStore, StoreError))


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(StoreError, match="no such project file"):
        ProjectStore.open(tmp_path / "absent.taveer")
    with pytest.raises(StoreError, match="is a folder"):
        ProjectStore.open(tmp_path)


def test_create_refuses_an_existing_file_and_a_missing_folder(tmp_path):
    existing = tmp_path / "exists.taveer"
    existing.write_text("keep me")
    with pytest.raises(Conflict, match="already exists"):
        ProjectStore.create(existing)
    assert existing.read_text() == "keep me"
    with pytest.raises(StoreError, match="does not exist"):
        ProjectStore.create(tmp_path / "no" / "such" / "folder.taveer")


def test_created_store_is_complete_and_audited(tmp_path):
    path = tmp_path / "new.taveer"
    with ProjectStore.create(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        (entry,) = store.audit.entries()
        assert entry.action == "project_created"
        assert entry.details["schema_version"] == SCHEMA_VERSION
    leftovers = sorted(p.name for p in tmp_path.iterdir())
    assert leftovers == ["new.taveer"]  # no lock, WAL or half-built file left behind
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_default_project_lives_in_the_data_directory():
    with ProjectStore.open_default() as store:
        assert store.path == paths.default_project_path()
        assert store.path.suffix == ".taveer"
        assert store.path.is_relative_to(os.environ["TAVEER_HOME"])  # tests' own home
    with ProjectStore.open_default() as again:  # the second time it is opened, not created
        assert len(again.audit.entries()) == 1


EXTRA_STEP = ("CREATE TABLE case_notes (id INTEGER PRIMARY KEY, note TEXT NOT NULL)",)


def test_migration_step_backs_up_and_audits(tmp_path):
    path = _v1_copy(tmp_path)
    original = path.read_bytes()
    conn = sqlite3.connect(path, isolation_level=None)
    backup = migrate(conn, path, (*MIGRATIONS, EXTRA_STEP))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert conn.execute("SELECT count(*) FROM case_notes").fetchone()[0] == 0
    last = conn.execute("SELECT action, details_json FROM audit_log ORDER BY seq DESC").fetchone()
    conn.close()
    assert last[0] == "store_migrated"
    assert f'"to_version":{SCHEMA_VERSION + 1}' in last[1]
    # the backup is named after, and holds, the version the store had before (the v1 fixture)
    assert backup is not None and backup.name.startswith("old.taveer.v1-backup-")
    backup_conn = sqlite3.connect(backup)
    assert backup_conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert backup_conn.execute("SELECT count(*) FROM documents").fetchone()[0] > 0
    backup_conn.close()
    assert len(original) > 0


def test_failing_migration_step_leaves_the_store_at_its_version(tmp_path):
    path = _v1_copy(tmp_path)
    broken = ("CREATE TABLE half_done (x)", "THIS IS NOT SQL")
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(StoreError, match=f"left at version {SCHEMA_VERSION}"):
        migrate(conn, path, (*MIGRATIONS, broken))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "half_done" not in tables
    with ProjectStore.open(path) as store:
        assert store.last_integrity_report.ok
