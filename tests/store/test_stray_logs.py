"""A ``-wal`` or ``-journal`` beside a store that the store did not write is never replayed.

Before this check, a log taken from another project and placed beside a store was applied to it
by the next open (``taveer check`` included). Logs are made here by snapshotting a project
while it is open with a committed but not yet checkpointed change, which is exactly what a
crash leaves behind.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.sidecar_check import ForeignLog


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _snapshot_with_log(project: Path, folder: Path, change) -> Path:
    """Copy ``project`` and its live -wal after ``change(store)`` committed, store still open."""
    folder.mkdir()
    with ProjectStore.open(project) as store:
        conn = store._db.connection()
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        change(store)
        copy = folder / project.name
        shutil.copyfile(project, copy)
        shutil.copyfile(
            project.with_name(project.name + "-wal"), copy.with_name(copy.name + "-wal")
        )
    assert copy.with_name(copy.name + "-wal").stat().st_size > 32
    return copy


@pytest.fixture
def two_projects(tmp_path):
    a, b = tmp_path / "a" / "p.taveer", tmp_path / "b" / "p.taveer"
    for path in (a, b):
        path.parent.mkdir()
        ProjectStore.create(path).close()
    return a, b


def test_own_log_left_by_a_crash_is_applied(two_projects, tmp_path):
    a, _b = two_projects
    crashed = _snapshot_with_log(a, tmp_path / "crash", lambda s: s.cases.create("KEPT-1"))
    with ProjectStore.open(crashed) as store:
        assert store.cases.find("KEPT-1").number == "KEPT-1"
        assert store.check_integrity().ok


def test_log_from_another_project_is_refused_and_nothing_applied(two_projects, tmp_path):
    a, b = two_projects
    foreign = _snapshot_with_log(b, tmp_path / "other", lambda s: s.cases.create("FOREIGN-1"))
    stray = a.with_name(a.name + "-wal")
    shutil.copyfile(foreign.with_name(foreign.name + "-wal"), stray)
    before = _sha(a)
    with pytest.raises(ForeignLog) as info:
        ProjectStore.open(a, verify=False)
    assert "p.taveer-wal" in str(info.value) and "not applied" in str(info.value)
    assert _sha(a) == before and stray.exists()
    done = subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", str(a), "check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "not applied" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert _sha(a) == before
    stray.unlink()
    with ProjectStore.open(a) as store:
        assert [c.number for c in store.cases.list_all()] == []


def test_a_rollback_journal_beside_the_store_is_refused(two_projects):
    a, _b = two_projects
    journal = a.with_name(a.name + "-journal")
    journal.write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))
    before = _sha(a)
    with pytest.raises(ForeignLog, match="never writes"):
        ProjectStore.open(a)
    assert _sha(a) == before and journal.exists()


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_folder_or_fifo_under_the_name_of_a_sqlite_file(two_projects, tmp_path, suffix, kind):
    """Found by the soak's probes: a folder named ``<project>-shm`` let the store open (SQLite
    fell back to reading) and every change failed half-way: ``save-copy`` wrote the copy, then
    could not audit it, and refused with the copy left behind. It is refused at open now."""
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("FIFOs are POSIX")
    a, _b = two_projects
    beside = a.with_name(a.name + suffix)
    (os.mkdir if kind == "folder" else os.mkfifo)(beside)
    before = _sha(a)
    with pytest.raises(ForeignLog) as refused:
        ProjectStore.open(a)
    assert f"named {beside.name} beside it" in str(refused.value)
    assert "\n" not in str(refused.value)
    copy = tmp_path / "copy.taveer"
    done = subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", a, "save-copy", copy],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert not copy.exists() and _sha(a) == before and beside.exists()
