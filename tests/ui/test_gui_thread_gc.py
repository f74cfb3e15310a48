"""Garbage is collected on the GUI thread only once background jobs exist (ui/gui_thread_gc.py)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QTimer

from taveer_desktop.ui import gui_thread_gc
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import Job


class _Cycle:
    """Half of a reference cycle that notes the thread its finaliser ran on."""

    finalised_on: list[str] = []  # noqa: RUF012 - shared by every instance on purpose

    def __init__(self) -> None:
        self.other: _Cycle | None = None

    def __del__(self) -> None:
        _Cycle.finalised_on.append(threading.current_thread().name)


def _make_cycles(n: int) -> None:
    for _ in range(n):
        a, b = _Cycle(), _Cycle()
        a.other, b.other = b, a


def test_a_runner_moves_collection_to_the_gui_thread(qtbot, qapp):
    runner = JobRunner()
    try:
        collector = gui_thread_gc.install()
        assert collector is not None and gui_thread_gc.install() is collector  # one per app
        assert not gc.isenabled()
        gc.collect()
        _Cycle.finalised_on.clear()

        def churn(_progress) -> str:
            _make_cycles(5000)  # garbage a pool thread makes ...
            held = [[i] for i in range(50_000)]  # ... and allocations that would collect it there
            assert len(held) == 50_000
            return threading.current_thread().name

        # 10,000 objects: the allocation count must stay past gen 0's threshold (700) after the
        # job although objects made before it are freed meanwhile (each free lowers the count);
        # with 1,000 a full run could fall under it, and the timer rightly had nothing to do
        names = []
        before = collector.collections  # the timer may collect while the job still runs
        runner.start(Job("Churning", churn, writes_store=False), on_finished=names.append)
        qtbot.waitUntil(lambda: bool(names), timeout=20_000)
        assert names[0] != threading.main_thread().name
        try:
            qtbot.waitUntil(lambda: collector.collections > before, timeout=10_000)
        except qtbot.TimeoutError:  # say what the collector saw, for a run that cannot be repeated
            timer = collector.findChild(QTimer)
            raise AssertionError(
                f"no collection on the GUI thread in 10 s: counts {gc.get_count()}, thresholds "
                f"{gc.get_threshold()}, collections {collector.collections} (before {before}), "
                f"timer active {timer is not None and timer.isActive()}, "
                f"finalised {len(_Cycle.finalised_on)}"
            ) from None
        gc.collect()  # what the timer left for its next turns, on this (the GUI) thread
        assert len(_Cycle.finalised_on) == 10_000
        assert set(_Cycle.finalised_on) == {threading.main_thread().name}
    finally:
        runner.shut_down(5000)
