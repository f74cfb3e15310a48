"""Helper processes are forked only where that is safe: Linux, the main thread, no other Python
thread and no Qt loaded; everywhere else they come from a fork server."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys, threading
from taveer_desktop.core.ground.processes import worker_context
{setup}
print(worker_context().get_start_method())
"""


def _start_method(setup: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(setup=setup)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forking is used on Linux only")
def test_a_plain_command_line_process_forks():
    assert _start_method() == "fork"


def test_a_process_with_qt_or_another_thread_uses_the_fork_server():
    assert _start_method("import PySide6.QtCore") == "forkserver"
    other_thread = (
        "stop = threading.Event()\nthreading.Thread(target=stop.wait, daemon=True).start()"
    )
    assert _start_method(other_thread) == "forkserver"
    from_a_thread = (
        "found = []\n"
        "t = threading.Thread(target=lambda: found.append(worker_context().get_start_method()))\n"
        "t.start(); t.join(); print(found[0]); sys.exit(0)"
    )
    assert _start_method(from_a_thread) == "forkserver"


def test_helpers_follow_the_processors_this_process_may_use(tmp_path, monkeypatch):
    import os

    from taveer_desktop.core.ground import processes

    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text("200000 100000\n", encoding="ascii")  # a container's quota: 2 processors
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(64)), raising=False)
    assert processes.usable_cpus(cpu_max) == 2
    cpu_max.write_text("max 100000\n", encoding="ascii")  # no quota: the affinity counts
    assert processes.usable_cpus(cpu_max) == 64
    cpu_max.write_text("150000 100000\n", encoding="ascii")  # 1.5 processors: round up
    assert processes.usable_cpus(cpu_max) == 2
    cpu_max.write_text("garbage", encoding="ascii")
    assert processes.usable_cpus(cpu_max) == 64
    assert processes.usable_cpus(tmp_path / "absent") == 64
    monkeypatch.setattr(processes, "usable_cpus", lambda: 64)
    assert processes.default_workers(None) == processes.MAX_WORKERS  # capped
    assert processes.default_workers(None, tasks=3) == 3  # never more than the work
    assert processes.default_workers(5, tasks=100) == 5  # asked for: given
    assert processes.default_workers(None, tasks=0) == 1


RENEWAL = """
import os
from taveer_desktop.core.ground.processes import in_processes
from taveer_desktop.core.ground.progress import NO_PROGRESS

def work(chunk):
    return chunk, os.getpid()

def start():
    pass

found = []
in_processes(work, range(6), found.append, NO_PROGRESS, 2, [], start, (), {per})
print(sorted(c for c, _ in found), len({{p for _, p in found}}))
"""


@pytest.mark.parametrize(("per", "at_least", "at_most"), [(None, 1, 2), (1, 3, 6)])
def test_helpers_are_renewed_after_their_chunks(per, at_least, at_most):
    """With ``chunks_per_worker`` every chunk still runs once, in a fresh pool per generation
    (memory a helper cannot give back stays bounded)."""
    done = subprocess.run(
        [sys.executable, "-c", RENEWAL.format(per=per)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    chunks, processes = done.stdout.rsplit("]", 1)
    assert chunks + "]" == str(list(range(6)))
    assert at_least <= int(processes) <= at_most
