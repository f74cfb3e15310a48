"""How the engine starts its helper processes (training, evaluation, validation folds).

On Linux, from a process with no other thread (the command line), helpers are **forked**: they
start at once with everything this process has imported and read — on the 1,020-case training
benchmark 0.80–0.88 s with two processes against 0.96–1.00 s through a fork server
(docs/performance.md). Forking a process that runs other threads (the desktop runs its jobs on
worker threads) can copy a lock held by one of them and hang the child, and other systems do
not fork safely (nor does a process that loaded Qt, whose threads Python cannot see), so
everywhere else helpers come from a **fork server**: a clean process,
started once, that imports the modules named in ``preload`` and forks each helper from itself.

``in_processes`` runs a function over chunks of work in helper processes, handing each result
back as it arrives; a cancel or an error cancels what has not started and waits for the rest.
With ``chunks_per_worker``, the helpers are **renewed** after that many chunks each (a fresh
pool for every ``n_workers × chunks_per_worker`` chunks): memory a helper cannot give back — the
compression methods' ``pyppmd`` keeps about 24 KiB per compression until its process ends
(``core/methods/systems/ppmd_compression.py``) — is then bounded by what one generation of chunks
uses, not by the whole validation's work.

How many helpers: ``default_workers`` — the processors this process may actually use (its CPU
affinity and, in a container, its cgroup's CPU quota; ``os.cpu_count`` counts the machine's,
which in a container limited to two processors may say 64 and start 64 helpers that fight over
two), at most ``MAX_WORKERS``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any, TypeVar

from taveer_desktop.core.ground.progress import Progress

Chunk = TypeVar("Chunk")
Done = TypeVar("Done")

MAX_WORKERS = 8  # beyond this the helpers' start and memory outweigh what they add here
CGROUP_V2_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def _cgroup_quota(cpu_max: Path = CGROUP_V2_CPU_MAX) -> int | None:
    """The processors a cgroup v2 CPU quota allows (``"200000 100000"`` → 2), or None."""
    try:
        quota, period = cpu_max.read_text(encoding="ascii").split()[:2]
        if quota == "max":
            return None
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        return None


def usable_cpus(cpu_max: Path = CGROUP_V2_CPU_MAX) -> int:
    """The processors this process may use: its affinity, within its cgroup's quota."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        count = os.cpu_count() or 1
    quota = _cgroup_quota(cpu_max)
    return max(1, min(count, quota) if quota is not None else count)


def default_workers(workers: int | None, tasks: int | None = None) -> int:
    """``workers`` if given, else the usable processors (at most ``MAX_WORKERS``); never more
    than ``tasks`` nor fewer than 1."""
    n = workers if workers else min(usable_cpus(), MAX_WORKERS)
    if tasks is not None:
        n = min(n, tasks)
    return max(1, n)


def _forking_is_safe() -> bool:
    """Linux, the main thread, no other Python thread, and no Qt loaded (Qt's own threads are
    not Python's: a process that loaded Qt may run them without ``threading`` knowing)."""
    return (
        sys.platform.startswith("linux")
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
        and not any(name.startswith("PySide6") for name in sys.modules)
    )


def worker_context(preload: Sequence[str] = ()) -> BaseContext:
    """The start method for helper processes (see the module)."""
    if _forking_is_safe():
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    if preload:
        context.set_forkserver_preload(list(preload))
    return context


def in_processes(
    function: Callable[[Chunk], Done],
    chunks: Iterable[Chunk],
    take: Callable[[Done], object],
    progress: Progress,
    n_workers: int,
    preload: Sequence[str],
    initializer: Callable[..., object],
    initargs: tuple[Any, ...],
    chunks_per_worker: int | None = None,
) -> None:
    """``take(function(chunk))`` for every chunk, ``function`` run in ``n_workers`` helper
    processes (started as ``worker_context(preload)`` says, each set up by
    ``initializer(*initargs)``; renewed after ``chunks_per_worker`` chunks each where given),
    results taken in the order they arrive; ``progress.check()`` at least every 0.2 s, so a
    cancel stops the work: what has not started is cancelled and the pool shut down before the
    cancel (or any error) goes on."""
    listed = list(chunks)
    size = len(listed) if not chunks_per_worker else n_workers * chunks_per_worker
    for start in range(0, len(listed), max(1, size)):
        _one_pool(
            function, listed[start : start + size], take, progress, n_workers, preload,
            initializer, initargs,
        )  # fmt: skip


def _one_pool(
    function: Callable[[Chunk], Done],
    chunks: Sequence[Chunk],
    take: Callable[[Done], object],
    progress: Progress,
    n_workers: int,
    preload: Sequence[str],
    initializer: Callable[..., object],
    initargs: tuple[Any, ...],
) -> None:
    context = worker_context(preload)
    with ProcessPoolExecutor(n_workers, context, initializer, initargs) as pool:
        pending = {pool.submit(function, chunk) for chunk in chunks}
        try:
            while pending:
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                progress.check()
                for future in finished:
                    take(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
