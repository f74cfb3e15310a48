"""A full disk at every write step of ``case add``, ``case verify``, ``case validate`` and
``report``: the message says exactly what was and was not stored (checked against the project
read back), nothing acknowledged is lost, ``taveer check`` passes and the retry works.

The full disk is a file-size limit set from outside (``RLIMIT_FSIZE`` in the child, SIGXFSZ
ignored: every write past the limit fails with EFBIG, as on a full disk). The steps are found
by the sizes of the files each command writes, in the order it writes them:

- 16 bytes: the lock's information file ``p.taveer.lock`` (about 150 bytes);
- 4 KiB: SQLite's shared-memory index ``-shm`` (32 KiB);
- 40 KiB: the transaction's frames in the ``-wal`` log (``case add`` ~50 KiB, ``case verify``
  ~85 KiB, ``case validate`` ~130 KiB); for ``report`` the PDF (~220 KiB), which is written
  and checked before its audit entry;
- the file's size − 4 KiB: folding the log into the project file when closing (pages at offsets
  past the limit): the command succeeds, the log stays beside the file and the next opening
  applies it.

The report's own audit entry on a really full disk (the PDF written elsewhere) and its receipt
are tested with a real tmpfs and with a folder in the receipt's way.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.store.failure_harness import (
    Command,
    audit_actions,
    build_projects,
    check_passes,
    commands,
    head_seq,
    one_plain_line,
    run_cli,
)

pytestmark = pytest.mark.slow

ACKNOWLEDGED = {
    "case add": (re.compile(r"added document (\d+)"), "SELECT id FROM documents"),
    "case verify": (re.compile(r"^run (\d+):", re.M), "SELECT id FROM runs"),
    "case validate": (re.compile(r"validation (\d+) kept"), "SELECT id FROM validation_records"),
    "report": (re.compile(r"as entry (\d+)"), "SELECT seq FROM audit_log"),
}


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    return build_projects(tmp_path_factory.mktemp("failure-projects"))


def _fresh(projects, command: Command, folder: Path) -> Path:
    plain, with_run, _extra = projects
    project = folder / "p.taveer"
    shutil.copyfile(with_run if command.needs_run else plain, project)
    return project


def _ids(project: Path, sql: str) -> set[int]:
    import sqlite3

    conn = sqlite3.connect(f"{project.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {row[0] for row in conn.execute(sql)}
    finally:
        conn.close()


def _assert_message_true(line: str, project: Path, before: int) -> None:
    """What the message says was stored is exactly what the project holds (read back)."""
    stored = audit_actions(project, before)
    if "these were stored before the failure" in line:
        said = sorted(int(seq) for seq in re.findall(r"\(entry (\d+)\)", line))
        assert said == [seq for seq, _action in stored], line
    else:
        assert re.search(r"nothing was (stored|changed|recorded)", line), line
        assert stored == [], (line, stored)


def _retry_works(project: Path, command: Command, stored: bool) -> None:
    """Running the command again does it (again): the whole of it is stored. Only an import
    that was stored is refused, as a duplicate, and says so."""
    before = head_seq(project)
    done = run_cli(project, command.args)
    if stored and command.name == "case add":
        assert done.returncode == 2 and "is a duplicate of document" in done.stderr
        assert audit_actions(project, before) == []
        return
    assert done.returncode == 0, done.stderr
    assert {action for _seq, action in audit_actions(project, before)} == command.actions


def _limits(project: Path) -> list[tuple[str, int]]:
    return [
        ("lock information file", 16),
        ("shared-memory index", 4096),
        ("the transaction's log frames (report: the PDF)", 40 * 1024),
        ("folding the log into the file at close", project.stat().st_size - 4096),
    ]


@pytest.mark.parametrize("which", ["case add", "case verify", "case validate", "report"])
def test_a_full_disk_at_every_write_step(projects, tmp_path, which):
    out = tmp_path / "out"
    out.mkdir()
    command = next(c for c in commands(projects[2], out) if c.name == which)
    template = _fresh(projects, command, tmp_path)
    outcomes = []
    for step, limit in _limits(template):
        folder = tmp_path / f"limit-{limit}"
        folder.mkdir()
        project = _fresh(projects, command, folder)
        before = head_seq(project)
        done = run_cli(project, command.args, limit=limit)
        if done.returncode == 0:  # the last step: acknowledged, so it must all be there
            pattern, sql = ACKNOWLEDGED[which]
            acknowledged = {int(n) for n in pattern.findall(done.stdout)}
            assert acknowledged, done.stdout
            assert {a for _s, a in audit_actions(project, before)} == command.actions
            assert acknowledged <= _ids(project, sql)
            outcomes.append((step, "stored, acknowledged"))
        else:
            assert done.returncode == 2, done.stderr
            line = one_plain_line(done)
            assert str(project) in line  # the project is named (after the PDF, if it failed)
            assert "ulimit -f" in line or "not whole" in line, line
            _assert_message_true(line, project, before)
            outcomes.append((step, line.split(": ", 2)[-1][:60]))
        assert not list(out.glob(".report.pdf.*")), "a partial PDF was left"
        assert not (folder / "p.taveer.lock").exists()
        check_passes(project)
        _retry_works(project, command, stored=done.returncode == 0)
        check_passes(project)
        for leftover in out.iterdir():
            leftover.unlink()
    assert [o for _s, o in outcomes][-1] == "stored, acknowledged", outcomes


def _can_mount_tmpfs() -> bool:
    return os.geteuid() == 0 and bool(shutil.which("mount"))


def test_the_report_audit_entry_on_a_really_full_disk(projects, tmp_path):
    """The PDF is written (elsewhere) but its audit entry meets a full disk: no report is left
    without its entry, and the message says nothing was stored."""
    if not _can_mount_tmpfs():
        pytest.skip("a real full disk needs root to mount a tmpfs")
    disk = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)]).returncode:
        pytest.skip("mounting a tmpfs was refused here")
    try:
        project = disk / "p.taveer"
        shutil.copyfile(projects[1], project)
        filler = disk / "filler"
        with open(filler, "wb") as handle:  # leave room for the lock file and -shm only
            free = shutil.disk_usage(disk).free - 40 * 1024
            handle.write(bytes(max(free, 0)))
        target = tmp_path / "report.pdf"
        before = head_seq(project)
        done = run_cli(project, ("report", "C-1", "-o", str(target)))
        assert done.returncode == 2, done.stdout + done.stderr
        line = one_plain_line(done)
        assert "full" in line and "nothing was stored" in line, line
        assert not target.exists() and not list(tmp_path.glob(".report.pdf.*"))
        filler.unlink()
        _assert_message_true(line, project, before)
        check_passes(project)
        done = run_cli(project, ("report", "C-1", "-o", str(target)))
        assert done.returncode == 0 and target.exists(), done.stderr
    finally:
        subprocess.run(["umount", str(disk)])


def test_a_receipt_that_cannot_be_written_leaves_the_report_standing(projects, tmp_path):
    project = tmp_path / "p.taveer"
    shutil.copyfile(projects[1], project)
    target = tmp_path / "report.pdf"
    (tmp_path / "report.pdf.receipt.json").mkdir()  # something in the receipt's way
    before = head_seq(project)
    done = run_cli(project, ("report", "C-1", "-o", str(target)))
    assert done.returncode == 0, done.stderr
    assert "warning: no receipt was written" in done.stderr
    assert target.exists() and "receipt written" not in done.stdout
    assert [a for _s, a in audit_actions(project, before)] == ["report_exported"]
    check_passes(project)
