"""The shades of LambdaG's evidence in the questioned text (``lambdag_view.py``): the colour and
format of each level of a token's share, the formatted document and the legend.

The formatted document is built in one pass (``shaded_document``): the text is inserted piece
by piece, each piece with its format, into a new document, never formatted afterwards with a
cursor per token; offsets of the prepared text (code points) become Qt positions (UTF-16) by
construction, and ``QtPositions`` maps them where a position is needed (scrolling, tooltips).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QObject
from PySide6.QtGui import (
    QColor,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QPlainTextDocumentLayout,
)

from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
from taveer_desktop.presentation import lambdag_shades as words
from taveer_desktop.presentation.evidence_data import shown_text

# level 1 … 4 of each direction; the darkest still carries black text legibly
POSITIVE = ("#e4f3ec", "#bde4d2", "#86cbad", "#4fae89")
NEGATIVE = ("#fdeee5", "#f9d4bd", "#f2b187", "#e3844a")
UNDERLINE_COLOUR = {1: "#00664a", -1: "#a34700"}


def level_colour(level: int) -> str | None:
    """The background of a shade level (None for level 0)."""
    if level == 0:
        return None
    return (POSITIVE if level > 0 else NEGATIVE)[abs(level) - 1]


def level_format(level: int) -> QTextCharFormat:
    """The character format of a token of shade ``level``."""
    fmt = QTextCharFormat()
    colour = level_colour(level)
    if colour is not None:
        fmt.setBackground(QColor(colour))
    if abs(level) == words.STRONGEST:
        fmt.setUnderlineStyle(
            QTextCharFormat.UnderlineStyle.SingleUnderline
            if level > 0
            else QTextCharFormat.UnderlineStyle.WaveUnderline
        )
        fmt.setUnderlineColor(QColor(UNDERLINE_COLOUR[1 if level > 0 else -1]))
    return fmt


def shaded_document(
    prepared: str, evidence: LambdaGEvidence, unit: float, parent: QObject | None = None
) -> QTextDocument:
    """The questioned text as a plain-text document with every token shaded by its share,
    built in one pass (see the module)."""
    document = QTextDocument(parent)
    document.setDocumentLayout(QPlainTextDocumentLayout(document))
    document.setUndoRedoEnabled(False)
    text = shown_text(prepared)
    formats = {level: level_format(level) for level in range(-words.LEVELS, words.LEVELS + 1)}
    plain, level = formats[0], words.shade_level
    cursor = QTextCursor(document)
    insert = cursor.insertText
    cursor.beginEditBlock()
    position = 0
    for token in words.shaded_tokens(evidence):
        if token.start < position:
            continue  # overlapping tokens are not expected; the first one keeps its shade
        if token.start > position:
            insert(text[position : token.start], plain)
        insert(text[token.start : token.end], formats[level(token.share, unit)])
        position = token.end
    if position < len(text):
        insert(text[position:], plain)
    cursor.endEditBlock()
    return document


def legend_html(unit: float) -> str:
    """The legend of the shades: a swatch of every level with the shares it stands for."""

    def swatch(level: int) -> str:
        label = html.escape(words.level_range(level, unit)).replace(" ", "&nbsp;")  # unbroken
        if abs(level) == words.STRONGEST:
            label = f"<u>{label}</u>"
        return f"<span style='background:{level_colour(level)}'>&nbsp;{label}&nbsp;</span>"

    lines = []
    for sign, (colour, meaning) in ((1, words.POSITIVE_LEGEND), (-1, words.NEGATIVE_LEGEND)):
        swatches = " ".join(swatch(sign * level) for level in range(words.LEVELS, 0, -1))
        lines.append(f"<b>{colour}</b>: {html.escape(meaning)} {swatches}")
    return "<br>".join(lines)
