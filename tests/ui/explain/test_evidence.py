"""Highlighting finds every occurrence the engine counted, in both texts."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCursor

from taveer_desktop.presentation.evidence_data import QtPositions, evidence_texts, shown_text
from taveer_desktop.presentation.explanation_data import phi_rows
from taveer_desktop.ui.explain.evidence_view import EvidenceView

from .builders import typed


@pytest.mark.parametrize("case", ["federalist", "stackexchange"])
def test_counts_equal_the_engines_for_every_feature(qtbot, request, lexicon, case):
    data = request.getfixturevalue(case)
    view = EvidenceView()
    qtbot.addWidget(view)
    for category, interpretation in data.result["interpretation"].items():
        unknown, known = evidence_texts(data.unknown, data.known, lexicon, category)
        view.set_texts(category, unknown, known)
        for row in phi_rows(typed(interpretation)):
            assert unknown.count(row.feature) == row.count_unknown, (category, row.feature)
            assert known.count(row.feature) == row.count_known, (category, row.feature)
        # the view itself, for the features that decide most
        for row in sorted(phi_rows(typed(interpretation)), key=lambda r: -r.importance)[:5]:
            view.show_feature(row.feature, row.side)
            assert view.counts() == (row.count_unknown, row.count_known)
            highlighted = len(view.unknown.editor.extraSelections())
            assert (highlighted > 0) == (row.count_unknown > 0)


def test_highlights_cover_the_feature_text(qtbot, federalist, lexicon):
    view = EvidenceView()
    qtbot.addWidget(view)
    unknown, known = evidence_texts(federalist.unknown, federalist.known, lexicon, "F6")
    view.set_texts("F6", unknown, known)
    view.show_feature("the", "Y")
    pane = view.known
    for occurrence in pane.occurrences[:50]:
        assert known.text[occurrence.start : occurrence.end].lower() == "the"
    document = pane.editor.document()
    for selection in pane.editor.extraSelections()[:50]:
        assert selection.cursor.selectedText().lower() == "the"
    assert document.toPlainText() == shown_text(known.text)
    # the known documents are listed, each occurrence lies in one of them
    assert len(known.documents) == len(federalist.known)
    assert all(known.document_of(o.start) for o in pane.occurrences)


def test_masked_ngrams_mark_the_topic_word(qtbot, federalist, lexicon):
    view = EvidenceView()
    qtbot.addWidget(view)
    unknown, known = evidence_texts(federalist.unknown, federalist.known, lexicon, "F10")
    view.set_texts("F10", unknown, known)
    found = unknown.found[0][1]
    feature = max(found, key=lambda f: len(found[f]))
    view.show_feature(feature, "N")
    occurrence = view.unknown.occurrences[0]
    assert occurrence.masked is not None
    masked = [s for s in view.unknown.editor.extraSelections() if s.format.fontItalic()]
    assert len(masked) >= len(view.unknown.occurrences)


def test_navigation_counts_and_wraps(qtbot, federalist, lexicon):
    view = EvidenceView()
    qtbot.addWidget(view)
    view.set_texts("F6", *evidence_texts(federalist.unknown, federalist.known, lexicon, "F6"))
    view.show_feature(",", "N")
    pane = view.unknown
    n = len(pane.occurrences)
    assert n > 2 and pane.count_label.text() == f"occurrence 1 of {n}"
    pane.next_button.click()
    assert pane.current == 1 and pane.count_label.text() == f"occurrence 2 of {n}"
    pane.previous_button.click()
    pane.previous_button.click()
    assert pane.current == n - 1
    cursor = pane.editor.textCursor()
    assert cursor.position() == pane.occurrences[n - 1].start
    assert "in known document" in view.known.count_label.text()
    view.show_feature(None)
    assert view.counts() == (0, 0)


def test_offsets_survive_astral_characters_and_crlf(qtbot, lexicon):
    text = "I like it 😀, and you? We do 😀😀, but not here.\r\nSo we go, and it is fine."
    view = EvidenceView()
    qtbot.addWidget(view)
    unknown, known = evidence_texts(text, [text], lexicon, "F1")
    view.set_texts("F1", unknown, known)
    view.show_feature(",", "Y")
    assert view.counts() == (3, 3)
    positions = QtPositions(unknown.text)
    for occurrence, selection in zip(
        view.unknown.occurrences,
        view.unknown.editor.extraSelections()[: len(view.unknown.occurrences)],
        strict=True,
    ):
        assert selection.cursor.selectedText() == ","
        assert selection.cursor.selectionStart() == positions(occurrence.start)
    cursor = QTextCursor(view.unknown.editor.document())
    cursor.movePosition(QTextCursor.MoveOperation.End)
    assert cursor.position() == positions(len(unknown.text))


def test_the_legend_shows_the_colours_the_highlights_use():
    from taveer_desktop.ui.explain.evidence_view import CURRENT, LEGEND, PART, SIDE_N, SIDE_Y

    for colour in (PART[SIDE_Y], PART[SIDE_N], CURRENT[SIDE_Y], CURRENT[SIDE_N]):
        assert f"background:{colour}" in LEGEND
