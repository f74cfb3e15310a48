"""The one shape of background work: a ``Job`` run by a ``TaskWorker`` on a thread pool.

A job is a plain callable ``run(progress)`` that calls the store and the engine and returns
plain data; it never touches a widget. ``progress`` is the one ``Progress`` object
(``core/ground/progress.py``): its ``step`` reports and, once the worker was asked to cancel, raises
``Cancelled``.

**The pool thread touches no Qt object.** What the job reports goes into the worker's outbox, a
plain thread-safe queue; the GUI thread empties it (``deliver``, called by the ``JobRunner``'s
timer) and only there are the ``WorkerSignals`` emitted:

- ``progress(done, total, message)`` (throttled to about 20 a second; ``total`` 0 means unknown),
- ``finished(result)``, ``failed(message)`` or ``cancelled()`` — exactly one of them, last.

Emitting from the pool thread while the GUI thread connected or disconnected a slot of the same
object (a progress panel attaching to a job that failed at once) could leave each thread holding
the lock the other waited for — Qt's connection lock and the interpreter lock — and freeze the
window for good; with the outbox that cannot happen.

A failure never escapes the worker: a ``TaveerError`` (bad input the user can act on) becomes its
plain message; anything else is logged with its traceback and reported as an unexpected error.
The traceback is kept in ``worker.error_details`` for the "Show Details" part of the dialog.
"""

from __future__ import annotations

import logging
import queue
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QObject, Signal

from taveer_desktop.core.ground.errors import Cancelled, TaveerError
from taveer_desktop.core.ground.progress import Progress

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.05

Result = TypeVar("Result")  # what a job's function returns


@dataclass(frozen=True)
class Job(Generic[Result]):
    """What to run in the background and how to present it.

    ``writes_store`` jobs share one single-threaded pool, so two of them never write at once.
    ``cancellable`` is False for short jobs that are one store transaction from the start.
    ``makes_qt_objects`` jobs (laying out and painting a PDF: text documents, the PDF writer)
    run on the GUI thread instead, at the next turn of the event loop and after the writer
    pool has drained: a QObject made or destroyed on a pool thread that holds the interpreter
    lock can deadlock against the GUI thread's signal connections (seen in the report preview:
    ``QTextDocument.documentLayout()`` waiting for Qt's connection lock, the GUI thread holding
    it while waiting for the interpreter lock).
    """

    title: str
    run: Callable[[Progress], Result]
    writes_store: bool = True
    cancellable: bool = True
    makes_qt_objects: bool = False


class WorkerSignals(QObject):
    """The worker's signals; created and emitted in the GUI thread only (``deliver``)."""

    progress = Signal(int, int, str)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()


class TaskWorker:
    """Runs one ``Job`` on a pool thread and reports through ``signals``.

    A plain object whose ``run`` the pool is given as a callable, not a ``QRunnable``: PySide
    keeps a reference to a QRunnable given to ``QThreadPool.start`` that it never drops, so
    every job stayed in memory with its closures (found by the soak, ``tests/ui/soak.py``)."""

    def __init__(self, job: Job[Any]) -> None:
        self.job = job
        self.signals = WorkerSignals()
        self.progress = Progress(self._progress)
        self.error_details = ""
        self.started_monotonic: float | None = None
        self.returned = False
        self._last_progress = 0.0
        self._outbox: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()

    @property
    def title(self) -> str:
        return self.job.title

    def cancel(self) -> None:
        """Ask the job to stop at its next check (it raises ``Cancelled`` there)."""
        if self.job.cancellable:
            self.progress.cancel()

    def release(self) -> None:
        """Free the signals object once ``run`` has returned and its outcome was delivered.

        Its connections hold callbacks that refer back to this worker (the runner's, and
        callers that keep their worker to recognise its outcome): a cycle through Qt that
        Python's collector cannot see, which kept every job ever run alive, with its closures
        and the window they belonged to. Deleting the object drops its connections."""
        if not self.returned:
            raise RuntimeError(f"{self.job.title!r} is still running")
        if shiboken6.isValid(self.signals):
            shiboken6.delete(self.signals)

    def _progress(self, done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if done < total and done > 0 and now - self._last_progress < PROGRESS_INTERVAL_S:
            return
        self._last_progress = now
        self._outbox.put(("progress", (int(done), int(total), str(message))))

    def run(self) -> None:  # on the pool thread (or, for makes_qt_objects jobs, the GUI thread)
        self.started_monotonic = time.monotonic()
        try:
            try:
                result = self.job.run(self.progress)
            except Cancelled:
                log.info("job cancelled: %s", self.job.title)
                self._outbox.put(("cancelled", None))
            except TaveerError as error:
                self.error_details = traceback.format_exc()
                log.warning("job failed: %s: %s", self.job.title, error)
                self._outbox.put(("failed", str(error)))
            except Exception as error:
                self.error_details = traceback.format_exc()
                log.error("job failed unexpectedly: %s\n%s", self.job.title, self.error_details)
                message = f"{self.job.title} failed unexpectedly: {error or type(error).__name__}"
                self._outbox.put(("failed", message))
            else:
                self._outbox.put(("finished", result))
        finally:
            self.returned = True

    def deliver(self) -> bool:
        """On the GUI thread: emit what the job reported since the last call, in order.
        True once the outcome (finished, failed or cancelled) has been emitted."""
        ended = False
        while not ended:
            try:
                kind, payload = self._outbox.get_nowait()
            except queue.Empty:
                break
            if not shiboken6.isValid(self.signals):
                continue  # released: nobody listens any more
            if kind == "progress":
                self.signals.progress.emit(*payload)
            elif kind == "finished":
                self.signals.finished.emit(payload)
            elif kind == "failed":
                self.signals.failed.emit(payload)
            else:
                self.signals.cancelled.emit()
            ended = kind != "progress"
        return ended
