"""Reading a CSV file the user's folder holds (``topics.csv``, a PAN split's ``cases.csv``).

The one reader of every such table: ``table_present`` says whether a table of that name is there
(nothing at all under the name: no; a regular file: yes; anything else — a FIFO, a folder, a
link that leads nowhere or loops — is refused in one line, never silently taken for "no file");
``read_table`` reads it through ``read_file_bytes`` (regular files only, read once, checked
unchanged, a size limit) and ``decode_bytes`` (BOMs, UTF-16, detected encodings; empty and
binary files refused), reads any line ends (LF, CRLF, old Mac CR), and refuses in one line
naming the file: a CSV the ``csv`` module cannot read, a column named twice (which one is meant
is unclear) and a cell holding control or invisible characters (a bidi override makes one label
read as another; an escape sequence rewrites the terminal it is printed on). Each row is a dict
of column → stripped value with its line number in the file.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.control_characters import unsafe_characters
from taveer_desktop.core.intake.decoding import decode_bytes, read_file_bytes, require_regular_file


@dataclass(frozen=True)
class TableRow:
    """One row of a table: its line number in the file (the header is line 1) and its cells."""

    line: int
    cells: dict[str, str]

    def get(self, column: str) -> str:
        """The stripped value of ``column`` ("" where the row or the table has none)."""
        return self.cells.get(column, "")


@dataclass(frozen=True)
class Table:
    """A CSV file's column names (as written, stripped) and its non-blank rows."""

    path: Path
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]


def table_present(path: Path, kind: str) -> bool:
    """Whether a table is at ``path``: False only where nothing at all has that name; anything
    there that is not a regular file is refused (``FileRefused``, one line naming it)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError:
        pass  # unreadable folder and the like: ``require_regular_file`` names it
    require_regular_file(path, kind)
    return True


def read_table(path: Path, kind: str, max_bytes: int) -> Table:
    """The CSV file at ``path`` (see the module); refused in one line naming the file."""
    source = str(path)
    text = decode_bytes(read_file_bytes(path, max_bytes, kind=kind), source).text
    reader = csv.reader(io.StringIO(text, newline=None))
    try:
        header = next(reader, None)
        if header is None:
            raise InputError("holds no header line", source)
        columns = tuple(name.strip() for name in header)
        _check_columns(columns, source)
        rows = []
        for values in reader:
            cells = {name: value.strip() for name, value in zip(columns, values, strict=False)}
            if not any(cells.values()):
                continue
            _check_cells(cells, reader.line_num, source)
            rows.append(TableRow(reader.line_num, cells))
    except csv.Error as error:
        raise InputError(
            f"is not a readable CSV file (line {reader.line_num}: {error})", source
        ) from None
    return Table(path, columns, tuple(rows))


def _check_columns(columns: tuple[str, ...], source: str) -> None:
    seen: set[str] = set()
    for name in columns:
        if name and name in seen:
            raise InputError(
                f"names the column {name!r} twice; which one is meant is unclear", source
            )
        seen.add(name)
    _check_cells({name: name for name in columns}, 1, source)


def _check_cells(cells: dict[str, str], line: int, source: str) -> None:
    for value in cells.values():
        hidden = unsafe_characters(value)
        if hidden:
            raise InputError(
                f"line {line}: a cell holds control or invisible characters ({', '.join(hidden)})",
                source,
            )
