"""Opening a project for a command that only reads, also while another program writes it.

A command that only reads (``taveer case list``, ``audit``, ``check`` …; the list is in
docs/cli.md) never takes the writer's lock and never writes, not even an audit entry:

- when no writer holds the project it is opened as for a check (``read_only_open.py``): a
  shared lock, SQLite's read-only immutable URI, nothing written beside the file;
- when another process holds the writer's lock (the desktop has the project open), it is read
  *beside* that writer as a write-ahead-log reader: SQLite's read-only URI (``mode=ro``, never
  ``immutable``: the file changes), ``PRAGMA query_only``, and one read transaction begun when
  the connection opens and kept until it closes, so the whole command sees one consistent
  snapshot: what the writer had committed when the command started, nothing half-written. No
  lock of ours is taken and no information file written. The writer's log and shared-memory
  file must be there (a writer in WAL mode keeps them while it has the file open); if they are
  not, the writer is just closing, and the opening is tried again as above (or the writer
  reached the file through a hard link whose log lies beside that other name: refused then).
- the same process holding the project (the desktop itself) is still refused, as before: a
  second descriptor of the file closed in that process would drop SQLite's own locks.
- an older store version is upgraded first, as any opening for work does (after its backup),
  only when no writer holds it (``check`` reads it as the version it is); beside a writer
  the store is always of this version, since the writer upgraded it.

One thing a reader beside a writer changes: if the writer closes while the reader reads, SQLite
lets the writer fold its log into the file only when no reader is left, so the log may stay
beside the file until the next opening, which folds it (it is the store's own log).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import DamagedStore, NewerStoreVersion, ProjectLocked, StoreError
from taveer_desktop.store.migrations import schema_version
from taveer_desktop.store.project_lock import ProjectLock, held_in_this_process
from taveer_desktop.store.read_only_open import open_read_only, read_only_connector
from taveer_desktop.store.records import LockHolder
from taveer_desktop.store.schema import SCHEMA_VERSION
from taveer_desktop.store.store_file import inspect_signature, sqlite_uri
from taveer_desktop.store.value_types import refuse_foreign_values

if TYPE_CHECKING:
    from taveer_desktop.store.project_store import ProjectStore

READING_REASON = "it is open by a command that only reads"


class _WriterLeft(Exception):
    """The writer closed between the refusal of the lock and the opening beside it."""


def _snapshot_connector(uri: str) -> Callable[[], sqlite3.Connection]:
    connect_read_only = read_only_connector(uri)

    def connect_snapshot() -> sqlite3.Connection:
        conn = connect_read_only()
        conn.execute("BEGIN")  # one read transaction for the whole command: one snapshot
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot starts
        return conn

    return connect_snapshot


def _beside_reason(holder: LockHolder | None) -> str:
    who = "another process" if holder is None else holder.describe()
    return f"it is read beside {who}, which may write it; a command that only reads changes nothing"


def _open_beside_writer(
    cls: type[ProjectStore], path: Path, holder: LockHolder | None
) -> ProjectStore:
    real = Path(os.path.realpath(path))  # SQLite names the log after the resolved name
    wal = real.with_name(real.name + "-wal")
    shm = real.with_name(real.name + "-shm")
    if not (wal.exists() and shm.exists()):
        raise _WriterLeft
    db = StoreDatabase(path, connector=_snapshot_connector(sqlite_uri(path, "ro")))
    db.read_only_reason = _beside_reason(holder)
    store = cls(db, ProjectLock(path, shared=True))  # never acquired: no lock of ours
    try:
        version = schema_version(db.connection())
    except sqlite3.DatabaseError as error:
        store.close()
        raise db.translate(error) from None
    if version > SCHEMA_VERSION:
        store.close()
        raise NewerStoreVersion(
            f"was written by a newer TAVeer Desktop (store version {version})", path
        )
    if version < SCHEMA_VERSION:
        store.close()
        raise StoreError(
            f"is store version {version} and is being upgraded by the program that has it open; "
            "try again once it is closed",
            path,
        )
    return store


def open_for_reading(
    cls: type[ProjectStore],
    path: Path,
    verify: bool = True,
    upgrade: bool = True,
    reason: str = READING_REASON,
) -> ProjectStore:
    """``cls`` (``ProjectStore``) open on ``path`` for a command that only reads (see module).
    ``verify`` runs the integrity check (it reads the same snapshot); ``upgrade`` upgrades an
    older store when no writer holds it (``check`` reads every version as it is); ``reason``
    is why every change is refused."""
    inspect_signature(path)  # missing, a folder, a FIFO, not SQLite: refused before anything
    holder: LockHolder | None = None
    for _attempt in range(5):
        try:
            store = open_read_only(cls, path, reason)
        except ProjectLocked as locked:
            if held_in_this_process(path):
                raise
            holder = locked.holder
            try:
                store = _open_beside_writer(cls, path, holder)
            except _WriterLeft:
                time.sleep(0.1)
                continue
        else:
            if upgrade and store.schema_version < SCHEMA_VERSION:  # alone with an older store
                store.close()
                store = cls.open(path, verify=False)
        if verify:
            report = store.check_integrity(include_sqlite_check=False)
            try:
                refuse_foreign_values(report, path)
            except DamagedStore:
                store.close()
                raise
        return store
    who = "another process" if holder is None else holder.describe()
    raise ProjectLocked(
        f"is open in {who} under another name of the file (a hard link), beside which its "
        "changes are logged; a command that only reads cannot see them through this name: use "
        "the name it was opened under, or close it there first",
        str(path),
        holder,
    )
