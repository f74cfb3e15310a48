"""One open project (a ``.taveer`` file): creating, opening, checking, copying and closing it.

``ProjectStore.open`` first inspects the file read-only (not a store, newer version or damaged
files are refused untouched), then takes the project lock, upgrades an older schema (after a
backup) and runs the integrity check. A store that fails the check stays open for reading but
refuses every change, so nothing is added on top of evidence that no longer verifies.

The work itself is done by repositories: ``store.cases``, ``store.documents``,
``store.models``, ``store.runs``, ``store.audit``, ``store.populations``, ``store.validations``,
``store.validation_uses`` and ``store.declarations``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from taveer_desktop import __version__, paths
from taveer_desktop.core.ground.atomic_file import FileWriteError, replacing
from taveer_desktop.store import audit_chain
from taveer_desktop.store.audit_repository import AuditRepository
from taveer_desktop.store.case_repository import CaseRepository
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.declaration_repository import DeclarationRepository
from taveer_desktop.store.document_repository import DocumentRepository
from taveer_desktop.store.errors import Conflict, DamagedStore, NewerStoreVersion, StoreError
from taveer_desktop.store.integrity import check_integrity
from taveer_desktop.store.migrations import migrate, schema_version
from taveer_desktop.store.model_repository import ModelRepository
from taveer_desktop.store.population_repository import (
    PopulationRepository,
    ValidationRepository,
)
from taveer_desktop.store.project_lock import ProjectLock
from taveer_desktop.store.records import IntegrityReport, utc_now
from taveer_desktop.store.run_repository import RunRepository
from taveer_desktop.store.schema import SCHEMA_VERSION
from taveer_desktop.store.sidecar_check import check_sidecars, refuse_special_sidecars
from taveer_desktop.store.store_file import (
    broken_link,
    connect,
    describe_sqlite_error,
    disk_full_reason,
    inspect_store_file,
)
from taveer_desktop.store.validation_use_repository import ValidationUseRepository
from taveer_desktop.store.value_types import refuse_foreign_values

if TYPE_CHECKING:
    from taveer_desktop.store.receipts import Receipt

PROJECT_SUFFIX = paths.PROJECT_SUFFIX


class ProjectStore:
    """An open project store. Use ``create``/``open``/``open_or_create``, then ``close``."""

    def __init__(
        self, db: StoreDatabase, lock: ProjectLock, on_close: Callable[[], None] | None = None
    ):
        self._db = db
        self._lock = lock
        if lock.held and not lock.shared:  # every write first confirms the file is still ours
            db.confirm_file = lock.confirm_still_named
        self._on_close = on_close
        self.path = db.path
        self.migration_backup: Path | None = None
        self.last_integrity_report: IntegrityReport | None = None
        self.cases = CaseRepository(db)
        self.documents = DocumentRepository(db)
        self.models = ModelRepository(db)
        self.runs = RunRepository(db)
        self.audit = AuditRepository(db)
        self.populations = PopulationRepository(db)
        self.validations = ValidationRepository(db)
        self.validation_uses = ValidationUseRepository(db)
        self.declarations = DeclarationRepository(db)

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path) -> ProjectStore:
        """Make a new, empty project at ``path`` (which must not exist yet) and open it.

        The store is built under ``.<name>.creating``, locked like any project file (a second
        creator of the same name is refused), and renamed into place when complete; the lock
        moves with it."""
        path = Path(path).expanduser().absolute()
        if not path.parent.is_dir():
            raise StoreError(f"cannot be created: the folder {path.parent} does not exist", path)
        broken = broken_link(path)
        if broken:
            raise StoreError(broken, path)
        if path.exists():
            raise Conflict("already exists; open it or choose another file name", path)
        building = path.with_name(f".{path.name}.creating")
        try:
            os.close(os.open(building, os.O_WRONLY | os.O_CREAT, 0o644))
        except OSError as error:
            raise StoreError(f"cannot be created ({error.strerror or error})", path) from None
        lock = ProjectLock(building)
        lock.acquire()
        try:
            if path.exists():
                raise Conflict("already exists; open it or choose another file name", path)
            _build_new_store(building, path)
            lock.store_path = path
            lock.adopt_new_file()
            return cls._open_locked(path, lock, verify=True)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def open(cls, path: str | Path, verify: bool = True) -> ProjectStore:
        """Open an existing project; ``verify`` runs the integrity check on open."""
        path = Path(path).expanduser().absolute()
        refuse_special_sidecars(path)  # a folder or FIFO named like SQLite's -wal, -shm
        inspect_store_file(path)  # read-only: refuses foreign, newer or damaged files untouched
        lock = ProjectLock(path)
        lock.acquire()
        try:
            check_sidecars(path)  # a -wal/-journal the store did not write is never replayed
            return cls._open_locked(path, lock, verify)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def open_for_check(cls, path: str | Path) -> ProjectStore:
        """Open a project to check it, changing nothing (``store/read_only_open.py``)."""
        from taveer_desktop.store.read_only_open import open_read_only

        return open_read_only(cls, Path(path).expanduser().absolute())

    @classmethod
    def open_for_reading(
        cls, path: str | Path, verify: bool = True, for_check: bool = False
    ) -> ProjectStore:
        """Open a project for a command that only reads, also beside a writer that holds it
        (``store/reading_open.py``); every change is refused. ``for_check``: never upgraded."""
        from taveer_desktop.store.read_only_open import READ_ONLY_REASON
        from taveer_desktop.store.reading_open import READING_REASON, open_for_reading

        path = Path(path).expanduser().absolute()
        if for_check:
            return open_for_reading(cls, path, verify, upgrade=False, reason=READ_ONLY_REASON)
        return open_for_reading(cls, path, verify, reason=READING_REASON)

    @classmethod
    def open_or_create(cls, path: str | Path) -> ProjectStore:
        path = Path(path).expanduser()
        return cls.open(path) if os.path.lexists(path) else cls.create(path)

    @classmethod
    def open_default(cls) -> ProjectStore:
        """The user's default project in the data directory (created on first use)."""
        return cls.open_or_create(paths.default_project_path())

    @classmethod
    def _open_locked(cls, path: Path, lock: ProjectLock, verify: bool) -> ProjectStore:
        db = StoreDatabase(path)
        try:
            conn = db.connection()
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                raise NewerStoreVersion(
                    f"was written by a newer TAVeer Desktop (store version {version})", path
                )
            store = cls(db, lock)
            store.migration_backup = migrate(conn, path)
            if verify:
                refuse_foreign_values(store.check_integrity(include_sqlite_check=False), path)
            return store
        except sqlite3.DatabaseError as error:
            db.close()
            full = disk_full_reason(path)
            if full:
                raise StoreError(f"cannot be opened: {full}", path) from None
            raise DamagedStore(
                f"is damaged and cannot be read ({describe_sqlite_error(error)})", path
            ) from None
        except BaseException:
            db.close()
            raise

    def transaction(self) -> AbstractContextManager[WriteTransaction]:
        """One transaction around several changes (``with store.transaction(): …``): the
        repositories' writes inside it join it, so all of them are stored or none."""
        return self._db.write()

    # -- state -------------------------------------------------------------------------------
    @property
    def read_only_reason(self) -> str | None:
        """Why changes are refused (None while the store accepts changes)."""
        return self._db.read_only_reason

    @property
    def schema_version(self) -> int:
        return schema_version(self._db.connection())

    def check_integrity(
        self, include_sqlite_check: bool = True, receipt: Receipt | None = None
    ) -> IntegrityReport:
        """Re-hash everything and verify the audit chain; a failure makes the store read-only.
        ``receipt``: also hold the store against it (``report.receipt``). The check is told the
        store's version: a project opened for a check is not upgraded."""
        try:
            conn = self._db.connection()
            report = check_integrity(
                conn, self.path, include_sqlite_check, schema_version(conn), receipt=receipt
            )
        except sqlite3.DatabaseError as error:
            raise self._db.translate(error) from None
        self.last_integrity_report = report
        if report.ok:
            if self._db.read_only_reason and self._db.read_only_reason.startswith("it failed"):
                self._db.read_only_reason = None
        else:
            self._db.read_only_reason = (
                f"it failed its integrity check ({report.problem_count()}); "
                "run the integrity check for details"
            )
        return report

    # -- copies and closing ------------------------------------------------------------------
    def save_copy(self, target: str | Path, overwrite: bool = False) -> Path:
        """Write a complete, consistent copy of the project to ``target`` (SQLite backup API)."""
        target = Path(target).expanduser().absolute()
        if target.resolve() == self.path.resolve():
            raise StoreError("cannot be copied onto itself", self.path)
        if target.exists() and not overwrite:
            raise Conflict("already exists; choose another name for the copy", target)
        if not target.parent.is_dir():
            raise StoreError(
                f"cannot be written: the folder {target.parent} does not exist", target
            )
        try:
            with replacing(target) as partial:
                destination = sqlite3.connect(partial)
                try:
                    self._db.connection().backup(destination)
                finally:
                    destination.close()
        except sqlite3.Error as error:
            detail = describe_sqlite_error(error)
            raise StoreError(f"could not be written as a copy ({detail})", target) from None
        except FileWriteError as error:
            reason = error.plain_message.removeprefix("cannot be written ")
            raise StoreError(f"could not be written as a copy {reason}", target) from None
        if not self.read_only_reason:
            self.audit.record_copy_saved(str(target), _file_sha256(target))
        return target

    def close(self) -> None:
        """Close all connections (the WAL is folded into the file), then release the lock."""
        try:
            self._db.close()
        finally:
            self._lock.release()
            if self._on_close is not None:
                self._on_close()

    def __enter__(self) -> ProjectStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def _build_new_store(building: Path, path: Path) -> None:
    """Create the schema in the (locked, empty) file ``building``, then move it to ``path``.

    Not ``core.atomic_file.replacing``: SQLite makes this file and its ``-wal``/``-shm``
    sidecars itself, and the fixed name ``.<name>.creating`` lets the next attempt find and
    reset what a crash left (sidecars included), which a random temporary name would not.
    """
    os.truncate(building, 0)
    for leftover in _sidecars(building):
        leftover.unlink(missing_ok=True)
    conn = connect(building, create=True)
    try:
        migrate(conn, building, make_backup=False)
        conn.execute("BEGIN IMMEDIATE")
        audit_chain.append_entry(
            conn,
            "project_created",
            None,
            {"file_name": path.name, "schema_version": SCHEMA_VERSION, "software": __version__},
            utc_now(),
            audit_chain.current_actor(),
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except BaseException:
        conn.close()
        for leftover in (building, *_sidecars(building)):
            leftover.unlink(missing_ok=True)
        raise
    conn.close()
    for sidecar in _sidecars(building):
        with contextlib.suppress(FileNotFoundError):
            sidecar.unlink()
    os.replace(building, path)


def _sidecars(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")
