"""Evidence documents of a case: intake into the store, listing, reading back (``store.documents``).

``add`` reads and checks every file first (outside any transaction), then stores the accepted
ones in a single transaction with one ``document_added`` audit entry each. A file whose SHA-256
is already in the case, or appears twice in the batch, is refused as a duplicate. Unless the
caller asks to skip refused files, any refusal stores nothing at all. Reading a document's
bytes or text re-hashes them, so altered evidence is never handed out silently.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.errors import (
    Conflict,
    DamagedStore,
    EvidenceRefused,
    IntakeRejected,
    NotFound,
    StoreError,
)
from taveer_desktop.store.fingerprints import sha256_hex, text_sha256
from taveer_desktop.store.intake import PreparedDocument, prepare_document
from taveer_desktop.store.records import (
    DOCUMENT_ROLES,
    Document,
    IntakeRejection,
    IntakeResult,
    RejectionReason,
)
from taveer_desktop.store.store_file import Row

_Stored = TypeVar("_Stored", bytes, str)  # a document's original bytes or its text

DOCUMENT_COLUMNS = (
    "d.id, d.case_id, d.role, d.file_name, d.file_format, d.byte_count, d.sha256, d.encoding,"
    " d.text_sha256, d.char_count, d.sentence_count, d.imported_utc, x.reason, x.excluded_utc,"
    " d.metadata_json"
)
DOCUMENT_SOURCE = "documents d LEFT JOIN document_exclusions x ON x.document_id = d.id"


def document_from_row(row: Row) -> Document:
    """A ``Document`` of a row of ``DOCUMENT_COLUMNS``."""
    doc_id, case_id, role, name, file_format, byte_count, sha, encoding, text_sha = row[:9]
    char_count, sentence_count, imported_utc, excluded_reason, excluded_utc = row[9:14]
    metadata_json = row[14]
    try:
        metadata = json.loads(metadata_json)
    except (TypeError, ValueError):
        metadata = {"unreadable_metadata": str(metadata_json)}
    return Document(
        doc_id,
        case_id,
        role,
        name,
        file_format,
        byte_count,
        sha,
        encoding,
        text_sha,
        char_count,
        sentence_count,
        imported_utc,
        excluded_reason,
        excluded_utc,
        metadata=metadata,
    )


def _rejection(error: EvidenceRefused, path: str) -> IntakeRejection:
    return IntakeRejection(path, RejectionReason(error.reason), error.plain_message)


class DocumentRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    # -- intake ------------------------------------------------------------------------------
    def add(
        self,
        case_id: int,
        role: str,
        paths: Iterable[str | Path],
        skip_rejected: bool = False,
        progress: Progress = NO_PROGRESS,
        encoding: str | None = None,
    ) -> IntakeResult:
        """Import evidence files into a case as ``known`` or ``questioned`` documents.

        Every file is read and checked first (a ``progress.step`` before each, which raises
        ``Cancelled`` with nothing written once cancelling was asked), then
        the accepted ones are stored in one transaction. ``encoding`` is the examiner's choice
        of encoding for text files (None: detected); the choice is recorded in the audit entry.
        """
        if role not in DOCUMENT_ROLES:
            raise ValueError(f"role must be one of {DOCUMENT_ROLES}, not {role!r}")
        case_number = self._case_number(case_id)
        prepared: list[PreparedDocument] = []
        rejected: list[IntakeRejection] = []
        paths = list(paths)
        for index, path in enumerate(paths):
            progress.step(index, len(paths) + 1, f"checking {Path(path).name}")
            try:
                prepared.append(prepare_document(path, encoding))
            except EvidenceRefused as error:
                rejected.append(_rejection(error, str(path)))
        accepted = self._drop_duplicates(case_id, case_number, prepared, rejected)
        if rejected and not skip_rejected:
            raise IntakeRejected(_summary(rejected, len(accepted)), None, rejected)
        progress.step(len(paths), len(paths) + 1, "storing the documents")
        added_ids = self._insert(case_id, case_number, role, accepted) if accepted else []
        return IntakeResult(tuple(self.get(doc_id) for doc_id in added_ids), tuple(rejected))

    def _case_number(self, case_id: int) -> str:
        row = self._db.query_one("SELECT number FROM cases WHERE id = ?", (case_id,))
        if row is None:
            raise NotFound(f"has no case with id {case_id}", self._db.path)
        return str(row[0])

    def _drop_duplicates(
        self,
        case_id: int,
        case_number: str,
        prepared: list[PreparedDocument],
        rejected: list[IntakeRejection],
    ) -> list[PreparedDocument]:
        seen: dict[str, str] = {}
        accepted = []
        for doc in prepared:
            existing = self._db.query_one(
                "SELECT id, file_name FROM documents WHERE case_id = ? AND sha256 = ?",
                (case_id, doc.sha256),
            )
            if existing is not None:
                message = (
                    f"is a duplicate of document {existing[0]} ({existing[1]}) already in case "
                    f"{case_number} (same SHA-256)"
                )
            elif doc.sha256 in seen:
                message = f"is a duplicate of {seen[doc.sha256]} in the same import (same SHA-256)"
            else:
                seen[doc.sha256] = doc.source_path
                accepted.append(doc)
                continue
            rejected.append(IntakeRejection(doc.source_path, RejectionReason.DUPLICATE, message))
        return accepted

    def _insert(
        self, case_id: int, case_number: str, role: str, documents: list[PreparedDocument]
    ) -> list[int]:
        ids = []
        with self._db.write() as tx:
            # the case row changes first, so each entry carries the case's seal after the import
            tx.execute("UPDATE cases SET modified_utc = ? WHERE id = ?", (tx.time_utc, case_id))
            for doc in documents:
                try:
                    doc_id = tx.insert(
                        "INSERT INTO documents (case_id, role, file_name, file_format,"
                        " byte_count, sha256, encoding, text_sha256, char_count, sentence_count,"
                        " imported_utc, metadata_json, text, original_bytes)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            case_id,
                            role,
                            doc.file_name,
                            doc.file_format,
                            len(doc.data),
                            doc.sha256,
                            doc.encoding,
                            doc.text_sha256,
                            doc.char_count,
                            doc.sentence_count,
                            tx.time_utc,
                            json.dumps(doc.metadata, ensure_ascii=False, sort_keys=True),
                            doc.text,
                            doc.data,
                        ),
                    )
                except sqlite3.IntegrityError:  # another connection added it meanwhile
                    raise Conflict(
                        f"{doc.source_path} is already in case {case_number}; nothing was imported",
                        self._db.path,
                    ) from None
                ids.append(doc_id)
                tx.audit(
                    "document_added",
                    case_id,
                    {
                        "document_id": doc_id,
                        "case_number": case_number,
                        "role": role,
                        "file_name": doc.file_name,
                        "file_format": doc.file_format,
                        "source_path": doc.metadata.get("source_path", doc.source_path),
                        "byte_count": len(doc.data),
                        "sha256": doc.sha256,
                        "text_sha256": doc.text_sha256,
                        "encoding": doc.encoding,
                        **_encoding_audit(doc),
                    },
                )
        return ids

    def remove(self, document_id: int, reason: str) -> None:
        """Take a document out of its case (refused once a stored run used it)."""
        reason = (reason or "").strip()
        if not reason:
            raise StoreError("removing evidence needs a reason for the audit log", self._db.path)
        doc = self.get(document_id)
        with self._db.write() as tx:
            # the entry is written before the rows go, so it names their last seals
            tx.execute("UPDATE cases SET modified_utc = ? WHERE id = ?", (tx.time_utc, doc.case_id))
            tx.audit(
                "document_removed",
                doc.case_id,
                {
                    "document_id": doc.id,
                    "file_name": doc.file_name,
                    "sha256": doc.sha256,
                    "reason": reason,
                },
            )
            try:
                _delete_with_permit(tx, "exclusion", "document_exclusions", "document_id", doc.id)
                _delete_with_permit(tx, "document", "documents", "id", doc.id)
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"keeps document {document_id} ({doc.file_name}) because a stored "
                    "verification run used it",
                    self._db.path,
                ) from None

    # -- reading -----------------------------------------------------------------------------
    def list_for_case(self, case_id: int, role: str | None = None) -> list[Document]:
        """Documents of a case in import order, optionally only one role."""
        sql = f"SELECT {DOCUMENT_COLUMNS} FROM {DOCUMENT_SOURCE} WHERE d.case_id = ?"
        params: tuple[int | str, ...] = (case_id,)
        if role is not None:
            sql += " AND d.role = ?"
            params += (role,)
        return [document_from_row(row) for row in self._db.query(sql + " ORDER BY d.id", params)]

    def in_use(self, case_id: int, role: str) -> list[Document]:
        """The documents of a role that a new verification uses (excluded ones left out)."""
        return [d for d in self.list_for_case(case_id, role) if not d.excluded]

    def exclude(self, document_id: int, reason: str) -> Document:
        """Leave a document out of later runs; it stays stored, earlier runs keep their record."""
        reason = (reason or "").strip()
        if not reason:
            raise StoreError("excluding evidence needs a reason for the audit log", self._db.path)
        doc = self.get(document_id)
        if doc.excluded:
            raise Conflict(
                f"has document {document_id} ({doc.file_name}) excluded already", self._db.path
            )
        with self._db.write() as tx:
            tx.execute(
                "INSERT INTO document_exclusions (document_id, reason, excluded_utc)"
                " VALUES (?, ?, ?)",
                (document_id, reason, tx.time_utc),
            )
            tx.execute("UPDATE cases SET modified_utc = ? WHERE id = ?", (tx.time_utc, doc.case_id))
            tx.audit(
                "document_excluded",
                doc.case_id,
                {
                    "document_id": doc.id,
                    "file_name": doc.file_name,
                    "role": doc.role,
                    "sha256": doc.sha256,
                    "reason": reason,
                },
            )
        return self.get(document_id)

    def include(self, document_id: int, reason: str) -> Document:
        """Undo an exclusion (audited with its reason)."""
        reason = (reason or "").strip()
        if not reason:
            raise StoreError("including evidence again needs a reason", self._db.path)
        doc = self.get(document_id)
        if not doc.excluded:
            raise Conflict(
                f"has document {document_id} ({doc.file_name}) not excluded", self._db.path
            )
        with self._db.write() as tx:
            tx.execute("UPDATE cases SET modified_utc = ? WHERE id = ?", (tx.time_utc, doc.case_id))
            tx.audit(  # before the row goes: the entry names its last seal
                "document_included",
                doc.case_id,
                {"document_id": doc.id, "sha256": doc.sha256, "reason": reason},
            )
            _delete_with_permit(tx, "exclusion", "document_exclusions", "document_id", doc.id)
        return self.get(document_id)

    def get(self, document_id: int) -> Document:
        row = self._db.query_one(
            f"SELECT {DOCUMENT_COLUMNS} FROM {DOCUMENT_SOURCE} WHERE d.id = ?", (document_id,)
        )
        if row is None:
            raise NotFound(f"has no document with id {document_id}", self._db.path)
        return document_from_row(row)

    def original_bytes(self, document_id: int) -> bytes:
        """The document exactly as received, after checking it still matches its SHA-256."""
        return self._verified(
            document_id,
            "original_bytes",
            "sha256",
            bytes,
            sha256_hex,
            "bytes no longer match their SHA-256",
        )

    def text(self, document_id: int) -> str:
        """The document's decoded text, after checking it still matches its SHA-256."""
        return self._verified(
            document_id,
            "text",
            "text_sha256",
            str,
            text_sha256,
            "text no longer matches its SHA-256",
        )

    def _verified(
        self,
        document_id: int,
        column: str,
        hash_column: str,
        kind: type[_Stored],
        digest: Callable[[_Stored], str],
        mismatch: str,
    ) -> _Stored:
        """One stored column of a document, refused if it no longer matches its stored hash."""
        row = self._db.query_one(
            f"SELECT {column}, {hash_column} FROM documents WHERE id = ?", (document_id,)
        )
        if row is None:
            raise NotFound(f"has no document with id {document_id}", self._db.path)
        value, expected = row
        if not isinstance(value, kind) or digest(value) != expected:
            raise DamagedStore(f"holds document {document_id} whose {mismatch}", self._db.path)
        return value


