"""Evidence in the text: the questioned and the known texts side by side, a feature highlighted.

Choosing a feature (in the importance chart or the Φ table) marks every occurrence the engine
counted in both texts with ``ExtraSelection``s of read-only ``QPlainTextEdit``s: green
background and a straight underline when the feature points to the same author (L_Y),
vermillion background and a wavy underline when it points to different authors (L_N), the
feature's own characters in bold; the masked topic word of an F10/F11 n-gram is grey, italic
and dotted. The current occurrence is drawn inverted (dark background, white text). Each side
has previous/next buttons and a count ("3 of 17"); the texts shown are the engine's prepared
texts, whose offsets the occurrences refer to.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.features.occurrences import Occurrence
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.evidence_data import EvidenceText, QtPositions, shown_text
from taveer_desktop.presentation.explanation_data import SIDE_N, SIDE_WORDS, SIDE_Y

PUNCTUATION_CATEGORIES = ("F1", "F2", "F3")
TINT = {SIDE_Y: "#d5f0e6", SIDE_N: "#fbe0cf"}
PART = {SIDE_Y: "#8fd3bc", SIDE_N: "#f3b58c"}
CURRENT = {SIDE_Y: "#00664a", SIDE_N: "#a34700"}
UNDERLINE = {
    SIDE_Y: QTextCharFormat.UnderlineStyle.SingleUnderline,
    SIDE_N: QTextCharFormat.UnderlineStyle.WaveUnderline,
}
# built from the colours the highlights use, so the legend always matches them
LEGEND = (
    f"<span style='background:{PART[SIDE_Y]}'><b><u>green, straight underline</u></b></span> = "
    "points to the same author (L_Y) · "
    f"<span style='background:{PART[SIDE_N]}'><b>vermillion, wavy underline</b></span> = points "
    "to different authors (L_N) · <span style='background:#dddddd'><i>grey italic</i></span> = "
    f"masked topic word (#) · <span style='background:{CURRENT[SIDE_Y]}; color:white'>dark "
    f"green</span> or <span style='background:{CURRENT[SIDE_N]}; color:white'>dark "
    "vermillion</span> = the current occurrence"
)


def _format(background: str, side: str, bold=True, foreground: str | None = None):
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(background))
    if foreground:
        fmt.setForeground(QColor(foreground))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setUnderlineStyle(UNDERLINE[side])
    fmt.setUnderlineColor(QColor(CURRENT[side]))
    return fmt


def _masked_format() -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(QColor("#dddddd"))
    fmt.setForeground(QColor("#444444"))
    fmt.setFontItalic(True)
    fmt.setFontWeight(QFont.Weight.Normal)
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
    fmt.setUnderlineColor(QColor("#444444"))
    return fmt


def read_only_text(parent: QWidget) -> QPlainTextEdit:
    """A pane that shows a document's text to read and select, wrapped to its width."""
    editor = QPlainTextEdit(parent)
    editor.setReadOnly(True)
    editor.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse
        | Qt.TextInteractionFlag.TextSelectableByKeyboard
    )
    editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return editor


