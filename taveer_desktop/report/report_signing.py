"""Signing a report as it is written: before it takes its name, so the audit entry, the receipt
and the file agree on one SHA-256 — the signed file's.

``plan_signing(request)`` opens the certificate file with the passphrase before anything is laid
out (a wrong passphrase, an expired certificate, a file that is not PKCS#12, a TSA address that
is not a URL: one ``ReportError`` sentence, nothing written) and gives the signer's name the
report prints. ``sign_in_place(plan, path)`` signs the finished temporary PDF (PAdES, an
incremental update: the unsigned PDF is a byte-for-byte prefix of the signed one), checks the
signed file with the validator (intact, covering the whole file, and chaining to the lab's CA
when ``trust_roots`` are given) and returns what the audit entry records: the signed file's
SHA-256 and size, the unsigned PDF's SHA-256 and size (the prefix), the signer and its
certificate's fingerprint, and the time source. ``carried`` puts the report's signed
checkpoint (``report_checkpoint.py``) into the revision the signature covers. pyHanko is
imported only here, lazily: it costs about 0.8 s, which no other command should pay.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taveer_desktop.report.declaration_block import SignatureNote
from taveer_desktop.report.inputs import ReportError


@dataclass(frozen=True)
class SigningRequest:
    """How the examiner asked to sign: a PKCS#12 file, its passphrase, optionally a TSA and
    the lab's CA certificates the signer must chain to."""

    pkcs12_path: Path
    passphrase: str | None
    tsa_url: str | None = None
    trust_roots: tuple[Path, ...] = ()


@dataclass(frozen=True)
class SigningPlan:
    request: SigningRequest
    signer: str  # the certificate's subject, as the report prints it
    trust_anchors: tuple[str, ...] = ()  # the subjects of the --trust CA certificates
    key: Any = None  # the opened ExaminerKey: signs the report's checkpoint (never stored)

    def note(self) -> SignatureNote:
        """What the report's signature page says of the signature it is about to carry."""
        return SignatureNote(self.signer, self.request.tsa_url, self.trust_anchors)


@dataclass(frozen=True)
class SignedFacts:
    sha256: str  # of the signed file (what the audit entry and the receipt record)
    unsigned_sha256: str  # of the PDF as written before signing: the signed file's prefix
    unsigned_bytes: int
    signer: str
    signer_certificate_sha256: str
    time_source: str  # "tsa" or "workstation"
    signing_time_utc: str | None

    def audit_details(self, tsa_url: str | None) -> dict[str, Any]:
        return {
            "signer": self.signer,
            "signer_certificate_sha256": self.signer_certificate_sha256,
            "time_source": self.time_source,
            "tsa_url": tsa_url,
            "signing_time_utc": self.signing_time_utc,
            "unsigned_sha256": self.unsigned_sha256,
            "unsigned_bytes": self.unsigned_bytes,
        }


def _refusal(error: Exception) -> ReportError:
    return ReportError(str(error))


def plan_signing(request: SigningRequest) -> SigningPlan:
    """Open the credentials (and check the TSA address) before any work."""
    from datetime import UTC, datetime

    from taveer_desktop.report import signing

    try:
        _signer, subject = signing.read_credentials(
            request.pkcs12_path, request.passphrase, datetime.now(UTC)
        )
        key = signing.open_examiner_key(request.pkcs12_path, request.passphrase, datetime.now(UTC))
        signing.check_tsa_url(request.tsa_url)
        anchors = tuple(
            signing.display_name(root.subject) for root in signing.load_roots(request.trust_roots)
        )
    except signing.SigningError as error:
        raise _refusal(error) from None
    return SigningPlan(request, subject, anchors, key)


def sign_in_place(
    plan: SigningPlan, path: Path, carried: Mapping[str, str] | None = None
) -> SignedFacts:
    """Sign the PDF at ``path`` (replaced when whole) and check the signed file; ``carried``:
    catalog entries the signed revision holds (the report's checkpoint)."""
    from taveer_desktop.report import signing

    unsigned = path.read_bytes()
    request = plan.request
    try:
        signed = signing.sign_report(
            path,
            path,
            request.pkcs12_path,
            request.passphrase,
            tsa_url=request.tsa_url,
            reason="Examiner's report, issued as final",
            carried=carried,
        )
    except signing.SigningError as error:
        raise _refusal(error) from None
    from taveer_desktop.report.signature_verdict import verify_signed_report

    check = verify_signed_report(path, request.trust_roots)
    if not (check.intact and check.covers_whole_file and check.timestamp_intact is not False):
        raise ReportError(
            "The signed report did not verify after signing ("
            + " ".join(check.problems)
            + "); nothing was written."
        )
    if check.trusted is False:
        raise ReportError(
            f"The certificate of {signed.signer_subject} was not accepted against the CA "
            f"certificate given with --trust ({' '.join(check.problems)}); the report was not "
            "signed."
        )
    return SignedFacts(
        sha256=signed.sha256,
        unsigned_sha256=hashlib.sha256(unsigned).hexdigest(),
        unsigned_bytes=len(unsigned),
        signer=signed.signer_subject,
        signer_certificate_sha256=check.signer_sha256 or "",
        time_source=signed.time_source,
        signing_time_utc=check.signing_time.isoformat() if check.signing_time else None,
    )
