"""Reading notes in the Documents tab: a "Text read" column flagged like an uncertain
encoding, every note in its tooltip and under the preview's heading (real intake, real window)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from taveer_desktop.store import KNOWN
from taveer_desktop.ui import document_table_model as dtm

from .test_case_workflow import _add, _create_case


def test_the_documents_tab_shows_what_the_analysed_text_leaves_out(qtbot, window, tmp_path):
    _create_case(qtbot, window)
    spoiled = tmp_path / "letter.txt"
    spoiled.write_text("I wrote t\u200bhe letter myself, and t\u200bhe note too.", "utf-8")
    clean = tmp_path / "clean.txt"
    clean.write_text("Nothing is hidden in this one.", "utf-8")
    result = _add(qtbot, window, KNOWN, [spoiled, clean])
    assert len(result.added) == 2
    tab = window.documents_tab
    model = tab.model
    rows = {model.record(r).file_name: r for r in range(model.rowCount())}
    cell = model.index(rows["letter.txt"], dtm.READING)
    assert model.data(cell) == "2 invisible removed"
    tip = model.data(cell, Qt.ItemDataRole.ToolTipRole)
    assert "differs from the file's bytes" in tip
    assert "2 invisible characters removed (zero width space U+200B ×2)" in tip
    assert model.data(cell, Qt.ItemDataRole.ForegroundRole) == dtm.UNCERTAIN_COLOUR
    assert model.data(cell, Qt.ItemDataRole.DecorationRole) is not None
    plain = model.index(rows["clean.txt"], dtm.READING)
    assert model.data(plain) == "as in the file"
    assert model.data(plain, Qt.ItemDataRole.DecorationRole) is None
    assert model.headerData(dtm.READING, Qt.Orientation.Horizontal) == "Text read"

    proxy_row = next(
        r
        for r in range(tab.proxy.rowCount())
        if tab.proxy.index(r, dtm.FILE_NAME).data() == "letter.txt"
    )
    tab.view.selectRow(proxy_row)
    heading = tab.preview_heading.text()
    assert "differs from the file" in heading and "after characters 9, 32" in heading
    assert tab.preview.toPlainText() == "I wrote the letter myself, and the note too."
