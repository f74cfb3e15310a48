"""The integrity check: is everything in the store still exactly what was put there?

It works on a store of any supported version as it is (it never migrates or writes) and
checks, in order:
1. (optional, slower) SQLite's own ``PRAGMA integrity_check`` and ``foreign_key_check``;
2. the schema: every table, index, trigger (with its SQL) and view exactly those of the store's
   version, nothing extra, missing or different (``schema_check.py``);
3. the audit chain (links, entry hashes, head: ``audit_chain.verify_chain``);
4. every record against its own hashes: a document's bytes and text, a model's JSON, a run's
   fingerprint, a population document's bytes and text, a validation record's JSON;
5. the replay of the chain (``state_replay.py``): only actions the program writes, no record
   created twice, changed or removed while it does not exist, no used evidence removed;
6. reconciliation (``reconciliation.py``): the rows are exactly the records the replayed chain
   commits to — from store version 6 each row's seal over every column equals the seal its
   latest entry carries; records recorded before version 6 are compared with the fields their
   entries hold (``legacy_checks.py``); every run's documents still have the SHA-256 the run
   recorded;
7. what the program never writes (``entry_rules.py``): entries out of time order, an entry
   filed under another case than the record it changes, stored values its door refuses;
8. every signed checkpoint (``checkpoints.py``): its signature holds and the entry it signed
   still has the hash the examiner signed;
9. with a receipt, that the store continues it, which sealed records changed since and every
   entry appended after it (``receipts.receipt_findings``).
Problems are collected, never raised: the caller decides what to do with a failed store.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taveer_desktop.store import audit_chain
from taveer_desktop.store.audit_actions import SEALED_TABLES
from taveer_desktop.store.checkpoints import checkpoint_checks
from taveer_desktop.store.entry_rules import created_version, entry_problems, value_problems
from taveer_desktop.store.fingerprints import run_record_sha256, text_sha256
from taveer_desktop.store.legacy_checks import legacy_problems
from taveer_desktop.store.reconciliation import (
    permit_problems,
    run_document_problems,
    state_problems,
)
from taveer_desktop.store.record_seal import (
    RecordKey,
    child_rows,
    child_seals,
    encoded_row,
    iter_rows,
    large_digests,
    row_seal,
    rows_seal,
)
from taveer_desktop.store.records import IntegrityProblem, IntegrityReport, utc_now
from taveer_desktop.store.schema_check import schema_problems, tables_unreadable
from taveer_desktop.store.schema_objects import required_objects
from taveer_desktop.store.state_replay import replay
from taveer_desktop.store.value_types import foreign_values

if TYPE_CHECKING:
    from taveer_desktop.store.receipts import Receipt

MAX_SQLITE_MESSAGES = 10
MMAP_BYTES = 1 << 30


def _sqlite_problems(conn: sqlite3.Connection) -> list[IntegrityProblem]:
    problems = []
    messages = [row[0] for row in conn.execute("PRAGMA integrity_check(20)")]
    if messages != ["ok"]:
        problems += [IntegrityProblem("sqlite", "database file", m) for m in messages]
    for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"):
        problems.append(
            IntegrityProblem(
                "sqlite", f"{table} row {rowid}", f"refers to a missing row of {parent}"
            )
        )
    return problems[:MAX_SQLITE_MESSAGES]


_JSON_COLUMNS = {
    "models": ("model_json", "sha256"),
    "validation_records": ("record_json", "record_sha256"),
}


def _own_hash_problem(table: str, row: dict[str, Any], digests: dict[str, str]) -> str | None:
    """Why a row does not match its own hash columns (None when it does)."""
    if table in ("documents", "population_documents"):
        data, text = row.get("original_bytes"), row.get("text")
        if not (isinstance(data, bytes) and len(data) == row.get("byte_count")) or (
            digests.get("original_bytes") != row.get("sha256")
        ):
            return "its bytes do not match their SHA-256"
        if not isinstance(text, str) or row.get("text_sha256") != (
            digests.get("text") or text_sha256(text)
        ):
            return "its text does not match its SHA-256"
    json_column = _JSON_COLUMNS.get(table)
    if json_column and digests.get(json_column[0]) != row.get(json_column[1]):
        return "its JSON does not match its SHA-256"
    return None


_OWN_KIND = {
    "documents": ("document", "document {id}"),
    "population_documents": ("population", "population document {id}"),
    "models": ("model", "model {id} ({name})"),
    "validation_records": ("validation", "validation record {id}"),
}


def _row_pass(
    conn: sqlite3.Connection, tables: set[str], seal: bool
) -> tuple[dict[RecordKey, str | None], dict[str, int], list[IntegrityProblem]]:
    """Read every record once: its own hashes checked, its seal computed when ``seal``.
    Returns (record → seal or None, rows per table, problems)."""
    present: dict[RecordKey, str | None] = {}
    counts: dict[str, int] = {}
    problems = []
    population: dict[int, list[list[object]]] = {}  # the encoded rows of each population
    names: list[str] = []
    for table in (t for t in (*SEALED_TABLES, "population_documents") if t in tables):
        count = 0
        child = table == "population_documents"
        for row in child_rows(conn, table) if child else iter_rows(conn, table):
            count += 1
            digests = large_digests(row)
            why = _own_hash_problem(table, row, digests)
            if why:
                kind, subject = _OWN_KIND[table]
                problems.append(IntegrityProblem(kind, subject.format(**row), why))
            if child:  # a population's rows are sealed together, in their order
                names = list(row)
                encoded = encoded_row(row, digests) if seal else {}
                population.setdefault(row["population_id"], []).append(list(encoded.values()))
            else:
                key = (table, row[SEALED_TABLES[table]])
                present[key] = row_seal(table, row, digests) if seal else None
        counts[table] = count
    for parent, rows in population.items():
        seal_of = rows_seal("population_documents", parent, names, rows) if seal else None
        present[("population_documents", parent)] = seal_of
    runs: dict[int, str | None] = {}  # a run's rows: small values, read as tuples
    if seal:
        runs.update(child_seals(conn, "run_documents"))
    else:
        runs.update((r, None) for (r,) in conn.execute("SELECT DISTINCT run_id FROM run_documents"))
    present.update((("run_documents", run), s) for run, s in runs.items())
    return present, counts, problems


def _run_problems(conn: sqlite3.Connection, version: int) -> list[IntegrityProblem]:
    used: dict[int, list[tuple[int, str, str]]] = {}
    for run_id, doc_id, role, sha in conn.execute(
        "SELECT run_id, document_id, role, document_sha256 FROM run_documents"
    ):
        used.setdefault(run_id, []).append((doc_id, role, sha))
    conclusion = "r.conclusion" if version >= 2 else "NULL"
    problems = []
    for row in conn.execute(
        "SELECT r.id, r.case_id, r.model_id, m.sha256, r.questioned_document_id, r.prediction,"
        " r.similarity, r.software_version, r.run_utc, r.result_json_zlib, "
        f"{conclusion}, r.record_sha256 FROM runs r LEFT JOIN models m ON m.id = r.model_id"
    ):
        run_id, *fields, stored = row
        case_id, model_id, model_sha, questioned, *rest = fields
        recomputed = run_record_sha256(
            case_id, model_id, model_sha or "", questioned, used.get(run_id, []), *rest
        )
        if recomputed != stored:
            problems.append(
                IntegrityProblem(
                    "run", f"run {run_id}", "its result or inputs do not match its SHA-256"
                )
            )
    return problems


def check_integrity(
    conn: sqlite3.Connection,
    path: Path,
    include_sqlite_check: bool = True,
    version: int | None = None,
    receipt: Receipt | None = None,
) -> IntegrityReport:
    """Run every check over the store behind ``conn`` (read only; nothing is changed).

    ``version``: the store's schema version (None: read from the store); the store is checked
    as that version, never migrated. ``receipt``: also hold the store against it.
    """
    if version is None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")  # measured ~7 % faster on a 270 MB store
    began = not conn.in_transaction  # a reader beside a writer holds its snapshot already
    if began:
        conn.execute("BEGIN")  # one consistent snapshot for all the checks below
    try:
        return _check(conn, Path(path), include_sqlite_check, version, receipt)
    finally:
        if began and conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.execute("PRAGMA mmap_size = 0")


def _check(
    conn: sqlite3.Connection,
    path: Path,
    include_sqlite_check: bool,
    version: int,
    receipt: Receipt | None,
) -> IntegrityReport:
    problems = _sqlite_problems(conn) if include_sqlite_check else []
    found_schema = schema_problems(conn, version)
    problems += found_schema
    report = {"path": str(path), "sqlite_checked": include_sqlite_check, "store_version": version}
    if tables_unreadable(found_schema):
        return _report(problems, report)
    foreign = foreign_values(conn, required_objects(version)[0])
    if foreign:  # the checks below would read values as the types the program writes
        return _report(problems + foreign, report)
    sql = f"SELECT {audit_chain.AUDIT_COLUMNS} FROM audit_log ORDER BY seq"
    rows = conn.execute(sql).fetchall()
    audit_count, head_hash, audit_problems = audit_chain.verify_chain(conn, rows)
    entries = [audit_chain.entry_from_row(row) for row in rows]
    replayed = replay(entries, version, receipt.chain_length if receipt else None)
    tables = required_objects(version)[0]
    present, counts, row_problems = _row_pass(conn, tables, replayed.sealed)
    problems += row_problems + _run_problems(conn, version) + audit_problems + replayed.problems
    problems += state_problems(replayed, present) + run_document_problems(conn)
    problems += legacy_problems(conn, replayed, tables)
    problems += entry_problems(entries)
    checkpoints, checkpoint_problems = checkpoint_checks(entries)
    problems += checkpoint_problems
    problems += value_problems(conn, tables, created_version(entries))
    if "removal_permits" in tables:
        problems += permit_problems(conn)
    report.update(
        documents=counts.get("documents", 0),
        models=counts.get("models", 0),
        runs=counts.get("runs", 0),
        audit_count=audit_count,
        head_hash=head_hash,
        sealed=replayed.sealed,
        state_root=replayed.root(),
        checkpoints=checkpoints,
    )
    if receipt is not None:
        from taveer_desktop.store.receipts import receipt_findings

        report["receipt"] = receipt_findings(receipt, entries, replayed, present)
    return _report(problems, report)


def _report(problems: list[IntegrityProblem], found: dict[str, Any]) -> IntegrityReport:
    return IntegrityReport(
        path=found["path"],
        checked_utc=utc_now(),
        documents_checked=found.get("documents", 0),
        models_checked=found.get("models", 0),
        runs_checked=found.get("runs", 0),
        audit_entries_checked=found.get("audit_count", 0),
        audit_head_hash=found.get("head_hash", ""),
        sqlite_checked=found["sqlite_checked"],
        problems=tuple(problems),
        store_version=found["store_version"],
        sealed=found.get("sealed", False),
        state_root=found.get("state_root", ""),
        receipt=found.get("receipt"),
        checkpoints=found.get("checkpoints", ()),
    )
