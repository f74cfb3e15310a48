"""Reconciliation: are the rows exactly the records the replayed audit chain commits to?

``state_replay.replay`` gives the records that exist after the last entry and, from store
version 6, the seal of each. Here that state is held against the rows, both ways: a record the
chain holds that has no row is *missing* (deleted outside the program: no audited removal
followed), a row the chain never created is *extra*, and a row whose seal differs from the one
its latest entry carries was *changed* outside the program — any column, shown or not. Records
not yet sealed (entries before version 6) are compared field by field by ``legacy_checks.py``.

Also: every run's recorded document SHA-256 against the document's current SHA-256, and
``removal_permits`` empty (the program writes and consumes a permit inside one transaction).
"""

from __future__ import annotations

import sqlite3

from taveer_desktop.store.record_seal import RecordKey
from taveer_desktop.store.records import IntegrityProblem
from taveer_desktop.store.state_replay import Replay, describe, kind_of


def state_problems(replay: Replay, present: dict[RecordKey, str | None]) -> list[IntegrityProblem]:
    """The replayed state against the records present (record → its seal now, or None when
    the store's records are not sealed)."""
    problems = []
    for key in sorted(set(replay.state) | set(present)):
        seq = replay.last_entry(key)
        if key not in present:
            problems.append(
                _problem(
                    key,
                    f"is missing: audit entry {seq} recorded it and no audited removal "
                    "followed (it was deleted outside the program)",
                )
            )
        elif key not in replay.state:
            problems.append(
                _problem(
                    key,
                    "is not in the audit chain: no entry the program writes created it "
                    "(it was added outside the program)",
                )
            )
        elif replay.state[key] is not None and replay.state[key] != present[key]:
            problems.append(
                _problem(
                    key,
                    f"differs from its seal in audit entry {seq}: it was changed outside the "
                    "program",
                )
            )
    return problems


def _problem(key: RecordKey, message: str) -> IntegrityProblem:
    return IntegrityProblem(kind_of(key), describe(key), message)


def run_document_problems(conn: sqlite3.Connection) -> list[IntegrityProblem]:
    """Each run's recorded document SHA-256 against the document's SHA-256 now."""
    problems = []
    for run_id, document_id, recorded, current in conn.execute(
        "SELECT rd.run_id, rd.document_id, rd.document_sha256, d.sha256 FROM run_documents rd"
        " LEFT JOIN documents d ON d.id = rd.document_id ORDER BY rd.run_id, rd.document_id"
    ):
        if current is None:
            message = f"used document {document_id}, which is no longer stored"
        elif current != recorded:
            message = (
                f"used document {document_id} with SHA-256 {recorded[:12]}…, but the stored "
                f"document's SHA-256 is now {current[:12]}…"
            )
        else:
            continue
        problems.append(IntegrityProblem("run", f"run {run_id}", message))
    return problems


def permit_problems(conn: sqlite3.Connection) -> list[IntegrityProblem]:
    """A removal permit left in the store was not written by the program's own removal."""
    return [
        IntegrityProblem(
            "schema",
            f"removal permit for {kind} {object_id}",
            "is left in the store: the program writes and consumes permits inside one removal",
        )
        for kind, object_id in conn.execute("SELECT kind, object_id FROM removal_permits")
    ]
