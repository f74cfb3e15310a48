"""Stored values of a type the program never writes: found by the integrity check, refused at open.

SQLite keeps whatever another tool writes into a column, whatever its declared type: a BLOB in
a ``TEXT`` column, text in an ``INTEGER`` one. The program's readers take a column's declared
type for granted (a case's title is text, a run's id a number), so a store holding such a
value could only be read by guessing. ``foreign_values`` finds them, one query per table
(``typeof`` reads no large value), and names the first few; ``refuse_foreign_values`` turns a
report holding any into one plain refusal to open the store (``taveer check`` still lists every
problem, since it reads only through the check).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from taveer_desktop.store.errors import DamagedStore
from taveer_desktop.store.records import IntegrityProblem, IntegrityReport

KIND = "value"
MAX_SHOWN = 10
# the declared type of a column → what ``typeof`` may say of its values
_ALLOWED = {
    "TEXT": ("text", "null"),
    "INTEGER": ("integer", "null"),
    "REAL": ("real", "integer", "null"),
    "BLOB": ("blob", "null"),
}
_WORDS = {"text": "text", "integer": "a whole number", "real": "a number", "blob": "bytes"}


def _typed_columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str]]:
    columns = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
    found = []
    for column in columns:
        declared = str(column[2]).upper()
        if declared in _ALLOWED:
            found.append((str(column[1]), declared))
    return found


def foreign_values(conn: sqlite3.Connection, tables: set[str]) -> list[IntegrityProblem]:
    """The first ``MAX_SHOWN`` values, over ``tables``, not of their column's declared type."""
    problems: list[IntegrityProblem] = []
    for table in sorted(tables):
        columns = _typed_columns(conn, table)
        if not columns:
            continue
        tests = " OR ".join(
            f'typeof("{name}") NOT IN ({", ".join(repr(t) for t in _ALLOWED[declared])})'
            for name, declared in columns
        )
        kinds = ", ".join(f'typeof("{name}")' for name, _declared in columns)
        sql = f'SELECT {kinds} FROM "{table}" WHERE {tests} LIMIT {MAX_SHOWN}'  # no rowid:
        for types in conn.execute(sql):  # some tables have none
            for (name, declared), found in zip(columns, types, strict=True):
                if found not in _ALLOWED[declared]:
                    problems.append(
                        IntegrityProblem(
                            KIND,
                            f"table {table}",
                            f"a row's {name} holds {_WORDS.get(found, found)} where the program "
                            f"writes {_WORDS[_ALLOWED[declared][0]]}: it was changed by another "
                            "tool",
                        )
                    )
        if len(problems) >= MAX_SHOWN:
            return problems[:MAX_SHOWN]
    return problems


def refuse_foreign_values(report: IntegrityReport, path: Path) -> None:
    """Refuse to open a store whose check found values of a foreign type (see the module)."""
    found = [p for p in report.problems if p.kind == KIND]
    if found:
        raise DamagedStore(
            f"cannot be read: in {found[0].subject}, {found[0].message}"
            f"{' (and more)' if len(found) > 1 else ''}; `taveer check` lists every problem",
            path,
        )
