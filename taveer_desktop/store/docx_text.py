"""Paragraph text of a Word ``.docx`` file, read with ``zipfile`` and ``xml.etree`` only.

The main document part is found through the package relationships (``_rels/.rels``), falling
back to ``word/document.xml``. Text is collected while streaming the XML through an
``ElementTree.XMLParser`` with a custom target, so no tree is built: ``w:t`` runs make up a
paragraph (``w:tab`` is a tab, ``w:br``/``w:cr`` a line break), deleted text (``w:delText``) and
field codes are left out, and the fallback copy of ``mc:AlternateContent`` is skipped so text
boxes are not read twice. Paragraphs are separated by a blank line. The core properties
(author, last editor, dates, revision) are returned as metadata.

Guards: at most ``MAX_ZIP_ENTRIES`` members; a member is decompressed in chunks and refused once
it passes ``MAX_XML_BYTES`` (``MAX_SMALL_PART_BYTES`` for the relationships and core
properties, whose every element is kept in memory; so a zip bomb never fills memory) or its
compression ratio exceeds ``MAX_COMPRESSION_RATIO``; a DOCTYPE (and so any entity
declaration) is refused; malformed XML, encryption and damaged ZIP data become one plain reason.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from typing import Protocol, TypeVar
from xml.etree import ElementTree

from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.records import RejectionReason

MAX_ZIP_ENTRIES = 5000
MAX_XML_BYTES = 64 * 1024 * 1024
MAX_SMALL_PART_BYTES = 1024 * 1024  # relationships and core properties: kept whole in memory
MAX_COMPRESSION_RATIO = 200
_RATIO_APPLIES_ABOVE = 1024 * 1024
_CHUNK = 256 * 1024
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_Parsed = TypeVar("_Parsed", covariant=True)

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_OFFICE_DOCUMENT = "/officeDocument"
_CORE_FIELDS = {
    "{http://purl.org/dc/elements/1.1/}creator": "author",
    "{http://purl.org/dc/elements/1.1/}title": "title",
    "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}lastModifiedBy": (
        "last_modified_by"
    ),
    "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}revision": (
        "revision"
    ),
    "{http://purl.org/dc/terms/}created": "created",
    "{http://purl.org/dc/terms/}modified": "modified",
}


class _DoctypeFound(Exception):
    pass


def _refuse(
    message: str, source: str, reason: RejectionReason = RejectionReason.UNREADABLE
) -> EvidenceRefused:
    return EvidenceRefused(message, source, reason)


class _Target(Protocol[_Parsed]):
    """An ``ElementTree.XMLParser`` target: what its ``close`` returns is what was parsed."""

    def close(self) -> _Parsed: ...


class _ParagraphCollector:
    """ElementTree parser target gathering the visible text of paragraphs."""

    def __init__(self) -> None:
        self.paragraphs: list[str] = []
        self._open: list[list[str]] = []
        self._in_text = False
        self._fallback_depth = 0

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise _DoctypeFound()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag == _MC_FALLBACK or self._fallback_depth:
            self._fallback_depth += 1
            return
        if tag == _W + "p":
            self._open.append([])
        elif not self._open:
            return
        elif tag == _W + "t":
            self._in_text = True
        elif tag == _W + "tab":
            self._open[-1].append("\t")
        elif tag in (_W + "br", _W + "cr"):
            self._open[-1].append("\n")

    def end(self, tag: str) -> None:
        if self._fallback_depth:
            self._fallback_depth -= 1
            return
        if tag == _W + "t":
            self._in_text = False
        elif tag == _W + "p" and self._open:
            text = "".join(self._open.pop()).strip()
            if text:
                self.paragraphs.append(text)

    def data(self, text: str) -> None:
        if self._in_text and self._open and not self._fallback_depth:
            self._open[-1].append(text)

    def close(self) -> str:
        return "\n\n".join(self.paragraphs)


class _SimpleCollector:
    """Parser target keeping (tag, attributes, text) of every element (for small parts)."""

    def __init__(self) -> None:
        self.elements: list[tuple[str, dict[str, str], str]] = []
        self._stack: list[tuple[str, dict[str, str], list[str]]] = []

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise _DoctypeFound()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self._stack.append((tag, dict(attrib), []))

    def end(self, tag: str) -> None:
        name, attrib, parts = self._stack.pop()
        self.elements.append((name, attrib, "".join(parts).strip()))

    def data(self, text: str) -> None:
        if self._stack:
            self._stack[-1][2].append(text)

    def close(self) -> list[tuple[str, dict[str, str], str]]:
        return self.elements


def _parse_member(
    archive: zipfile.ZipFile,
    name: str,
    target: _Target[_Parsed],
    source: str,
    max_bytes: int | None = None,
) -> _Parsed:
    max_bytes = MAX_XML_BYTES if max_bytes is None else max_bytes
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise _refuse(f"is not a valid Word document (.docx): it has no {name}", source) from None
    if info.flag_bits & 0x1:
        raise _refuse("is an encrypted Word document; remove the password first", source)
    parser: ElementTree.XMLParser[_Parsed] = ElementTree.XMLParser(target=target)
    total = 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                total += len(chunk)
                if total > max_bytes:
                    raise _refuse(
                        f"has a part ({name}) larger than its limit of "
                        f"{max_bytes // (1024 * 1024)} MiB when unpacked",
                        source,
                        RejectionReason.TOO_LARGE,
                    )
                compressed = max(info.compress_size, 1)
                if total > _RATIO_APPLIES_ABOVE and total / compressed > MAX_COMPRESSION_RATIO:
                    raise _refuse(
                        f"has a text part ({name}) that unpacks more than "
                        f"{MAX_COMPRESSION_RATIO} times its packed size, like a zip bomb",
                        source,
                        RejectionReason.TOO_LARGE,
                    )
                parser.feed(chunk)
            return parser.close()  # the target's close()
    except _DoctypeFound:
        raise _refuse(
            f"has a document type declaration in {name}, which Word never writes; it was not read",
            source,
        ) from None
    except ElementTree.ParseError as error:
        line = error.position[0] if getattr(error, "position", None) else "?"
        raise _refuse(
            f"is a damaged Word document: {name} is not well-formed XML (line {line})", source
        ) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as error:
        # ValueError: a member whose local header lies before the start of the file
        raise _refuse(f"is a damaged Word document ({error})", source) from None
    except NotImplementedError as error:
        raise _refuse(f"uses a ZIP feature that cannot be read ({error})", source) from None
    except RuntimeError as error:  # zipfile: encrypted member
        raise _refuse(f"cannot be read ({error})", source) from None


def _main_part_name(archive: zipfile.ZipFile, source: str) -> str:
    default = "word/document.xml"
    if "_rels/.rels" not in archive.namelist():
        return default
    elements = _parse_member(
        archive, "_rels/.rels", _SimpleCollector(), source, MAX_SMALL_PART_BYTES
    )
    for tag, attrib, _text in elements:
        if tag == _REL and attrib.get("Type", "").endswith(_OFFICE_DOCUMENT):
            target = attrib.get("Target", "").lstrip("/")
            if target:
                return posixpath.normpath(target)
    return default


def _core_properties(archive: zipfile.ZipFile, source: str) -> dict[str, str]:
    if "docProps/core.xml" not in archive.namelist():
        return {}
    elements = _parse_member(
        archive, "docProps/core.xml", _SimpleCollector(), source, MAX_SMALL_PART_BYTES
    )
    return {_CORE_FIELDS[tag]: text for tag, _attrib, text in elements if tag in _CORE_FIELDS}


def extract_docx_text(data: bytes, source: str) -> tuple[str, dict[str, object]]:
    """(paragraph text, metadata) of a .docx file's bytes; raises ``EvidenceRefused``."""
    if data.startswith(OLE_SIGNATURE):
        raise _refuse(
            "is an old-format (.doc) or password-protected Word file, not a .docx; "
            "save it as .docx without a password",
            source,
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError):
        raise _refuse(
            "is not a valid Word document (.docx): it is not a ZIP package", source
        ) from None
    with archive:
        if len(archive.infolist()) > MAX_ZIP_ENTRIES:
            raise _refuse(
                f"has more than {MAX_ZIP_ENTRIES} parts, far more than a Word document has",
                source,
                RejectionReason.TOO_LARGE,
            )
        part = _main_part_name(archive, source)
        text = _parse_member(archive, part, _ParagraphCollector(), source)
        metadata: dict[str, object] = {"main_part": part}
        metadata.update(_core_properties(archive, source))
    return text, metadata
