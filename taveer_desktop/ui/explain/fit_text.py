"""Chart texts measured with the font that draws them, so that a chart never cuts its words.

pyqtgraph draws titles, axis labels and value labels as ``QGraphicsTextItem``s, which add a
document margin on each side of the text. ``drawn_width`` measures a text exactly as such an
item lays it out; ``flow`` breaks a legend or title into as many lines as the room needs;
``set_title`` gives a plot such a title and a title row as high as its lines (pyqtgraph fixes
that row at 30 pixels, which cuts a second or third line); ``longest_fitting`` picks the
fullest wording that fits (an axis title on a short axis).
Widths are in device-independent pixels, so they hold at any ``QT_SCALE_FACTOR``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsTextItem


def drawn_width(text: str, font: QFont, html: bool = False) -> float:
    """The width a ``QGraphicsTextItem`` in ``font`` takes for ``text`` (margins included)."""
    item = QGraphicsTextItem()
    item.setFont(font)
    if html:
        item.setHtml(text)
    else:
        item.setPlainText(text)
    return item.boundingRect().width()


def flow(
    pieces: Sequence[str], font: QFont, width: float, gap: str = "&nbsp;&nbsp;", style: str = ""
) -> str:
    """The HTML ``pieces`` joined by ``gap`` on lines no wider than ``width`` (``<br>``
    between lines), measured inside a span of CSS ``style`` (as a pyqtgraph label draws
    them); a piece wider than the room gets a line of its own."""
    lines: list[str] = []
    for piece in pieces:
        joined = f"<span style='{style}'>{lines[-1] if lines else ''}{gap}{piece}</span>"
        if lines and drawn_width(joined, font, html=True) <= width:
            lines[-1] += gap + piece
        else:
            lines.append(piece)
    return "<br>".join(lines)


def longest_fitting(options: Sequence[str], font: QFont, length: float) -> str:
    """The first of ``options`` (fullest first) that fits ``length``; else the last one."""
    for option in options:
        if drawn_width(option, font) <= length:
            return option
    return options[-1]


def set_title(plot, pieces: Sequence[str], width: float, color: str) -> str:
    """Give the ``pyqtgraph`` ``plot`` the HTML ``pieces`` as its title, flowed into ``width``
    and with a title row as high as the lines drawn; returns the title's HTML."""
    label = plot.titleLabel
    size = label.opts.get("size")  # the title's own font size, as the label writes it
    text = flow(pieces, label.item.font(), width, style=f"font-size: {size}" if size else "")
    if text != label.text or not label.isVisible():
        plot.setTitle(text, color=color)
        height = label.item.boundingRect().height()
        plot.titleLabel.setMaximumHeight(height)
        plot.layout.setRowFixedHeight(0, height)
    return text
