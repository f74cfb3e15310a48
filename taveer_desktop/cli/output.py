"""Output helpers shared by the ``taveer`` commands: JSON on stdout, progress on stderr."""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

from taveer_desktop.core.progress import Progress


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
    """A ``Progress`` whose steps redraw one line on stderr."""

    def __init__(self, label: str, min_interval: float = 0.2):
        super().__init__(self._draw)
        self.label = label
        self.min_interval = min_interval
        self._last = 0.0
        self._started = time.perf_counter()

    def _draw(self, done: int, total: int, message: str) -> None:
        global _open_progress_line
        now = time.perf_counter()
        if done < total and now - self._last < self.min_interval:
            return
        self._last = now
        percent = 100.0 * done / total if total else 100.0
        line = f"\r{self.label}: {done}/{total} ({percent:5.1f} %) {message[:50]:<50}"
        sys.stderr.write(line)
        _open_progress_line = True
        if done >= total:
            sys.stderr.write(f"  [{now - self._started:.1f} s]\n")
            _open_progress_line = False
        sys.stderr.flush()
