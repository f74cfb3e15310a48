"""Reconciliation: does every object the audit chain says was added still exist as recorded?

The integrity check already verifies each row against its own audit entry (hashes, a case's
last recorded details). This is the other direction, which caught nothing before: a document,
run, model or case whose ``*_added``/``*_stored``/``case_created`` entry is in the chain must
still exist unless a later audited removal names it (``document_removed``, or any
``<kind>_removed``/``<kind>_deleted`` entry carrying its id), and a document must still have
the role, case and file name its entry recorded. A plain ``DELETE``, turning a known document
into a questioned one, or moving it to another case is therefore reported, not silently
accepted. Rows the chain does not know of are reported by the row-side checks.

The state the examiner set is held to the chain both ways too (store version 2): which
documents are excluded and why (the last ``document_excluded``/``document_included`` entry of
each document), the model chosen for each case (the last ``case_model_chosen`` entry), and every
stored stability check (its ``stability_stored`` entry, figure for figure).

From store version 4 the populations (``population_added``) and validation records
(``validation_stored``) are held to the chain the same way: an entry whose row is gone is
reported (the row side — bytes, documents, links — is checked in ``integrity.py``); from version
5 so are the declared uses of a validation for another case (``validation_used``).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from taveer_desktop.store.audit_chain import details_of
from taveer_desktop.store.records import IntegrityProblem
from taveer_desktop.store.store_file import Row

# (kind shown, table, audit action that added it, id key in that action's details)
_KINDS = (
    ("document", "documents", "document_added", "document_id"),
    ("run", "runs", "run_stored", "run_id"),
    ("model", "models", "model_added", "model_id"),
    ("case", "cases", "case_created", "case_id"),
    ("population", "populations", "population_added", "population_id"),
    ("validation", "validation_records", "validation_stored", "validation_id"),
    ("validation use", "validation_uses", "validation_used", "use_id"),
)


# an object's audit entry: (its sequence number, its case id, its details)
_Added = tuple[int, int | None, dict[str, Any]]


def reconciliation_problems(conn: sqlite3.Connection, entries: list[Row]) -> list[IntegrityProblem]:
    """Objects recorded by the chain that are gone or changed (``entries`` as in the check)."""
    added: dict[str, dict[int, _Added]] = {k[0]: {} for k in _KINDS}
    removed: dict[str, set[int]] = {k[0]: set() for k in _KINDS}
    for seq, _time, action, case_id, _actor, details_json, _prev, _hash in entries:
        for kind, _table, add_action, key in _KINDS:
            if action == add_action:
                details = details_of(details_json)
                object_id = details.get(key, case_id if kind == "case" else None)
                if isinstance(object_id, int):
                    added[kind][object_id] = (seq, case_id, details)
                    removed[kind].discard(object_id)
            elif action in (f"{kind}_removed", f"{kind}_deleted"):
                object_id = details_of(details_json).get(key)
                if isinstance(object_id, int):
                    removed[kind].add(object_id)
    problems = []
    for kind, table, _action, _key in _KINDS:
        present = {row[0] for row in conn.execute(f"SELECT id FROM {table}")}
        for object_id, (seq, _case, _recorded) in sorted(added[kind].items()):
            if object_id not in present and object_id not in removed[kind]:
                problems.append(
                    IntegrityProblem(
                        kind,
                        f"{kind} {object_id}",
                        f"is missing: audit entry {seq} recorded it and no audited removal "
                        "followed (it was deleted outside the program)",
                    )
                )
    problems += _document_field_problems(conn, added["document"])
    problems += _examiner_state_problems(conn, entries)
    return problems


def _examiner_state_problems(
    conn: sqlite3.Connection, entries: list[Row]
) -> list[IntegrityProblem]:
    excluded: dict[int, str | None] = {}  # document → reason recorded last (None: included)
    chosen: dict[int, int | None] = {}  # case → model recorded last
    checks: dict[int, dict[str, Any]] = {}  # stability check id → its entry's details
    for _seq, _time, action, case_id, _actor, details_json, _prev, _hash in entries:
        if action not in ("document_excluded", "document_included", "case_model_chosen") and (
            action != "stability_stored"
        ):
            continue
        details = details_of(details_json)
        # an entry without a whole-number id names nothing (and the ids must sort together)
        document_id = details.get("document_id")
        chosen_case = details.get("case_id", case_id)
        check_id = details.get("stability_id")
        if action == "document_excluded" and isinstance(document_id, int):
            excluded[document_id] = details.get("reason")
        elif action == "document_included" and isinstance(document_id, int):
            excluded[document_id] = None
        elif action == "case_model_chosen" and isinstance(chosen_case, int):
            chosen[chosen_case] = details.get("model_id")
        elif action == "stability_stored" and isinstance(check_id, int):
            checks[check_id] = details
    problems = []
    rows = dict(conn.execute("SELECT document_id, reason FROM document_exclusions"))
    for document_id in sorted(set(rows) | {d for d, r in excluded.items() if r is not None}):
        if rows.get(document_id) != excluded.get(document_id):
            problems.append(
                IntegrityProblem(
                    "document",
                    f"document {document_id}",
                    "its exclusion from the case differs from what the audit log recorded",
                )
            )
    for case_id, model_id in conn.execute("SELECT id, model_id FROM cases"):
        if model_id != chosen.get(case_id):
            problems.append(
                IntegrityProblem(
                    "case",
                    f"case {case_id}",
                    "its chosen model differs from the one the audit log recorded",
                )
            )
    stored = {
        row[0]: row[1:]
        for row in conn.execute(
            "SELECT id, run_id, resamples, seed, agreeing, keep_fraction FROM stability_checks"
        )
    }
    for check_id in sorted(set(stored) | set(checks)):
        recorded = checks.get(check_id)
        expected = (
            None
            if recorded is None
            else tuple(
                recorded.get(k)
                for k in ("run_id", "resamples", "seed", "agreeing", "keep_fraction")
            )
        )
        if stored.get(check_id) != expected:
            problems.append(
                IntegrityProblem(
                    "run",
                    f"stability check {check_id}",
                    "is missing, or differs from what the audit log recorded when it was stored",
                )
            )
    return problems


def _document_field_problems(
    conn: sqlite3.Connection, recorded: dict[int, _Added]
) -> list[IntegrityProblem]:
    problems = []
    rows = conn.execute("SELECT id, case_id, role, file_name FROM documents")
    for document_id, case_id, role, file_name in rows:
        if document_id not in recorded:
            continue  # the row-side check reports a document without an entry
        seq, entry_case_id, details = recorded[document_id]
        changed = []
        if details.get("role") is not None and details.get("role") != role:
            changed.append(f"its role ({details.get('role')} → {role})")
        if entry_case_id is not None and entry_case_id != case_id:
            changed.append(f"its case (id {entry_case_id} → {case_id})")
        if details.get("file_name") is not None and details.get("file_name") != file_name:
            changed.append("its file name")
        if changed:
            problems.append(
                IntegrityProblem(
                    "document",
                    f"document {document_id}",
                    f"{' and '.join(changed)} differ from audit entry {seq}; no audited "
                    "change explains it",
                )
            )
    return problems
