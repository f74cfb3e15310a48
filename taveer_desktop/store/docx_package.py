"""Reading the parts of a Word ``.docx`` package safely: ``zipfile`` and streamed ``xml.etree``.

``open_package`` opens the ZIP (refusing an old ``.doc``/encrypted file and more than
``MAX_ZIP_ENTRIES`` members); ``parse_member`` streams one XML part through an
``ElementTree.XMLParser`` with a custom target, so no tree is built. Guards: a member is
decompressed in chunks and refused once it passes ``MAX_XML_BYTES`` (``MAX_SMALL_PART_BYTES``
for parts whose every element is kept in memory, so a zip bomb never fills memory) or its
compression ratio exceeds ``MAX_COMPRESSION_RATIO``; a DOCTYPE (and so any entity declaration)
is refused; malformed XML, encryption and damaged ZIP data (deflate, bzip2 or LZMA) become one
plain reason.
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from collections import Counter
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

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


class DoctypeFound(Exception):
    """Raised by a parser target at a document type declaration (Word never writes one)."""


def refuse(
    message: str, source: str, reason: RejectionReason = RejectionReason.UNREADABLE
) -> EvidenceRefused:
    return EvidenceRefused(message, source, reason)


class Target(Protocol[_Parsed]):
    """An ``ElementTree.XMLParser`` target: what its ``close`` returns is what was parsed."""

    def close(self) -> _Parsed: ...


class SimpleCollector:
    """Parser target keeping (tag, attributes, text) of every element (for small parts)."""

    def __init__(self) -> None:
        self.elements: list[tuple[str, dict[str, str], str]] = []
        self._stack: list[tuple[str, dict[str, str], list[str]]] = []

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DoctypeFound()

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


def parse_member(
    archive: zipfile.ZipFile,
    name: str,
    target: Target[_Parsed],
    source: str,
    max_bytes: int | None = None,
) -> _Parsed:
    """What ``target`` makes of the XML member ``name``; every problem is ``EvidenceRefused``."""
    max_bytes = MAX_XML_BYTES if max_bytes is None else max_bytes
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise refuse(f"is not a valid Word document (.docx): it has no {name}", source) from None
    if info.flag_bits & 0x1:
        raise refuse("is an encrypted Word document; remove the password first", source)
    parser: ElementTree.XMLParser[_Parsed] = ElementTree.XMLParser(target=target)
    total = 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                total += len(chunk)
                if total > max_bytes:
                    raise refuse(
                        f"has a part ({name}) larger than its limit of "
                        f"{max_bytes // (1024 * 1024)} MiB when unpacked",
                        source,
                        RejectionReason.TOO_LARGE,
                    )
                compressed = max(info.compress_size, 1)
                if total > _RATIO_APPLIES_ABOVE and total / compressed > MAX_COMPRESSION_RATIO:
                    raise refuse(
                        f"has a text part ({name}) that unpacks more than "
                        f"{MAX_COMPRESSION_RATIO} times its packed size, like a zip bomb",
                        source,
                        RejectionReason.TOO_LARGE,
                    )
                parser.feed(chunk)
            return parser.close()  # the target's close()
    except DoctypeFound:
        raise refuse(
            f"has a document type declaration in {name}, which Word never writes; it was not read",
            source,
        ) from None
    except ElementTree.ParseError as error:
        line = error.position[0] if getattr(error, "position", None) else "?"
        raise refuse(
            f"is a damaged Word document: {name} is not well-formed XML (line {line})", source
        ) from None
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, ValueError) as error:
        # ValueError: a member whose local header lies before the start of the file
        raise refuse(f"is a damaged Word document ({error})", source) from None
    except NotImplementedError as error:
        raise refuse(f"uses a ZIP feature that cannot be read ({error})", source) from None
    except OSError as error:  # bz2: a damaged bzip2 stream (the package is in memory: no I/O)
        raise refuse(f"is a damaged Word document ({error})", source) from None
    except RuntimeError as error:  # zipfile: encrypted member
        raise refuse(f"cannot be read ({error})", source) from None


def relationships(archive: zipfile.ZipFile, name: str, source: str) -> list[tuple[str, str]]:
    """(type, target) of every relationship in the relationships part ``name`` (none if absent)."""
    if name not in archive.namelist():
        return []
    elements = parse_member(archive, name, SimpleCollector(), source, MAX_SMALL_PART_BYTES)
    return [
        (attrib.get("Type", ""), attrib.get("Target", ""))
        for tag, attrib, _text in elements
        if tag == REL
    ]


def open_package(data: bytes, source: str) -> zipfile.ZipFile:
    """The ZIP package of a .docx file's bytes, refused when it is none or far too large."""
    if data.startswith(OLE_SIGNATURE):
        raise refuse(
            "is an old-format (.doc) or password-protected Word file, not a .docx; "
            "save it as .docx without a password",
            source,
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError):
        raise refuse(
            "is not a valid Word document (.docx): it is not a ZIP package", source
        ) from None
    except NotImplementedError as error:  # zipfile: a ZIP version it does not read
        raise refuse(f"uses a ZIP feature that cannot be read ({error})", source) from None
    if len(archive.infolist()) > MAX_ZIP_ENTRIES:
        archive.close()
        raise refuse(
            f"has more than {MAX_ZIP_ENTRIES} parts, far more than a Word document has",
            source,
            RejectionReason.TOO_LARGE,
        )
    counts = Counter(info.filename.casefold() for info in archive.infolist())
    twice = sorted(name for name, count in counts.items() if count > 1)
    if twice:  # which copy a reader shows is not defined: Word may show one, we read another
        archive.close()
        raise refuse(
            f"holds the part {twice[0]} twice (a duplicated ZIP member): which copy a reader "
            "shows is not defined, so it cannot be analysed as the document Word shows",
            source,
        )
    return archive
