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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and links are POSIX here")
@pytest.mark.parametrize("planted", ["link", "fifo", "folder"])
def test_a_name_planted_where_the_lock_information_goes(project, tmp_path, planted):
    """Found by the soak's probes: a symbolic link named ``<project>.lock`` made every opener
    truncate and overwrite the file it pointed to (any file the user can write) with the lock
    information; a FIFO there made every opener wait forever. Each is refused in one sentence,
    nothing written through it, and the project stays free."""
    victim = tmp_path / "precious.txt"
    victim.write_text("precious")
    {
        "link": lambda p: os.symlink(victim, p),
        "fifo": os.mkfifo,
        "folder": os.mkdir,
    }[planted](lock_path_for(project))
    done = subprocess.run(  # a child: a FIFO waited on must fail the test, not hang it
        [sys.executable, "-c", CLI, "--project", str(project), "case", "create", "C-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    kind = {"link": "a symbolic link", "fifo": "a named pipe (FIFO)", "folder": "a folder"}
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and str(project) in done.stderr
    assert f"there is {kind[planted]} under the name of its lock file" in done.stderr
    assert victim.read_text() == "precious"
    os.rmdir(lock_path_for(project)) if planted == "folder" else lock_path_for(project).unlink()
    with ProjectStore.open(project) as store:  # the lock was given back
        assert store.cases.list_all() == []


def test_lock_information_that_is_a_fifo_is_not_waited_on(project):
    """A reader refused by a holder reads who holds it: a FIFO or device planted under the
    information file's name is not waited on or read without end."""
    from taveer_desktop.store.lock_holders import read_holder

    child = _start_holder(project)
    try:
        info = lock_path_for(project)
        info.unlink()
        os.symlink("/dev/zero", info)
        assert read_holder(info) is None
        info.unlink()
        os.mkfifo(info)
        assert read_holder(info) is None
    finally:
        child.kill()
        child.wait()


def test_cli_of_another_process_reports_the_holder(project):
    """A command that writes is refused naming the holder; one that only reads runs beside it."""
    child = _start_holder(project)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CLI, "--project", str(project), "case", "create", "X"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        reading = subprocess.run(
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
    assert "commands that only read" in lines[0]
    assert reading.returncode == 0 and reading.stdout.strip() == "no cases", reading.stderr


# -- one lock per file, whatever name reaches it (issue 22) -----------------------------------


def _other_names(project, tmp_path):
    """A hard link in another folder and a symbolic link to the project."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    hard = elsewhere / "alias.taveer"
    os.link(project, hard)
    soft = tmp_path / "shortcut.taveer"
    soft.symlink_to(project)
    return {"hard link": hard, "symbolic link": soft}


@pytest.mark.parametrize("kind", ["hard link", "symbolic link"])
def test_another_name_of_an_open_project_is_refused_naming_the_holder(project, tmp_path, kind):
    other = _other_names(project, tmp_path)[kind]
    child = _start_holder(project)
    try:
        with pytest.raises(ProjectLocked) as caught:  # this process, through the other name
            ProjectStore.open(other)
        done = subprocess.run(  # and another process's CLI, through the other name
            [sys.executable, "-c", CLI, "--project", str(other), "case", "create", "X"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        child.kill()
        child.wait()
    assert f"process {child.pid} of user" in str(caught.value)
    assert done.returncode == 2 and f"process {child.pid}" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not other.with_name(other.name + "-wal").exists()  # no second log was started
    with ProjectStore.open(other) as store:  # free again: any name opens it
        assert store.cases.list_all() == []


@pytest.mark.parametrize("kind", ["hard link", "symbolic link"])
def test_the_original_name_is_refused_while_another_name_is_open(project, tmp_path, kind):
    other = _other_names(project, tmp_path)[kind]
    child = _start_holder(other)
    try:
        with pytest.raises(ProjectLocked) as caught:
            ProjectStore.open(project)
    finally:
        child.kill()
        child.wait()
    assert f"process {child.pid} of user" in str(caught.value)


def test_two_names_in_one_process_are_one_project(project, tmp_path):
    names = _other_names(project, tmp_path)
    with ProjectStore.open(names["hard link"]):
        for name in (project, names["symbolic link"]):
            with pytest.raises(ProjectLocked, match="this program already"):
                ProjectStore.open(name)


WRITER_SCRIPT = textwrap.dedent(
    """
    import sys
    from taveer_desktop.store import KNOWN, ProjectStore
    from taveer_desktop.store.errors import ProjectLocked
    name, text = sys.argv[1], sys.argv[2]
    try:
        store = ProjectStore.open(name)
    except ProjectLocked:
        print("refused", flush=True)
        sys.exit(0)
    print("open", flush=True)
    sys.stdin.readline()  # hold it open until told
    case = store.cases.find("C")
    added = store.documents.add(case.id, KNOWN, [text]).added
    print("added", added[0].id, flush=True)
    store.close()
    """
)


def test_two_writers_through_a_hard_link_lose_nothing(project, tmp_path):
    """The issue's loss: two processes writing through two names. The second is refused, so
    every acknowledged document stays."""
    hard = _other_names(project, tmp_path)["hard link"]
    with ProjectStore.open(project) as store:
        store.cases.create("C")
    texts = []
    for n in (1, 2):
        path = tmp_path / f"letter{n}.txt"
        path.write_text(f"Letter number {n}. I wrote it myself, as you can see. " * 30)
        texts.append(path)
    first = subprocess.Popen(
        [sys.executable, "-c", WRITER_SCRIPT, str(project), str(texts[0])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert first.stdout.readline().strip() == "open"
    second = subprocess.run(
        [sys.executable, "-c", WRITER_SCRIPT, str(hard), str(texts[1])],
        capture_output=True,
        text=True,
        timeout=60,
        input="\n",
    )
    first.stdin.write("\n")
    first.stdin.flush()
    acknowledged = first.stdout.readline().split()
    first.wait(timeout=60)
    assert second.stdout.strip() == "refused", second.stdout + second.stderr
    assert acknowledged[0] == "added"
    with ProjectStore.open(hard) as store:
        ids = [d.id for d in store.documents.list_for_case(store.cases.find("C").id)]
        assert ids == [int(acknowledged[1])]
        assert store.check_integrity().ok


def test_a_check_holds_the_file_shared(project):
    """A check and a writer exclude each other; two checks do not."""
    checker = ProjectStore.open_for_check(project)
    try:
        with pytest.raises(ProjectLocked):
            ProjectStore.open(project)
    finally:
        checker.close()
    child = _start_holder(project)
    try:
        with pytest.raises(ProjectLocked) as caught:
            ProjectStore.open_for_check(project)
    finally:
        child.kill()
        child.wait()
    assert f"process {child.pid}" in str(caught.value)
