"""Where the features of one category occur in the questioned and the known texts (no Qt).

The engine's ``category_occurrences`` locates every occurrence of every feature in a document's
*prepared* text; its counts equal the feature counts the decision used. Here the known
documents are joined into one text to show, each under a heading line, and their occurrences
are shifted by each document's offset. ``qt_positions`` turns Python string offsets (code
points) into Qt text positions (UTF-16 units), and ``shown_text`` makes the few
length-changing characters for Qt (``\\r\\n``) length-preserving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.occurrences import Occurrence, category_occurrences


@dataclass(frozen=True)
class DocumentSpan:
    label: str
    start: int
    end: int


@dataclass
class EvidenceText:
    """A text to show and, per feature, its occurrences (offsets into ``text``).

    The occurrences are kept per document as the engine returns them, with the document's
    offset in ``text``; ``occurrences_of`` shifts only the feature asked for.
    """

    text: str
    documents: tuple[DocumentSpan, ...]
    found: list[tuple[int, dict[str, list[Occurrence]]]] = field(default_factory=list)

    def count(self, feature: str) -> int:
        return sum(len(found.get(feature, ())) for _, found in self.found)

    def occurrences_of(self, feature: str) -> list[Occurrence]:
        return [_shift(o, offset) for offset, found in self.found for o in found.get(feature, ())]

    def document_of(self, position: int) -> DocumentSpan | None:
        for document in self.documents:
            if document.start <= position < document.end:
                return document
        return None


def _shift(occurrence: Occurrence, offset: int) -> Occurrence:
    if not offset:
        return occurrence
    masked = occurrence.masked
    return Occurrence(
        occurrence.start + offset,
        occurrence.end + offset,
        tuple((a + offset, b + offset) for a, b in occurrence.parts),
        None if masked is None else (masked[0] + offset, masked[1] + offset),
    )


def known_heading(index: int, total: int) -> str:
    return f"━━━━ Known document {index} of {total} ━━━━\n"


def evidence_texts(
    unknown_text: str, known_texts: Sequence[str], lexicon: Lexicon, category: str
) -> tuple[EvidenceText, EvidenceText]:
    """The questioned text and the joined known texts with the occurrences of ``category``."""
    prepared, found = category_occurrences(unknown_text, lexicon, category)
    unknown = EvidenceText(
        prepared, (DocumentSpan("questioned text", 0, len(prepared)),), [(0, found)]
    )
    pieces: list[str] = []
    documents: list[DocumentSpan] = []
    merged: list[tuple[int, dict[str, list[Occurrence]]]] = []
    offset = 0
    for index, text in enumerate(known_texts, start=1):
        if index > 1:
            pieces.append("\n\n")
            offset += 2
        heading = known_heading(index, len(known_texts)) if len(known_texts) > 1 else ""
        pieces.append(heading)
        offset += len(heading)
        prepared_known, found_known = category_occurrences(text, lexicon, category)
        pieces.append(prepared_known)
        documents.append(
            DocumentSpan(f"known document {index}", offset, offset + len(prepared_known))
        )
        merged.append((offset, found_known))
        offset += len(prepared_known)
    return unknown, EvidenceText("".join(pieces), tuple(documents), merged)


def shown_text(text: str) -> str:
    """The text as handed to Qt: ``\\r\\n`` (one block break in Qt) becomes `` \\n``."""
    return text.replace("\r\n", " \n")


class QtPositions:
    """Maps code-point offsets of a text to Qt's UTF-16 positions (astral characters are 2)."""

    def __init__(self, text: str) -> None:
        self._extra: np.ndarray | None = None
        if text and max(text) > "\uffff":
            wide = np.fromiter((ord(c) > 0xFFFF for c in text), dtype=np.int64, count=len(text))
            self._extra = np.concatenate([[0], np.cumsum(wide)])

    def __call__(self, offset: int) -> int:
        return offset if self._extra is None else offset + int(self._extra[offset])

    def offset_of(self, position: int) -> int:
        """The code-point offset of Qt position ``position`` (the inverse of a call; the second
        half of an astral character maps to the character)."""
        if self._extra is None:
            return position
        qt = np.arange(len(self._extra)) + self._extra
        return int(np.searchsorted(qt, position, side="right")) - 1
