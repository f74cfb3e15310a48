"""The digest of a case as it stands: what an examiner declares and a reviewer reviews.

A declaration and a technical review are of the case *as it stood* when they were made. Both
keep ``case_state_sha256``: the SHA-256 of the canonical JSON of ``["taveer-case-state-v1",
case id, {...}]`` over the case's descriptive fields and chosen model, every document of the
case (id, role, SHA-256 of the bytes and of the text, its exclusion reason), every stored run
(id, record SHA-256) and stability check, every validation record made for the case and every
validation declared relevant to it. Any later change of the case's evidence, runs or chosen
validation (or of its number, title, examiner, agency or description, which the report prints)
gives another digest, and the declaration and review made before it are then *stale*.

``changes_since`` names the audited entries of the case after a given entry that changed it,
so a stale review can say what changed. Entries that only record an event (a report written)
or a declaration or review themselves change nothing here.
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

from taveer_desktop.store.audit_chain import canonical_json
from taveer_desktop.store.records import AuditEntry

CASE_STATE_FORMAT = "taveer-case-state-v1"
# audited actions filed under a case that do not change what a declaration covers
NOT_CHANGES = frozenset(
    {"report_exported", "validation_report_exported", "case_declared", "case_reviewed"}
)


def _rows(conn: sqlite3.Connection, sql: str, case_id: int) -> list[list[Any]]:
    return [list(row) for row in conn.execute(sql, (case_id,))]


def case_state_sha256(conn: sqlite3.Connection, case_id: int) -> str:
    """The digest of case ``case_id`` as it stands now (see the module's docstring)."""
    fields = _rows(
        conn,
        "SELECT number, title, examiner, agency, description, model_id FROM cases WHERE id = ?",
        case_id,
    )
    state = {
        "case": fields[0] if fields else None,
        "documents": _rows(
            conn,
            "SELECT d.id, d.role, d.sha256, d.text_sha256, e.reason FROM documents d"
            " LEFT JOIN document_exclusions e ON e.document_id = d.id"
            " WHERE d.case_id = ? ORDER BY d.id",
            case_id,
        ),
        "runs": _rows(
            conn, "SELECT id, record_sha256 FROM runs WHERE case_id = ? ORDER BY id", case_id
        ),
        "stability_checks": _rows(
            conn,
            "SELECT s.id, s.run_id FROM stability_checks s JOIN runs r ON r.id = s.run_id"
            " WHERE r.case_id = ? ORDER BY s.id",
            case_id,
        ),
        "validations": _rows(
            conn,
            "SELECT id, record_sha256 FROM validation_records WHERE case_id = ? ORDER BY id",
            case_id,
        ),
        "validation_uses": _rows(
            conn,
            "SELECT id, validation_id FROM validation_uses WHERE case_id = ? ORDER BY id",
            case_id,
        ),
    }
    payload = canonical_json([CASE_STATE_FORMAT, case_id, state])
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def changes_since(entries: list[AuditEntry], after_seq: int) -> list[AuditEntry]:
    """The case's audited changes after entry ``after_seq`` (``entries``: the case's own)."""
    return [e for e in entries if e.seq > after_seq and e.action not in NOT_CHANGES]
