"""What a Word document holds besides the body text that is analysed, and what Word hides.

``hidden_styles``: the styles (``word/styles.xml``) that hide their text (``w:vanish``, directly
or through the style they are based on), so that a run or paragraph in such a style counts as
hidden. ``other_parts``: the parts of the package that are not read, as ``IgnoredPart``s with
the characters of text they hold — an embedded document (``altChunk``, shown inline by Word), a
second document part (another ``officeDocument`` relationship, or another ``document*.xml``),
the glossary (building blocks, never shown in the body), and headers, footers, footnotes,
endnotes and comments, which a reader sees beside the body but are not its text. A part that
holds no text is not listed. At most ``MAX_PARTS_COUNTED`` parts are opened to count.
"""

from __future__ import annotations

import posixpath
import zipfile

from taveer_desktop.core.intake.reading_notes import IgnoredPart
from taveer_desktop.store.docx_package import (
    MAX_SMALL_PART_BYTES,
    DoctypeFound,
    W,
    parse_member,
    relationships,
)
from taveer_desktop.store.errors import EvidenceRefused

MAX_PARTS_COUNTED = 60
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_KINDS = {  # relationship type (last path segment) from the main part → IgnoredPart kind
    "aFChunk": "embedded",
    "glossaryDocument": "glossary",
    "header": "header",
    "footer": "footer",
    "footnotes": "footnotes",
    "endnotes": "endnotes",
    "comments": "comments",
}
_OFF = ("0", "false", "off")


def is_on(attrib: dict[str, str]) -> bool:
    """A toggle property (``<w:vanish/>``, ``w:val="1"``) that is switched on."""
    return attrib.get(W + "val", "1").lower() not in _OFF


class _StylesCollector:
    """Parser target: (style id → based-on id, style id → hides its text)."""

    def __init__(self) -> None:
        self.based_on: dict[str, str] = {}
        self.hides: dict[str, bool] = {}
        self._style: str | None = None
        self._depth = 0

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DoctypeFound()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag == W + "style":
            self._style = attrib.get(W + "styleId")
        elif self._style is None:
            return
        elif tag == W + "basedOn":
            self.based_on[self._style] = attrib.get(W + "val", "")
        elif tag == W + "vanish":
            self.hides[self._style] = is_on(attrib)

    def end(self, tag: str) -> None:
        if tag == W + "style":
            self._style = None

    def data(self, text: str) -> None:
        pass

    def close(self) -> set[str]:
        hidden = set()
        for style in set(self.based_on) | set(self.hides):
            seen = set()
            current: str | None = style
            while current is not None and current not in seen:
                seen.add(current)
                if current in self.hides:
                    if self.hides[current]:
                        hidden.add(style)
                    break
                current = self.based_on.get(current)
        return hidden


def hidden_styles(archive: zipfile.ZipFile, main_part: str, source: str) -> set[str]:
    """Ids of the styles whose text Word hides."""
    styles = posixpath.join(posixpath.dirname(main_part), "styles.xml")
    if styles not in archive.namelist():
        return set()
    return parse_member(archive, styles, _StylesCollector(), source, 8 * MAX_SMALL_PART_BYTES)


class _TextCounter:
    """Parser target counting the characters of ``w:t`` text (not deleted text, not the
    fallback copy of a text box)."""

    def __init__(self) -> None:
        self.characters = 0
        self._in_text = False
        self._fallback = 0

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DoctypeFound()

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag == _MC_FALLBACK or self._fallback:
            self._fallback += 1
        elif tag == W + "t":
            self._in_text = True

    def end(self, tag: str) -> None:
        if self._fallback:
            self._fallback -= 1
        elif tag == W + "t":
            self._in_text = False

    def data(self, text: str) -> None:
        if self._in_text and not self._fallback:
            self.characters += len(text.strip())

    def close(self) -> int:
        return self.characters


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def other_parts(archive: zipfile.ZipFile, main_part: str, source: str) -> tuple[IgnoredPart, ...]:
    """The parts of the package that hold text and are not read (see the module)."""
    names = set(archive.namelist())
    found: dict[str, str] = {}
    for kind, target in relationships(archive, "_rels/.rels", source):
        part = _resolve("", target)
        if kind.endswith("/officeDocument") and part != main_part:
            found.setdefault(part, "second_document")
    main_rels = posixpath.join(
        posixpath.dirname(main_part), "_rels", posixpath.basename(main_part) + ".rels"
    )
    for kind, target in relationships(archive, main_rels, source):
        what = _KINDS.get(kind.rsplit("/", 1)[-1])
        if what:
            found.setdefault(_resolve(main_part, target), what)
    for name in sorted(names):
        base = posixpath.basename(name).lower()
        if base.startswith("document") and base.endswith(".xml") and name != main_part:
            found.setdefault(name, "glossary" if "glossary/" in name else "second_document")
    parts = []
    for counted, (part, kind) in enumerate(sorted(found.items())):
        if part not in names:
            continue
        characters: int | None = None
        if kind != "embedded" and part.endswith(".xml") and counted < MAX_PARTS_COUNTED:
            try:
                characters = parse_member(archive, part, _TextCounter(), source)
            except EvidenceRefused:
                characters = None  # a damaged part that is not read anyway: listed, not counted
            else:
                if not characters:
                    continue
        parts.append(IgnoredPart(part, kind, characters))
    return tuple(parts)