class EvidencePane(QWidget):
    """One text with its highlighted occurrences and previous/next navigation."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(f"<b>{title}</b>", self)
        self.count_label = QLabel(self)
        self.previous_button = QPushButton("◀ Previous", self)
        self.next_button = QPushButton("Next ▶", self)
        self.previous_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.editor = read_only_text(self)
        # the title has a line of its own and the count wraps: neither widens the window
        self.count_label.setWordWrap(True)
        self.editor.setMinimumHeight(self.fontMetrics().lineSpacing() * 6)
        self.title.setWordWrap(True)
        navigation = QHBoxLayout()
        navigation.addWidget(self.count_label, 1)
        navigation.addWidget(self.previous_button)
        navigation.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(navigation)
        layout.addWidget(self.editor, 1)
        self.evidence: EvidenceText | None = None
        self.occurrences: list[Occurrence] = []
        self.current = -1
        self.side = SIDE_Y
        self._positions = QtPositions("")
        self._base: list[QTextEdit.ExtraSelection] = []
        self._punctuation = False
        self._masked = _masked_format()
        self._update_buttons()

    def set_evidence(self, evidence: EvidenceText) -> None:
        if self.evidence is not None and self.evidence.text == evidence.text:
            self.evidence = evidence
            return
        self.evidence = evidence
        self._positions = QtPositions(evidence.text)
        self.editor.setPlainText(shown_text(evidence.text))
        self.show_occurrences([], SIDE_Y, punctuation=False)

    def _selection(self, start: int, end: int, fmt) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(self._positions(start))
        cursor.setPosition(self._positions(end), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        return selection

    def _occurrence_selections(self, occurrence: Occurrence, tint, part, punctuation):
        out = []
        if not punctuation and len(occurrence.parts) > 1:
            out.append(self._selection(occurrence.start, occurrence.end, tint))
        out += [self._selection(a, b, part) for a, b in occurrence.parts]
        if occurrence.masked is not None:
            out.append(self._selection(*occurrence.masked, self._masked))
        return out

    def show_occurrences(self, occurrences: list[Occurrence], side: str, punctuation: bool) -> None:
        """Highlight ``occurrences``; the first one becomes current."""
        self.occurrences, self.side, self._punctuation = list(occurrences), side, punctuation
        tint = _format(TINT[side], side, bold=False)
        part = _format(PART[side], side)
        self._base = []
        for occurrence in self.occurrences:
            self._base += self._occurrence_selections(occurrence, tint, part, punctuation)
        self.current = 0 if self.occurrences else -1
        self._apply()

    def step(self, delta: int) -> None:
        if not self.occurrences:
            return
        self.current = (self.current + delta) % len(self.occurrences)
        self._apply()

    def go_to(self, index: int) -> None:
        if 0 <= index < len(self.occurrences):
            self.current = index
            self._apply()

    def _apply(self) -> None:
        selections = list(self._base)
        if self.current >= 0:
            occurrence = self.occurrences[self.current]
            strong = _format(CURRENT[self.side], self.side, foreground="white")
            tint = _format(PART[self.side], self.side, bold=False)
            selections += self._occurrence_selections(occurrence, tint, strong, self._punctuation)
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(self._positions(occurrence.start))
            self.editor.setTextCursor(cursor)
            self.editor.centerCursor()
        self.editor.setExtraSelections(selections)
        self._update_buttons()

    def _update_buttons(self) -> None:
        n = len(self.occurrences)
        self.previous_button.setEnabled(n > 1)
        self.next_button.setEnabled(n > 1)
        if self.current < 0:
            self.count_label.setText("no occurrence" if self.evidence else "")
            return
        where = ""
        if self.evidence is not None and len(self.evidence.documents) > 1:
            document = self.evidence.document_of(self.occurrences[self.current].start)
            where = f" (in {document.label})" if document else ""
        self.count_label.setText(f"occurrence {self.current + 1} of {n}{where}")


class EvidenceView(QWidget):
    """The questioned and the known texts side by side; ``show_feature`` highlights one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel("Choose a feature in the chart or the table.", self)
        self.heading.setWordWrap(True)
        legend = QLabel(LEGEND, self)
        legend.setWordWrap(True)
        self.unknown = EvidencePane("Questioned text", self)
        self.known = EvidencePane("Known texts", self)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.unknown)
        splitter.addWidget(self.known)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(legend)
        layout.addWidget(splitter, 1)
        self.category = ""
        self.feature: str | None = None

    def set_texts(self, category: str, unknown: EvidenceText, known: EvidenceText) -> None:
        """Show the texts with the occurrences of ``category`` (nothing highlighted yet)."""
        self.category = category
        self.feature = None
        self.unknown.set_evidence(unknown)
        self.known.set_evidence(known)
        documents = len(known.documents)
        self.known.title.setText(
            f"<b>Known texts</b> ({documents} documents)" if documents > 1 else "<b>Known text</b>"
        )
        for pane in (self.unknown, self.known):
            pane.show_occurrences([], SIDE_Y, punctuation=False)
        self.heading.setText(f"{category}: choose a feature in the chart or the table.")

    def show_feature(self, feature: str | None, side: str = SIDE_Y) -> None:
        """Highlight every occurrence of ``feature`` of the current category in both texts."""
        self.feature = feature
        punctuation = self.category in PUNCTUATION_CATEGORIES
        for pane in (self.unknown, self.known):
            found = (
                []
                if feature is None or pane.evidence is None
                else pane.evidence.occurrences_of(feature)
            )
            pane.show_occurrences(found, side, punctuation)
        if feature is None:
            self.heading.setText(f"{self.category}: choose a feature in the chart or the table.")
            return
        arrow = "→ same author" if side == SIDE_Y else "→ different authors"
        self.heading.setText(
            f"<b>{self.category} feature “{_escape(feature)}”</b> — {SIDE_WORDS[side]} "
            f"{arrow}: {numbers.count(len(self.unknown.occurrences), 'occurrence')} in the "
            f"questioned text, {numbers.integer(len(self.known.occurrences))} in the known texts."
        )

    def counts(self) -> tuple[int, int]:
        return len(self.unknown.occurrences), len(self.known.occurrences)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
