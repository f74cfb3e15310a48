"""What ``taveer check`` says of the signed checkpoints it verified: in words and as JSON.

A checkpoint that holds proves that entries 1..N are as the named examiner signed them (the
certificate's subject; whether it chains to a CA is not judged by ``check`` of the store). One
that fails is a finding (``store/checkpoints.py`` says why).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taveer_desktop.cli.output import shown
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.records import CheckpointCheck


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
