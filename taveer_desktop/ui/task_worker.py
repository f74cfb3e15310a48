"""The one shape of background work: a ``Job`` run by a ``TaskWorker`` on a thread pool.

A job is a plain callable ``run(progress)`` that calls the store and the engine and returns
plain data; it never touches a widget. ``progress`` is the one ``Progress`` object
(``core/progress.py``): its ``step`` reports and, once the worker was asked to cancel, raises
``Cancelled``. The worker reports through a ``WorkerSignals``
object created in the GUI thread, so every signal is delivered there (queued):

- ``progress(done, total, message)`` (throttled to about 20 a second; ``total`` 0 means unknown),
- ``finished(result)``, ``failed(message)`` or ``cancelled()`` — exactly one of them, last.

A failure never escapes the worker: a ``TaveerError`` (bad input the user can act on) becomes its
plain message; anything else is logged with its traceback and reported as an unexpected error.
The traceback is kept in ``worker.error_details`` for the "Show Details" part of the dialog.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QObject, Signal

from taveer_desktop.core.errors import Cancelled, TaveerError
from taveer_desktop.core.progress import Progress

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
    """The worker's signals; created in the GUI thread, so slots run there."""

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
        self.signals.progress.emit(int(done), int(total), str(message))

    def run(self) -> None:  # on the pool thread
        self.started_monotonic = time.monotonic()
        try:
            try:
                result = self.job.run(self.progress)
            except Cancelled:
                log.info("job cancelled: %s", self.job.title)
                self.signals.cancelled.emit()
            except TaveerError as error:
                self.error_details = traceback.format_exc()
                log.warning("job failed: %s: %s", self.job.title, error)
                self.signals.failed.emit(str(error))
            except Exception as error:
                self.error_details = traceback.format_exc()
                log.error("job failed unexpectedly: %s\n%s", self.job.title, self.error_details)
                self.signals.failed.emit(
                    f"{self.job.title} failed unexpectedly: {error or type(error).__name__}"
                )
            else:
                self.signals.finished.emit(result)
        finally:
            self.returned = True
