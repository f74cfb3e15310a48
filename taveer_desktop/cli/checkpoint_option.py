"""``--sign CERT.p12`` of ``case declare`` and ``case review``: the examiner's signed checkpoint.

The certificate file is opened with its passphrase (``TAVEER_SIGN_PASSPHRASE`` or a prompt, as
for signed reports: ``signing_options.read_passphrase``) before the project is opened; a wrong
passphrase, a file that is not PKCS#12, a FIFO, an expired certificate: one line, exit 2,
nothing written. The key is held in memory only for the command; the project keeps the
signature and the certificate, never the key (``store/checkpoints.py``).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Any

from taveer_desktop.cli.output import shown
from taveer_desktop.cli.signing_options import PASSPHRASE_VARIABLE, read_passphrase
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.records import AuditEntry


def add_checkpoint_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sign",
        metavar="CERT.p12",
        help="sign the audit chain's head with this PKCS#12 certificate file (a checkpoint "
        f"anyone holding the project can verify); the passphrase comes from "
        f"${PASSPHRASE_VARIABLE} or a prompt",
    )


def checkpoint_key(args) -> Any:
    """The opened ``ExaminerKey`` of ``--sign``, or None; refusals as one ``InputError``."""
    if getattr(args, "sign", None) is None:
        return None
    from taveer_desktop.report.credentials import SigningError, open_examiner_key

    try:
        return open_examiner_key(args.sign, read_passphrase(args.sign), datetime.now(UTC))
    except SigningError as error:
        raise InputError(error.sentence) from None


def checkpoint_json(entry: AuditEntry | None) -> dict[str, Any] | None:
    """The ``checkpoint`` key of ``declare``/``review --json`` (None: not signed)."""
    if entry is None:
        return None
    details = entry.details
    return {
        "audit_seq": entry.seq,
        "covers_to": details["entry"],
        "head_hash": details["head_hash"],
        "signer": details["signer"],
        "signed_utc": details["signed_utc"],
        "certificate_sha256": details["certificate_sha256"],
    }


def checkpoint_line(entry: AuditEntry | None) -> None:
    if entry is None:
        return
    details = entry.details
    print(
        shown(
            f"checkpoint signed by {details['signer']} {recorded_time(details['signed_utc'])}: "
            f"entries 1–{details['entry']} (head {details['head_hash']}), kept as audit entry "
            f"{entry.seq}"
        )
    )
