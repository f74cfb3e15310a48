"""Receipts: a small file kept outside the project that a later check holds the store against.

The audit chain's head lives in the same file as everything it seals, so whoever holds the file
can cut the chain's tail, roll the whole file back to an older copy, or rebuild the chain. A
receipt written at some moment (``write_receipt``) records the store's identity (the hash of its
first audit entry, written when the project was created), the chain's length and its head hash,
and (version 2) the state root then — the SHA-256 over the seal of every record — and, when it
accompanies a report, the report's file name and SHA-256. ``receipt_findings`` (run by the
integrity check) says whether the store still continues that moment: the same first entry, at
least as many entries, the entry at the receipt's position with the receipt's hash, the same
state root there, the report recorded as issued; and it lists every record sealed at the receipt
that is different or gone now, with the audited entries that changed it
(``changes_since_receipt``) — a change no audited entry made is a problem. Version 1 receipts
(no state root) are still read and checked for the chain.

Every entry appended after the receipt, of every action, is listed (``ReceiptCheck.entries_after``)
with its number, time and case: the receipt covers none of them, so a run, a report entry, a
declaration or a declared validation added since is named, never passed over in silence.

What a receipt cannot do: it proves nothing about entries added after it was written, and it is
only as trustworthy as the place it is kept (a forger who can also replace the receipt is not
stopped). Only a signature or a trusted timestamp over the head hash binds it to a person or
a time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.ground.atomic_file import FileWriteError, write_text_atomically
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.safe_json import loads_limited
from taveer_desktop.core.ground.time_text import recorded_time
from taveer_desktop.core.intake.file_reading import FileRefused, read_file_bytes
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.record_seal import RecordKey, state_root
from taveer_desktop.store.records import AuditEntry, ReceiptCheck, RecordChange, utc_now
from taveer_desktop.store.state_replay import Replay, describe, issued_reports, replay

if TYPE_CHECKING:
    from taveer_desktop.store.project_store import ProjectStore

RECEIPT_FORMAT = "taveer-receipt"
RECEIPT_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_RECEIPT_BYTES = 64 * 1024


class ReceiptError(StoreError):
    """A receipt file cannot be read or is not a TAVeer receipt."""


@dataclass(frozen=True)
class Receipt:
    store_identity: str  # entry_hash of audit entry 1 (project_created)
    chain_length: int  # seq of the head entry
    head_hash: str
    time_utc: str  # when the receipt was written
    head_time_utc: str  # when the head entry was written
    project: str  # the file name when it was written (informative only)
    state_root: str = ""  # version 2: the state root at the head entry ("" in version 1)
    report_file_name: str | None = None  # version 2: the report it accompanies, if any
    report_sha256: str | None = None
    version: int = RECEIPT_VERSION

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECEIPT_FORMAT,
            "version": self.version,
            "store_identity": self.store_identity,
            "chain_length": self.chain_length,
            "head_hash": self.head_hash,
            "time_utc": self.time_utc,
            "head_time_utc": self.head_time_utc,
            "project": self.project,
        }
        if self.version >= 2:
            data["state_root"] = self.state_root
        if self.report_sha256 is not None:
            data["report_file_name"] = self.report_file_name
            data["report_sha256"] = self.report_sha256
        return data


def make_receipt(store: ProjectStore, report: tuple[str, str] | None = None) -> Receipt:
    """The receipt of ``store`` as it is now (its chain must not be empty); ``report``: the
    (file name, SHA-256) of the report it accompanies."""
    entries = store.audit.entries(None)
    if not entries:
        raise StoreError("has no audit entries to make a receipt of", store.path)
    head = entries[-1]
    name, sha = report if report else (None, None)
    return Receipt(
        entries[0].entry_hash,
        head.seq,
        head.entry_hash,
        utc_now(),
        head.time_utc,
        store.path.name,
        replay(entries, store.schema_version).root(),
        name,
        sha,
    )


def write_receipt(
    store: ProjectStore, target: str | Path, report: tuple[str, str] | None = None
) -> Receipt:
    """Write the store's receipt to ``target`` (atomically: a temporary file renamed)."""
    receipt = make_receipt(store, report)
    target = Path(target).expanduser().absolute()
    if not target.parent.is_dir():
        raise ReceiptError(f"cannot be written: the folder {target.parent} does not exist", target)
    text = json.dumps(receipt.to_dict(), indent=2) + "\n"
    try:
        write_text_atomically(target, text)
    except FileWriteError as error:
        raise ReceiptError(error.plain_message, target) from None
    return receipt


