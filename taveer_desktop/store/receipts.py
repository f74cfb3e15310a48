"""Receipts: a small file kept outside the project that a later check holds the store against.

The audit chain's head lives in the same file as everything it seals, so whoever holds the file
can cut the chain's tail, roll the whole file back to an older copy, or rebuild the chain. A
receipt written at some moment (``write_receipt``) records the store's identity (the hash of its
first audit entry, written when the project was created), the chain's length and its head
hash. ``check_receipt`` then says whether the store is still a continuation of that moment:
the same first entry, at least as many entries, and the entry at the receipt's position with
the receipt's hash (the chain's own check makes every later entry rest on it).

What a receipt cannot do: it proves nothing about entries added after it was written, and it is
only as trustworthy as the place it is kept (a forger who can also replace the receipt is not
stopped). Only a signature or a trusted timestamp over the head hash binds it to a person or
a time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taveer_desktop.core.atomic_file import FileWriteError, write_text_atomically
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.project_store import ProjectStore
from taveer_desktop.store.records import utc_now

RECEIPT_FORMAT = "taveer-receipt"
RECEIPT_VERSION = 1
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECEIPT_FORMAT,
            "version": RECEIPT_VERSION,
            "store_identity": self.store_identity,
            "chain_length": self.chain_length,
            "head_hash": self.head_hash,
            "time_utc": self.time_utc,
            "head_time_utc": self.head_time_utc,
            "project": self.project,
        }


def make_receipt(store: ProjectStore) -> Receipt:
    """The receipt of ``store`` as it is now (its chain must not be empty)."""
    entries = store.audit.entries(None)
    if not entries:
        raise StoreError("has no audit entries to make a receipt of", store.path)
    head = entries[-1]
    return Receipt(
        entries[0].entry_hash, head.seq, head.entry_hash, utc_now(), head.time_utc, store.path.name
    )


def write_receipt(store: ProjectStore, target: str | Path) -> Receipt:
    """Write the store's receipt to ``target`` (atomically: a temporary file renamed)."""
    receipt = make_receipt(store)
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
    path = Path(path)
    try:
        if path.stat().st_size > MAX_RECEIPT_BYTES:
            raise ReceiptError("is too large to be a TAVeer receipt", path)
        data = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise ReceiptError("no such receipt file", path) from None
    except OSError as error:
        raise ReceiptError(f"cannot be read ({error.strerror or error})", path) from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ReceiptError("is not a TAVeer receipt (not JSON)", path) from None
    if not isinstance(data, dict) or data.get("format") != RECEIPT_FORMAT:
        raise ReceiptError("is not a TAVeer receipt", path)
    fields = ("store_identity", "head_hash", "time_utc", "head_time_utc", "project")
    length = data.get("chain_length")
    if (
        data.get("version") != RECEIPT_VERSION
        or not all(isinstance(data.get(f), str) for f in fields)
        or not isinstance(length, int)
        or isinstance(length, bool)
        or length < 1
    ):
        raise ReceiptError("is a damaged or unknown kind of TAVeer receipt", path)
    return Receipt(
        data["store_identity"],
        length,
        data["head_hash"],
        data["time_utc"],
        data["head_time_utc"],
        data["project"],
    )


def check_receipt(store: ProjectStore, receipt: Receipt) -> list[str]:
    """Why ``store`` is not a continuation of ``receipt`` (an empty list when it is)."""
    entries = store.audit.entries(None)
    if not entries or entries[0].entry_hash != receipt.store_identity:
        return ["the store is not the project the receipt was made for (its first entry differs)"]
    by_seq = {entry.seq: entry for entry in entries}
    head = entries[-1]
    if head.seq < receipt.chain_length:
        return [
            f"the audit chain ends at entry {head.seq}, but the receipt of {receipt.time_utc} "
            f"was made at entry {receipt.chain_length}: the store was rolled back to an older "
            "copy or its chain was trimmed"
        ]
    entry = by_seq.get(receipt.chain_length)
    if entry is None or entry.entry_hash != receipt.head_hash:
        return [
            f"audit entry {receipt.chain_length} is not the one the receipt of "
            f"{receipt.time_utc} sealed: the chain was rebuilt or replaced since"
        ]
    return []
