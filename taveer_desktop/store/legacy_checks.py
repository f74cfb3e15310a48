"""The older rules, for records the chain recorded before their seals (stores before version 6).

Entries written before store version 6 carry no seal: they hold only some fields of the records
they describe. For every record whose newest entry is such an entry (``Replay.legacy``) the row
is compared with those fields, as the check did before sealing: a document's hashes, role, case
and file name; a model's hash and name; a run's fingerprint; a case's descriptive fields and
chosen model; a population's name, description, hash and documents; a validation record's links
and hash; a declared use's case, record and reason; an exclusion's reason; a stability check's
figures. Fields no such entry recorded are not covered — which is why version 6 seals every
column (``record_seal.py``).
"""

from __future__ import annotations

import sqlite3

from taveer_desktop.store.case_repository import CASE_FIELDS
from taveer_desktop.store.records import IntegrityProblem
from taveer_desktop.store.state_replay import Replay

# table → (kind, subject, the row's columns compared, the entry's keys they must equal)
_RULES: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "documents": (
        "document",
        "document {}",
        ("sha256", "text_sha256", "role", "file_name", "case_id"),
        ("sha256", "text_sha256", "role", "file_name", "entry_case_id"),
    ),
    "models": ("model", "model {}", ("sha256", "name"), ("sha256", "name")),
    "runs": ("run", "run {}", ("record_sha256",), ("record_sha256",)),
    "populations": (
        "population",
        "population {}",
        ("name", "description", "sha256"),
        ("name", "description", "sha256"),
    ),
    "validation_records": (
        "validation",
        "validation record {}",
        ("case_id", "population_id", "model_id", "record_sha256"),
        ("case_id", "population_id", "model_id", "record_sha256"),
    ),
    "validation_uses": (
        "validation",
        "declared use {}",
        ("case_id", "validation_id", "reason"),
        ("case_id", "validation_id", "reason"),
    ),
    "document_exclusions": ("document", "the exclusion of document {}", ("reason",), ("reason",)),
    "stability_checks": (
        "run",
        "stability check {}",
        ("run_id", "resamples", "seed", "agreeing", "keep_fraction"),
        ("run_id", "resamples", "seed", "agreeing", "keep_fraction"),
    ),
}
_KEY_COLUMN = {"document_exclusions": "document_id"}


def legacy_problems(
    conn: sqlite3.Connection, replay: Replay, tables: set[str]
) -> list[IntegrityProblem]:
    """Rows that differ from the unsealed entries describing them (``tables``: those the
    store's version has)."""
    problems: list[IntegrityProblem] = []
    for table, (kind, subject, columns, keys) in _RULES.items():
        recorded = replay.legacy_details(table)
        if table not in tables or not recorded:
            continue
        key_column = _KEY_COLUMN.get(table, "id")
        sql = f"SELECT {key_column}, {', '.join(columns)} FROM {table}"
        for record_id, *values in conn.execute(sql):
            found = recorded.get(record_id)
            if found is None:
                continue
            seq, details = found
            expected = [details.get(k) for k in keys]
            if values != expected:
                problems.append(
                    IntegrityProblem(
                        kind,
                        subject.format(record_id),
                        f"differs from what audit entry {seq} recorded (no audited change "
                        "explains it)",
                    )
                )
    problems += _case_problems(conn, replay, "model_id" in _columns(conn, "cases"))
    if "populations" in tables:
        problems += _population_documents(conn, replay)
    return problems


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _case_problems(
    conn: sqlite3.Connection, replay: Replay, has_model: bool
) -> list[IntegrityProblem]:
    recorded = replay.legacy_details("cases")
    problems = []
    model = ", model_id" if has_model else ", NULL"
    for case_id, *values in conn.execute(f"SELECT id, {', '.join(CASE_FIELDS)}{model} FROM cases"):
        found = recorded.get(case_id)
        if found is None:
            continue
        seq, details = found
        fields, model_id = values[:-1], values[-1]
        if [details.get(name) for name in CASE_FIELDS] != fields:
            problems.append(
                IntegrityProblem(
                    "case",
                    f"case {case_id}",
                    f"its details differ from the last ones the audit log recorded (entry {seq})",
                )
            )
        if details.get("model_id") != model_id:
            problems.append(
                IntegrityProblem(
                    "case",
                    f"case {case_id}",
                    "its chosen model differs from the one the audit log recorded",
                )
            )
    return problems


def _population_documents(conn: sqlite3.Connection, replay: Replay) -> list[IntegrityProblem]:
    from taveer_desktop.store.population_repository import documents_digest

    documents: dict[int, list[tuple[str, str, str]]] = {}
    for population_id, author, sha, text_sha in conn.execute(
        "SELECT population_id, author, sha256, text_sha256 FROM population_documents"
    ):
        documents.setdefault(population_id, []).append((author, sha, text_sha))
    problems = []
    for population_id, (seq, details) in sorted(replay.legacy_details("populations").items()):
        if details.get("documents_sha256") != documents_digest(documents.get(population_id, [])):
            problems.append(
                IntegrityProblem(
                    "population",
                    f"population {population_id}",
                    f"its documents differ from those audit entry {seq} recorded (added, "
                    "removed or changed outside the program)",
                )
            )
    return problems
