"""Evidence intake: reading one file and turning it into a document ready to store.

``prepare_document`` never touches the store. It reads the file's bytes exactly as they are on
disk (refusing files over ``MAX_FILE_BYTES`` before reading them), fingerprints them, extracts
the text by format and counts characters and sentences. The format comes from the extension:
``.txt``/``.text`` (encoding detected by the engine), ``.eml`` and ``.docx``. Every refusal is an
``EvidenceRefused`` with a ``RejectionReason`` and one sentence naming the file; duplicates are
decided by the store, which knows what the case already holds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taveer_desktop.core.decoding import decode_bytes
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.text import count_sentences
from taveer_desktop.store.docx_text import extract_docx_text
from taveer_desktop.store.eml_text import extract_eml_text
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.fingerprints import sha256_hex, text_sha256
from taveer_desktop.store.records import RejectionReason

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_TEXT_CHARS = 5_000_000
SUPPORTED_FORMATS = {".txt": "txt", ".text": "txt", ".eml": "eml", ".docx": "docx"}
DOCX_ENCODING = "UTF-8 (Word XML)"


@dataclass(frozen=True)
class PreparedDocument:
    """A file read, fingerprinted and decoded, not yet stored."""

    source_path: str
    file_name: str
    file_format: str
    data: bytes = field(repr=False)
    sha256: str
    encoding: str
    text: str = field(repr=False)
    text_sha256: str
    char_count: int
    sentence_count: int
    metadata: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def describe_size(byte_count: int) -> str:
    """``32 MiB (33,554,432 bytes)``-style size for messages."""
    if byte_count >= 1024 * 1024:
        return f"{byte_count / (1024 * 1024):.1f} MiB ({byte_count:,} bytes)"
    return f"{byte_count:,} bytes"


def read_evidence_bytes(path: Path, max_bytes: int | None = None) -> bytes:
    """The file's bytes as they are on disk; refuses missing, unreadable and oversized files."""
    source = str(path)
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                raise EvidenceRefused(
                    f"is {describe_size(size)}, over the limit of {describe_size(max_bytes)} "
                    "for one document",
                    source,
                    RejectionReason.TOO_LARGE,
                )
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise EvidenceRefused("no such file", source, RejectionReason.UNREADABLE) from None
    except IsADirectoryError:
        raise EvidenceRefused(
            "is a folder, not a document", source, RejectionReason.UNREADABLE
        ) from None
    except PermissionError:
        raise EvidenceRefused(
            "cannot be read (permission denied)", source, RejectionReason.UNREADABLE
        ) from None
    except OSError as error:
        raise EvidenceRefused(
            f"cannot be read ({error.strerror or error})", source, RejectionReason.UNREADABLE
        ) from None
    if len(data) > max_bytes:  # the file grew while being read
        raise EvidenceRefused(
            f"is over the limit of {describe_size(max_bytes)} for one document",
            source,
            RejectionReason.TOO_LARGE,
        )
    if not data:
        raise EvidenceRefused("is empty (0 bytes)", source, RejectionReason.EMPTY)
    return data


def _decode_text_file(data: bytes, source: str) -> tuple[str, str]:
    try:
        decoded = decode_bytes(data, source)
    except InputError as error:
        message = error.plain_message
        if "binary" in message:
            reason = RejectionReason.BINARY
        elif "empty" in message or "no text" in message:
            reason = RejectionReason.EMPTY
        else:
            reason = RejectionReason.UNREADABLE
        raise EvidenceRefused(message, source, reason) from None
    return decoded.text, decoded.encoding


def _refuse_binary_container(data: bytes, source: str, what: str) -> None:
    if b"\x00" in data[:65536]:
        raise EvidenceRefused(
            f"looks like a binary file (it contains NUL bytes), not {what}",
            source,
            RejectionReason.BINARY,
        )


def extract_text(data: bytes, file_format: str, source: str) -> tuple[str, str, dict[str, Any]]:
    """(text, encoding, format metadata) of a document's bytes."""
    if file_format == "txt":
        text, encoding = _decode_text_file(data, source)
        return text, encoding, {}
    if file_format == "eml":
        if not data.strip():
            raise EvidenceRefused("is empty (only white space)", source, RejectionReason.EMPTY)
        _refuse_binary_container(data, source, "an e-mail message")
        return extract_eml_text(data, source)
    if file_format == "docx":
        text, metadata = extract_docx_text(data, source)
        if not text.strip():
            raise EvidenceRefused(
                "is a Word document without any text", source, RejectionReason.EMPTY
            )
        return text, DOCX_ENCODING, metadata
    raise ValueError(f"unknown document format {file_format!r}")


def format_of(path: Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in SUPPORTED_FORMATS:
        shown = suffix or "no extension"
        raise EvidenceRefused(
            f"has an unsupported file type ({shown}); supported are .txt, .eml and .docx",
            str(path),
            RejectionReason.UNSUPPORTED,
        )
    return SUPPORTED_FORMATS[suffix]


def prepare_document(path: str | Path) -> PreparedDocument:
    """Read and extract one evidence file; raises ``EvidenceRefused`` with the reason."""
    path = Path(path)
    source = str(path)
    file_format = format_of(path)
    data = read_evidence_bytes(path)
    text, encoding, metadata = extract_text(data, file_format, source)
    if len(text) > MAX_TEXT_CHARS:
        raise EvidenceRefused(
            f"holds {len(text):,} characters of text, over the limit of {MAX_TEXT_CHARS:,} "
            "for one document",
            source,
            RejectionReason.TOO_LARGE,
        )
    metadata = {"source_path": str(path.resolve()), **metadata}
    return PreparedDocument(
        source_path=source,
        file_name=path.name,
        file_format=file_format,
        data=data,
        sha256=sha256_hex(data),
        encoding=encoding,
        text=text,
        text_sha256=text_sha256(text),
        char_count=len(text),
        sentence_count=count_sentences(text),
        metadata=metadata,
    )
