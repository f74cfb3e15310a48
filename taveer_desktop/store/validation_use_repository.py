"""Declared uses of a stored validation for another case (store version 5).

A lab validates once, over the range of conditions its casework has, and relies on that
validation in many cases. ``ValidationUseRepository.declare`` links a stored validation record
(and so the model it produced) to a case other than the one it was run for, with the examiner's
declaration of why the record's population is relevant to that case. The link is kept with one
``validation_used`` audit entry (``use_id``, ``case_id``, ``validation_id``, ``model_id``,
``record_sha256``, ``reason``) in one transaction; it cannot be changed or deleted, and a record
is declared for a case at most once.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import Conflict, NotFound, StoreError

MIN_REASON_CHARS = 10


@dataclass(frozen=True)
class StoredValidationUse:
    id: int
    case_id: int
    validation_id: int
    reason: str
    declared_utc: str


_COLUMNS = "id, case_id, validation_id, reason, declared_utc"


class ValidationUseRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def declare(self, case_id: int, validation_id: int, reason: str) -> StoredValidationUse:
        """Link validation record ``validation_id`` to case ``case_id`` with the examiner's
        ``reason`` (why its population is relevant to this case); audited."""
        reason = reason.strip()
        if len(reason) < MIN_REASON_CHARS:
            raise StoreError(
                "needs the examiner's reason why the validation's population is relevant to "
                f"the case (at least {MIN_REASON_CHARS} characters)",
                self._db.path,
            )
        with self._db.write() as tx:
            if tx.execute("SELECT 1 FROM cases WHERE id = ?", (case_id,)).fetchone() is None:
                raise NotFound(f"has no case with id {case_id}", self._db.path)
            row = tx.execute(
                "SELECT case_id, model_id, record_sha256 FROM validation_records WHERE id = ?",
                (validation_id,),
            ).fetchone()
            if row is None:
                raise NotFound(f"has no validation record with id {validation_id}", self._db.path)
            own_case, model_id, record_sha = row
            if own_case == case_id:
                raise Conflict(
                    f"already holds validation record {validation_id} as an attempt of this "
                    "case: it needs no declaration",
                    self._db.path,
                )
            try:
                use_id = tx.insert(
                    "INSERT INTO validation_uses (case_id, validation_id, reason, declared_utc)"
                    " VALUES (?, ?, ?, ?)",
                    (case_id, validation_id, reason, tx.time_utc),
                )
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"already links validation record {validation_id} to this case",
                    self._db.path,
                ) from None
            tx.audit(
                "validation_used",
                case_id,
                {
                    "use_id": use_id,
                    "case_id": case_id,
                    "validation_id": validation_id,
                    "model_id": model_id,
                    "record_sha256": record_sha,
                    "reason": reason,
                },
            )
        return self.get(use_id)

    def get(self, use_id: int) -> StoredValidationUse:
        row = self._db.query_one(f"SELECT {_COLUMNS} FROM validation_uses WHERE id = ?", (use_id,))
        if row is None:
            raise NotFound(f"has no declared use of a validation with id {use_id}", self._db.path)
        return StoredValidationUse(*row)

    def for_case(self, case_id: int) -> list[StoredValidationUse]:
        """The validations declared for a case, oldest first."""
        return [
            StoredValidationUse(*row)
            for row in self._db.query(
                f"SELECT {_COLUMNS} FROM validation_uses WHERE case_id = ? ORDER BY id",
                (case_id,),
            )
        ]

    def list_all(self) -> list[StoredValidationUse]:
        return [
            StoredValidationUse(*row)
            for row in self._db.query(f"SELECT {_COLUMNS} FROM validation_uses ORDER BY id")
        ]
