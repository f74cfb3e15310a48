"""Connections and transactions of one open project store.

Each thread gets its own connection (created on first use, all closed together by ``close``);
connections are never shared between threads. ``write()`` is the only way to change the store:
one ``BEGIN IMMEDIATE … COMMIT`` per call, rolled back on any error, and it refuses to start
while the store is read-only (e.g. after a failed integrity check). ``audit()`` appends the
audit entry of the change inside that same transaction. SQLite errors become one-sentence
``StoreError`` messages naming the project file.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from taveer_desktop.store import audit_chain
from taveer_desktop.store.errors import DamagedStore, StoreError
from taveer_desktop.store.record_seal import seal_fields
from taveer_desktop.store.records import AuditEntry, utc_now
from taveer_desktop.store.store_file import (
    Params,
    Row,
    connect,
    describe_sqlite_error,
    disk_full_reason,
)


class StoreDatabase:
    """Thread-local connections to one store file plus the write-transaction helper."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.actor = audit_chain.current_actor()
        self.read_only_reason: str | None = None
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._registry_lock = threading.Lock()
        self._closed = False

    # -- connections -------------------------------------------------------------------------
    def connection(self) -> sqlite3.Connection:
        """This thread's connection to the store."""
        if self._closed:
            raise StoreError("is closed", self.path)
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            self._local.conn = conn
            with self._registry_lock:
                self._connections.append(conn)
        return conn

    def close(self) -> None:
        """Close every thread's connection (the last close checkpoints the WAL into the file)."""
        self._closed = True
        with self._registry_lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):  # closing is best effort
                conn.close()

    # -- reading -----------------------------------------------------------------------------
    def query(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return self.connection().execute(sql, params).fetchall()
        except sqlite3.DatabaseError as error:
            raise self.translate(error) from None

    def query_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    # -- writing -----------------------------------------------------------------------------
    @contextmanager
    def write(self) -> Iterator[WriteTransaction]:
        """One ``BEGIN IMMEDIATE … COMMIT`` transaction; rolled back if the block raises."""
        if self.read_only_reason:
            raise StoreError(f"is read-only: {self.read_only_reason}", self.path)
        conn = self.connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as error:
            raise self.translate(error) from None
        transaction = WriteTransaction(conn, self.actor)
        try:
            yield transaction
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.DatabaseError):
                raise self.translate(error) from None
            raise

    def translate(self, error: sqlite3.DatabaseError) -> StoreError:
        """Turn an SQLite error into a one-sentence store error naming the file."""
        detail = describe_sqlite_error(error)
        if isinstance(error, sqlite3.OperationalError) and "locked" in detail:
            return StoreError(f"is busy in another connection ({detail})", self.path)
        if "malformed" in detail or "not a database" in detail:
            return DamagedStore(f"is damaged ({detail})", self.path)
        if "disk" in detail and "full" in detail:
            return StoreError(
                "could not be written: the disk is full; nothing was changed", self.path
            )
        full = disk_full_reason(self.path)
        if full and "i/o" in detail:
            return StoreError(f"could not be written: {full}", self.path)
        return StoreError(f"could not be read or written ({detail})", self.path)


class WriteTransaction:
    """What a write block works with: the connection, the change time and the audit writer."""

    def __init__(self, conn: sqlite3.Connection, actor: str) -> None:
        self.conn = conn
        self.actor = actor
        self.time_utc = utc_now()

    def execute(self, sql: str, params: Params = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def insert(self, sql: str, params: Params = ()) -> int:
        """Run one ``INSERT`` and return the id of the row it made."""
        row_id = self.conn.execute(sql, params).lastrowid
        if row_id is None:  # sqlite3 gives None only for statements that insert nothing
            raise ValueError(f"not an INSERT: {sql[:40]}")
        return row_id

    def audit(self, action: str, case_id: int | None, details: dict[str, Any]) -> AuditEntry:
        """Append the change's entry, carrying the seal of every record the action creates or
        changes as it is now (``record_seal.seal_fields``; a removal: write it before deleting)."""
        sealed = {**details, **seal_fields(self.conn, action, case_id, details)}
        return audit_chain.append_entry(
            self.conn, action, case_id, sealed, self.time_utc, self.actor
        )
