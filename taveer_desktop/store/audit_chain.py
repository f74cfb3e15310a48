"""The tamper-evident audit log: appending entries and verifying the hash chain.

Each entry's hash is the SHA-256 of a canonical JSON array of its fields, including the previous
entry's hash (``GENESIS_HASH`` for the first). Editing an entry breaks its own hash, deleting or
inserting one breaks the next entry's link, and ``store_meta`` keeps the chain's head (last
sequence number and hash), written in the same transaction, so cutting entries off the end is
caught too. Someone able to rewrite every hash and the head can forge a consistent chain; the
report prints the head hash so an examiner can record it outside the store.

``append_entry`` must be called inside the caller's write transaction: the audit row commits
or rolls back together with the change it describes.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import socket
import sqlite3
from collections.abc import Iterable
from typing import Any

from taveer_desktop.store.records import AuditEntry, IntegrityProblem
from taveer_desktop.store.schema import GENESIS_HASH
from taveer_desktop.store.store_file import Row

HASH_FORMAT = "taveer-audit-v1"
HEAD_SEQ_KEY = "audit_head_seq"
HEAD_HASH_KEY = "audit_head_hash"


def canonical_json(value: Any) -> str:
    """JSON text that is the same for equal values: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def current_actor() -> str:
    """``user@host`` of the person running the program, as far as the OS tells."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name in the environment or the password database
        user = "unknown-user"
    return f"{user}@{socket.gethostname()}"


def entry_hash(
    seq: int,
    time_utc: str,
    action: str,
    case_id: int | None,
    actor: str,
    details_json: str,
    prev_hash: str,
) -> str:
    payload = canonical_json(
        [HASH_FORMAT, seq, time_utc, action, case_id, actor, details_json, prev_hash]
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _read_head(conn: sqlite3.Connection) -> tuple[int, str]:
    rows = dict(
        conn.execute(
            "SELECT key, value FROM store_meta WHERE key IN (?, ?)", (HEAD_SEQ_KEY, HEAD_HASH_KEY)
        ).fetchall()
    )
    return int(rows.get(HEAD_SEQ_KEY, "0")), rows.get(HEAD_HASH_KEY, GENESIS_HASH)


def append_entry(
    conn: sqlite3.Connection,
    action: str,
    case_id: int | None,
    details: dict[str, Any],
    time_utc: str,
    actor: str,
) -> AuditEntry:
    """Append one entry after the current head and move the head (inside a transaction)."""
    if not conn.in_transaction:
        raise RuntimeError("audit entries are only written inside the change's transaction")
    last_seq, prev_hash = _read_head(conn)
    seq = last_seq + 1
    details_json = canonical_json(details)
    digest = entry_hash(seq, time_utc, action, case_id, actor, details_json, prev_hash)
    conn.execute(
        "INSERT INTO audit_log (seq, time_utc, action, case_id, actor, details_json, prev_hash,"
        " entry_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (seq, time_utc, action, case_id, actor, details_json, prev_hash, digest),
    )
    conn.executemany(
        "INSERT INTO store_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        ((HEAD_SEQ_KEY, str(seq)), (HEAD_HASH_KEY, digest)),
    )
    return AuditEntry(seq, time_utc, action, case_id, actor, prev_hash, digest, details)


AUDIT_COLUMNS = "seq, time_utc, action, case_id, actor, details_json, prev_hash, entry_hash"


def details_of(details_json: object) -> dict[str, Any]:
    """The details object of an entry's JSON; {} when it is unreadable or not an object (the
    chain check reports such an entry; the checks that compare details then find nothing)."""
    if not isinstance(details_json, str | bytes):
        return {}
    try:
        value = json.loads(details_json)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def entry_from_row(row: Row) -> AuditEntry:
    seq, time_utc, action, case_id, actor, details_json, prev_hash, digest = row
    try:
        details = json.loads(details_json)
    except (TypeError, ValueError):
        details = {"unreadable_details": str(details_json)}
    return AuditEntry(seq, time_utc, action, case_id, actor, prev_hash, digest, details)


def verify_chain(
    conn: sqlite3.Connection, rows: Iterable[Row] | None = None
) -> tuple[int, str, list[IntegrityProblem]]:
    """Check every link of the chain and the stored head.

    Returns (entries checked, hash of the last entry, problems). ``rows`` defaults to the whole
    log in sequence order, as raw tuples of ``AUDIT_COLUMNS``.
    """
    if rows is None:
        rows = conn.execute(f"SELECT {AUDIT_COLUMNS} FROM audit_log ORDER BY seq")
    problems: list[IntegrityProblem] = []
    expected_prev = GENESIS_HASH
    expected_seq = 1
    count = 0
    for seq, time_utc, action, case_id, actor, details_json, prev_hash, digest in rows:
        count += 1
        subject = f"audit entry {seq}"
        if seq != expected_seq:
            problems.append(
                IntegrityProblem(
                    "audit", subject, f"expected entry {expected_seq} here: entries are missing"
                )
            )
        if prev_hash != expected_prev:
            problems.append(
                IntegrityProblem(
                    "audit",
                    subject,
                    "its link to the previous entry does not match: an entry before it was "
                    "deleted, inserted or changed",
                )
            )
        recomputed = entry_hash(seq, time_utc, action, case_id, actor, details_json, prev_hash)
        if recomputed != digest:
            problems.append(
                IntegrityProblem(
                    "audit", subject, "its content does not match its hash: it was changed"
                )
            )
        expected_prev = digest
        expected_seq = seq + 1
    head_seq, head_hash = _read_head(conn)
    last_seq = expected_seq - 1
    if head_seq != last_seq:
        problems.append(
            IntegrityProblem(
                "audit",
                "audit log",
                f"the log ends at entry {last_seq} but the recorded head is entry {head_seq}: "
                "entries were removed from the end or the head was changed",
            )
        )
    elif head_hash != expected_prev:
        problems.append(
            IntegrityProblem(
                "audit",
                "audit log",
                "the recorded head hash does not match the last entry: the log was rewritten",
            )
        )
    return count, expected_prev, problems
