"""Bringing a store to the current schema version, one transaction per version step.

Before an existing store is changed, a complete copy is written beside it with SQLite's backup
API (``<name>.v<old>-backup-<UTC time>``), first to a temporary name and then renamed, so a
crash never leaves a half-written backup under the final name. Each step runs its statements
and ``PRAGMA user_version = n`` inside one ``BEGIN IMMEDIATE`` transaction; steps after the
first also write a ``store_migrated`` audit entry in that transaction when an existing store is
upgraded (building a new store from version 0 writes none). A failing step rolls back and
leaves the store at the last completed version. The step to version 6 also writes the
``records_sealed`` entry: the seal of every record then and the state root (``record_seal.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from taveer_desktop import __version__
from taveer_desktop.core.ground.atomic_file import FileWriteError, replacing
from taveer_desktop.store import audit_chain
from taveer_desktop.store.audit_actions import SEALING_ACTION
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.record_seal import current_state
from taveer_desktop.store.records import utc_now
from taveer_desktop.store.schema import MIGRATIONS
from taveer_desktop.store.state_replay import SEALED_FROM_VERSION, sealing_details
from taveer_desktop.store.store_file import describe_sqlite_error


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def backup_before_migrating(conn: sqlite3.Connection, path: Path, version: int) -> Path:
    """Copy the store beside itself before a migration; returns the backup's path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.v{version}-backup-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.v{version}-backup-{stamp}-{counter}")
    try:
        with replacing(target) as partial:
            destination = sqlite3.connect(partial)
            try:
                conn.backup(destination)
            finally:
                destination.close()
    except (sqlite3.Error, FileWriteError) as error:
        detail = describe_sqlite_error(error) if isinstance(error, sqlite3.Error) else str(error)
        raise StoreError(
            f"was not upgraded because its backup could not be written ({detail})", path
        ) from None
    return target


def migrate(
    conn: sqlite3.Connection,
    path: Path,
    migrations: Sequence[Sequence[str]] = MIGRATIONS,
    make_backup: bool = True,
) -> Path | None:
    """Apply every missing migration; returns the backup's path (None if none was needed)."""
    path = Path(path)
    start = schema_version(conn)
    target = len(migrations)
    if start >= target:
        return None
    backup = backup_before_migrating(conn, path, start) if make_backup and start > 0 else None
    actor = audit_chain.current_actor() if start > 0 else None
    for version in range(start, target):
        _apply_step(conn, path, version, migrations[version], actor)
    return backup


def _apply_step(
    conn: sqlite3.Connection,
    path: Path,
    version: int,
    statements: Sequence[str],
    actor: str | None,
) -> None:
    # A step may rebuild a table that others reference (SQLite's documented procedure: foreign
    # keys off outside the transaction, foreign_key_check before committing).
    enforced = conn.execute("PRAGMA foreign_keys").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        _run_step(conn, path, version, statements, actor)
    finally:
        conn.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")


def _run_step(
    conn: sqlite3.Connection,
    path: Path,
    version: int,
    statements: Sequence[str],
    actor: str | None,
) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        if schema_version(conn) != version:
            raise StoreError(f"changed version while being upgraded from {version}", path)
        for statement in statements:
            conn.execute(statement)
        if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
            raise StoreError(
                f"could not be upgraded from store version {version}: a reference between its "
                f"tables would break; it was left at version {version}",
                path,
            )
        if actor is not None and version + 1 == SEALED_FROM_VERSION:
            # the records as they are now are sealed: one entry with every seal (record_seal)
            details = sealing_details(current_state(conn))
            audit_chain.append_entry(conn, SEALING_ACTION, None, details, utc_now(), actor)
        if actor is not None:  # an existing store upgraded (a new one is built silently)
            audit_chain.append_entry(
                conn,
                "store_migrated",
                None,
                {"from_version": version, "to_version": version + 1, "software": __version__},
                utc_now(),
                actor,
            )
        conn.execute(f"PRAGMA user_version = {version + 1:d}")
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise StoreError(
                f"could not be upgraded from store version {version} to {version + 1} "
                f"({describe_sqlite_error(error)}); it was left at version {version}",
                path,
            ) from None
        raise
