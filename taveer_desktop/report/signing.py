"""Signing a finished report PDF (PAdES) with pyHanko; the certificate files it reads.

``sign_report`` adds one PAdES signature (ETSI EN 319 142, ``/SubFilter /ETSI.CAdES.detached``)
to an existing PDF as an incremental update, so the signature's byte range covers the whole
signed file. The key and certificate come from a PKCS#12 file and its passphrase. Without a
time-stamping authority the signature is PAdES B-B and its time is the workstation's clock (the
``/M`` entry of the signature dictionary, which anyone can set); with ``tsa_url`` an RFC 3161
timestamp from the lab's time-stamping authority is embedded in the signature (PAdES B-T).

``signature_verdict.verify_signed_report`` reads the last signature of a PDF and says, in the
``SignatureCheck`` defined here, whether the file is intact, whether the signature covers the
whole file, who signed it, when, and whether that time comes from a TSA or from the
workstation. Trust in the signer's certificate is judged only against roots the caller gives
(the lab's CA, the court's list); the operating system's trust list is never used, and nothing
is fetched: no OCSP, no CRL, no AIA. The only network connection this module ever opens is to
the TSA URL the lab configured.

Every failure to sign is one ``SigningError`` whose ``kind`` names it for code and whose text is
a plain sentence for the examiner. The report writers sign through ``report_signing.py``
(before the file takes its name, so the audit entry records the signed file's SHA-256);
``taveer check --report`` verifies through ``signature_verdict.verify_signed_report``. Every
certificate file the user names is read as a regular file without blocking (a FIFO is refused
before it is opened).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

from asn1crypto import parser as asn1_parser
from asn1crypto import tsp
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.sign import fields, signers
from pyhanko.sign.general import SigningError as PyHankoSigningError
from pyhanko.sign.timestamps import HTTPTimeStamper, TimestampRequestError

from taveer_desktop.report.credentials import MAX_CERTIFICATE_BYTES as MAX_CERTIFICATE_BYTES
from taveer_desktop.report.credentials import SigningError as SigningError
from taveer_desktop.report.credentials import SigningErrorKind as SigningErrorKind
from taveer_desktop.report.credentials import display_name as display_name
from taveer_desktop.report.credentials import open_examiner_key, user_certificate_file

SIGNATURE_FIELD = "TAVeerExaminerSignature"
# pyHanko and its certificate validator log a traceback for every certificate they cannot chain;
# what matters is in the SignatureCheck, so their logs reach no handler and no stream at all
for _library in ("pyhanko", "pyhanko_certvalidator"):
    logging.getLogger(_library).addHandler(logging.NullHandler())
    logging.getLogger(_library).propagate = False
DEFAULT_TSA_TIMEOUT = 10.0  # seconds; a TSA on the lab's network answers in well under one

TimeSource = Literal["tsa", "workstation"]


@dataclass(frozen=True)
class SignedReport:
    """What ``sign_report`` wrote."""

    path: Path
    sha256: str  # of the signed file: what a receipt and the audit entry must record
    signer_subject: str
    time_source: TimeSource


@dataclass(frozen=True)
class SignatureCheck:
    """What ``signature_verdict.verify_signed_report`` found in one PDF (its last signature)."""

    signed: bool
    intact: bool = False  # the signed bytes are unchanged and the signature's mathematics holds
    covers_whole_file: bool = False  # nothing was appended after the signature
    signer_subject: str | None = None
    signer_sha256: str | None = None  # fingerprint of the signer's certificate (DER)
    signing_time: datetime | None = None
    time_source: TimeSource | None = None
    timestamp_intact: bool | None = None  # None: no TSA timestamp in the signature
    tsa_subject: str | None = None
    trusted: bool | None = None  # None: no trust roots were given, so trust was not judged
    problems: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()  # what was checked, in words (signature_verdict.py)
    not_checked: tuple[str, ...] = ()  # and what was not

    @property
    def ok(self) -> bool:
        """Intact, whole file, an intact timestamp if there is one, trusted if roots were given."""
        return (
            self.signed
            and self.intact
            and self.covers_whole_file
            and self.timestamp_intact is not False
            and self.trusted is not False
        )


def read_credentials(
    pkcs12_path: str | Path, passphrase: str | bytes | None, now: datetime
) -> tuple[signers.SimpleSigner, str]:
    """pyHanko's signer of the PKCS#12 file, and the certificate's subject (refusals: one
    ``SigningError``, as ``credentials.open_examiner_key`` says)."""
    key = open_examiner_key(pkcs12_path, passphrase, now)
    try:
        signer = signers.SimpleSigner.load_pkcs12_data(
            key.pkcs12_data, other_certs=[], passphrase=key.secret
        )
    except ValueError:
        raise SigningError(
            "no_key", f"The key in the certificate file {pkcs12_path} cannot be used for signing."
        ) from None
    return signer, key.subject


class _LabTimeStamper(HTTPTimeStamper):
    """pyHanko's HTTP client, but a refusal keeps its reason: asn1crypto 1.5.1 declares the
    token of a TimeStampResp mandatory (RFC 3161 makes it OPTIONAL), so the answer of a TSA
    that refuses fails to parse and its status and text would be lost."""

    async def async_request_tsa_response(self, req: tsp.TimeStampReq) -> tsp.TimeStampResp:
        response = await super().async_request_tsa_response(req)
        try:
            response["status"]  # parses the whole answer
        except ValueError:
            try:
                status_der = b"".join(asn1_parser.parse(asn1_parser.parse(response.dump())[4])[3:5])
                status = tsp.PKIStatusInfo.load(status_der)
                words = "; ".join(status["status_string"].native or [status["status"].native])
            except (ValueError, TypeError, IndexError):
                raise TimestampRequestError("Malformed answer from the TSA") from None
            raise TimestampRequestError(f"Timestamp server refused our request: {words}") from None
        return response


def check_tsa_url(tsa_url: str | None) -> None:
    """Refuse a TSA address that is not an http(s) URL (before anything is written)."""
    if tsa_url is None:
        return
    parsed = urlparse(tsa_url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise SigningError(
            "bad_tsa_url",
            f"The time-stamping authority's address {tsa_url!r} is not an http(s) URL.",
        )


def _timestamper(tsa_url: str | None, timeout: float) -> HTTPTimeStamper | None:
    if tsa_url is None:
        return None
    check_tsa_url(tsa_url)
    return _LabTimeStamper(tsa_url, timeout=timeout)


def _tsa_error(tsa_url: str | None, error: Exception) -> SigningError:
    message = str(error)
    if "refused our request" in message or "nonce" in message:
        detail = message.split(": ", 1)[-1].rstrip(".")
        return SigningError(
            "tsa_refused",
            f"The time-stamping authority at {tsa_url} refused to timestamp the signature "
            f"({detail}). The report was not signed.",
        )
    return SigningError(
        "tsa_unreachable",
        f"The time-stamping authority at {tsa_url} could not be reached, or did not answer "
        "with a timestamp. The report was not signed.",
    )


def sign_report(
    source: str | Path,
    target: str | Path,
    pkcs12_path: str | Path,
    passphrase: str | bytes | None,
    *,
    tsa_url: str | None = None,
    tsa_timeout: float = DEFAULT_TSA_TIMEOUT,
    reason: str | None = None,
    location: str | None = None,
    now: datetime | None = None,
    carried: Mapping[str, str] | None = None,
) -> SignedReport:
    """Sign the PDF ``source`` into ``target`` (may be the same path; written through a
    temporary file in the target's folder and renamed only when whole). ``carried``: text
    entries (name → text) added to the document catalog in the signed revision (a report's
    checkpoint, ``report_checkpoint.py``), so the signature covers them."""
    source, target = Path(source), Path(target)
    signer, subject = read_credentials(pkcs12_path, passphrase, now or datetime.now(UTC))
    timestamper = _timestamper(tsa_url, tsa_timeout)
    meta = signers.PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        reason=reason,
        location=location,
    )
    try:
        handle = open(source, "rb")  # noqa: SIM115 (held open until the signature is written)
    except OSError as error:
        raise SigningError(
            "unreadable_pdf", f"The report {source} could not be read ({error.strerror})."
        ) from None
    temp_name: str | None = None
    try:
        try:
            writer = IncrementalPdfFileWriter(handle, strict=False)
        except (PdfError, ValueError, KeyError, IndexError):
            raise SigningError(
                "unreadable_pdf", f"The file {source} is not a readable PDF."
            ) from None
        for name, text in (carried or {}).items():
            writer.root[generic.NameObject(name)] = generic.TextStringObject(text)
        if carried:
            writer.update_root()
        fd, temp_name = tempfile.mkstemp(prefix=".signing-", suffix=".pdf", dir=target.parent)
        with os.fdopen(fd, "wb") as out:
            signers.sign_pdf(writer, meta, signer=signer, timestamper=timestamper, output=out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp_name, target)
        temp_name = None
    except TimestampRequestError as error:
        raise _tsa_error(tsa_url, error) from None
    except PyHankoSigningError as error:
        if isinstance(error.__cause__, TimestampRequestError):
            raise _tsa_error(tsa_url, error.__cause__) from None
        raise SigningError("write_failed", f"The report could not be signed: {error}.") from None
    except OSError as error:
        raise SigningError(
            "write_failed", f"The signed report {target} could not be written ({error})."
        ) from None
    finally:
        handle.close()
        if temp_name is not None:
            Path(temp_name).unlink(missing_ok=True)
    return SignedReport(
        path=target,
        sha256=hashlib.sha256(target.read_bytes()).hexdigest(),
        signer_subject=subject,
        time_source="tsa" if timestamper is not None else "workstation",
    )


def load_roots(trust_roots: Iterable[str | Path | bytes]) -> list[asn1_x509.Certificate]:
    roots = []
    for root in trust_roots:
        name = "the given certificate" if isinstance(root, bytes) else str(root)
        data = (
            root
            if isinstance(root, bytes)
            else user_certificate_file(root, "CA certificate", "unreadable_trust")
        )
        try:
            cert = (
                x509.load_pem_x509_certificate(data)
                if data.lstrip().startswith(b"-----BEGIN")
                else x509.load_der_x509_certificate(data)
            )
        except ValueError:
            raise SigningError(
                "unreadable_trust", f"The file {name} is not a PEM or DER certificate."
            ) from None
        roots.append(asn1_x509.Certificate.load(cert.public_bytes(Encoding.DER)))
    return roots
