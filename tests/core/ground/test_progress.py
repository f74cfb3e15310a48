"""The one progress-and-cancel object: steps report, and raise once cancelling was asked."""

from __future__ import annotations

import pytest

from taveer_desktop.core.ground.errors import Cancelled
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress


def test_steps_reach_the_report_until_cancelled_then_raise():
    seen = []
    progress = Progress(lambda *step: seen.append(step))
    progress.step(1, 3, "one")
    progress.check()
    progress.cancel()
    assert progress.cancelled
    with pytest.raises(Cancelled):
        progress.step(2, 3, "two")
    with pytest.raises(Cancelled):
        progress.check()
    assert seen == [(1, 3, "one")]


def test_a_view_reports_into_the_larger_range_and_shares_cancelling():
    seen = []
    parent = Progress(lambda *step: seen.append(step))
    view = parent.within(10, 20)
    view.step(3, 5, "part")
    assert seen == [(13, 20, "part")]
    view.cancel()
    assert parent.cancelled
    with pytest.raises(Cancelled):
        parent.step(14, 20, "")


def test_a_view_that_does_not_share_cancelling_runs_to_its_end():
    seen = []
    parent = Progress(lambda *step: seen.append(step))
    rest = parent.within(5, 8, shares_cancel=False)
    parent.cancel()
    rest.step(3, 3, "done")  # a sub-task that must finish once started
    assert seen == [(8, 8, "done")]
    assert not rest.cancelled


def test_no_progress_reports_nowhere_and_cannot_be_cancelled_by_anyone():
    NO_PROGRESS.step(1, 2, "nothing")
    with pytest.raises(RuntimeError):
        NO_PROGRESS.cancel()
    assert not NO_PROGRESS.cancelled
