"""Reading the audit trail and recording events that change nothing else (``store.audit``).

Entries are only ever appended by the write that they describe (see ``database.py``); the
recorders here are for events outside the store that still belong in the trail: a report (of a
case, or of a validation record) was exported, a copy of the project was saved, the examiner
signed the chain's head (a checkpoint, ``checkpoints.py``), or a validation of a case failed
without giving a model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taveer_desktop.store.audit_chain import AUDIT_COLUMNS, entry_from_row
from taveer_desktop.store.checkpoints import CHECKPOINT_ACTION, CheckpointKey, make_checkpoint
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import NotFound
from taveer_desktop.store.records import AuditEntry


class AuditRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def entries(self, case_id: int | None = None) -> list[AuditEntry]:
        """Audit entries in order: the whole project's, or only those about one case."""
        sql = f"SELECT {AUDIT_COLUMNS} FROM audit_log"
        params: tuple[int, ...] = ()
        if case_id is not None:
            sql += " WHERE case_id = ?"
            params = (case_id,)
        return [entry_from_row(row) for row in self._db.query(sql + " ORDER BY seq", params)]

    def head(self) -> AuditEntry | None:
        """The latest entry (its hash seals everything before it)."""
        row = self._db.query_one(f"SELECT {AUDIT_COLUMNS} FROM audit_log ORDER BY seq DESC LIMIT 1")
        return entry_from_row(row) if row else None

    def record_report_exported(
        self,
        case_id: int,
        file_name: str,
        sha256: str,
        run_ids: list[int],
        extra: Mapping[str, Any] | None = None,
    ) -> AuditEntry:
        """Note that a case report was written (its file name and SHA-256; ``extra``: whether
        it is final, the declaration and review it rests on, its signature)."""
        if self._db.query_one("SELECT 1 FROM cases WHERE id = ?", (case_id,)) is None:
            raise NotFound(f"has no case with id {case_id}", self._db.path)
        with self._db.write() as tx:
            return tx.audit(
                "report_exported",
                case_id,
                {
                    "file_name": file_name,
                    "sha256": sha256,
                    "run_ids": list(run_ids),
                    **(extra or {}),
                },
            )

    def record_validation_report_exported(
        self,
        validation_id: int,
        file_name: str,
        sha256: str,
        record_sha256: str,
        extra: Mapping[str, Any] | None = None,
    ) -> AuditEntry:
        """Note that the PDF report of a stored validation record was written (its file name
        and SHA-256, and the SHA-256 of the record it shows); filed under the record's case."""
        row = self._db.query_one(
            "SELECT case_id FROM validation_records WHERE id = ?", (validation_id,)
        )
        if row is None:
            raise NotFound(f"has no validation record with id {validation_id}", self._db.path)
        with self._db.write() as tx:
            return tx.audit(
                "validation_report_exported",
                row[0],
                {
                    "validation_id": validation_id,
                    "file_name": file_name,
                    "sha256": sha256,
                    "record_sha256": record_sha256,
                    **(extra or {}),
                },
            )

    def record_validation_failed(self, case_id: int, details: Mapping[str, Any]) -> AuditEntry:
        """Note that a validation of the case gave no model (``details``: what was asked and
        the reason; ``store/case_validation.py``)."""
        if self._db.query_one("SELECT 1 FROM cases WHERE id = ?", (case_id,)) is None:
            raise NotFound(f"has no case with id {case_id}", self._db.path)
        with self._db.write() as tx:
            return tx.audit("validation_failed", case_id, dict(details))

    def record_copy_saved(self, target: str, sha256: str) -> AuditEntry:
        """Note that a copy of the whole project was saved (where, and its SHA-256)."""
        with self._db.write() as tx:
            return tx.audit("project_copy_saved", None, {"target": target, "sha256": sha256})

    def record_checkpoint(self, key: CheckpointKey, case_id: int | None) -> AuditEntry:
        """Sign the chain's head with the examiner's ``key`` and keep the checkpoint as the
        next entry (inside the caller's transaction when there is one, so the head signed is
        the entry just written)."""
        with self._db.write() as tx:
            head = tx.conn.execute(
                "SELECT seq, entry_hash FROM audit_log ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            first = tx.conn.execute("SELECT entry_hash FROM audit_log WHERE seq = 1").fetchone()
            if head is None or first is None:
                raise NotFound("has no audit entry to sign", self._db.path)
            details = make_checkpoint(key, first[0], head[0], head[1], tx.time_utc)
            return tx.audit(CHECKPOINT_ACTION, case_id, details)
