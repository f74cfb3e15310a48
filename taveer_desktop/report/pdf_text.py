"""Rich text of the report laid out with QTextDocument: styles, measuring, drawing in pieces.

Each paragraph and each table cell is a small ``QTextDocument`` measured on the 72-dpi layout
device (one unit = one point). Plain cells (numbers, short words) skip the document and are
drawn with ``drawText``, which keeps a report with many tables fast. Lines wrap at word
boundaries, or anywhere when a word is wider than its box, so a 50,000-character line cannot
push past the margin; text direction is fixed left-to-right, so right-to-left text in evidence
is shaped correctly without turning the report's layout around.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QTextDocument, QTextOption

from taveer_desktop.report.fonts import MONO, layout_device, report_font

# style -> (size in points, bold, italic, colour, space after)
STYLES: dict[str, tuple[float, bool, bool, str, float]] = {
    "body": (9.5, False, False, "#1a1a1a", 6.0),
    "small": (8.0, False, False, "#1a1a1a", 4.0),
    "note": (8.0, False, True, "#333333", 5.0),
    "warning": (9.0, False, False, "#8a1c00", 6.0),
    "excerpt": (7.8, False, False, "#1a1a1a", 3.0),
    "title": (22.0, True, False, "#0b3d66", 10.0),
    "subtitle": (15.0, True, False, "#1a1a1a", 6.0),
    "subtitle2": (12.0, False, False, "#1a1a1a", 4.0),
    "h1": (14.0, True, False, "#0b3d66", 6.0),
    "h2": (10.5, True, False, "#0b3d66", 4.0),
    "table": (8.0, False, False, "#1a1a1a", 0.0),
    "tablesmall": (7.2, False, False, "#1a1a1a", 0.0),
    "header": (7.6, True, False, "#1a1a1a", 0.0),
}
_CSS = f"""
.code {{ font-family: '{MONO}'; }}
small {{ color: #444444; }}
ul {{ margin-top: 2px; margin-bottom: 0px; margin-left: 14px; -qt-list-indent: 0; }}
li {{ margin-bottom: 1px; }}
"""
_PLAIN = re.compile(r"[\w .,:;%/()+\-–·=λθ′]*\Z")
_ALIGN = {
    "left": Qt.AlignmentFlag.AlignLeft,
    "right": Qt.AlignmentFlag.AlignRight,
    "center": Qt.AlignmentFlag.AlignHCenter,
}


def style_font(style: str) -> QFont:
    size, bold, italic, _, _ = STYLES[style]
    return report_font(size, bold=bold, italic=italic)


def space_after(style: str) -> float:
    return STYLES[style][4]


def make_document(
    html: str, width: float, style: str = "body", align: str = "left"
) -> QTextDocument:
    """A laid-out document of ``html`` at ``width`` points."""
    document = QTextDocument()
    document.documentLayout().setPaintDevice(layout_device())
    document.setDocumentMargin(0)
    document.setUseDesignMetrics(True)
    document.setDefaultFont(style_font(style))
    option = QTextOption(_ALIGN[align])
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    document.setDefaultTextOption(option)
    document.setDefaultStyleSheet(_CSS)
    colour = STYLES[style][3]
    document.setHtml(f'<div style="color:{colour}">{html}</div>')
    document.setTextWidth(width)
    return document


def line_bounds(document: QTextDocument) -> list[tuple[float, float]]:
    """Top and bottom of every laid-out line, in document coordinates."""
    bounds = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        origin = layout.position().y()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            bounds.append((origin + line.y(), origin + line.y() + line.height()))
        block = block.next()
    return bounds


def draw_document_part(
    painter: QPainter, document: QTextDocument, x: float, y: float, top: float, bottom: float
) -> None:
    """Draw the part of ``document`` between ``top`` and ``bottom`` with its top at (x, y)."""
    painter.save()
    painter.translate(x, y - top)
    clip = QRectF(0, top, document.textWidth(), bottom - top)
    painter.setClipRect(clip.adjusted(-2, -0.5, 2, 0.5))
    document.drawContents(painter, clip.adjusted(-2, -0.5, 2, 0.5))
    painter.restore()


@dataclass
class CellText:
    """One table cell: plain text drawn directly, or rich text through a QTextDocument."""

    html: str
    width: float
    style: str
    align: str = "left"

    def __post_init__(self) -> None:
        self.document: QTextDocument | None = None
        plain = _PLAIN.match(self.html) is not None
        font = style_font(self.style)
        metrics = QFontMetricsF(font, layout_device())
        if plain and metrics.horizontalAdvance(self.html) <= self.width:
            self.font = font
            self.height = metrics.height()
        else:
            self.document = make_document(self.html, self.width, self.style, self.align)
            self.height = self.document.size().height()

    def draw(self, painter: QPainter, x: float, y: float) -> None:
        if self.document is not None:
            draw_document_part(painter, self.document, x, y, 0, self.height)
            return
        painter.setFont(self.font)
        painter.setPen(Qt.GlobalColor.black)
        flags = _ALIGN[self.align] | Qt.AlignmentFlag.AlignTop
        painter.drawText(QRectF(x, y, self.width, self.height + 1), int(flags), self.html)


def text_size(document: QTextDocument) -> QSizeF:
    return document.size()