def read_receipt(path: str | Path) -> Receipt:
    """A receipt file (version 1 or 2): a regular file of at most 64 KiB, opened without
    blocking (a FIFO is refused before it is opened); anything else is one ``ReceiptError``."""
    try:
        raw = read_file_bytes(path, MAX_RECEIPT_BYTES, kind="receipt file")
    except FileRefused as error:
        if error.reason == "too_large":
            raise ReceiptError("is too large to be a TAVeer receipt", path) from None
        raise ReceiptError(error.plain_message, path) from None
    try:
        data = loads_limited(raw.decode("utf-8-sig"), str(path), "TAVeer receipt")
    except (UnicodeDecodeError, ValueError):
        raise ReceiptError("is not a TAVeer receipt (not JSON)", path) from None
    except InputError as error:
        raise ReceiptError(error.plain_message, path) from None
    if not isinstance(data, dict) or data.get("format") != RECEIPT_FORMAT:
        raise ReceiptError("is not a TAVeer receipt", path)
    version = data.get("version")
    fields: tuple[str, ...] = ("store_identity", "head_hash", "time_utc", "head_time_utc")
    fields += ("project", "state_root") if version == 2 else ("project",)
    length = data.get("chain_length")
    report = (data.get("report_file_name"), data.get("report_sha256"))
    if (
        version not in READABLE_VERSIONS
        or not all(isinstance(data.get(f), str) for f in fields)
        or not isinstance(length, int)
        or isinstance(length, bool)
        or length < 1
        or not all(v is None or isinstance(v, str) for v in report)
    ):
        raise ReceiptError("is a damaged or unknown kind of TAVeer receipt", path)
    return Receipt(
        data["store_identity"],
        length,
        data["head_hash"],
        data["time_utc"],
        data["head_time_utc"],
        data["project"],
        data.get("state_root", ""),
        report[0],
        report[1],
        version,
    )


def _chain_problems(entries: list[AuditEntry], receipt: Receipt) -> list[str]:
    if not entries or entries[0].entry_hash != receipt.store_identity:
        return ["the store is not the project the receipt was made for (its first entry differs)"]
    head = entries[-1]
    if head.seq < receipt.chain_length:
        return [
            f"the audit chain ends at entry {head.seq}, but the receipt of "
            f"{recorded_time(receipt.time_utc)} was made at entry {receipt.chain_length}: the "
            "store was rolled back to an older copy or its chain was trimmed"
        ]
    entry = next((e for e in entries if e.seq == receipt.chain_length), None)
    if entry is None or entry.entry_hash != receipt.head_hash:
        return [
            f"audit entry {receipt.chain_length} is not the one the receipt of "
            f"{recorded_time(receipt.time_utc)} sealed: the chain was rebuilt or replaced since"
        ]
    return []


def check_receipt(store: ProjectStore, receipt: Receipt) -> list[str]:
    """Why the chain of ``store`` does not continue ``receipt`` (the chain alone; the full
    check, state and records included, is ``store.check_integrity(receipt=…)``)."""
    return _chain_problems(store.audit.entries(None), receipt)


def receipt_findings(
    receipt: Receipt,
    entries: list[AuditEntry],
    replayed: Replay,
    present: dict[RecordKey, str | None],
) -> ReceiptCheck:
    """The store held against ``receipt``: ``replayed`` is the chain replayed with its snapshot
    at the receipt's entry, ``present`` every record's seal now."""
    problems = _chain_problems(entries, receipt)
    if problems:
        return ReceiptCheck(tuple(problems), ())
    after = tuple(e for e in entries if e.seq > receipt.chain_length)
    snapshot = replayed.snapshot
    at = f"entry {receipt.chain_length}"
    if receipt.state_root and snapshot is None:
        problems.append(f"the store's records were not sealed at {at}, where the receipt was made")
    elif (
        receipt.state_root
        and snapshot is not None
        and receipt.state_root != state_root({k: v or "" for k, v in snapshot.items()})
    ):
        problems.append(
            f"the records at {at} are not the ones the receipt of "
            f"{recorded_time(receipt.time_utc)} sealed (its state root differs)"
        )
    if receipt.report_sha256 and not any(
        e.seq <= receipt.chain_length for e in issued_reports(entries, receipt.report_sha256)
    ):
        problems.append(
            f"the report the receipt accompanies ({receipt.report_file_name}, SHA-256 "
            f"{receipt.report_sha256}) is not recorded as issued by the project"
        )
    changes = _changes(receipt, entries, replayed, present) if snapshot is not None else []
    for change in changes:
        if not change.audited:
            problems.append(
                f"{change.record} was {change.change} since the receipt by no audited entry "
                "(outside the program)"
            )
    return ReceiptCheck(tuple(problems), tuple(changes), after)


def _changes(
    receipt: Receipt,
    entries: list[AuditEntry],
    replayed: Replay,
    present: dict[RecordKey, str | None],
) -> list[RecordChange]:
    times = {entry.seq: entry.time_utc for entry in entries}
    changes = []
    for key, sealed in sorted((replayed.snapshot or {}).items()):
        now = present.get(key)
        if key in present and now == sealed:
            continue
        later = [
            f"audit entry {seq} ({action}, {times.get(seq, '?')})"
            for seq, action in replayed.changes.get(key, [])
            if seq > receipt.chain_length
        ]
        if now != replayed.state.get(key) or (key in present) != (key in replayed.state):
            later = []  # the row is not what the audited entries made it
        change = "changed" if key in present else "removed"
        changes.append(RecordChange(describe(key), change, tuple(later)))
    return changes
