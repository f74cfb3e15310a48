"""``taveer check`` never changes what it checks (issue 22): a read-only copy of every supported
store version (the fixtures ``store_v1`` … ``store_v5``) in a read-only folder is checked as the
version it is — not migrated — and afterwards the file's SHA-256 and the folder's listing (names,
sizes, modification times) are what they were. A project left with a log by a killed writer is
checked with its log applied, on a private copy: the file, the log and the folder stay as they
are, and the next opening for work folds the log in."""

from __future__ import annotations

import hashlib
import inspect
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectStore
from taveer_desktop.store.integrity import check_integrity

FIXTURES = Path(__file__).parent / "fixtures"
CLI = [sys.executable, "-m", "taveer_desktop.cli"]
VERSION_AWARE = "version" in inspect.signature(check_integrity).parameters


def _listing(folder: Path) -> dict[str, tuple[int, int, str]]:
    return {
        p.name: (p.stat().st_size, p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(folder.iterdir())
    }


def _user_version(path: Path) -> int:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def read_only_folder(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
def test_a_read_only_copy_of_every_version_is_checked_unchanged(read_only_folder, version):
    project = read_only_folder / f"store_v{version}.taveer"
    shutil.copy2(FIXTURES / project.name, project)
    project.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    read_only_folder.chmod(0o555)
    before = _listing(read_only_folder)
    for args in (["check"], ["check", "--quick"], ["check", "--json"]):
        done = subprocess.run(
            [*CLI, "--project", str(project), *args], capture_output=True, text=True, timeout=120
        )
        assert "Traceback" not in done.stderr and done.returncode in (0, 1), done.stderr
        if VERSION_AWARE or version == 5:  # an older store is checked as the version it is
            assert done.returncode == 0, done.stdout + done.stderr
        assert _listing(read_only_folder) == before  # same bytes, no lock or log file made
    assert _user_version(project) == version  # not migrated


def test_a_checked_older_store_still_upgrades_when_opened_for_work(tmp_path):
    project = tmp_path / "store_v1.taveer"
    shutil.copy2(FIXTURES / project.name, project)
    done = subprocess.run(
        [*CLI, "--project", str(project), "check", "--quick"], capture_output=True, text=True
    )
    assert "Traceback" not in done.stderr and _user_version(project) == 1
    with ProjectStore.open(project) as store:
        assert store.migration_backup is not None and store.migration_backup.exists()
        assert store.last_integrity_report.ok
    assert _user_version(project) > 1


KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from taveer_desktop.store import ProjectStore
    store = ProjectStore.open(sys.argv[1])
    store.cases.create("after the last checkpoint")
    os.kill(os.getpid(), signal.SIGKILL)  # no close: the log keeps the committed case
    """
)


def test_a_log_left_by_a_killed_writer_is_checked_on_a_copy(tmp_path):
    project = tmp_path / "p.taveer"
    ProjectStore.create(project).close()
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(project)])
    assert killed.returncode == -signal.SIGKILL
    wal = project.with_name(project.name + "-wal")
    assert wal.stat().st_size > 32  # the committed case lives in the log only
    before = _listing(tmp_path)
    done = subprocess.run(
        [*CLI, "--project", str(project), "check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "2 audit entries" in done.stdout, done.stdout + done.stderr
    assert _listing(tmp_path) == before
    with ProjectStore.open(project) as store:  # opening for work applies the log
        assert [c.number for c in store.cases.list_all()] == ["after the last checkpoint"]


def test_a_foreign_log_beside_a_checked_project_is_refused_not_applied(tmp_path):
    project = tmp_path / "checked" / "p.taveer"
    other = tmp_path / "other" / "o.taveer"
    project.parent.mkdir()
    other.parent.mkdir()
    ProjectStore.create(project).close()
    ProjectStore.create(other).close()
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(other)])
    shutil.copyfile(other.with_name("o.taveer-wal"), project.with_name("p.taveer-wal"))
    before = _listing(project.parent)
    done = subprocess.run(
        [*CLI, "--project", str(project), "check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "was not applied" in done.stderr, done.stderr
    assert _listing(project.parent) == before
    assert os.path.exists(project.with_name("p.taveer-wal"))
