"""One project open by one process; a second one is told who holds it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from taveer_desktop.store import ProjectLocked, ProjectStore
from taveer_desktop.store.project_lock import lock_path_for

HOLDER_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from taveer_desktop.store import ProjectStore
    store = ProjectStore.open(sys.argv[1])
    print("open", flush=True)
    time.sleep(60)
    """
)


CLI = "import sys; from taveer_desktop.cli import main; sys.exit(main())"


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "locked.taveer"
    ProjectStore.create(path).close()
    return path


def _start_holder(path):
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER_SCRIPT, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "open"
    return child


def test_second_process_is_told_who_holds_the_project(project):
    child = _start_holder(project)
    try:
        with pytest.raises(ProjectLocked) as caught:
            ProjectStore.open(project)
        holder = caught.value.holder
        assert holder.pid == child.pid
        message = str(caught.value)
        assert f"process {child.pid}" in message and "close it there first" in message
        assert str(project) in message
    finally:
        child.kill()
        child.wait()


def test_lock_of_a_killed_process_does_not_block(project):
    child = _start_holder(project)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert lock_path_for(project).exists()  # a stale file is left, but no lock on it
    with ProjectStore.open(project) as store:
        holder = json.loads(lock_path_for(project).read_text())
        assert holder["pid"] == os.getpid()
        assert store.last_integrity_report.ok


def test_same_process_cannot_open_a_project_twice(project):
    with ProjectStore.open(project), pytest.raises(ProjectLocked, match="this program already"):
        ProjectStore.open(project)


def test_lock_file_is_removed_on_close(project):
    store = ProjectStore.open(project)
    assert lock_path_for(project).exists()
    store.close()
    assert not lock_path_for(project).exists()
    ProjectStore.open(project).close()  # and can be taken again


def test_unreadable_lock_information_still_refuses(project):
    with ProjectStore.open(project):
        lock_path_for(project).write_text("garbage")
        with pytest.raises(ProjectLocked, match="this program already"):
            ProjectStore.open(project)
    child = _start_holder(project)
    try:
        lock_path_for(project).write_text("garbage")
        with pytest.raises(ProjectLocked) as caught:
            ProjectStore.open(project)
    finally:
        child.kill()
        child.wait()
    if Path("/proc/locks").exists():  # the kernel names the holder the file no longer does
        assert f"process {child.pid} of user" in str(caught.value)
    else:  # pragma: no cover - other systems
        assert "did not say which" in str(caught.value)


def test_cli_of_another_process_reports_the_holder(project):
    child = _start_holder(project)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CLI, "--project", str(project), "case", "list"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        child.kill()
        child.wait()
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"process {child.pid}" in lines[0]
