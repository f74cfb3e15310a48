"""The dates of a population's documents: read from its metadata file, checked, and kept by
(author, text SHA-256) (``docs/validation.md``, "Trials built like the case: time").

A document's date comes from the ``date`` column of the population's metadata file
``topics.csv`` (the file that names topics; ``core/trials/topic_groups.py``), in the population
folder beside the author folders (for a PAN split, in the split's folder, naming documents as
the population does: ``EN001/known01.txt``). Columns ``author``, ``document`` (a file name in that
author's folder, or blank for all of the author's documents; a row naming a document wins over
the author's blank row), ``date`` and, optionally, ``topic``. A date is ISO 8601: a day
``1787-11-23``, a month ``1847-12`` or a year ``1847``; a blank date leaves the document undated.
A date that is not one of these (``23/11/1787``, ``1788-02-30``) refuses the whole population in
one line naming the file, the row and the value; a row naming a document the population does not
hold is noted in the warnings and its date not used.

A date stands for the interval it names (``1847-12``: 1 to 31 December 1847), so two documents
are apart in time only when their intervals are (``core/trials/trial_dates.py``).

Every path that reads a population (``store/population_folder.read_population``) calls
``read_dates``; a stored population keeps them (``population_dates``, store version 9) and
carries them when loaded (``Population.dates``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.table_file import read_table, table_present

METADATA_FILE = "topics.csv"
FROM_METADATA = "the date column of the population's topics.csv"
_ISO = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_MAX_FILE = 20_000_000

Interval = tuple[int, int]  # first and last day (proleptic Gregorian ordinals), inclusive


@dataclass(frozen=True)
class DocumentDates:
    """Each dated document's date as written (ISO 8601: day, month or year) by (author, text
    SHA-256), and where the dates came from."""

    source: str
    of: Mapping[tuple[str, str], str]


def interval(value: str) -> Interval | None:
    """The days an ISO 8601 date, year-month or year names (None: not one of these)."""
    match = _ISO.fullmatch(value)
    if match is None:
        return None
    year, month, day = (int(g) if g else None for g in match.groups())
    try:
        if month is None:
            first, last = datetime.date(year or 0, 1, 1), datetime.date(year or 0, 12, 31)
        elif day is None:
            first = datetime.date(year or 0, month, 1)
            following = datetime.date(first.year + first.month // 12, first.month % 12 + 1, 1)
            last = following - datetime.timedelta(days=1)
        else:
            first = last = datetime.date(year or 0, month, day)
    except ValueError:  # a month 13, a 30 February, the year 0
        return None
    return first.toordinal(), last.toordinal()


def read_dates(
    root: Path, documents: Mapping[str, list[tuple[str, str]]], notes: list[str]
) -> DocumentDates | None:
    """The dates the population folder's metadata file gives its documents (``documents``:
    author → (document name, text SHA-256)); None where it has no file or no ``date`` column.
    A bad date is refused in one line naming the file, row and value (see the module)."""
    path = root / METADATA_FILE
    if not table_present(path, "population metadata"):
        return None
    table = read_table(path, "population metadata", _MAX_FILE)
    if "date" not in table.columns:
        return None
    named: dict[tuple[str, str], str] = {}
    for row in table.rows:
        number = row.line
        value, author, document = row.get("date"), row.get("author"), row.get("document")
        if not value:
            continue
        if interval(value) is None:
            raise InputError(
                f"row {number}: the date {value!r} is not an ISO 8601 date (YYYY-MM-DD, "
                "YYYY-MM or YYYY)",
                path,
            )
        names = {name for name, _sha in documents.get(author, [])}
        if not author or (document and document not in names) or author not in documents:
            notes.append(
                f"{path}: row {number} names {author or '(no author)'}/{document or '*'}, "
                "which is not a document of the population; its date is not used"
            )
            continue
        named[(author, document)] = value
    dated = {}
    for author, items in documents.items():
        for name, sha in items:
            given = named.get((author, name)) or named.get((author, ""))
            if given:
                dated[(author, sha)] = given
    return DocumentDates(FROM_METADATA, dated) if dated else None
