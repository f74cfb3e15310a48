"""Hostile evidence (HTML, control characters, RTL overrides, 50,000-character lines) cannot
change the report's layout: every page stays inside its margins and the text is shown, not
interpreted."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from taveer_desktop.report.export import prepare_report
from taveer_desktop.report.pdf import (
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    RenderedReport,
)
from taveer_desktop.store import ProjectStore

from .conftest import HEADINGS_CHECK, poppler


def test_hostile_report_has_every_section_and_hash(hostile_report):
    text = hostile_report.text
    positions = [text.find(h) for h in HEADINGS_CHECK]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    for digest in hostile_report.document_hashes:
        assert digest in text
    for number, page in enumerate(hostile_report.page_texts, start=1):
        assert f"Page {number} of {len(hostile_report.page_texts)}" in page


def test_markup_is_printed_as_text_and_marks_are_made_visible(hostile_report):
    text = hostile_report.text
    assert "<script>questioned.txt" in text
    assert "<b>known 0 & <i>" in text
    assert "[U+202E]" in text  # the right-to-left override in the file names
    assert "\u202e" not in text
    assert "<h1>Big</" in text  # a line may wrap after the slash
    assert "more characters not shown" in text  # the 5,000-character title was cut


@pytest.mark.slow
def test_hostile_pages_stay_inside_their_margins(hostile_report, qapp):
    with ProjectStore.open(hostile_report.project) as store:
        number = store.cases.list_all()[0].number
        _, content = prepare_report(store, number)
    rendered = RenderedReport.layout(content)
    # laid out again after the export, the audit trail holds one more entry (the export itself)
    assert rendered.page_count - hostile_report.exported.page_count in (0, 1)
    bottom = PAGE_HEIGHT - MARGIN_BOTTOM
    for page in rendered.pages:
        for placed in page:
            assert placed.y >= MARGIN_TOP - 0.01 and placed.y + placed.height <= bottom + 0.01
    scale = 1.0
    for index in range(rendered.page_count):
        image = rendered.page_image(index, scale)
        left, right = int(MARGIN_LEFT - 3), int(PAGE_WIDTH - MARGIN_RIGHT + 3)
        for x in list(range(0, left, 2)) + list(range(right, image.width(), 2)):
            for y in range(0, image.height(), 3):
                assert image.pixelColor(x, y) == QColor("white"), (index + 1, x, y)


def test_hostile_report_fonts_embedded_and_text_extractable(hostile_report):
    rows = poppler("pdffonts", str(hostile_report.pdf)).splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows)
