"""Pagination: the report's blocks become pages of placed pieces (Qt, no file writing).

The blocks of ``content`` are turned into pieces of known height: text (split between lines
when a paragraph runs over a page), table rows (never split; the table's header row repeats on
every page a table continues on, and a row's detail line stays with it), charts, spacers.
Headings stay with what follows them, ``KeepTogether`` groups move to the next page together
when they fit on one page, and a section heading with ``new_page`` starts a page. The result is
a list of pages, each a list of ``Placed`` pieces that can draw themselves on any QPainter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen

from taveer_desktop.report.blocks import (
    Block,
    Chart,
    Heading,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
)
from taveer_desktop.report.chart_painter import paint_chart
from taveer_desktop.report.pdf_text import (
    CellText,
    draw_document_part,
    line_bounds,
    make_document,
    space_after,
)

CELL_PAD = 2.6
GRID_PEN = QColor("#9a9a9a")
HEADER_FILL = QColor("#e4ebf2")
SHADE_FILL = QColor("#f1f6ee")
Draw = Callable[[QPainter, float, float], None]


@dataclass
class Placed:
    draw: Draw
    x: float
    y: float
    height: float


@dataclass
class Piece:
    """Something of fixed ``height`` that draws at (x, y); ``after`` is the gap below it."""

    height: float
    draw: Draw
    after: float = 0.0
    keep_with_next: bool = False
    group: int | None = None
    new_page: bool = False
    header: Piece | None = None  # for table rows: the header row to repeat
    table: int | None = None
    discardable: bool = False  # spacers vanish at the top of a page


class TextPiece(Piece):
    """A paragraph that may be split between lines."""

    def __init__(self, document, after: float, **kwargs):
        self.document = document
        self.lines = line_bounds(document) or [(0.0, document.size().height())]
        self.top = 0.0
        height = document.size().height()
        super().__init__(height, self._draw_from(0.0, height), after, **kwargs)

    def _draw_from(self, top: float, bottom: float) -> Draw:
        document = self.document
        return lambda painter, x, y: draw_document_part(painter, document, x, y, top, bottom)

    def split(self, room: float) -> tuple[Piece, TextPiece] | None:
        """The part that fits in ``room`` and the rest, cut between two lines (or None)."""
        cut = None
        for top, bottom in self.lines:
            if top < self.top:
                continue
            if bottom - self.top > room:
                break
            cut = bottom
        if cut is None or cut >= self.top + self.height - 0.01:
            return None
        first = Piece(cut - self.top, self._draw_from(self.top, cut))
        rest = TextPiece.__new__(TextPiece)
        rest.__dict__.update(self.__dict__)
        next_top = min((t for t, _ in self.lines if t >= cut - 0.01), default=cut)
        rest.top = next_top
        rest.height = self.top + self.height - next_top
        rest.draw = self._draw_from(next_top, self.top + self.height)
        rest.new_page = False
        return first, rest


class _Tables:
    counter = 0


def _table_pieces(table: Table, width: float) -> list[Piece]:
    _Tables.counter += 1
    table_id = _Tables.counter
    total = sum(c.width for c in table.columns)
    widths = [width * c.width / total for c in table.columns]
    style = "tablesmall" if table.font == "small" else "table"
    keyvalue = table.style == "keyvalue"

    def row_piece(cells_html, aligns, cell_style, fill, detail=None) -> Piece:
        cells = [
            CellText(html, w - 2 * CELL_PAD, cell_style, align)
            for html, w, align in zip(cells_html, widths, aligns, strict=True)
        ]
        main = max(c.height for c in cells) + 2 * CELL_PAD
        extra = CellText(detail, width - 2 * CELL_PAD, "tablesmall") if detail else None
        height = main + (extra.height + CELL_PAD if extra else 0)

        def draw(painter: QPainter, x: float, y: float) -> None:
            if fill is not None:
                painter.fillRect(QRectF(x, y, width, height), fill)
            left = x
            for cell, w in zip(cells, widths, strict=True):
                cell.draw(painter, left + CELL_PAD, y + CELL_PAD)
                left += w
            if extra is not None:
                extra.draw(painter, x + CELL_PAD, y + main)
            painter.setPen(QPen(GRID_PEN, 0.4))
            painter.drawLine(QLineF(x, y + height, x + width, y + height))
            if not keyvalue:
                painter.drawLine(QLineF(x, y, x + width, y))
                left = x
                for w in widths[:-1]:
                    left += w
                    painter.drawLine(QLineF(left, y, left, y + main))
                painter.drawLine(QLineF(x, y, x, y + height))
                painter.drawLine(QLineF(x + width, y, x + width, y + height))

        return Piece(height, draw, table=table_id)

    aligns = [c.align for c in table.columns]
    header = None
    if not keyvalue and any(c.title for c in table.columns):
        header = row_piece([c.title for c in table.columns], aligns, "header", HEADER_FILL)
    pieces = []
    for row in table.rows:
        fill = SHADE_FILL if row.shade else None
        piece = row_piece(list(row.cells), aligns, style, fill, row.detail)
        piece.header = header
        pieces.append(piece)
    if pieces:
        pieces[-1].after = 8.0
    return pieces


def _chart_piece(chart: Chart, width: float) -> list[Piece]:
    def draw(painter: QPainter, x: float, y: float) -> None:
        paint_chart(painter, QRectF(x, y, width, chart.height), chart.layout)

    pieces = [Piece(chart.height, draw, after=4.0 if chart.caption else 10.0)]
    if chart.caption:
        document = make_document(f"<i>{chart.caption}</i>", width, "note")
        pieces.append(TextPiece(document, 10.0))
        pieces[0].keep_with_next = True
    return pieces


def block_pieces(block: Block, width: float, group: int | None = None) -> list[Piece]:
    """The pieces of one block at ``width`` points."""
    if isinstance(block, Heading):
        style = "h1" if block.level == 1 else "h2"
        document = make_document(block.text, width, style)
        heading = TextPiece(
            document, space_after(style), keep_with_next=True, new_page=block.new_page
        )
        pieces: list[Piece] = [heading]
        if block.level == 2:
            pieces.insert(0, Piece(6.0, lambda *_: None, discardable=True))
    elif isinstance(block, Paragraph):
        document = make_document(block.html, width, block.style)
        pieces = [TextPiece(document, space_after(block.style))]
    elif isinstance(block, Table):
        pieces = _table_pieces(block, width)
    elif isinstance(block, Chart):
        pieces = _chart_piece(block, width)
    elif isinstance(block, Spacer):
        pieces = [Piece(block.height, lambda *_: None)]
    elif isinstance(block, KeepTogether):
        pieces = []
        group = id(block)
        for inner in block.blocks:
            pieces += block_pieces(inner, width, group)
    else:  # pragma: no cover - a programming error
        raise TypeError(f"not a report block: {type(block).__name__}")
    if group is not None:
        for piece in pieces:
            piece.group = group
    return pieces


def _start_height(piece: Piece, page: float) -> float:
    """The least of ``piece`` that must come along when something is kept with it: a
    paragraph is cut between lines only when it is taller than a ``page``, so one that is not
    comes whole (else a heading kept with its first lines would end a page alone)."""
    if isinstance(piece, TextPiece) and len(piece.lines) > 2 and piece.height > page:
        return piece.lines[1][1] - piece.top
    return piece.height


class _Paginator:
    def __init__(self, pieces: list[Piece], height: float, x: float, y: float):
        self.pieces = pieces
        self.height = height
        self.x, self.y = x, y
        self.pages: list[list[Placed]] = [[]]
        self.cursor = 0.0
        self.table: int | None = None

    def new_page(self) -> None:
        if self.pages[-1]:
            self.pages.append([])
        self.cursor = 0.0
        self.table = None

    def place(self, draw: Draw, height: float, after: float = 0.0) -> None:
        self.pages[-1].append(Placed(draw, self.x, self.y + self.cursor, height))
        self.cursor += height + after

    def header_height(self, piece: Piece, table: int | None) -> float:
        if piece.header is not None and piece.table != table:
            return piece.header.height
        return 0.0

    def needed(self, i: int) -> float:
        """Height that must fit on this page with piece ``i``: its group and what it keeps."""
        pieces = self.pieces
        piece = pieces[i]
        total = piece.height + self.header_height(piece, self.table)
        j = i
        while j + 1 < len(pieces):
            prev, nxt = pieces[j], pieces[j + 1]
            same_group = nxt.group is not None and nxt.group == prev.group
            if not (prev.keep_with_next or same_group):
                break
            starts_group = nxt.group is not None and not same_group
            full = same_group or starts_group
            total += prev.after + self.header_height(nxt, prev.table)
            total += nxt.height if full else _start_height(nxt, self.height)
            j += 1
            if not full and not nxt.keep_with_next:
                break
        return total

    def run(self) -> list[list[Placed]]:
        pieces, i = self.pieces, 0
        while i < len(pieces):
            piece = pieces[i]
            if piece.new_page:
                self.new_page()
            if piece.discardable and self.cursor == 0.0:
                i += 1
                continue
            previous = pieces[i - 1] if i else None
            starts_group = piece.group is not None and (
                previous is None or previous.group != piece.group
            )
            if self.cursor > 0 and (
                starts_group
                or piece.keep_with_next
                or (piece.table is not None and piece.table != self.table)
            ):
                want = self.needed(i)
                if self.cursor + want > self.height and want <= self.height:
                    self.new_page()
            fits = self.cursor + self.header_height(piece, self.table) + piece.height
            # A paragraph moves whole to the next page; only one taller than a page is cut
            # between lines (a cut line is clipped, yet text extraction still finds it).
            if fits > self.height and isinstance(piece, TextPiece) and piece.height > self.height:
                room = self.height - self.cursor
                parts = piece.split(room)
                if parts is not None:
                    first, rest = parts
                    self.place(first.draw, first.height)
                    self.new_page()
                    pieces[i] = rest
                    continue
            if fits > self.height and self.cursor > 0:
                self.new_page()
            if piece.header is not None and piece.table != self.table:
                self.place(piece.header.draw, piece.header.height)
            self.table = piece.table
            self.place(piece.draw, piece.height, piece.after)
            i += 1
        return self.pages


def paginate(
    blocks: list[Block], width: float, height: float, x: float, y: float
) -> list[list[Placed]]:
    """Lay ``blocks`` out on pages whose text area is ``width`` × ``height`` at (x, y)."""
    pieces: list[Piece] = []
    for block in blocks:
        pieces += block_pieces(block, width)
    return _Paginator(pieces, height, x, y).run()
