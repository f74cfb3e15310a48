"""Output helpers shared by the ``taveer`` commands: JSON on stdout, progress on stderr.

Every user-supplied string a command prints as text — case numbers, titles, names, file names,
population and model names, reasons, and the messages that quote them — goes through ``shown``:
control characters, bidirectional controls and other invisible format characters are written as
visible escapes (``\x1b``, ``\u202e``; ``core/intake/control_characters.py``), so that nothing a
name holds can recolour, clear or reorder what the terminal shows. ``print_json`` writes the same
characters as JSON escapes (``\u001b``, ``\u202e``): the JSON stays valid and decodes to
exactly the stored values, and a terminal shows it inert (docs/cli.md).
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from typing import Any

from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.intake.control_characters import escaped, is_unsafe
from taveer_desktop.presentation import numbers

_NOT_PLAIN_ASCII = re.compile(r"[^\x20-\x7e\n]")


def shown(value: object) -> str:
    """A user-supplied value as printed in text output: its unsafe characters escaped."""
    return escaped(str(value))


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if not is_unsafe(char):
        return char
    code = ord(char)
    if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON writes characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any) -> str:
    """The JSON text ``print_json`` writes (strict JSON; unsafe characters as escapes)."""
    text = json.dumps(_clean(data), indent=2, ensure_ascii=False, allow_nan=False)
    return _NOT_PLAIN_ASCII.sub(_json_escape, text)


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
    sys.stdout.write(json_text(data))
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
