"""How the engine starts its helper processes (training, evaluation, validation folds).

On Linux, from a process with no other thread (the command line), helpers are **forked**: they
start at once with everything this process has imported and read — on the 1,020-case training
benchmark 0.80–0.88 s with two processes against 0.96–1.00 s through a fork server
(docs/performance.md). Forking a process that runs other threads (the desktop runs its jobs on
worker threads) can copy a lock held by one of them and hang the child, and other systems do
not fork safely (nor does a process that loaded Qt, whose threads Python cannot see), so
everywhere else helpers come from a **fork server**: a clean process,
started once, that imports the modules named in ``preload`` and forks each helper from itself.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Sequence
from multiprocessing.context import BaseContext


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
