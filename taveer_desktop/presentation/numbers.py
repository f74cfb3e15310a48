"""Numbers as a person reads them, one way in the desktop and the report.

Counts are grouped by thousands and agree with their noun ("1 run", "2 runs", "1,204 sentences");
measured values have a fixed number of decimals, so no raw float such as 0.5389709414624158 ever
reaches a reader.
"""

from __future__ import annotations

IRREGULAR = {"match": "matches", "analysis": "analyses"}


def plural(noun: str) -> str:
    """The plural of ``noun`` (its last word; the nouns the program uses)."""
    head, _, last = noun.rpartition(" ")
    many = IRREGULAR.get(last) or (last[:-1] + "ies" if last.endswith("y") else last + "s")
    return f"{head} {many}" if head else many


def count(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``, ``1,204 documents``."""
    return f"{n:,} {noun if n == 1 else plural(noun)}"


def decimal(value: float, places: int = 3) -> str:
    """A measured value with ``places`` decimals and grouped thousands (``1,234.568``)."""
    return f"{value:,.{places}f}"
