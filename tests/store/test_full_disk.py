"""A full disk at any point (lock file, store, report target) gives one plain message and loses
nothing. ENOSPC is injected at the lock file's write call; where a tmpfs can be mounted (root on
Linux) a real full disk is used for the store as well.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from taveer_desktop.store import KNOWN, ProjectStore, project_lock
from taveer_desktop.store.errors import DamagedStore, StoreError
from tests.store.evidence_builders import demo_text_paths

CLI = [sys.executable, "-m", "taveer_desktop.cli"]


def test_full_disk_when_the_lock_file_is_written(tmp_path, monkeypatch):
    project = tmp_path / "p.taveer"
    ProjectStore.create(project).close()

    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(project_lock.os, "write", no_space)
    with pytest.raises(StoreError) as info:
        ProjectStore.open(project)
    assert "lock file" in str(info.value) and "disk is full" in str(info.value)
    assert not project_lock.lock_path_for(project).exists()
    monkeypatch.undo()
    with ProjectStore.open(project) as store:  # nothing was lost, the project opens again
        assert store.check_integrity().ok


def _can_mount_tmpfs() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0 and bool(shutil.which("mount"))


@pytest.fixture
def tiny_disk(tmp_path):
    if not _can_mount_tmpfs():
        pytest.skip("a real full disk needs root to mount a tmpfs")
    mount = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)]).returncode:
        pytest.skip("mounting a tmpfs was refused here")
    yield mount
    subprocess.run(["umount", str(mount)])


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, bytes(4096)):
            pass
    except OSError as error:
        assert error.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


@pytest.mark.slow
def test_really_full_disk_under_the_store(tiny_disk):
    project = tiny_disk / "p.taveer"
    known, _questioned = demo_text_paths()
    with ProjectStore.create(project) as store:
        case = store.cases.create("C1")
        store.documents.add(case.id, KNOWN, known[:1])
    filler = _fill(tiny_disk)
    done = subprocess.run(
        [*CLI, "--project", str(project), "case", "add", "C1", "--known", str(known[1])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "full" in done.stderr and "damaged" not in done.stderr, done.stderr
    # a command that only reads writes nothing (not even a lock file): it works on a full disk
    done = subprocess.run(
        [*CLI, "--project", str(project), "case", "list"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.startswith("C1"), done.stdout + done.stderr
    # the check writes nothing (not even a lock file), so it works on a full disk
    done = subprocess.run(
        [*CLI, "--project", str(project), "check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "check passed" in done.stdout, done.stdout + done.stderr
    # room for the lock file only: now the store itself meets the full disk
    os.truncate(filler, filler.stat().st_size - 2 * 4096)
    done = subprocess.run(
        [*CLI, "--project", str(project), "case", "add", "C1", "--known", str(known[1])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "full" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "damaged" not in done.stderr
    filler.unlink()
    try:
        with ProjectStore.open(project) as store:  # nothing was lost or half-written
            assert store.check_integrity().ok
            assert len(store.documents.list_for_case(store.cases.find("C1").id)) == 1
    except DamagedStore as error:  # pragma: no cover - would be the bug this test is for
        pytest.fail(str(error))
