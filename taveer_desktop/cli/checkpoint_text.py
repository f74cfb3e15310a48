"""What ``taveer check`` says of the signed checkpoints it verified: in words and as JSON.

A checkpoint that holds proves that entries 1..N are as the named examiner signed them (the
certificate's subject; whether it chains to a CA is not judged by ``check`` of the store). One
that fails is a finding (``store/checkpoints.py`` says why). ``check --report R.pdf`` holds the
chain to the checkpoint the report carries (``report_checkpoint``) and lists every entry after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taveer_desktop.cli.output import shown
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.checkpoints import project_id_of, verify_checkpoint
from taveer_desktop.store.records import AuditEntry, CheckpointCheck


def entry_dict(entry: AuditEntry, case_numbers: dict[int, str]) -> dict[str, Any]:
    """An audit entry in ``check --json``: its number, action, time and case."""
    return {
        "seq": entry.seq,
        "action": entry.action,
        "time_utc": entry.time_utc,
        "case_id": entry.case_id,
        "case_number": case_numbers.get(entry.case_id) if entry.case_id else None,
    }


def checkpoint_dict(check: CheckpointCheck) -> dict[str, Any]:
    """One item of ``checkpoints`` in ``check --json``."""
    return {
        "audit_seq": check.carried_by or None,
        "covers_to": check.covers_to,
        "signer": check.signer,
        "signed_utc": check.signed_utc,
        "certificate_sha256": check.certificate_sha256,
        "ok": check.problem is None,
        "problem": check.problem,
    }


def checkpoint_sentence(check: CheckpointCheck) -> str:
    """ "entries 1–40 are covered by a checkpoint signed by … on …" (or why it fails)."""
    who = f"signed by {check.signer} {recorded_time(check.signed_utc)}"
    if check.problem is None:
        return f"entries 1–{check.covers_to} are covered by a checkpoint {who}"
    return f"the checkpoint {who} over entries 1–{check.covers_to} FAILS: {check.problem}"


def print_checkpoints(checks: Sequence[CheckpointCheck]) -> None:
    if not checks:
        print("No signed checkpoint in the chain.")
        return
    for check in checks:
        print(shown(f"Checkpoint in audit entry {check.carried_by}: {checkpoint_sentence(check)}."))
    print(
        "  (a checkpoint's signer is named from its own certificate; check --report R.pdf "
        "--trust CA.pem judges a signer against the lab's CA)"
    )


def report_checkpoint(carried: dict[str, Any], entries: list[AuditEntry]) -> CheckpointCheck:
    """The checkpoint a report carries, held against the project's chain as it is."""
    hashes = {e.seq: e.entry_hash for e in entries}
    return verify_checkpoint(carried, project_id_of(entries), hashes, 0)


def _after(held: CheckpointCheck, entries: list[AuditEntry]) -> list[AuditEntry]:
    return [e for e in entries if e.seq > held.covers_to]


def report_checkpoint_json(
    held: CheckpointCheck | None, entries: list[AuditEntry], case_numbers: dict[int, str]
) -> dict[str, Any] | None:
    """``report.checkpoint`` of ``check --report --json`` (None: the PDF carries none)."""
    if held is None:
        return None
    after = [entry_dict(e, case_numbers) for e in _after(held, entries)]
    return checkpoint_dict(held) | {"entries_after": after}


def print_report_checkpoint(
    held: CheckpointCheck | None, entries: list[AuditEntry], case_numbers: dict[int, str]
) -> None:
    if held is None:
        print("The report carries no signed checkpoint of the project's chain.")
        return
    print(shown(f"The report's own checkpoint: {checkpoint_sentence(held)}."))
    after = _after(held, entries)
    if held.problem is not None or not after:
        return
    print(
        f"Entries after the report's checkpoint ({after[0].seq}–{after[-1].seq}, {len(after)}): "
        "the report's checkpoint does not cover them:"
    )
    for entry in after:
        case = shown(case_numbers.get(entry.case_id, "?")) if entry.case_id else "none"
        print(
            f"  audit entry {entry.seq}: {shown(entry.action)}, case {case}, "
            f"{recorded_time(entry.time_utc)}"
        )
