"""The schema as part of the seal: a store's objects compared with the exact schema of its version.

A guard trigger is only a guard if it is the program's own: a same-named trigger that rewrites
the analysed text, a guard replaced by a no-op, an extra trigger, view, table or index would all
pass a check that looked for names only. ``schema_problems`` therefore compares every object
in ``sqlite_master`` (type, name, table and the SQL that defines it) with those of a store built
by the program's own migrations (``schema.MIGRATIONS[:version]``, applied to an in-memory
database once per version and kept): anything extra, missing or defined differently is a
finding that names the object and shows the SQL found. SQLite's own internal objects that the
migrations create (automatic indexes of UNIQUE constraints) are compared like any other.
"""

from __future__ import annotations

import sqlite3
from functools import cache

from taveer_desktop.store.records import IntegrityProblem
from taveer_desktop.store.schema import MIGRATIONS

SchemaObject = tuple[str, str]  # (type, name)
Definition = tuple[str, str | None]  # (the table it belongs to, its SQL; None for an autoindex)
MAX_SQL_SHOWN = 300
_GUARD = "the guard against changing stored records"


@cache
def expected_schema(version: int) -> dict[SchemaObject, Definition]:
    """Every object a store of ``version`` has, exactly as the program's migrations make it."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        for statement in (s for step in MIGRATIONS[:version] for s in step):
            conn.execute(statement)
        return _objects(conn)
    finally:
        conn.close()


def _objects(conn: sqlite3.Connection) -> dict[SchemaObject, Definition]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    return {(kind, name): (table, sql) for kind, name, table, sql in rows}


def _shown(sql: str | None) -> str:
    text = " ".join((sql or "").split())
    return text if len(text) <= MAX_SQL_SHOWN else text[: MAX_SQL_SHOWN - 1] + "…"


def schema_problems(conn: sqlite3.Connection, version: int) -> list[IntegrityProblem]:
    """Every object of the store behind ``conn`` that is missing, extra or defined otherwise
    than in the exact schema of store ``version``, each named (triggers with their SQL)."""
    expected = expected_schema(version)
    present = _objects(conn)
    problems = []
    for kind, name in sorted(expected):
        if (kind, name) not in present:
            why = f"is missing: {_GUARD} was removed" if kind == "trigger" else "is missing"
            problems.append(IntegrityProblem("schema", f"{kind} {name}", why))
        elif present[(kind, name)] != expected[(kind, name)]:
            found_table, found_sql = present[(kind, name)]
            what = f"{_GUARD} was replaced" if kind == "trigger" else "it was changed"
            problems.append(
                IntegrityProblem(
                    "schema",
                    f"{kind} {name}",
                    f"is not the one of store version {version} ({what} outside the program); "
                    f"found: {_shown(found_sql) or f'an object of table {found_table}'}",
                )
            )
    for (kind, name), (table, sql) in sorted(present.items()):
        if (kind, name) not in expected:
            problems.append(
                IntegrityProblem(
                    "schema",
                    f"{kind} {name}",
                    f"is not part of store version {version} (added outside the program, on "
                    f"{table}): {_shown(sql) or 'no SQL'}",
                )
            )
    return problems


def tables_unreadable(problems: list[IntegrityProblem]) -> bool:
    """Whether ``problems`` say a table of the schema is missing or defined otherwise (its rows
    cannot then be read as the program's)."""
    return any(p.subject.startswith("table ") and "not part" not in p.message for p in problems)
