"""SIGKILL at every write step of ``case add``, ``case verify``, ``case validate`` and ``report``:
what was stored is all of the command or none of it, nothing acknowledged is lost, ``taveer
check`` passes and the retry works.

The test watches the files from outside and kills the real CLI process the moment a step's
effect appears: the lock's information file (opened), frames in the ``-wal`` log (the
transaction is being written), a new audit entry readable by another connection (committed),
for ``report`` the temporary PDF, the named PDF and the receipt, and the information file gone
again (closing). A kill lands at or shortly after the step it waited for; each outcome is
checked for what it is, and the steps actually hit are asserted to span before and after the
commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.store.failure_harness import (
    Command,
    audit_actions,
    build_projects,
    check_passes,
    commands,
    head_seq,
    run_cli,
    start_cli,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    return build_projects(tmp_path_factory.mktemp("kill-projects"))


def _committed(project: Path, before: int) -> Callable[[], bool]:
    def probe() -> bool:
        try:
            conn = sqlite3.connect(f"{project.resolve().as_uri()}?mode=ro", uri=True, timeout=0)
            try:
                row = conn.execute("SELECT MAX(seq) FROM audit_log").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return False
        return bool(row and row[0] and row[0] > before)

    return probe


def _probes(project: Path, out: Path, before: int, report: bool) -> dict[str, Callable[[], bool]]:
    lock = project.with_name(project.name + ".lock")
    wal = project.with_name(project.name + "-wal")
    seen = {"lock": False}

    def closing() -> bool:
        if lock.exists():
            seen["lock"] = True
            return False
        return seen["lock"]

    probes = {
        "opened": lock.exists,
        "log frames written": lambda: wal.exists() and wal.stat().st_size > 32,
        "committed": _committed(project, before),
        "closing": closing,
    }
    if report:
        probes["PDF being written"] = lambda: bool(list(out.glob(".report.pdf.*")))
        probes["PDF named"] = (out / "report.pdf").exists
        probes["receipt written"] = (out / "report.pdf.receipt.json").exists
    return probes


def _kill_when(child, probe: Callable[[], bool], limit: float = 180.0) -> bool:
    """SIGKILL the child as soon as ``probe`` is true; False if it ended first."""
    ends = time.monotonic() + limit
    while time.monotonic() < ends:
        if child.poll() is not None:
            return False
        if probe():
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            return True
        time.sleep(0.0005)
    child.kill()
    raise AssertionError("the step never came")


def _report_files_true(project: Path, out: Path) -> None:
    """A report on disk under its name is always one the audit log records."""
    pdf = out / "report.pdf"
    if pdf.exists():
        digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
        conn = sqlite3.connect(f"{project.resolve().as_uri()}?mode=ro", uri=True)
        try:
            recorded = [
                json.loads(d)["sha256"]
                for (d,) in conn.execute(
                    "SELECT details_json FROM audit_log WHERE action = 'report_exported'"
                )
            ]
        finally:
            conn.close()
        assert digest in recorded


@pytest.mark.parametrize("which", ["case add", "case verify", "case validate", "report"])
def test_a_kill_at_every_write_step(projects, tmp_path, which):
    plain, with_run, extra = projects
    hit = []
    probe_names = list(_probes(tmp_path / "x", tmp_path, 0, which == "report"))
    for name in probe_names:
        folder = tmp_path / name.replace(" ", "-")
        out = folder / "out"
        out.mkdir(parents=True)
        command: Command = next(c for c in commands(extra, out) if c.name == which)
        project = folder / "p.taveer"
        shutil.copyfile(with_run if command.needs_run else plain, project)
        before = head_seq(project)
        probe = _probes(project, out, before, which == "report")[name]
        child = start_cli(project, command.args)
        killed = _kill_when(child, probe)
        stdout = child.stdout.read() if child.stdout else ""
        stored = {action for _seq, action in audit_actions(project, before)}
        assert stored in (set(), set(command.actions)), (name, stored)  # all or none
        if not killed:  # it finished first: acknowledged, so all of it is there
            assert child.returncode == 0 and stored == command.actions, stdout
        hit.append((name, killed, "stored" if stored else "nothing"))
        if which == "report":
            _report_files_true(project, out)
        check_passes(project)
        before = head_seq(project)
        again = run_cli(project, command.args)
        if stored and which == "case add":  # already imported: refused as a duplicate, truly
            assert again.returncode == 2 and "is a duplicate of document" in again.stderr
        else:
            assert again.returncode == 0, again.stderr
            assert {a for _s, a in audit_actions(project, before)} == command.actions
        check_passes(project)
    outcomes = {outcome for _name, killed, outcome in hit if killed}
    assert "nothing" in outcomes and "stored" in outcomes, hit  # both sides of the commit hit
    print(which, hit)


def test_an_interrupt_says_what_was_stored(projects, tmp_path):
    """Ctrl-C (SIGINT) while ``case validate`` works: exit 130, one line that says, read back,
    that nothing was stored; the retry works."""
    plain, _with_run, extra = projects
    project = tmp_path / "p.taveer"
    shutil.copyfile(plain, project)
    command = next(c for c in commands(extra, tmp_path) if c.name == "case validate")
    before = head_seq(project)
    child = start_cli(project, command.args)
    lock = project.with_name(project.name + ".lock")
    _wait_for(child, lock.exists)
    time.sleep(0.5)  # inside the validation's computation
    child.send_signal(signal.SIGINT)
    _stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == 130, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert "interrupted; read back from the project, nothing was stored" in lines[0], stderr
    assert audit_actions(project, before) == []
    check_passes(project)
    assert run_cli(project, command.args).returncode == 0


def _wait_for(child, probe: Callable[[], bool]) -> None:
    ends = time.monotonic() + 120
    while not probe():
        assert child.poll() is None and time.monotonic() < ends, "the step never came"
        time.sleep(0.001)
