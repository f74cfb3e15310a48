"""A count with its noun agreeing ("1 author", "2 authors", "1,204 documents"), for every
message the program writes, from the engine's refusals to the report's sentences
(``presentation/numbers.py`` re-exports it) — never "author(s)"."""

from __future__ import annotations

IRREGULAR = {"match": "matches", "analysis": "analyses"}


def plural(noun: str) -> str:
    """The plural of ``noun`` (its last word; the nouns the program uses)."""
    head, _, last = noun.rpartition(" ")
    many = IRREGULAR.get(last) or (last[:-1] + "ies" if last.endswith("y") else last + "s")
    return f"{head} {many}" if head else many


def integer(n: int) -> str:
    """A whole number with its thousands grouped: ``1,204``."""
    return f"{int(n):,}"


def count(n: int, noun: str, many: str | None = None) -> str:
    """``1 document``, ``2 documents``, ``1,204 documents``; ``many`` where the plural is not
    the last word's (``count(2, "file or folder", "files or folders")``)."""
    return f"{integer(n)} {noun if n == 1 else many or plural(noun)}"
