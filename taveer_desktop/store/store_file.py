"""Recognising a project file without touching it, and opening SQLite connections to it.

``inspect_store_file`` reads the 16-byte SQLite signature with plain file I/O and then asks
SQLite through a read-only URI (``mode=ro``, plus ``immutable=1`` when there is no write-ahead
log, so that not even ``-wal``/``-shm`` files are created beside a refused file); a log left
behind by a crash is honoured. The database file itself is never written. It tells apart: a
missing path, a folder, an empty or non-SQLite file, an SQLite file of another program, a store
written by a newer version, and a damaged file. ``connect`` opens a read-write connection with
the house settings: foreign keys on, WAL, ``synchronous=FULL`` (evidence must survive a power
cut), a busy timeout, and autocommit mode so that every write is an explicit
``BEGIN IMMEDIATE … COMMIT``.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import stat
from pathlib import Path
from typing import Any, TypeAlias

from taveer_desktop.store.errors import (
    DamagedStore,
    NewerStoreVersion,
    NotAProjectStore,
    StoreError,
)
from taveer_desktop.store.schema import APPLICATION_ID, SCHEMA_VERSION

SQLITE_SIGNATURE = b"SQLite format 3\x00"

# One row as SQLite returns it: its values are typed as stored, which the store's readers check.
Row: TypeAlias = tuple[Any, ...]
# The parameters of one statement: by position or by name.
Params: TypeAlias = tuple[Any, ...] | dict[str, Any]
BUSY_TIMEOUT_MS = 5000
WAL_HEADER_BYTES = 32  # a log no longer than its header holds no frames


def sqlite_uri(path: Path, mode: str) -> str:
    """A ``file:`` URI for ``path`` (special characters escaped) with the given query."""
    return f"{Path(path).resolve().as_uri()}?mode={mode}"


def _read_only_uri(path: Path, immutable: bool = False) -> str:
    """Read-only URI that creates no ``-wal``/``-shm`` files beside a cleanly closed store.

    Without a write-ahead log holding frames the file holds everything, so it is read as
    immutable (no locks, no shared-memory file). A log with frames, left by a crash or by a
    process using the store, is honoured by a normal read-only open.
    """
    wal = path.with_name(path.name + "-wal")
    try:
        frames = wal.stat().st_size > WAL_HEADER_BYTES
    except OSError:
        frames = False
    return sqlite_uri(path, "ro" if frames and not immutable else "ro&immutable=1")


LOW_DISK_BYTES = 1024 * 1024


def disk_full_reason(path: Path, claim: bool = True) -> str | None:
    """ "the disk holding it is full (… bytes free)" when the store's folder has next to no
    room (with "; nothing was changed" when ``claim``: said while opening, before any write).

    SQLite reports a full disk while opening (the shared-memory index or the log cannot grow)
    as a "disk I/O error", which must not be mistaken for damage.
    """
    try:
        free = shutil.disk_usage(Path(path).parent).free
    except OSError:
        return None
    if free >= LOW_DISK_BYTES:
        return None
    said = f"the disk holding it is full ({free:,} bytes free)"
    return f"{said}; nothing was changed" if claim else said


def file_size_limit() -> int | None:
    """This process's limit on the size of a file it writes (``ulimit -f``), None if none.

    A write past it fails like a full disk (EFBIG, or SQLite's "disk I/O error") while the
    disk itself is far from full, so the message must name the limit."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows has no such limit
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def describe_sqlite_error(error: sqlite3.Error) -> str:
    """A short plain description of an SQLite error for a one-sentence message."""
    text = str(error).strip() or type(error).__name__
    return text[0].lower() + text[1:] if text else text


def broken_link(path: Path) -> str | None:
    """Why ``path`` is a symbolic link that leads to no file (None: it is none). Such a name is
    never taken for "no file yet": a new project written there would replace the link, and the
    examiner would work in an empty project believing it theirs."""
    if not os.path.islink(path) or path.exists():
        return None
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a link that loops back on itself, not a project file"
    return f"is a link to {os.readlink(path)}, which does not exist; it was left as it is"


def _read_signature(path: Path) -> bytes:
    broken = broken_link(path)
    if broken:
        raise StoreError(broken, path)
    if not path.exists():
        raise StoreError("no such project file", path)
    if path.is_dir():
        raise StoreError("is a folder, not a project file", path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a FIFO would block the open below forever
            raise StoreError("is not a regular file, so it is not a project file", path)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read(len(SQLITE_SIGNATURE))
    except PermissionError:
        raise StoreError("cannot be read (permission denied)", path) from None
    except OSError as error:
        raise StoreError(f"cannot be read ({error.strerror or error})", path) from None


def inspect_signature(path: Path) -> None:
    """Refuse, from its first bytes alone, a path that is no SQLite file (missing, a folder, not
    a regular file, empty, another format); reads 16 bytes and nothing else."""
    signature = _read_signature(path)
    if not signature:
        raise NotAProjectStore("is empty, not a TAVeer project file", path)
    if signature != SQLITE_SIGNATURE:
        raise NotAProjectStore("is not a TAVeer project file (it is not an SQLite database)", path)


def inspect_store_file(path: Path, without_log: bool = False) -> int:
    """Schema version of the project store at ``path``; raises a ``StoreError`` otherwise.

    Never modifies the file. A store newer than this program raises ``NewerStoreVersion``.
    ``without_log``: read the file alone, even if a log lies beside it (SQLite would otherwise
    write into the log's shared-memory index while reading).
    """
    path = Path(path)
    inspect_signature(path)
    try:
        conn = sqlite3.connect(
            _read_only_uri(path, without_log), uri=True, timeout=BUSY_TIMEOUT_MS / 1000
        )
    except sqlite3.Error as error:
        raise DamagedStore(
            f"cannot be opened as a database ({describe_sqlite_error(error)})", path
        ) from None
    try:
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        full = disk_full_reason(path)
        if full and "i/o" in describe_sqlite_error(error).lower():
            raise StoreError(f"cannot be opened: {full}", path) from None
        raise DamagedStore(
            f"is damaged and cannot be read ({describe_sqlite_error(error)})", path
        ) from None
    finally:
        conn.close()
    if application_id != APPLICATION_ID:
        raise NotAProjectStore(
            "is an SQLite database of another program, not a TAVeer project file", path
        )
    if version > SCHEMA_VERSION:
        raise NewerStoreVersion(
            f"was written by a newer TAVeer Desktop (store version {version}; this version "
            f"reads up to {SCHEMA_VERSION}); open it with the newer version",
            path,
        )
    if version < 1:
        raise DamagedStore("is marked as a TAVeer project but has no schema version", path)
    return int(version)


def connect(path: Path, create: bool = False) -> sqlite3.Connection:
    """A read-write connection with the store's settings (``create`` allows a new file)."""
    path = Path(path)
    try:
        conn = sqlite3.connect(
            sqlite_uri(path, "rwc" if create else "rw"),
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as error:
        raise StoreError(f"cannot be opened ({describe_sqlite_error(error)})", path) from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.Error as error:
        conn.close()
        full = disk_full_reason(path)
        if full:
            raise StoreError(f"cannot be opened for writing: {full}", path) from None
        limit = file_size_limit()
        if limit is not None:
            raise StoreError(
                f"cannot be opened for writing ({describe_sqlite_error(error)}; this process "
                f"may not write files over {limit:,} bytes, ulimit -f); nothing was changed",
                path,
            ) from None
        raise StoreError(
            f"cannot be opened for writing ({describe_sqlite_error(error)})", path
        ) from None
    if str(mode).lower() != "wal":
        conn.close()
        raise StoreError(f"cannot use write-ahead logging (journal mode is {mode})", path)
    return conn
