"""Output helpers shared by the ``taveer`` commands: JSON on stdout, progress on stderr."""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

from taveer_desktop.core.progress import Progress
from taveer_desktop.presentation import numbers


def _clean(value: Any) -> Any:
    """NaN/inf become null so that the output is strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def print_json(data: Any) -> None:
    json.dump(_clean(data), sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")


_open_progress_line = False


def end_progress_line() -> None:
    """Finish a progress line left open on stderr, so that the next message starts afresh."""
    global _open_progress_line
    if _open_progress_line:
        sys.stderr.write("\n")
        sys.stderr.flush()
        _open_progress_line = False


class StderrProgress(Progress):
    """A ``Progress`` whose steps redraw one line on stderr — on a terminal. Written to a file
    or a pipe (a log, a script) it writes no carriage returns: only the last step's line."""

    def __init__(self, label: str, min_interval: float = 0.2):
        super().__init__(self._draw)
        self.label = label
        self.min_interval = min_interval
        self._last = 0.0
        self._started = time.perf_counter()
        isatty = getattr(sys.stderr, "isatty", None)
        self.terminal = bool(isatty and isatty())

    def _draw(self, done: int, total: int, message: str) -> None:
        global _open_progress_line
        now = time.perf_counter()
        if not self.terminal:
            if done >= total:
                sys.stderr.write(
                    f"{self.label}: {done}/{total} {message[:50]}  "
                    f"[{numbers.seconds(now - self._started)}]\n"
                )
                sys.stderr.flush()
            return
        if done < total and now - self._last < self.min_interval:
            return
        self._last = now
        percent = 100.0 * done / total if total else 100.0
        line = f"\r{self.label}: {done}/{total} ({percent:5.1f} %) {message[:50]:<50}"
        sys.stderr.write(line)
        _open_progress_line = True
        if done >= total:
            sys.stderr.write(f"  [{numbers.seconds(now - self._started)}]\n")
            _open_progress_line = False
        sys.stderr.flush()
