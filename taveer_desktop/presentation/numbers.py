"""Numbers as a person reads them, one way in the desktop, the report and the CLI's text.

Counts are grouped by thousands and agree with their noun ("1 run", "2 runs", "1,204 sentences");
measured values have a fixed number of decimals, shares are percentages with a space before the
sign ("99.5 %"), likelihood ratios have three significant figures, and a value that is missing
is a dash. So no raw float such as 0.5389709414624158 ever reaches a reader. Every number a
person reads goes through one of these functions (``tests/ui/test_number_format.py`` and
``tests/report/test_numbers.py`` scan the texts of a real run for anything that did not).
"""

from __future__ import annotations

import math
from typing import TypeGuard

from taveer_desktop.core.ground.counts import IRREGULAR as IRREGULAR
from taveer_desktop.core.ground.counts import count as count
from taveer_desktop.core.ground.counts import integer as integer
from taveer_desktop.core.ground.counts import plural as plural

MISSING = "—"  # a value that was not measured or does not exist


def _present(value: float | None) -> TypeGuard[float]:
    """Whether there is a value: not None and not NaN."""
    return not (value is None or (isinstance(value, float) and math.isnan(value)))


def decimal(value: float | None, places: int = 3) -> str:
    """A measured value with ``places`` decimals and grouped thousands (``1,234.568``); a dash
    for a value that is missing (None or NaN, e.g. an AUC over one class)."""
    return f"{value:,.{places}f}" if _present(value) else MISSING


def percent(share: float | None, places: int = 1) -> str:
    """A share (0–1) as a percentage with ``places`` decimals: ``99.5 %``."""
    return f"{100.0 * share:,.{places}f} %" if _present(share) else MISSING


def part_of(part: int, whole: int, places: int = 0) -> str:
    """``part`` as a percentage of ``whole`` (a dash when there is no whole)."""
    return MISSING if not whole else percent(part / whole, places)


def significant(value: float | None, digits: int = 3) -> str:
    """A ratio with ``digits`` significant figures and grouped thousands: ``0.714``, ``5.22``,
    ``1,230`` — as likelihood ratios are written."""
    if not _present(value):
        return MISSING
    if value == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    if places <= 0:  # whole: 12,300 rather than 1.23e+04
        return integer(int(round(value, places)))
    return f"{round(value, places):.{places}f}".rstrip("0").rstrip(".")  # 0.0000123, not 1.23e-05


def short(value: float) -> str:
    """As few decimals as the value needs, for round values people chose: an axis tick or a
    limit (``0.25``, ``5``)."""
    return f"{value:g}"


def digest(value: str) -> str:
    """A hash in groups of eight hexadecimal digits, so that a narrow message can wrap it
    (``81c9da44 3a564f7c …``); where it must be copied whole, show it ungrouped too."""
    return " ".join(value[i : i + 8] for i in range(0, len(value), 8))


def seconds(value: float) -> str:
    """A duration: ``12.3 s``."""
    return f"{value:,.1f} s"
