"""Opening a project for ``taveer check`` without changing what is checked.

A check must never change the file it checks (its SHA-256 is the same afterwards) nor the
folder it lies in, and it must work on a read-only copy in a read-only folder, of every
supported store version. So the opening for a check:

- takes the project lock *shared* (``ProjectLock(path, shared=True)``): no writer can change
  the file while it is checked, and no information file is written (a writer that is refused
  names no checker, but is refused all the same);
- reads the file through SQLite's read-only, immutable URI (``mode=ro&immutable=1``): no
  ``-wal``/``-shm`` files, no locks of SQLite's own, no checkpoint, nothing written;
- never migrates: an older store is checked as the version it is (the version is passed to the
  integrity check); opening it for work still upgrades it, after its backup;
- when a write-ahead log with frames lies beside the file (a writer was killed before it
  folded the log into the file), the log is first held to the store (``sidecar_check``: a log
  that does not continue this project's chain is refused, never applied), then the file and its
  log are copied into a private temporary folder and the copy is checked with the log applied:
  what the next opening will see. The project's own file and log are left as they are. (The
  file alone is not read then: a writer that failed while folding its log into the file — a
  full disk at close — leaves a file that is consistent only together with its log.)

The returned ``ProjectStore`` refuses every change (``read_only_reason``).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.project_lock import ProjectLock
from taveer_desktop.store.sidecar_check import check_sidecars
from taveer_desktop.store.store_file import (
    BUSY_TIMEOUT_MS,
    WAL_HEADER_BYTES,
    inspect_signature,
    inspect_store_file,
    sqlite_uri,
)

if TYPE_CHECKING:
    from taveer_desktop.store.project_store import ProjectStore

READ_ONLY_REASON = "it is open read-only to be checked"


def log_has_frames(path: Path) -> bool:
    """Whether a write-ahead log beside ``path`` holds frames not yet folded into the file."""
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > WAL_HEADER_BYTES
    except OSError:
        return False


def read_only_connector(uri: str) -> Callable[[], sqlite3.Connection]:
    def connect_read_only() -> sqlite3.Connection:
        conn = sqlite3.connect(
            uri,
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute("PRAGMA query_only = ON")
        return conn

    return connect_read_only


def open_read_only(
    cls: type[ProjectStore], path: Path, reason: str = READ_ONLY_REASON
) -> ProjectStore:
    """``cls`` (``ProjectStore``) open on ``path`` for a check; see the module."""
    inspect_signature(path)  # missing, a folder, a FIFO, not SQLite: refused before locking
    if not log_has_frames(path):
        inspect_store_file(path, without_log=True)  # another program's, newer, damaged
    lock = ProjectLock(path, shared=True)
    lock.acquire()
    folder: tempfile.TemporaryDirectory[str] | None = None
    try:
        if log_has_frames(path):  # the file alone may be half-folded: read it with its log
            check_sidecars(path)  # a log that is not this store's own is never applied
            folder = tempfile.TemporaryDirectory(prefix="taveer-check-")
            target = Path(folder.name) / "checked.taveer"
            shutil.copyfile(path, target)
            shutil.copyfile(
                path.with_name(path.name + "-wal"), target.with_name(target.name + "-wal")
            )
            inspect_store_file(target)
            uri = sqlite_uri(target, "ro")
        else:
            uri = sqlite_uri(path, "ro&immutable=1")
        db = StoreDatabase(path, connector=read_only_connector(uri))
        db.read_only_reason = reason
        store = cls(db, lock, on_close=folder.cleanup if folder is not None else None)
        store.schema_version  # noqa: B018 - opens the connection: a failure is seen here
        return store
    except BaseException:
        lock.release()
        if folder is not None:
            folder.cleanup()
        raise
