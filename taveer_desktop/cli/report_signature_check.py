"""What ``taveer check --report R.pdf`` says of a report's signature.

``check_signature(path, data, trust)`` returns None for a PDF that carries no signature field
(no ``/ByteRange``: pyHanko is then never imported) and otherwise a ``ReportSignature``: the
validator's findings (``report/signing.verify_signed_report``) — intact, covering the whole
file, the signer and its certificate's fingerprint, the signing time and whether it comes from a
time-stamping authority or the workstation's clock, the TSA's name, and with ``--trust`` whether
the signer (and the TSA) chain to the given CA certificates. ``first_revision_of`` finds the
signed reports whose unsigned first revision has a given SHA-256 (a signature cut off).

``--json`` keys of ``report.signature`` (stable; docs/report.md): ``signed``, ``ok``,
``intact``, ``covers_whole_file``, ``signer``, ``signer_certificate_sha256``,
``signing_time_utc``, ``time_source`` (``"tsa"`` or ``"workstation"``), ``timestamp_intact``,
``tsa``, ``trusted`` (null when no ``--trust`` was given), ``problems``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taveer_desktop.cli.output import shown
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.audit_actions import REPORT_ACTIONS
from taveer_desktop.store.records import AuditEntry


@dataclass(frozen=True)
class ReportSignature:
    signed: bool
    ok: bool
    intact: bool
    covers_whole_file: bool
    signer: str | None
    signer_certificate_sha256: str | None
    signing_time_utc: str | None
    time_source: str | None
    timestamp_intact: bool | None
    tsa: str | None
    trusted: bool | None
    problems: tuple[str, ...]
    checked: tuple[str, ...] = ()
    not_checked: tuple[str, ...] = ()


def check_signature(path: str, data: bytes, trust: Sequence[str]) -> ReportSignature | None:
    """The report's signature checked (None when the PDF has no signature at all)."""
    if b"/ByteRange" not in data:
        if trust:
            raise InputError("carries no signature: --trust has nothing to judge", path)
        return None
    from taveer_desktop.report.signature_verdict import verify_signed_report
    from taveer_desktop.report.signing import SigningError, load_roots

    try:
        load_roots(trust)  # a bad CA file is bad input (exit 2), not a failed check
    except SigningError as error:
        raise InputError(error.sentence) from None
    check = verify_signed_report(Path(path), [Path(t) for t in trust], data)
    return ReportSignature(
        signed=check.signed,
        ok=check.ok,
        intact=check.intact,
        covers_whole_file=check.covers_whole_file,
        signer=check.signer_subject,
        signer_certificate_sha256=check.signer_sha256,
        signing_time_utc=_utc_iso(check.signing_time) if check.signing_time else None,
        time_source=check.time_source,
        timestamp_intact=check.timestamp_intact,
        tsa=check.tsa_subject,
        trusted=check.trusted,
        problems=check.problems,
        checked=check.checked,
        not_checked=check.not_checked,
    )


def first_revision_of(entries: list[AuditEntry], sha256: str) -> list[AuditEntry]:
    """Report entries of signed reports whose unsigned first revision has this SHA-256."""
    found = []
    for entry in entries:
        signature = entry.details.get("signature") if isinstance(entry.details, dict) else None
        if (
            entry.action in REPORT_ACTIONS
            and isinstance(signature, dict)
            and signature.get("unsigned_sha256") == sha256
        ):
            found.append(entry)
    return found


def signature_json(signature: ReportSignature | None) -> dict[str, Any] | None:
    if signature is None:
        return None
    return {
        "signed": signature.signed,
        "ok": signature.ok,
        "intact": signature.intact,
        "covers_whole_file": signature.covers_whole_file,
        "signer": signature.signer,
        "signer_certificate_sha256": signature.signer_certificate_sha256,
        "signing_time_utc": signature.signing_time_utc,
        "time_source": signature.time_source,
        "timestamp_intact": signature.timestamp_intact,
        "tsa": signature.tsa,
        "trusted": signature.trusted,
        "problems": list(signature.problems),
        "checked": list(signature.checked),
        "not_checked": list(signature.not_checked),
    }


def print_signature(signature: ReportSignature | None) -> None:
    if signature is None:
        print("Signature: none (the PDF is not signed)")
        return
    if not signature.signed:
        print("Signature: FAILED: " + shown(" ".join(signature.problems)))
        return
    verdict = "valid" if signature.ok else "FAILED"
    print(f"Signature: {verdict}")
    print(
        "  file intact: "
        + ("yes" if signature.intact else "NO: changed after signing")
        + "; signature covers the whole file: "
        + ("yes" if signature.covers_whole_file else "NO: bytes were added after signing")
    )
    print(f"  signed by: {shown(signature.signer or '?')}")
    print(f"  signer's certificate SHA-256: {signature.signer_certificate_sha256}")
    if signature.time_source == "tsa":
        source = f"the time-stamping authority {shown(signature.tsa or '?')}"
        if signature.timestamp_intact is False:
            source += " (its timestamp does NOT match the signature)"
    else:
        source = "the workstation's clock (no time-stamping authority; anyone can set it)"
    when = recorded_time(signature.signing_time_utc or "") or "an unknown time"
    print(f"  signed at: {when} according to {source}")
    if signature.trusted is None:
        print("  trust: not judged (give the lab's CA certificate with --trust)")
    elif signature.trusted:
        print("  trust: the signer chains to the given CA")
    else:
        print("  trust: NOT accepted (the reason follows)")
    for problem in signature.problems:
        print(f"  {shown(problem)}")
    for line in signature.checked:
        print(f"  checked: {shown(line)}")
    for line in signature.not_checked:
        print(f"  not checked: {shown(line)}")


def _utc_iso(moment: dt.datetime) -> str:
    """The signing time in UTC (the key says UTC; a time without a zone is taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).isoformat()
