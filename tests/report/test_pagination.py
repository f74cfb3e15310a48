"""Pagination: rows are never split, headers repeat, groups move together, nothing overflows."""

from __future__ import annotations

from taveer_desktop.report.blocks import (
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Spacer,
    Table,
)
from taveer_desktop.report.pdf import MARGIN_LEFT, MARGIN_TOP, TEXT_HEIGHT, TEXT_WIDTH
from taveer_desktop.report.pdf_flow import block_pieces, paginate


def _table(rows: int) -> Table:
    columns = (Column("#", 0.1, "right"), Column("Text", 0.6), Column("Hash", 0.3))
    return Table(
        columns,
        tuple(
            Row(
                (str(i), "word " * (i % 37), "<span class='code'>" + "ab" * 32 + "</span>"),
                detail=f"detail line {i}" if i % 5 == 0 else None,
            )
            for i in range(rows)
        ),
    )


def _bottom() -> float:
    return MARGIN_TOP + TEXT_HEIGHT


def test_rows_are_never_split_and_the_header_repeats(qapp):
    table = _table(250)
    row_heights = [p.height for p in block_pieces(table, TEXT_WIDTH)]
    pages = paginate([Heading("1. Title"), table], TEXT_WIDTH, TEXT_HEIGHT, MARGIN_LEFT, MARGIN_TOP)
    assert len(pages) > 3
    placed_heights = []
    for page in pages:
        for placed in page:
            assert placed.y >= MARGIN_TOP - 0.01
            assert placed.y + placed.height <= _bottom() + 0.01
        placed_heights += [p.height for p in page]
    header_height = pages[1][0].height
    # every row appears once with its full height; every page after the first starts with
    # the repeated header
    rows = [h for h in placed_heights[1:] if h != header_height]
    assert sorted(rows) == sorted(h for h in row_heights if h != header_height)
    assert all(page[0].height == header_height for page in pages[1:])


def test_keep_together_moves_as_one_and_headings_stay_with_text(qapp):
    filler = Paragraph("text " * 1500)
    group = KeepTogether((Heading("F4", 2), Paragraph("facts"), _table(6)))
    pages = paginate([filler, group], TEXT_WIDTH, TEXT_HEIGHT, MARGIN_LEFT, MARGIN_TOP)
    group_pieces = len(block_pieces(group, TEXT_WIDTH)) - 1  # the heading's spacer goes
    assert len(pages[-1]) >= group_pieces
    last_heading_page = [i for i, page in enumerate(pages) if page][-1]
    assert last_heading_page == len(pages) - 1


def test_a_paragraph_taller_than_a_page_is_cut_between_lines(qapp):
    long_text = Paragraph("sentence with several words. " * 2500)
    pages = paginate([long_text], TEXT_WIDTH, TEXT_HEIGHT, MARGIN_LEFT, MARGIN_TOP)
    assert len(pages) >= 3
    total = sum(p.height for page in pages for p in page)
    whole = block_pieces(long_text, TEXT_WIDTH)[0].height
    assert abs(total - whole) < 0.01 * whole
    for page in pages:
        assert all(p.y + p.height <= _bottom() + 0.01 for p in page)


def test_a_heading_never_ends_a_page_alone_above_a_paragraph_that_moves_whole(qapp):
    """A heading kept with a paragraph shorter than a page moves with it: the paragraph is
    never cut, so keeping only its first lines in view left the heading alone at the bottom
    (the case report's "Reproducibility" once did)."""
    heading = Heading("Reproducibility", 2)
    paragraph = Paragraph("A sentence of the paragraph that follows the heading. " * 40)
    heading_height = sum(p.height for p in block_pieces(heading, TEXT_WIDTH))
    text = block_pieces(paragraph, TEXT_WIDTH)[0]
    assert len(text.lines) > 4
    two_lines = text.lines[1][1] - text.top
    # room left for the heading and three lines, not for the whole paragraph
    filler = Spacer(TEXT_HEIGHT - heading_height - two_lines * 1.5 - 8.0)
    pages = paginate([filler, heading, paragraph], TEXT_WIDTH, TEXT_HEIGHT, MARGIN_LEFT, MARGIN_TOP)
    heading_text = block_pieces(heading, TEXT_WIDTH)[-1].height  # (after its spacer)
    assert len(pages) == 2
    assert heading_text not in [p.height for p in pages[0]]  # the filler (and a blank spacer)
    assert [p.height for p in pages[1]] == [heading_text, text.height]
