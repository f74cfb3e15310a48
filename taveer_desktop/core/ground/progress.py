"""The one progress-and-cancel object of the program.

Long work (training, verifying a case, evaluating, validating, writing a report, seeding the
demo) takes a ``Progress`` and calls ``progress.step(done, total, message)`` as it goes. The
same call is where cancelling takes effect: once somebody has called ``progress.cancel()``, the
next ``step`` (or ``check``, for loops that have nothing to report) raises ``Cancelled``. So a
function needs one parameter, not a callback and a token, and cannot report progress while
ignoring a request to stop.

Who watches decides what a step shows: the desktop's job runner gives a ``Progress`` whose
report reaches the status bar (throttled), the command line one that redraws a line on stderr,
and ``NO_PROGRESS`` — the default parameter everywhere — reports nowhere and is never
cancelled. ``within(offset, total)`` gives a view for a sub-task that reports into a larger
range and shares the parent's cancellation.
"""

from __future__ import annotations

from collections.abc import Callable

from taveer_desktop.core.ground.errors import Cancelled

Report = Callable[[int, int, str], None]


class Progress:
    """Reports steps of one piece of work and carries the request to cancel it."""

    def __init__(self, report: Report | None = None) -> None:
        self._report = report
        self._cancelled = False

    def step(self, done: int, total: int, message: str) -> None:
        """Report ``done`` of ``total`` (``total`` 0: unknown); raise ``Cancelled`` if asked."""
        self.check()
        self._emit(done, total, message)

    def check(self) -> None:
        """Raise ``Cancelled`` if cancelling was asked; report nothing."""
        if self.cancelled:
            raise Cancelled()

    def cancel(self) -> None:
        """Ask the work to stop at its next ``step`` or ``check``."""
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def within(self, offset: int, total: int, *, shares_cancel: bool = True) -> Progress:
        """A view for a sub-task: its step ``done`` is reported here as ``offset + done`` of
        ``total``, with its own message. It follows this object's cancelling unless
        ``shares_cancel`` is False (for a sub-task that must run to its end once started)."""
        return _Within(self, offset, total, shares_cancel)

    def _emit(self, done: int, total: int, message: str) -> None:
        if self._report is not None:
            self._report(done, total, message)


class _Within(Progress):
    def __init__(self, parent: Progress, offset: int, total: int, shares_cancel: bool) -> None:
        super().__init__()
        self._parent = parent
        self._offset = offset
        self._total = total
        self._shares_cancel = shares_cancel

    def _emit(self, done: int, total: int, message: str) -> None:
        self._parent._emit(self._offset + done, self._total, message)

    def cancel(self) -> None:
        if self._shares_cancel:
            self._parent.cancel()
        else:
            self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._parent.cancelled if self._shares_cancel else self._cancelled


class _NoProgress(Progress):
    """Reports nowhere and is never cancelled; shared, so it refuses ``cancel``."""

    def cancel(self) -> None:
        raise RuntimeError("NO_PROGRESS is shared and cannot be cancelled; pass a Progress()")


NO_PROGRESS: Progress = _NoProgress()
