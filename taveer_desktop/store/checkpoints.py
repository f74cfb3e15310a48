"""Signed checkpoints: the chain's head signed with the examiner's key, and their verification.

A checkpoint is the examiner's signature over a canonical JSON of {project id (the hash of the
store's first audit entry), entry number, that entry's hash, time} — made with the private key
of the examiner's PKCS#12 certificate, which never enters the file. It is kept in the chain as
a ``checkpoint_signed`` entry whose details hold the signed payload's fields, the signature, the
algorithm and the signer's certificate (DER, base64). ``checkpoint_checks`` verifies every one
against the chain as it is: the signature must hold under the certificate's public key and the
entry it names must still have the hash that was signed. A forger who edits an entry at or
before a checkpoint and re-chains changes that hash, and cannot sign the new one without the
examiner's key: the check finds it without any receipt. Entries after the last checkpoint are
sealed by the program only. The signer is named from its certificate; whether that certificate
chains to a CA is not judged here (``check --report --trust`` does that for a signed report).

Time-stamping (RFC 3161) is not applied to checkpoints: their time is the workstation's clock.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

from taveer_desktop.store.audit_chain import canonical_json
from taveer_desktop.store.records import AuditEntry, CheckpointCheck, IntegrityProblem

CHECKPOINT_ACTION = "checkpoint_signed"
CHECKPOINT_FORMAT = "taveer-checkpoint-v1"
ALGORITHMS = ("rsa-pkcs1v15-sha256", "ecdsa-sha256", "ed25519")
# the keys of a checkpoint's details that the signature covers (with CHECKPOINT_FORMAT)
SIGNED_KEYS = ("project_id", "entry", "head_hash", "signed_utc")


class CheckpointKey(Protocol):
    """An examiner's private key able to sign, with its certificate (``report/credentials``)."""

    subject: str
    certificate_der: bytes

    def sign(self, data: bytes) -> tuple[str, bytes]:
        """(algorithm, one of ``ALGORITHMS``; signature) over ``data``."""
        ...


def signed_payload(project_id: str, entry: int, head_hash: str, signed_utc: str) -> bytes:
    """The exact bytes a checkpoint's signature covers."""
    fields = {"project_id": project_id, "entry": entry, "head_hash": head_hash}
    return canonical_json({"format": CHECKPOINT_FORMAT, **fields, "signed_utc": signed_utc}).encode(
        "utf-8"
    )


def make_checkpoint(
    key: CheckpointKey, project_id: str, entry: int, head_hash: str, signed_utc: str
) -> dict[str, Any]:
    """The details of a ``checkpoint_signed`` entry: entry ``entry`` with hash ``head_hash``
    signed by ``key`` (also what a signed report carries)."""
    algorithm, signature = key.sign(signed_payload(project_id, entry, head_hash, signed_utc))
    return {
        "format": CHECKPOINT_FORMAT,
        "project_id": project_id,
        "entry": entry,
        "head_hash": head_hash,
        "signed_utc": signed_utc,
        "signer": key.subject,
        "certificate_sha256": hashlib.sha256(key.certificate_der).hexdigest(),
        "certificate": base64.b64encode(key.certificate_der).decode("ascii"),
        "algorithm": algorithm,
        "signature": base64.b64encode(signature).decode("ascii"),
    }


def _verify(public_key: object, algorithm: object, signature: bytes, data: bytes) -> None:
    """Raise ``InvalidSignature`` unless ``signature`` over ``data`` holds."""
    if algorithm == "rsa-pkcs1v15-sha256" and isinstance(public_key, rsa.RSAPublicKey):
        public_key.verify(signature, data, padding.PKCS1v15(), hashes.SHA256())
    elif algorithm == "ecdsa-sha256" and isinstance(public_key, ec.EllipticCurvePublicKey):
        public_key.verify(signature, data, ec.ECDSA(hashes.SHA256()))
    elif algorithm == "ed25519" and isinstance(public_key, ed25519.Ed25519PublicKey):
        public_key.verify(signature, data)
    else:
        raise InvalidSignature


