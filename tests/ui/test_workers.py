"""The background-work machinery: outcomes on the GUI thread, failures, cancel, one writer."""

from __future__ import annotations

import threading
import time

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.ui.job_runner import CANCELLED, FAILED, FINISHED, JobRunner
from taveer_desktop.ui.progress_panel import ProgressPanel, format_duration
from taveer_desktop.ui.task_worker import Job


@pytest.fixture
def runner(qapp):
    runner = JobRunner()
    yield runner
    runner.shut_down(5000)


def _wait_ended(qtbot, runner, worker) -> str:
    outcomes = {}
    runner.job_ended.connect(lambda w, outcome: outcomes.setdefault(id(w), outcome))
    qtbot.waitUntil(lambda: id(worker) in outcomes, timeout=10_000)
    return outcomes[id(worker)]


def test_a_finished_job_reports_progress_and_result_on_the_gui_thread(qtbot, runner):
    seen = {}

    def work(progress):
        seen["worker_thread"] = threading.current_thread()
        for i in range(5):
            progress.step(i, 5, f"step {i}")
        return 42

    def finished(result):
        seen["result"] = result
        seen["callback_thread"] = threading.current_thread()

    worker = runner.start(Job("Counting", work), on_finished=finished)
    progress = []
    worker.signals.progress.connect(lambda d, t, m: progress.append((d, t, m)))
    assert _wait_ended(qtbot, runner, worker) == FINISHED
    assert seen["result"] == 42
    assert seen["callback_thread"] is threading.main_thread()
    assert seen["worker_thread"] is not threading.main_thread()
    assert not runner.busy


def test_failures_carry_a_plain_message_and_details(qtbot, runner):
    failures = []

    def bad_input(_p):
        raise InputError("is not a PAN corpus", "/data/x")

    worker = runner.start(Job("Reading", bad_input), on_failed=lambda m, d: failures.append((m, d)))
    assert _wait_ended(qtbot, runner, worker) == FAILED
    message, details = failures[0]
    assert message == "/data/x: is not a PAN corpus"
    assert "InputError" in details

    def crash(_p):
        raise ZeroDivisionError("division by zero")

    announced = []
    runner.job_failed.connect(lambda w, m: announced.append(m))
    worker = runner.start(Job("Dividing", crash))
    assert _wait_ended(qtbot, runner, worker) == FAILED
    assert announced == ["Dividing failed unexpectedly: division by zero"]
    assert "ZeroDivisionError" in worker.error_details


def test_cancel_stops_a_job_at_its_next_step(qtbot, runner):
    cancelled = []

    def slow(progress):
        for i in range(1000):
            progress.step(i, 1000, "")
            time.sleep(0.01)
        return "never"

    worker = runner.start(
        Job("Waiting", slow, writes_store=False), on_cancelled=lambda: cancelled.append(1)
    )
    time.sleep(0.05)
    started = time.monotonic()
    worker.cancel()
    assert _wait_ended(qtbot, runner, worker) == CANCELLED
    assert time.monotonic() - started < 1.0
    assert cancelled == [1]


def test_store_writing_jobs_never_run_at_the_same_time(qtbot, runner):
    active, overlaps = [0], []

    def write(_p):
        active[0] += 1
        overlaps.append(active[0])
        time.sleep(0.02)
        active[0] -= 1

    workers = [runner.start(Job(f"write {i}", write)) for i in range(4)]
    qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)
    assert max(overlaps) == 1 and len(workers) == 4


def test_progress_panel_shows_elapsed_and_remaining_time(qtbot, runner):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    release = threading.Event()
    worker = runner.start(Job("Holding", lambda _p: release.wait(5)))
    panel.attach(worker)
    assert panel.isVisibleTo(panel.parentWidget() or panel)
    panel._started -= 10  # pretend 10 s have passed
    panel.show_progress(1, 4, "a quarter done")
    assert "0:10 elapsed" in panel.time_label.text()
    assert "about 0:30 left" in panel.time_label.text()
    assert panel.bar.maximum() == 4 and panel.bar.value() == 1
    assert "a quarter done" in panel.message_label.text()
    release.set()
    _wait_ended(qtbot, runner, worker)
    panel.detach()
    assert format_duration(3725) == "1:02:05"


def test_a_job_that_makes_qt_objects_runs_on_the_gui_thread_after_start_returned(qtbot, runner):
    seen = {}

    def lay_out(progress):
        seen["thread"] = threading.current_thread()
        progress.step(1, 1, "laid out")
        return "pages"

    worker = runner.start(
        Job("Laying out", lay_out, writes_store=False, makes_qt_objects=True),
        on_finished=lambda result: seen.setdefault("result", result),
    )
    assert "thread" not in seen  # start() returned first; the job runs at the next event turn
    assert _wait_ended(qtbot, runner, worker) == FINISHED
    assert seen["thread"] is threading.main_thread()
    assert seen["result"] == "pages"
    assert not runner.busy


def test_no_signal_is_emitted_off_the_gui_thread(qtbot, runner):
    """A pool thread touches no Qt object: every signal of every worker is emitted on the GUI
    thread, even while the GUI thread attaches and detaches a progress panel to a job that
    reports and fails at once (the race that froze the wizard on a slow machine)."""
    from PySide6.QtCore import Qt

    threads: set[str] = set()

    def note(*_args) -> None:
        threads.add(threading.current_thread().name)

    def fail_at_once(progress):
        for i in range(50):
            progress.step(i, 0, f"step {i}")  # total 0: unknown, so never throttled away
        raise InputError("holds no author sub-folders", "/data/flat")

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    workers = []
    for i in range(40):
        worker = runner.start(Job(f"Failing {i}", fail_at_once, writes_store=i % 2 == 0))
        for signal in (worker.signals.progress, worker.signals.failed):
            signal.connect(note, Qt.ConnectionType.DirectConnection)
        panel.attach(worker)  # connects to progress while the job may already report
        panel.detach()
        workers.append(worker)
    qtbot.waitUntil(lambda: not runner.busy, timeout=20_000)
    assert threads == {threading.main_thread().name}
    assert all(w.returned for w in workers)
