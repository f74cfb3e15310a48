"""Row seals: one SHA-256 over every column of a stored record (store version 6).

``row_seal`` hashes a canonical JSON of ``["taveer-row-v1", table, {column: value}]`` over
*every* column the row has (a column added behind the program's back changes the seal too):
BLOBs enter as ``{"sha256": …, "bytes": n}`` of their content, texts over 1,024 characters as
``{"text_sha256": …, "chars": n}`` of their UTF-8, floats as ``{"float": repr}`` (so a number
turned into text is a different value), NULL as null. The rows of a run's ``run_documents`` and
of a population's ``population_documents`` are sealed together as one digest over every column
of each row, in key order (``rows_seal``). The state root is the SHA-256 over the sorted
``(table, id, seal)`` of every record.

``seal_fields`` gives the seals an audit entry carries for the records its action creates or
changes (``audit_actions.ACTIONS``); the write transaction adds them to every entry it writes.
A change to any definition here is a schema change (a migration, never an edit).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from taveer_desktop.store.audit_actions import ACTIONS, CASE_OF_ENTRY, CHILD_TABLES, SEALED_TABLES
from taveer_desktop.store.audit_chain import canonical_json

ROW_SEAL_FORMAT = "taveer-row-v1"
ROWS_SEAL_FORMAT = "taveer-rows-v1"
STATE_ROOT_FORMAT = "taveer-state-v1"
LONG_TEXT_CHARS = 1024  # longer texts enter a seal as their SHA-256 (no JSON escaping of 5 MB)
CHILD_ORDER = {"run_documents": "document_id", "population_documents": "id"}

RecordKey = tuple[str, int]  # (table, id)
State = dict[RecordKey, str]  # record → its seal


def large_digests(row: Mapping[str, object]) -> dict[str, str]:
    """SHA-256 of each BLOB column and each long text of a row (computed once and shared with
    the checks of a record's own hash columns)."""
    digests = {}
    for name, value in row.items():
        if value is None or type(value) is int:
            continue
        if isinstance(value, bytes):
            digests[name] = hashlib.sha256(value).hexdigest()
        elif isinstance(value, str) and len(value) > LONG_TEXT_CHARS:
            digests[name] = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return digests


def _value(value: object, digest: str | None) -> object:
    if value is None or type(value) is int:  # the commonest values first (checked millions)
        return value
    if isinstance(value, str):
        if len(value) <= LONG_TEXT_CHARS:
            return value
        digest = digest or hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
        return {"text_sha256": digest, "chars": len(value)}
    if isinstance(value, bytes):
        return {"sha256": digest or hashlib.sha256(value).hexdigest(), "bytes": len(value)}
    if isinstance(value, float):
        return {"float": repr(value)}
    return value


def _digest(payload: object) -> str:
    return hashlib.sha256(canonical_json(payload).encode("utf-8", "surrogatepass")).hexdigest()


def encoded_row(
    row: Mapping[str, object], digests: Mapping[str, str] | None = None
) -> dict[str, object]:
    """A row as it enters a seal (large values replaced by their digests; encoding an encoded
    row again changes nothing); ``digests``: those of ``large_digests`` if already computed."""
    digests = digests or {}
    return {name: _value(value, digests.get(name)) for name, value in row.items()}


def row_seal(
    table: str, row: Mapping[str, object], digests: Mapping[str, str] | None = None
) -> str:
    """The seal of one row given as {column: value} (every column of the row)."""
    return _digest([ROW_SEAL_FORMAT, table, encoded_row(row, digests)])


def rows_seal(
    table: str, parent_id: int, names: Sequence[str], rows: Sequence[Sequence[object]]
) -> str:
    """One digest over every column (``names``, in table order) of the rows that belong to one
    run or population, in the order of ``child_rows`` (by their key)."""
    values = [[_value(value, None) for value in row] for row in rows]
    return _digest([ROWS_SEAL_FORMAT, table, parent_id, list(names), values])


def state_root(state: Mapping[RecordKey, str]) -> str:
    """SHA-256 over the sorted (table, id, seal) of every record."""
    items = sorted([table, record_id, seal] for (table, record_id), seal in state.items())
    return hashlib.sha256(canonical_json([STATE_ROOT_FORMAT, items]).encode("utf-8")).hexdigest()


def iter_rows(
    conn: sqlite3.Connection, table: str, where: str = "", params: tuple[Any, ...] = ()
) -> Iterator[dict[str, Any]]:
    """Every row of ``table`` as {column: value}, every column included, one at a time."""
    cursor = conn.execute(f"SELECT * FROM {table} {where}", params)
    names = [column[0] for column in cursor.description]
    for row in cursor:
        yield dict(zip(names, row, strict=True))


def _child_query(table: str, parent_id: int | None) -> tuple[str, tuple[int, ...]]:
    parent = CHILD_TABLES[table]
    where, params = ("", ()) if parent_id is None else (f"WHERE {parent} = ?", (parent_id,))
    return f"SELECT * FROM {table} {where} ORDER BY {parent}, {CHILD_ORDER[table]}", params


def child_rows(
    conn: sqlite3.Connection, table: str, parent_id: int | None = None
) -> Iterator[dict[str, Any]]:
    """The rows of a child table (``CHILD_TABLES``) in their sealing order: by parent, then key."""
    cursor = conn.execute(*_child_query(table, parent_id))
    names = [column[0] for column in cursor.description]
    for row in cursor:
        yield dict(zip(names, row, strict=True))


def child_seals(
    conn: sqlite3.Connection, table: str, parent_id: int | None = None
) -> dict[int, str]:
    """Parent id → digest of its rows in ``table`` (all parents, or only ``parent_id``)."""
    cursor = conn.execute(*_child_query(table, parent_id))
    names = [column[0] for column in cursor.description]
    parent = names.index(CHILD_TABLES[table])
    grouped: dict[int, list[tuple[object, ...]]] = {}
    for row in cursor:
        grouped.setdefault(row[parent], []).append(row)
    return {pid: rows_seal(table, pid, names, rows) for pid, rows in grouped.items()}


def record_seal(conn: sqlite3.Connection, table: str, record_id: int) -> str | None:
    """The current seal of one record (None when it does not exist)."""
    if table in CHILD_TABLES:
        return child_seals(conn, table, record_id).get(record_id)
    key = SEALED_TABLES[table]
    for row in iter_rows(conn, table, f"WHERE {key} = ?", (record_id,)):
        return row_seal(table, row)
    return None


def seal_fields(
    conn: sqlite3.Connection, action: str, case_id: int | None, details: Mapping[str, Any]
) -> dict[str, str | None]:
    """The seals the entry of ``action`` carries: each record it creates or changes as it is
    now, and each record it removes as it was last (so removals are written before deleting)."""
    fields: dict[str, str | None] = {}
    for effect in ACTIONS.get(action, ()):
        record_id = case_id if effect.id_key == CASE_OF_ENTRY else details.get(effect.id_key)
        if isinstance(record_id, int):
            fields[effect.seal_key] = record_seal(conn, effect.table, record_id)
    return fields


def all_tables() -> tuple[str, ...]:
    return (*SEALED_TABLES, *CHILD_TABLES)


def current_state(conn: sqlite3.Connection, tables: tuple[str, ...] | None = None) -> State:
    """The seal of every record in the store now (only ``tables`` when given)."""
    state: State = {}
    present = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    for table in (t for t in tables or all_tables() if t in present):  # older stores lack some
        if table in CHILD_TABLES:
            state.update(((table, pid), seal) for pid, seal in child_seals(conn, table).items())
            continue
        key = SEALED_TABLES[table]
        for row in iter_rows(conn, table):
            state[(table, row[key])] = row_seal(table, row)
    return state
