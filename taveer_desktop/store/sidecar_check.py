"""Refusing a write-ahead log or rollback journal beside a store that the store did not write.

A folder, FIFO or device under the name of one of SQLite's files beside the store (``-wal``,
``-shm``, ``-journal``) is refused first: SQLite would open the store without being able to
write it, and every change would then fail half-way through a command.

SQLite applies whatever ``-wal`` file lies beside a database when it opens it: nothing in the
log names the database it belongs to. A log copied from another project (or another copy of
this one) would be replayed silently into this store. ``check_sidecars`` runs after the project
lock is taken and before any read-write connection:

- a non-empty ``-journal`` is refused outright: the store only ever runs in WAL mode, so a
  rollback journal beside it was not written by it;
- a ``-wal`` holding frames (a crash left it, or it was placed there) is tried on a private copy
  of the store in a temporary folder: the copy must open, pass SQLite's quick check, carry the
  store's application id, and its audit chain must continue the chain in the store file as it
  is without the log (every entry already in the file, unchanged, in order). Anything else is
  refused; the log is left where it is for the examiner to look at.

Limit: a log from a byte-identical copy of this project that only *adds* audited entries is a
continuation by this test and is applied. The check costs one copy of the store file, and only
when a log with frames is found (a cleanly closed store has none).
"""

from __future__ import annotations

import shutil
import sqlite3
import stat
import tempfile
from pathlib import Path

from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.schema import APPLICATION_ID
from taveer_desktop.store.store_file import WAL_HEADER_BYTES


class ForeignLog(StoreError):
    """A ``-wal`` or ``-journal`` beside the store was not written by it; nothing was applied."""


def _chain(uri: str) -> list[tuple[int, str]]:
    conn = sqlite3.connect(uri, uri=True)
    try:
        return conn.execute("SELECT seq, entry_hash FROM audit_log ORDER BY seq").fetchall()
    finally:
        conn.close()


def _refuse(path: Path, log: Path, why: str) -> ForeignLog:
    return ForeignLog(
        f"has a log file {log.name} beside it that {why}; it was not applied. Move {log.name} "
        "out of the folder (keep it if it may matter) and open the project again",
        path,
    )


def refuse_special_sidecars(path: Path) -> None:
    """Raise ``ForeignLog`` when a folder, FIFO or device holds the name of a SQLite file
    beside ``path`` (before anything opens the store: SQLite would try to use it)."""
    path = Path(path)
    for suffix in ("-wal", "-shm", "-journal"):  # SQLite's own files: regular files only
        beside = path.with_name(path.name + suffix)
        try:
            mode = beside.stat().st_mode
        except OSError:
            continue  # nothing there (a broken link: SQLite makes the file itself)
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a special file (FIFO or device)"
            raise ForeignLog(
                f"has {kind} named {beside.name} beside it, where SQLite keeps a file of its "
                f"own; nothing was changed. Move {beside.name} out of the folder and open the "
                "project again",
                path,
            )


def check_sidecars(path: Path) -> None:
    """Raise ``ForeignLog`` when a log beside ``path`` is not this store's own continuation."""
    path = Path(path)
    refuse_special_sidecars(path)
    journal = path.with_name(path.name + "-journal")
    if journal.exists() and journal.stat().st_size > 0:
        raise _refuse(path, journal, "this program never writes (the store keeps a WAL log)")
    wal = path.with_name(path.name + "-wal")
    if not wal.exists() or wal.stat().st_size <= WAL_HEADER_BYTES:
        return
    try:
        file_chain = _chain(f"{path.as_uri()}?mode=ro&immutable=1")
    except sqlite3.DatabaseError:
        return  # the store file itself is unreadable: the open's own checks say so
    with tempfile.TemporaryDirectory(prefix="taveer-log-check-") as folder:
        trial = Path(folder) / "trial.taveer"
        shutil.copyfile(path, trial)
        shutil.copyfile(wal, trial.with_name(trial.name + "-wal"))
        try:
            conn = sqlite3.connect(trial)
            try:
                quick = conn.execute("PRAGMA quick_check").fetchone()[0]
                application_id = conn.execute("PRAGMA application_id").fetchone()[0]
                trial_chain = conn.execute(
                    "SELECT seq, entry_hash FROM audit_log ORDER BY seq"
                ).fetchall()
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            raise _refuse(path, wal, "damages the store when applied") from None
    if quick != "ok" or application_id != APPLICATION_ID:
        raise _refuse(path, wal, "damages the store when applied")
    if trial_chain[: len(file_chain)] != file_chain:
        raise _refuse(path, wal, "does not continue this project's audit chain")
