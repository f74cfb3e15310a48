"""The documents of a case as a table: role, file, use, size in characters and sentences, hash.

The encoding column says how it was found (byte-order mark, valid UTF-8, detected with its
confidence, the examiner's choice); an uncertain detection is flagged in words ("uncertain"), a
warning icon and a dark orange colour, with the whole story in the tooltip (``encoding_text``).
A document the examiner excluded stays in the table (it stays stored, with its hash), marked
"Excluded" with the reason and time on hover, and shown in grey italics in every column. The
"Text read" column says where the analysed text differs from the file (its reading notes:
invisible characters removed, hidden text or parts not read, a differing e-mail alternative, a
charset that did not fit), flagged like an uncertain encoding, each note in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QStyle

from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.encoding_text import (
    detection_of,
    encoding_explanation,
    encoding_summary,
    is_uncertain,
)
from taveer_desktop.presentation.exhibit_labels import exhibit_labels
from taveer_desktop.store import KNOWN, Document
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

ROLE, FILE_NAME, USE, CHARACTERS, SENTENCES, ENCODING, READING, SHA256, IMPORTED = range(9)
EXCLUDED_COLOUR = QColor("#6b6b6b")
UNCERTAIN_COLOUR = QColor("#a04000")
ROLE_WORDS = {KNOWN: "Known", "questioned": "Questioned"}


def role_word(document: Document) -> str:
    return ROLE_WORDS.get(document.role, document.role)


def use_word(document: Document) -> str:
    return "Excluded" if document.excluded else "In use"


def use_tip(document: Document) -> str:
    if not document.excluded:
        return "Used by every new verification of the case"
    return (
        f"Excluded {short_utc(document.excluded_utc or '')}: {document.excluded_reason}\n"
        "Left out of new verifications; it stays stored, and earlier runs keep their record."
    )


def encoding_uncertain(document: Document) -> bool:
    return is_uncertain(detection_of(document.metadata))


def reading_summary(document: Document) -> str:
    """The "Text read" cell: "as in the file", or what differs in a few words."""
    return document.reading_notes.summary() or "as in the file"


def reading_tip(document: Document) -> str:
    """Every reading note of a document, one per line, for the tooltip and the preview."""
    lines = document.reading_notes.lines()
    if not lines:
        return "The analysed text is all the text a reader of the file sees; nothing was left out."
    return READING_HEADING + "\n" + "\n".join(f"• {line}" for line in lines)


READING_HEADING = (
    "The analysed text differs from the file's bytes (the bytes are kept as they were):"
)


def _source(document: Document) -> str:
    source = document.metadata.get("source_path", "")
    text = f"{document.file_name}\nimported {short_utc(document.imported_utc)}"
    return f"{text} from {source}" if source else text


class DocumentTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Role",
            role_word,
            "Known: written by the candidate author. Questioned: authorship in question. K1, Q1: "
            "the document's exhibit label in the case, kept when others are excluded",
            sort_key=lambda d: (d.role != KNOWN, d.file_name.casefold()),
        ),
        Column("File name", lambda d: d.file_name, "The evidence file's name", _source),
        Column(
            "Use",
            use_word,
            "In use, or excluded by the examiner from later verifications (hover for the reason)",
            use_tip,
            sort_key=lambda d: d.excluded,
        ),
        Column(
            "Characters",
            lambda d: numbers.integer(d.char_count),
            "Characters of extracted text",
            sort_key=lambda d: d.char_count,
            numeric=True,
        ),
        Column(
            "Sentences",
            lambda d: numbers.integer(d.sentence_count),
            "Sentences found in the text",
            sort_key=lambda d: d.sentence_count,
            numeric=True,
        ),
        Column(
            "Encoding",
            lambda d: encoding_summary(d.encoding, d.metadata, d.file_format),
            "How the file's text was decoded and how that was found; 'uncertain' marks a "
            "detection another encoding nearly matched (hover for details)",
            lambda d: encoding_explanation(d.encoding, d.metadata, d.file_format),
            sort_key=lambda d: (not encoding_uncertain(d), d.encoding),
        ),
        Column(
            "Text read",
            reading_summary,
            "Whether the analysed text is what a reader of the file sees: invisible characters "
            "removed, hidden text or parts not read, a differing e-mail part, a charset that "
            "did not fit (hover for details)",
            reading_tip,
            sort_key=lambda d: (not d.reading_notes, reading_summary(d)),
        ),
        Column(
            "SHA-256",
            lambda d: short_hash(d.sha256),
            "SHA-256 of the file's bytes as imported (hover for the full hash; Ctrl+C copies it)",
            lambda d: f"SHA-256 of the file's bytes:\n{d.sha256}",
            sort_key=lambda d: d.sha256,
        ),
        Column(
            "Imported",
            lambda d: short_utc(d.imported_utc),
            "When the file was imported (UTC)",
            lambda d: short_utc(d.imported_utc),
            sort_key=lambda d: d.imported_utc,
        ),
    )

    def set_records(self, records) -> None:
        """Show ``records`` (all the documents of one case), each with its exhibit label."""
        self.labels = exhibit_labels(records)
        super().set_records(records)

    def data(self, index, role: int = Qt.ItemDataRole.DisplayRole):
        if (
            role == Qt.ItemDataRole.DisplayRole
            and index.isValid()
            and index.column() == ROLE
            and 0 <= index.row() < self.rowCount()
        ):
            record = self.record(index.row())
            label = getattr(self, "labels", {}).get(record.id)
            return f"{role_word(record)} {label}" if label else role_word(record)
        return super().data(index, role)

    def extra_data(self, record: Document, column: int, role: int):
        if role == Qt.ItemDataRole.FontRole and (column == SHA256 or record.excluded):
            font = QFont("DejaVu Sans Mono") if column == SHA256 else QFont()
            if column == SHA256:
                font.setStyleHint(QFont.StyleHint.Monospace)
            font.setItalic(record.excluded)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and record.excluded:
            return EXCLUDED_COLOUR
        if (column == ENCODING and encoding_uncertain(record)) or (
            column == READING and record.reading_notes
        ):
            if role == Qt.ItemDataRole.ForegroundRole:
                return UNCERTAIN_COLOUR
            if role == Qt.ItemDataRole.DecorationRole and QApplication.instance() is not None:
                return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        return None