def _encoding_audit(doc: PreparedDocument) -> dict[str, Any]:
    """How the encoding of a text file was found, for its ``document_added`` entry."""
    detection = doc.metadata.get("encoding_detection")
    if not isinstance(detection, dict):
        return {}
    entry = {
        "encoding_method": detection.get("method"),
        "encoding_confidence": detection.get("confidence"),
    }
    if detection.get("alternative"):
        entry["encoding_alternative"] = detection["alternative"]
    return entry


def _summary(rejected: list[IntakeRejection], accepted_count: int) -> str:
    if len(rejected) == 1:
        only = rejected[0]
        return f"{only.path}: {only.message}; nothing was imported"
    reasons = "; ".join(f"{r.path} ({r.reason.value.replace('_', ' ')})" for r in rejected)
    return (
        f"{len(rejected)} of {len(rejected) + accepted_count} files were refused and nothing "
        f"was imported: {reasons}"
    )


def _delete_with_permit(
    tx: WriteTransaction, kind: str, table: str, key: str, object_id: int
) -> None:
    """Delete rows the guard triggers protect: the permit for exactly this row is written and
    consumed inside the caller's audited transaction (schema version 3)."""
    tx.execute("INSERT INTO removal_permits (kind, object_id) VALUES (?, ?)", (kind, object_id))
    tx.execute(f"DELETE FROM {table} WHERE {key} = ?", (object_id,))
    tx.execute("DELETE FROM removal_permits WHERE kind = ? AND object_id = ?", (kind, object_id))
