"""SHA-256 fingerprints of what the store keeps: evidence bytes, decoded text and stored runs.

The integrity check recomputes exactly these functions, so a change to any of them is a schema
change (add a migration, never edit a released definition).
"""

from __future__ import annotations

import hashlib

from taveer_desktop.store.audit_chain import canonical_json

RUN_RECORD_FORMAT = "taveer-run-v1"
RUN_RECORD_FORMAT_2 = "taveer-run-v2"  # adds the conclusion kind (store version 2)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_sha256(text: str) -> str:
    """SHA-256 of the text's UTF-8 encoding (lone surrogates kept, never dropped)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def run_record_sha256(
    case_id: int,
    model_id: int,
    model_sha256: str,
    questioned_document_id: int,
    documents: list[tuple[int, str, str]],
    prediction: str,
    similarity: float | None,
    software_version: str,
    run_utc: str,
    result_zlib: bytes,
    conclusion: str | None = None,
) -> str:
    """Fingerprint of a stored run; ``documents`` holds (id, role, sha256) of each one used.

    The result enters as the SHA-256 of its stored (compressed) bytes. Runs stored before
    version 2 have no conclusion column value and keep their version-1 fingerprint.
    """
    fields = [
        RUN_RECORD_FORMAT if conclusion is None else RUN_RECORD_FORMAT_2,
        case_id,
        model_id,
        model_sha256,
        questioned_document_id,
        sorted([list(entry) for entry in documents]),
        prediction,
        similarity,
        software_version,
        run_utc,
        sha256_hex(result_zlib),
    ]
    if conclusion is not None:
        fields.append(conclusion)
    return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()
