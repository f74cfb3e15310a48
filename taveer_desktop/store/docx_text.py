"""Paragraph text of a Word ``.docx`` file as a reader sees it, read with ``zipfile`` and
``xml.etree`` only (``store/docx_package.py`` reads the parts safely).

The main document part is found through the package relationships (``_rels/.rels``), falling
back to ``word/document.xml``. Text is collected while streaming the XML through a parser
target, so no tree is built: ``w:t`` runs make up a paragraph (``w:tab`` is a tab,
``w:br``/``w:cr`` a line break), deleted text (``w:delText``) and field codes are left out, and
the fallback copy of ``mc:AlternateContent`` is skipped so text boxes are not read twice.
Paragraphs are separated by a blank line.

Hidden text is left out and counted (``HiddenText`` of the reading notes): a run marked
``w:vanish``, ``w:specVanish`` or ``w:webHidden`` (not switched off with ``w:val="0"``), or in
a character or paragraph style that hides its text (``store/docx_parts.hidden_styles``). The
parts not read that hold text (another document part, an embedded ``altChunk``, the glossary,
headers, footers, notes, comments) are listed (``store/docx_parts.other_parts``). The core
properties (author, last editor, dates, revision) are returned as metadata.
"""

from __future__ import annotations

import posixpath
import zipfile

from taveer_desktop.core.intake.reading_notes import (
    SAMPLE_CHARS,
    HiddenText,
    ReadingNotes,
    sample_of,
)
from taveer_desktop.store.docx_package import (
    MAX_SMALL_PART_BYTES,
    OLE_SIGNATURE,
    DoctypeFound,
    SimpleCollector,
    W,
    open_package,
    parse_member,
    relationships,
)
from taveer_desktop.store.docx_parts import hidden_styles, is_on, other_parts

__all__ = ["OLE_SIGNATURE", "extract_docx_text"]

_W = W
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_OFFICE_DOCUMENT = "/officeDocument"
_CHANGES = {W + "rPrChange", W + "pPrChange"}  # the properties as they were before a revision
_HIDING = {
    W + "vanish": "w:vanish",
    W + "specVanish": "w:specVanish",
    W + "webHidden": "w:webHidden",
}
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


class _ParagraphCollector:
    """ElementTree parser target gathering the visible text of paragraphs and counting the
    hidden text (runs, characters, how it was hidden, its first characters)."""

    def __init__(self, hiding_styles: set[str] | None = None) -> None:
        self.paragraphs: list[str] = []
        self.hiding_styles = hiding_styles or set()
        self.hidden_chars = 0
        self.hidden_runs = 0
        self.hidden_how: dict[str, None] = {}
        self.hidden_sample: list[str] = []
        self._open: list[list[str]] = []
        self._in_text = False
        self._fallback_depth = 0
        self._in_paragraph_properties = False
        self._paragraph_hidden: str | None = None  # how the paragraph's style hides it
        self._run_hidden: str | None = None
        self._run_counted = False
        self._in_change = 0  # inside w:rPrChange/w:pPrChange: properties before a revision

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DoctypeFound()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag == _MC_FALLBACK or self._fallback_depth:
            self._fallback_depth += 1
            return
        if tag in _CHANGES or self._in_change:
            self._in_change += 1
            return
        if tag == W + "p":
            self._open.append([])
            self._paragraph_hidden = None
        elif not self._open:
            return
        elif tag == W + "pPr":
            self._in_paragraph_properties = True
        elif tag == W + "pStyle" and self._in_paragraph_properties:
            style = attrib.get(W + "val", "")
            if style in self.hiding_styles:
                self._paragraph_hidden = f"style {style}"
        elif self._in_paragraph_properties:
            return  # the paragraph mark's own run properties hide only the mark
        elif tag == W + "r":
            self._run_hidden = self._paragraph_hidden
            self._run_counted = False
        elif tag in _HIDING:
            self._run_hidden = _HIDING[tag] if is_on(attrib) else None
        elif tag == W + "rStyle" and attrib.get(W + "val", "") in self.hiding_styles:
            self._run_hidden = f"style {attrib.get(W + 'val', '')}"
        elif tag == W + "t":
            self._in_text = True
        elif self._run_hidden:
            return
        elif tag == W + "tab":
            self._open[-1].append("\t")
        elif tag in (W + "br", W + "cr"):
            self._open[-1].append("\n")

    def end(self, tag: str) -> None:
        if self._fallback_depth:
            self._fallback_depth -= 1
            return
        if self._in_change:
            self._in_change -= 1
            return
        if tag == W + "t":
            self._in_text = False
        elif tag == W + "pPr":
            self._in_paragraph_properties = False
        elif tag == W + "r":
            self._run_hidden = None
        elif tag == W + "p" and self._open:
            text = "".join(self._open.pop()).strip()
            if text:
                self.paragraphs.append(text)

    def data(self, text: str) -> None:
        if not (self._in_text and self._open) or self._fallback_depth:
            return
        if self._run_hidden is None:
            self._open[-1].append(text)
            return
        self.hidden_chars += len(text)
        self.hidden_how[self._run_hidden] = None
        if not self._run_counted:
            self._run_counted = True
            self.hidden_runs += 1
        if sum(map(len, self.hidden_sample)) < SAMPLE_CHARS:
            self.hidden_sample.append(text)

    def close(self) -> str:
        return "\n\n".join(self.paragraphs)

    def hidden(self) -> HiddenText | None:
        if not self.hidden_chars:
            return None
        sample = sample_of("".join(self.hidden_sample))
        return HiddenText(self.hidden_chars, self.hidden_runs, tuple(self.hidden_how), sample)


def _main_part_name(archive: zipfile.ZipFile, source: str) -> str:
    for kind, target in relationships(archive, "_rels/.rels", source):
        if kind.endswith(_OFFICE_DOCUMENT) and target.lstrip("/"):
            return posixpath.normpath(target.lstrip("/"))
    return "word/document.xml"


def _core_properties(archive: zipfile.ZipFile, source: str) -> dict[str, str]:
    if "docProps/core.xml" not in archive.namelist():
        return {}
    elements = parse_member(
        archive, "docProps/core.xml", SimpleCollector(), source, MAX_SMALL_PART_BYTES
    )
    return {_CORE_FIELDS[tag]: text for tag, _attrib, text in elements if tag in _CORE_FIELDS}


def extract_docx_text(data: bytes, source: str) -> tuple[str, dict[str, object], ReadingNotes]:
    """(paragraph text, metadata, reading notes) of a .docx file's bytes; raises
    ``EvidenceRefused``."""
    with open_package(data, source) as archive:
        part = _main_part_name(archive, source)
        collector = _ParagraphCollector(hidden_styles(archive, part, source))
        text = parse_member(archive, part, collector, source)
        metadata: dict[str, object] = {"main_part": part}
        metadata.update(_core_properties(archive, source))
        notes = ReadingNotes(
            hidden=collector.hidden(), ignored_parts=other_parts(archive, part, source)
        )
    return text, metadata, notes
