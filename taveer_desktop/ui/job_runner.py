"""Runs ``Job``s in the background and keeps track of them until they have ended.

Two pools, one thread each: ``writer_pool`` for every job that writes the project store (so
two writes never compete, and they happen in the order they were asked for), ``compute_pool``
for long computations that only read (training, evaluation). The runner delivers each job's
outcome to the callbacks given to ``start`` on the GUI thread and announces it with
``job_started``, ``job_ended`` and ``job_failed``.

Delivery is the runner's timer: every ``DELIVERY_INTERVAL_MS`` while a job runs, it empties each
running worker's outbox on the GUI thread (``TaskWorker.deliver``; a pool thread never emits a
Qt signal, see ``ui/task_worker.py``). ``wait_for_all`` delivers at once what the jobs reported.

``shut_down`` cancels every job, waits for the pools and from then on drops late outcomes, so a
window being closed never receives a result into a closed store.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal

from taveer_desktop.ui import gui_thread_gc
from taveer_desktop.ui.task_worker import Job, Result, TaskWorker

log = logging.getLogger(__name__)

FINISHED, FAILED, CANCELLED = "finished", "failed", "cancelled"
DELIVERY_INTERVAL_MS = 25  # how often the GUI thread empties the running jobs' outboxes


@dataclass(frozen=True)
class _Callbacks:
    """What to call on the GUI thread when a job has ended, by how it ended."""

    finished: Callable[[Any], object] | None  # given the job's result
    failed: Callable[[str, str], object] | None  # given the message and the details
    cancelled: Callable[[], object] | None


class JobRunner(QObject):
    """Starts jobs, tracks the running ones, cancels and waits for them on shut-down."""

    job_started = Signal(object)  # TaskWorker
    job_ended = Signal(object, str)  # TaskWorker, FINISHED / FAILED / CANCELLED
    job_failed = Signal(object, str)  # TaskWorker, plain message (details in error_details)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.writer_pool = QThreadPool(self)
        self.writer_pool.setMaxThreadCount(1)
        self.compute_pool = QThreadPool(self)
        self.compute_pool.setMaxThreadCount(1)
        self._running: list[TaskWorker] = []
        self._retired: list[TaskWorker] = []
        self._shut_down = False
        self._delivery = QTimer(self)
        self._delivery.setInterval(DELIVERY_INTERVAL_MS)
        self._delivery.timeout.connect(self.deliver)
        gui_thread_gc.install()  # no garbage collected (nor Qt object freed) on a pool thread

    # ---- starting -----------------------------------------------------------------------------

    def start(
        self,
        job: Job[Result],
        on_finished: Callable[[Result], object] | None = None,
        on_failed: Callable[[str, str], object] | None = None,
        on_cancelled: Callable[[], object] | None = None,
    ) -> TaskWorker:
        """Queue ``job``; the callbacks run on the GUI thread once it has ended."""
        if self._shut_down:
            raise RuntimeError("the job runner has been shut down")
        self._purge_retired()
        worker = TaskWorker(job)
        signals = worker.signals
        calls = _Callbacks(on_finished, on_failed, on_cancelled)
        signals.finished.connect(lambda result, w=worker: self._ended(w, calls, FINISHED, result))
        signals.failed.connect(lambda message, w=worker: self._ended(w, calls, FAILED, message))
        signals.cancelled.connect(lambda w=worker: self._ended(w, calls, CANCELLED, None))
        self._running.append(worker)
        self._delivery.start()
        if job.makes_qt_objects:
            QTimer.singleShot(0, lambda: self._run_here(worker))
        else:
            pool = self.writer_pool if job.writes_store else self.compute_pool
            pool.start(worker.run)  # a callable: see TaskWorker
        log.info("job started: %s", job.title)
        self.job_started.emit(worker)
        return worker

    def _run_here(self, worker: TaskWorker) -> None:
        """Run a job that makes Qt objects on the GUI thread (see ``Job``), after the writes
        asked for before it; its outcome reaches the callbacks directly."""
        if self._shut_down:
            worker.returned = True
            return
        if worker.job.writes_store:
            self.writer_pool.waitForDone()
        worker.run()
        self.deliver()

    def deliver(self) -> None:
        """On the GUI thread: pass on what the running jobs reported (see the module)."""
        for worker in list(self._running):
            worker.deliver()  # an outcome reaches _ended, which takes the worker off the list
        if not self._running:
            self._delivery.stop()

    def _ended(self, worker: TaskWorker, calls: _Callbacks, outcome: str, payload: Any) -> None:
        if worker not in self._running:
            return
        self._running.remove(worker)
        self._retired.append(worker)  # dropped once its run() has returned
        if self._shut_down:
            return
        self.job_ended.emit(worker, outcome)  # progress shown no more, actions updated
        if outcome == FINISHED and calls.finished is not None:
            calls.finished(payload)
        elif outcome == FAILED:
            if calls.failed is not None:
                calls.failed(payload, worker.error_details)
            self.job_failed.emit(worker, payload)
        elif outcome == CANCELLED and calls.cancelled is not None:
            calls.cancelled()

    def _purge_retired(self) -> None:
        """Drop the ended jobs whose ``run()`` has returned, releasing their signals."""
        kept = []
        for worker in self._retired:
            if worker.returned:
                worker.release()
            else:
                kept.append(worker)
        self._retired = kept

    # ---- state and stopping -------------------------------------------------------------------

    @property
    def running(self) -> list[TaskWorker]:
        """Jobs started and not yet ended, oldest first."""
        return list(self._running)

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def cancel_all(self) -> None:
        for worker in self._running:
            worker.cancel()

    def wait_for_all(self, msecs: int = 30_000) -> bool:
        """Block until both pools are idle (True) or ``msecs`` passed (False), then deliver
        what the jobs reported."""
        idle = self._wait_for_pools(msecs)
        if not self._shut_down:
            self.deliver()
        return idle

    def _wait_for_pools(self, msecs: int) -> bool:
        done = self.writer_pool.waitForDone(msecs)
        return self.compute_pool.waitForDone(msecs) and done

    def shut_down(self, msecs: int = 30_000) -> bool:
        """Cancel everything, wait for it, and ignore outcomes that arrive later."""
        self.cancel_all()
        idle = self._wait_for_pools(msecs)
        self._shut_down = True
        self._delivery.stop()
        if idle:
            for worker in self._running + self._retired:
                worker.returned = True  # run() has returned or never started (pools idle)
                worker.release()
            self._running.clear()
            self._retired.clear()
        else:
            log.error("background jobs did not stop within %d ms", msecs)
        return idle
