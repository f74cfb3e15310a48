"""The examiner's certificate file (PKCS#12): opened with its passphrase, refused in one sentence.

``open_examiner_key`` reads the file the user named as a regular file without blocking (a FIFO
is refused before it is opened), tells "not PKCS#12" apart from "wrong passphrase", and refuses
a file without a key, an expired certificate or one not yet valid, each as one
``SigningError`` whose text is a plain sentence. The ``ExaminerKey`` it returns signs bytes with
the certificate's key (``sign``: a signed checkpoint, ``store/checkpoints.py``) and keeps what
pyHanko needs to sign a report (``signing.read_credentials``). Only ``cryptography`` and
``asn1crypto`` are used here, so ``case declare --sign`` does not pay pyHanko's import.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from asn1crypto import pkcs12 as asn1_pkcs12
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

from taveer_desktop.core.intake.file_reading import FileRefused, read_file_bytes

SigningErrorKind = Literal[
    "unreadable_pdf",
    "unreadable_credentials",
    "not_pkcs12",
    "bad_passphrase",
    "no_key",
    "expired",
    "not_yet_valid",
    "bad_tsa_url",
    "tsa_unreachable",
    "tsa_refused",
    "write_failed",
    "unreadable_trust",
]
MAX_CERTIFICATE_BYTES = 1024 * 1024


class SigningError(Exception):
    """A report could not be signed; ``str(error)`` is a plain sentence for the examiner."""

    def __init__(self, kind: SigningErrorKind, sentence: str) -> None:
        super().__init__(sentence)
        self.kind: SigningErrorKind = kind
        self.sentence = sentence


def display_name(name: asn1_x509.Name) -> str:
    """A certificate subject as a person reads it: "A. Examiner (Example Lab)" from its common
    name and organisation; the whole subject when it has no common name."""
    fields = name.native
    common, organisation = fields.get("common_name"), fields.get("organization_name")
    if not isinstance(common, str):
        return str(name.human_friendly)
    return f"{common} ({organisation})" if isinstance(organisation, str) else common


def user_certificate_file(path: str | Path, what: str, code: SigningErrorKind) -> bytes:
    """A certificate file the user named: a regular file, opened without blocking (a FIFO is
    refused before it is opened), at most ``MAX_CERTIFICATE_BYTES``."""
    try:
        return read_file_bytes(path, MAX_CERTIFICATE_BYTES, kind=what)
    except FileRefused as error:
        said = error.plain_message
        if error.reason in ("missing", "unreadable"):
            said = f"could not be read ({said})"
        raise SigningError(code, f"The {what} {path} {said}.") from None


@dataclass(frozen=True)
class ExaminerKey:
    """The opened certificate file: its private key and certificate (never stored anywhere)."""

    subject: str
    certificate_der: bytes
    private_key: object
    pkcs12_data: bytes
    secret: bytes | None

    def sign(self, data: bytes) -> tuple[str, bytes]:
        """(algorithm, signature) over ``data`` with the certificate's key."""
        key = self.private_key
        if isinstance(key, rsa.RSAPrivateKey):
            return "rsa-pkcs1v15-sha256", key.sign(data, padding.PKCS1v15(), hashes.SHA256())
        if isinstance(key, ec.EllipticCurvePrivateKey):
            return "ecdsa-sha256", key.sign(data, ec.ECDSA(hashes.SHA256()))
        if isinstance(key, ed25519.Ed25519PrivateKey):
            return "ed25519", key.sign(data)
        raise SigningError(
            "no_key", f"The key of {self.subject} is of a kind this program cannot sign with."
        )


def open_examiner_key(
    pkcs12_path: str | Path, passphrase: str | bytes | None, now: datetime
) -> ExaminerKey:
    """Open the PKCS#12 file with its passphrase; refuse what cannot sign at ``now``."""
    path = Path(pkcs12_path)
    data = user_certificate_file(path, "certificate file", "unreadable_credentials")
    try:  # the outer structure parses without the passphrase: tells "not PKCS#12" apart
        pfx = asn1_pkcs12.Pfx.load(data, strict=True)
        pfx["auth_safe"]["content_type"].native  # noqa: B018 (forces the parse)
    except (ValueError, TypeError, KeyError):
        raise SigningError(
            "not_pkcs12",
            f"The file {path} is not a PKCS#12 certificate file (.p12 or .pfx).",
        ) from None
    secret = (passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase) or None
    try:
        key, cert, _extra = pkcs12.load_key_and_certificates(data, secret)
    except (ValueError, TypeError):
        raise SigningError(
            "bad_passphrase",
            f"The passphrase does not open the certificate file {path}.",
        ) from None
    if key is None or cert is None:
        raise SigningError(
            "no_key",
            f"The certificate file {path} holds no private key with its certificate.",
        )
    der = cert.public_bytes(Encoding.DER)
    subject = display_name(asn1_x509.Certificate.load(der).subject)
    if cert.not_valid_after_utc < now:
        raise SigningError(
            "expired",
            f"The certificate of {subject} expired on "
            f"{cert.not_valid_after_utc:%Y-%m-%d %H:%M} UTC; a report cannot be signed with it.",
        )
    if cert.not_valid_before_utc > now:
        raise SigningError(
            "not_yet_valid",
            f"The certificate of {subject} is valid only from "
            f"{cert.not_valid_before_utc:%Y-%m-%d %H:%M} UTC.",
        )
    return ExaminerKey(subject, der, key, data, secret)
