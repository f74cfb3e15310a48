"""The one progress type of the program: ``progress(done, total, message)``.

Long work (training, verifying a case, evaluating, writing a report, seeding the demo) takes a
``Progress`` and calls it as it goes; the desktop's job runner passes one that reaches the
status bar (throttled), the command line one that prints, and ``NO_PROGRESS`` stands for none.
Cancelling is separate: the work checks a ``CancelToken`` (``core.errors``).
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int, str], None]


def NO_PROGRESS(done: int, total: int, message: str) -> None:
    """Progress that goes nowhere (the default where nobody watches)."""