def signature_problem(details: Mapping[str, Any]) -> str | None:
    """Why a checkpoint's signature does not hold under its own certificate (None: it holds)."""
    try:
        certificate_der = base64.b64decode(str(details.get("certificate", "")), validate=True)
        signature = base64.b64decode(str(details.get("signature", "")), validate=True)
        certificate = x509.load_der_x509_certificate(certificate_der)
        public_key = certificate.public_key()
    except (binascii.Error, ValueError, UnsupportedAlgorithm):
        return "its certificate or signature is unreadable"
    if hashlib.sha256(certificate_der).hexdigest() != details.get("certificate_sha256"):
        return "its certificate is not the one its fingerprint names"
    fields = [details.get(k) for k in SIGNED_KEYS]
    if details.get("format") != CHECKPOINT_FORMAT or not isinstance(fields[1], int):
        return "it is not a checkpoint of this program's format"
    data = signed_payload(str(fields[0]), fields[1], str(fields[2]), str(fields[3]))
    try:
        _verify(public_key, details.get("algorithm"), signature, data)
    except InvalidSignature:
        return "its signature does not hold: what it signs was changed after signing"
    return None


def chain_problem(
    details: Mapping[str, Any], project_id: str, hashes_by_seq: Mapping[int, str]
) -> str | None:
    """Why the chain as it is no longer matches a checkpoint whose signature holds."""
    entry = details.get("entry")
    if details.get("project_id") != project_id:
        return "it was signed for another project (its project id differs)"
    if not isinstance(entry, int) or entry not in hashes_by_seq:
        return f"the entry it signed ({entry}) is no longer in the chain"
    if hashes_by_seq[entry] != details.get("head_hash"):
        return (
            f"audit entry {entry} no longer has the hash the examiner signed: an entry at or "
            "before it was changed, inserted or removed and the chain rebuilt"
        )
    return None


def verify_checkpoint(
    details: Mapping[str, Any], project_id: str, hashes_by_seq: Mapping[int, str], seq: int
) -> CheckpointCheck:
    """One checkpoint held against the chain (``seq``: the entry that carries it; 0: none)."""
    problem = signature_problem(details) or chain_problem(details, project_id, hashes_by_seq)
    entry = details.get("entry")
    return CheckpointCheck(
        carried_by=seq,
        covers_to=entry if isinstance(entry, int) else 0,
        signer=str(details.get("signer", "?")),
        signed_utc=str(details.get("signed_utc", "?")),
        certificate_sha256=str(details.get("certificate_sha256", "")),
        problem=problem,
    )


def project_id_of(entries: Iterable[AuditEntry]) -> str:
    """The store's identity: the hash of its first audit entry ("" for an empty log)."""
    return next((e.entry_hash for e in entries if e.seq == 1), "")


def checkpoint_checks(
    entries: list[AuditEntry],
) -> tuple[tuple[CheckpointCheck, ...], list[IntegrityProblem]]:
    """Every ``checkpoint_signed`` entry verified against the chain, and a problem for each one
    that fails (naming the entry that carries it and why)."""
    hashes_by_seq = {e.seq: e.entry_hash for e in entries}
    project_id = project_id_of(entries)
    checks = []
    problems = []
    for entry in entries:
        if entry.action != CHECKPOINT_ACTION:
            continue
        check = verify_checkpoint(entry.details, project_id, hashes_by_seq, entry.seq)
        if check.covers_to >= entry.seq:
            check = check.failing("it claims to sign an entry written after itself")
        checks.append(check)
        if check.problem:
            problems.append(
                IntegrityProblem(
                    "checkpoint",
                    f"audit entry {entry.seq} (checkpoint signed by {check.signer})",
                    check.problem,
                )
            )
    return tuple(checks), problems


def last_holding(checks: Iterable[CheckpointCheck]) -> CheckpointCheck | None:
    """The checkpoint covering the most entries among those that hold (None: none holds)."""
    holding = [c for c in checks if c.problem is None]
    return max(holding, key=lambda c: c.covers_to) if holding else None
