"""Checking a signed report's last signature and saying truthfully what holds and why not.

``verify_signed_report`` reads the PDF's last signature with pyHanko's validator and returns a
``SignatureCheck`` (``signing.py``): intact, covering the whole file, who signed it and when, from
which time source, and — only when trust roots are given — whether the signer chains to them.
A verdict on trust names its real reason, never a false "not issued by the CA":

- a certificate that has **expired since** the report was signed is judged, as PAdES long-term
  validation does, at the signing moment: the time-stamp's when there is one, else the time the
  signer's computer wrote into the signature (which no third party proves; the note says so).
  Valid then → trusted, with the note "valid when signed on DATE …, expired since DATE";
- a CA-issued certificate whose key usage lacks **non-repudiation** (the usage a signature one
  stands by needs) is named as such: issued by the CA, but not for this use — a finding;
- only a signer that does not chain to any given root is "not issued by the given CA".

``SignatureCheck.checked`` lists what was checked and ``not_checked`` what was not (revocation is
never fetched: the program is offline), so the signature page and ``check --report`` say both.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.ades.report import AdESIndeterminate
from pyhanko.sign.validation import SignatureCoverageLevel, validate_pdf_signature
from pyhanko.sign.validation.settings import KeyUsageConstraints
from pyhanko_certvalidator import ValidationContext

from taveer_desktop.report.signing import SignatureCheck, display_name, load_roots

_REQUIRED_USAGE = "non_repudiation"
_USAGE_WORDS = {
    "digital_signature": "digital signature",
    "non_repudiation": "non-repudiation",
    "key_encipherment": "key encipherment",
    "data_encipherment": "data encipherment",
    "key_agreement": "key agreement",
    "key_cert_sign": "certificate signing",
    "crl_sign": "CRL signing",
}
NOT_CHECKED_REVOCATION = (
    "whether the certificate was revoked (no revocation list or OCSP is fetched: the program "
    "works offline)"
)


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _validate(embedded: Any, roots: list, moment: datetime | None = None, usage: bool = True):
    context = ValidationContext(
        trust_roots=roots, allow_fetching=False, revocation_mode="soft-fail", moment=moment
    )
    settings = None if usage else KeyUsageConstraints(key_usage=set())
    return validate_pdf_signature(
        embedded, signer_validation_context=context, key_usage_settings=settings
    )


def verify_signed_report(
    path: str | Path, trust_roots: Iterable[str | Path | bytes] = (), data: bytes | None = None
) -> SignatureCheck:
    """Check the last signature of the PDF at ``path`` (its bytes ``data`` when already read;
    ``trust_roots``: PEM or DER CA certificates, as files or bytes; without them trust is not
    judged)."""
    roots = load_roots(trust_roots)
    try:
        with io.BytesIO(data) if data is not None else open(path, "rb") as handle:
            reader = PdfFileReader(handle, strict=False)
            sigs = reader.embedded_regular_signatures
            if not sigs:
                return SignatureCheck(signed=False, problems=("The PDF carries no signature.",))
            embedded = sigs[-1]
            status = _validate(embedded, roots)
            trusted, problems, checked = (
                _trust(embedded, status, roots) if roots else (None, [], [])
            )
    except OSError as error:
        return SignatureCheck(
            signed=False, problems=(f"The file could not be read ({error.strerror or error}).",)
        )
    except (PdfError, ValueError, KeyError, IndexError, TypeError) as error:
        return SignatureCheck(
            signed=False,
            problems=(f"The file is not a readable signed PDF ({error}); treat it as altered.",),
        )
    intact = bool(status.intact and status.valid)
    if not intact:
        problems.insert(
            0, "The signed bytes were changed after signing, or the signature is broken."
        )
    whole = status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    if not whole:
        problems.append("Bytes were added to the file after it was signed.")
    ts = status.timestamp_validity
    timestamp_intact = None if ts is None else bool(ts.intact and ts.valid)
    if timestamp_intact is False:
        problems.append("The time-stamping authority's timestamp does not match the signature.")
    checked = [
        "the signed bytes and the signature's mathematics",
        "that the signature covers the whole file",
        *(["the time-stamp's match with the signature"] if ts is not None else []),
        *checked,
    ]
    not_checked = [NOT_CHECKED_REVOCATION]
    if not roots:
        not_checked.insert(0, "the signer's certificate chain and trust anchor (no CA was given)")
    if ts is None:
        not_checked.append("the signing time (no time-stamp: it is the signer's computer's clock)")
    cert = status.signing_cert
    return SignatureCheck(
        signed=True,
        intact=intact,
        covers_whole_file=whole,
        signer_subject=display_name(cert.subject),
        signer_sha256=hashlib.sha256(cert.dump()).hexdigest(),
        signing_time=ts.timestamp if ts is not None else status.signer_reported_dt,
        time_source="tsa" if ts is not None else "workstation",
        timestamp_intact=timestamp_intact,
        tsa_subject=display_name(ts.signing_cert.subject) if ts is not None else None,
        trusted=trusted,
        problems=tuple(problems),
        checked=tuple(checked),
        not_checked=tuple(not_checked),
    )


def _trust(embedded: Any, status: Any, roots: list) -> tuple[bool, list[str], list[str]]:
    """(trusted, problems, what was checked) of the signer and the TSA against ``roots``."""
    cert = status.signing_cert
    ts = status.timestamp_validity
    problems: list[str] = []
    checked = ["the signer's certificate chain to the given CA (the trust anchor)"]
    signer_ok = bool(status.trusted)
    indication = getattr(status, "trust_problem_indic", None)
    not_after = cert["tbs_certificate"]["validity"]["not_after"].native
    if not signer_ok and indication in (
        AdESIndeterminate.OUT_OF_BOUNDS_NO_POE,
        AdESIndeterminate.EXPIRED,
    ):
        moment = ts.timestamp if ts is not None else status.signer_reported_dt
        if moment is not None and moment < not_after and _validate(embedded, roots, moment).trusted:
            signer_ok = True
            source = "its time-stamp" if ts is not None else "the time the signer's computer gave"
            checked.append(
                f"the certificate at the signing moment: valid when signed on {_when(moment)} "
                f"({source}), expired since {_when(not_after)}"
            )
        else:
            problems.append(f"The signer's certificate expired on {_when(not_after)}.")
    elif not signer_ok and indication is AdESIndeterminate.CHAIN_CONSTRAINTS_FAILURE:
        usage = set(cert.key_usage_value.native) if cert.key_usage_value else set()
        if _REQUIRED_USAGE not in usage and _validate(embedded, roots, usage=False).trusted:
            allowed = ", ".join(_USAGE_WORDS.get(u, u) for u in sorted(usage)) or "none"
            problems.append(
                "The signer's certificate is issued by the given CA, but its key usage lacks "
                f"non-repudiation (it allows: {allowed}): it is not a certificate for signing "
                "reports."
            )
        else:
            problems.append("The signer's certificate does not meet the CA's constraints.")
    elif not signer_ok:
        problems.append("The signer's certificate is not issued by the given CA.")
    tsa_ok = ts is None or bool(ts.trusted)
    if ts is not None:
        checked.append("the time-stamping authority's certificate chain to the given CA")
        if not tsa_ok:
            problems.append(
                "The time-stamping authority's certificate is not issued by the given CA."
            )
    return signer_ok and tsa_ok, problems, checked
