"""Evidence intake: reading one file and turning it into a document ready to store.

``prepare_document`` never touches the store. It reads the file's bytes exactly as they are on
disk (refusing files over ``MAX_FILE_BYTES`` before reading them), fingerprints them, extracts
the text by format and counts characters and sentences. The format comes from the extension:
``.txt``/``.text`` (encoding detected by the engine, or named by the examiner), ``.eml`` and
``.docx``. Only regular files are read (a FIFO or device is refused before it is opened), each
once, and a file that changed while it was read is refused. Every refusal is an
``EvidenceRefused`` with a ``RejectionReason`` and one sentence naming the file; duplicates are
decided by the store, which knows what the case already holds.

The analysed text is what a reader of the file sees: characters a reader does not see are
removed (``core/intake/invisible_text.py``), hidden Word text, HTML hidden by style and parts a
reader is not shown are left out by the format's reader, and everything found is recorded with the
document as its reading notes (``metadata["reading"]``, ``core/intake/reading_notes.py``). The
file's bytes are kept exactly as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taveer_desktop.core.features.text import count_sentences
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import (
    DecodedText,
    FileRefused,
    decode_bytes,
    read_file_bytes,
    shown_name,
)
from taveer_desktop.core.intake.invisible_text import remove_invisible
from taveer_desktop.core.intake.reading_notes import METADATA_KEY, ReadingNotes
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


_READ_REASONS = {
    "missing": RejectionReason.UNREADABLE,
    "folder": RejectionReason.UNREADABLE,
    "not_regular": RejectionReason.UNSUPPORTED,
    "too_large": RejectionReason.TOO_LARGE,
    "changed": RejectionReason.UNREADABLE,
    "unreadable": RejectionReason.UNREADABLE,
}


def read_evidence_bytes(path: Path, max_bytes: int | None = None) -> bytes:
    """The file's bytes as they are on disk, read once and checked unchanged after reading.

    Refuses missing, unreadable and oversized files and anything that is not a regular file
    (a FIFO or device is never opened), and a file that changed while it was read.
    """
    source = str(path)
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        data = read_file_bytes(path, max_bytes, kind="document")
    except FileRefused as error:
        message = error.plain_message
        if error.reason == "too_large":
            message = f"is over the limit of {describe_size(max_bytes)} for one document"
        elif error.reason == "folder":
            message = "is a folder, not a document"
        elif error.reason == "missing":
            message = "no such file"
        raise EvidenceRefused(message, source, _READ_REASONS[error.reason]) from None
    if not data:
        raise EvidenceRefused("is empty (0 bytes)", source, RejectionReason.EMPTY)
    return data


def _decode_text_file(data: bytes, source: str, encoding: str | None) -> DecodedText:
    try:
        decoded = decode_bytes(data, source, encoding)
    except InputError as error:
        message = error.plain_message
        if "binary" in message:
            reason = RejectionReason.BINARY
        elif "empty" in message or "no text" in message:
            reason = RejectionReason.EMPTY
        else:
            reason = RejectionReason.UNREADABLE
        raise EvidenceRefused(message, source, reason) from None
    return decoded


def _refuse_binary_container(data: bytes, source: str, what: str) -> None:
    if b"\x00" in data[:65536]:
        raise EvidenceRefused(
            f"looks like a binary file (it contains NUL bytes), not {what}",
            source,
            RejectionReason.BINARY,
        )


def extract_text(
    data: bytes, file_format: str, source: str, encoding: str | None = None
) -> tuple[str, str, dict[str, Any], ReadingNotes]:
    """(text as a reader sees it, encoding, format metadata, reading notes) of a document's
    bytes; invisible characters are still in the text (``prepare_document`` removes them).

    ``encoding`` (the examiner's choice) applies to text files only; for them the metadata
    says how the encoding was found and how sure that is (``encoding_detection``).
    """
    if encoding is not None and file_format != "txt":
        raise EvidenceRefused(
            "is not a plain text file; --encoding applies only to .txt files (e-mails and "
            "Word documents declare their own encodings)",
            source,
            RejectionReason.UNSUPPORTED,
        )
    if file_format == "txt":
        decoded = _decode_text_file(data, source, encoding)
        detection = {"encoding_detection": decoded.as_metadata()}
        return decoded.text, decoded.encoding, detection, ReadingNotes()
    if file_format == "eml":
        if not data.strip():
            raise EvidenceRefused("is empty (only white space)", source, RejectionReason.EMPTY)
        _refuse_binary_container(data, source, "an e-mail message")
        return extract_eml_text(data, source)
    if file_format == "docx":
        text, metadata, notes = extract_docx_text(data, source)
        if not text.strip():
            hidden = " that a reader is shown" if notes.hidden else ""
            raise EvidenceRefused(
                f"is a Word document without any text{hidden}", source, RejectionReason.EMPTY
            )
        return text, DOCX_ENCODING, metadata, notes
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


def prepare_document(path: str | Path, encoding: str | None = None) -> PreparedDocument:
    """Read and extract one evidence file; raises ``EvidenceRefused`` with the reason.

    ``encoding`` is the examiner's choice of encoding for a text file (None: detected).
    """
    path = Path(path)
    source = str(path)
    file_format = format_of(path)
    data = read_evidence_bytes(path)
    text, encoding, metadata, notes = extract_text(data, file_format, source, encoding)
    text, invisible = remove_invisible(text)
    if not text.strip():
        raise EvidenceRefused(
            "holds no visible text (only invisible characters)", source, RejectionReason.EMPTY
        )
    notes = notes.with_invisible(invisible)
    if len(text) > MAX_TEXT_CHARS:
        raise EvidenceRefused(
            f"holds {len(text):,} characters of text, over the limit of {MAX_TEXT_CHARS:,} "
            "for one document",
            source,
            RejectionReason.TOO_LARGE,
        )
    metadata = {"source_path": shown_name(str(path.resolve())), **metadata}
    if notes:
        metadata[METADATA_KEY] = notes.to_json()
    return PreparedDocument(
        source_path=source,
        file_name=shown_name(path.name),
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
