"""Connections and transactions of one open project store.

Each thread gets its own connection (created on first use, all closed together by ``close``);
connections are never shared between threads. ``write()`` is the only way to change the store:
one ``BEGIN IMMEDIATE … COMMIT`` per call, rolled back on any error, and it refuses to start
while the store is read-only (e.g. after a failed integrity check). A ``write()`` inside another
on the same thread joins it, so an action made of several changes (a validation's model, record
and model choice; a verification's runs and their stability) is one transaction: all of it is
stored or none. ``audit()`` appends the audit entry of the change inside that same transaction.
SQLite errors become one-sentence ``StoreError`` messages naming the project file; a failed
write is a ``WriteFailed`` that says why (a full disk, the process's file-size limit, an I/O
error) and that the transaction was rolled back, never that "nothing was changed" by an action
whose earlier steps it cannot see.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from taveer_desktop.store import audit_chain
from taveer_desktop.store.errors import DamagedStore, StoreError, WriteFailed
from taveer_desktop.store.record_seal import seal_fields
from taveer_desktop.store.records import AuditEntry, utc_now
from taveer_desktop.store.store_file import (
    Params,
    Row,
    connect,
    describe_sqlite_error,
    disk_full_reason,
    file_size_limit,
)


class StoreDatabase:
    """Thread-local connections to one store file plus the write-transaction helper."""

    def __init__(
        self, path: Path, connector: Callable[[], sqlite3.Connection] | None = None
    ) -> None:
        """Connections to ``path`` (named in messages); ``connector`` opens them differently
        (the read-only opening of a check)."""
        self.path = Path(path)
        self.actor = audit_chain.current_actor()
        self.read_only_reason: str | None = None
        # called at the start and just before the commit of every write: refuses (StoreError)
        # when the locked file is no longer the one its name leads to (project_lock.py)
        self.confirm_file: Callable[[], None] | None = None
        self._connector = connector
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
            conn = self._connector() if self._connector else connect(self.path)
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
        """One ``BEGIN IMMEDIATE … COMMIT`` transaction; rolled back if the block raises.

        Inside another ``write()`` of the same thread it joins that transaction (one commit,
        one time of change for all its audit entries)."""
        if self.read_only_reason:
            raise StoreError(f"is read-only: {self.read_only_reason}", self.path)
        outer: WriteTransaction | None = getattr(self._local, "transaction", None)
        if outer is not None:
            yield outer
            return
        conn = self.connection()
        if self.confirm_file is not None:
            self.confirm_file()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as error:
            raise self.translate(error, writing=True) from None
        transaction = WriteTransaction(conn, self.actor)
        self._local.transaction = transaction
        try:
            yield transaction
            if self.confirm_file is not None:
                self.confirm_file()
            conn.execute("COMMIT")
        except BaseException as error:
            rolled_back = _roll_back(conn)
            if isinstance(error, sqlite3.DatabaseError):
                failed = self.translate(error, writing=True)
                if isinstance(failed, WriteFailed):
                    failed = failed.rolled_back() if rolled_back else failed
                raise failed from None
            raise
        finally:
            self._local.transaction = None

    def translate(self, error: sqlite3.DatabaseError, writing: bool = False) -> StoreError:
        """Turn an SQLite error into a one-sentence store error naming the file (a
        ``WriteFailed`` when it stopped a write: ``writing``, or a full disk or file-size
        limit, which SQLite may report as an I/O error)."""
        detail = describe_sqlite_error(error)
        if isinstance(error, sqlite3.OperationalError) and "locked" in detail:
            return StoreError(f"is busy in another connection ({detail})", self.path)
        if "malformed" in detail or "not a database" in detail:
            return DamagedStore(f"is damaged ({detail})", self.path)
        limit = file_size_limit()
        too_big = (
            f"a file reached this process's file-size limit of {limit:,} bytes (ulimit -f)"
            if limit is not None
            else None
        )
        full = disk_full_reason(self.path, claim=False)
        io_error = "i/o" in detail.lower()
        if "disk" in detail and "full" in detail:
            reason = full or "the disk is full"
            return WriteFailed(f"could not be written: {_either(reason, too_big)}", self.path)
        if io_error and (full or too_big):
            return WriteFailed(
                f"could not be written: {_either(full, too_big)} ({detail})", self.path
            )
        if writing:
            return WriteFailed(f"could not be written ({detail})", self.path)
        if io_error:
            return StoreError(f"could not be read or written ({detail})", self.path)
        return StoreError(f"could not be read ({detail})", self.path)


def _either(first: str | None, second: str | None) -> str:
    return " or ".join(reason for reason in (first, second) if reason)


def _roll_back(conn: sqlite3.Connection) -> bool:
    """Roll back the open transaction; whether the connection is out of it afterwards."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    return not conn.in_transaction


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
