"""Encodings in the desktop: how each was found, uncertain ones flagged, chosen when adding.

The table model is tested without a window; the add flow through the window: a file whose
encoding had to be guessed opens the encoding step before anything is stored, the examiner's
choice reaches the store (and its audit entry), Cancel stores nothing, a choice that cannot
decode a file gives one plain line in the refused-files dialog, and UTF-8 files add at once.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from taveer_desktop.presentation.encoding_text import encoding_explanation, encoding_summary
from taveer_desktop.store import KNOWN, QUESTIONED, RejectionReason
from taveer_desktop.ui import document_table_model as dtm
from taveer_desktop.ui import error_dialog
from taveer_desktop.ui.encoding_dialog import EncodingChoiceDialog, preview_text
from taveer_desktop.ui.error_dialog import RejectionDialog
from taveer_desktop.ui.jobs import TextFileCheck

from .test_case_workflow import _create_case
from .test_table_models import document

CZECH = (
    "Vážený pane řediteli, píšu Vám ohledně včerejší schůzky. Účetní závěrka ještě není "
    "hotová, protože chybí podklady od dodavatelů. Prosím o strpení do příštího týdne.\n"
)
SHORT = "café"  # four letters: several encodings read them almost equally well


def _with_detection(doc, encoding, **detection):
    metadata = {**doc.metadata, "encoding_detection": {"name": encoding, **detection}}
    return dataclasses.replace(doc, encoding=encoding, metadata=metadata)


# ---- the table model, without a window ---------------------------------------------------------


def test_document_model_shows_how_each_encoding_was_found_and_flags_uncertain_ones(qapp):
    base = document(1, KNOWN, "a.txt", 1000)
    docs = [
        _with_detection(base, "UTF-8", method="utf-8", confidence=1.0),
        _with_detection(base, "UTF-8 (BOM)", method="bom", confidence=1.0),
        _with_detection(base, "Windows-1251", method="detected", confidence=0.97),
        _with_detection(
            base, "Windows-1252", method="detected", confidence=0.5, alternative="Windows-1250"
        ),
        _with_detection(base, "KOI8-R", method="examiner", confidence=1.0),
        base,  # imported before detection was recorded
        dataclasses.replace(base, file_format="eml", encoding="MIME utf-8", metadata={}),
    ]
    model = dtm.DocumentTableModel()
    model.set_records(docs)
    cells = [model.index(row, dtm.ENCODING) for row in range(len(docs))]
    texts = [model.data(cell) for cell in cells]
    assert texts == [
        "UTF-8",
        "UTF-8 (BOM) · byte-order mark",
        "Windows-1251 · detected 0.97",
        "Windows-1252 · detected 0.50 · uncertain",
        "KOI8-R · examiner's choice",
        "UTF-8",
        "MIME utf-8 · declared",
    ]
    tips = [model.data(cell, Qt.ItemDataRole.ToolTipRole) for cell in cells]
    assert "valid UTF-8" in tips[0]
    assert "byte-order mark" in tips[1]
    assert "Confidence: 0.97" in tips[2] and "Uncertain" not in tips[2]
    assert "Windows-1250 reads the file almost as well" in tips[3]
    assert "Uncertain: check that the text reads correctly" in tips[3]
    assert "Chosen by the examiner" in tips[4] and "audit log" in tips[4]
    assert "not recorded" in tips[5]
    assert "MIME headers" in tips[6]
    # the flag is more than colour: words, an icon, and a colour, on the uncertain row only
    flagged = [
        row
        for row, cell in enumerate(cells)
        if model.data(cell, Qt.ItemDataRole.DecorationRole) is not None
    ]
    assert flagged == [3]
    assert model.data(cells[3], Qt.ItemDataRole.ForegroundRole) == dtm.UNCERTAIN_COLOUR
    assert model.data(cells[2], Qt.ItemDataRole.ForegroundRole) is None


def test_a_low_confidence_without_alternative_is_uncertain_too():
    metadata = {"encoding_detection": {"method": "detected", "confidence": 0.62}}
    assert encoding_summary("EUC-KR", metadata) == "EUC-KR · detected 0.62 · uncertain"
    assert "Uncertain:" in encoding_explanation("EUC-KR", metadata)


def test_preview_reads_the_sample_as_chosen_and_says_when_it_cannot(tmp_path):
    data = CZECH.encode("cp1250")
    check = TextFileCheck(
        tmp_path / "dopis.txt",
        "Windows-1252",
        {"name": "Windows-1252", "method": "detected", "confidence": 0.5},
        None,
        data,
    )
    as_detected, ok = preview_text(check, None)
    assert ok and as_detected != CZECH  # Windows-1252 mojibake
    chosen, ok = preview_text(check, "cp1250")
    assert ok and chosen == CZECH
    wrong, ok = preview_text(check, "utf_8")
    assert not ok and "Not valid UTF-8" in wrong and "refused" in wrong
    # a multibyte character cut at the end of the sample is no error
    cut = dataclasses.replace(check, sample="日本語".encode("shift_jis")[:-1])
    assert preview_text(cut, "shift_jis") == ("日本", True)


# ---- the add flow through the window -----------------------------------------------------------


def _start_add(qtbot, window, role, files):
    window.cases.add_documents(role, files)
    qtbot.waitUntil(lambda: window.cases.encoding_dialog is not None, timeout=30_000)
    return window.cases.encoding_dialog


def test_a_guessed_encoding_is_checked_and_the_examiners_choice_is_stored_and_audited(
    qtbot, window, tmp_path
):
    _create_case(qtbot, window)
    letter = tmp_path / "dopis.txt"
    letter.write_bytes(CZECH.encode("cp1250"))
    note = tmp_path / "note.txt"
    note.write_bytes(SHORT.encode("cp1252"))

    dialog = _start_add(qtbot, window, QUESTIONED, [letter, note])
    assert isinstance(dialog, EncodingChoiceDialog)
    assert window.session.store.documents.list_for_case(window.selected_case().id) == []
    assert "uncertain" in dialog.intro.text()
    shown = {
        dialog.files.topLevelItem(i).text(0): dialog.files.topLevelItem(i).text(1)
        for i in range(dialog.files.topLevelItemCount())
    }
    assert "uncertain" in shown["note.txt"]
    assert dialog.chosen_encoding() is None  # detection unless the examiner chooses

    dialog.choose("cp1250")
    dialog.files.setCurrentItem(dialog.files.topLevelItem(0))
    assert dialog.preview.toPlainText() == CZECH
    assert "as Windows-1250" in dialog.preview_label.text()
    dialog.choice.setEditText("no-such-encoding")
    assert not dialog.add_button.isEnabled()
    assert "not a text encoding" in dialog.preview_label.text()
    dialog.choice.setEditText("windows-1250")  # typed names work too
    assert dialog.add_button.isEnabled()
    assert dialog.chosen_encoding() == "cp1250"

    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        dialog.accept()
    result = blocker.args[0]
    assert len(result.added) == 2 and not result.rejected
    store = window.session.store
    by_name = {d.file_name: d for d in result.added}
    assert store.documents.text(by_name["dopis.txt"].id) == CZECH
    assert by_name["dopis.txt"].encoding == "Windows-1250"
    assert by_name["dopis.txt"].metadata["encoding_detection"]["method"] == "examiner"
    entries = [e for e in store.audit.entries(None) if e.action == "document_added"]
    assert [e.details["encoding_method"] for e in entries] == ["examiner", "examiner"]
    assert {e.details["encoding"] for e in entries} == {"Windows-1250"}

    # the table shows the choice
    tab = window.documents_tab
    texts = [tab.model.data(tab.model.index(r, dtm.ENCODING)) for r in range(2)]
    assert texts == ["Windows-1250 · examiner's choice"] * 2


def test_the_detected_encodings_are_kept_when_the_examiner_accepts_them(qtbot, window, tmp_path):
    _create_case(qtbot, window)
    note = tmp_path / "note.txt"
    note.write_bytes(SHORT.encode("cp1252"))
    dialog = _start_add(qtbot, window, KNOWN, [note])
    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        dialog.accept()
    added = blocker.args[0].added[0]
    assert added.metadata["encoding_detection"]["method"] == "detected"
    tab = window.documents_tab
    tab.view.selectRow(0)
    assert "uncertain" in tab.model.data(tab.model.index(0, dtm.ENCODING))
    assert "Uncertain: check that the text reads correctly" in tab.preview_heading.text()


def test_cancelling_the_encoding_step_stores_nothing(qtbot, window, tmp_path):
    case = _create_case(qtbot, window)
    note = tmp_path / "note.txt"
    note.write_bytes(SHORT.encode("cp1252"))
    dialog = _start_add(qtbot, window, KNOWN, [note])
    dialog.reject()
    qtbot.waitUntil(lambda: window.cases.encoding_dialog is None)
    qtbot.wait(200)
    assert not window.runner.busy
    assert window.session.store.documents.list_for_case(case.id) == []


def test_a_choice_that_cannot_decode_a_file_refuses_it_in_one_line(qtbot, window, tmp_path):
    _create_case(qtbot, window)
    letter = tmp_path / "dopis.txt"
    letter.write_bytes(CZECH.encode("cp1250"))
    mail = tmp_path / "mail.eml"
    mail.write_bytes(
        b"From: a@example.org\r\nSubject: hi\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Dear colleague, the minutes are attached as promised.\r\n"
    )
    dialog = _start_add(qtbot, window, KNOWN, [letter, mail])
    dialog.choose("utf_8")
    assert "would be refused" in dialog.preview.toPlainText()
    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        dialog.accept()
    result = blocker.args[0]
    # the e-mail declares its own charset: added; the text file is refused, one plain line
    assert [d.file_name for d in result.added] == ["mail.eml"]
    assert [r.reason for r in result.rejected] == [RejectionReason.UNREADABLE]
    rejection = next(d for d in error_dialog.open_dialogs() if isinstance(d, RejectionDialog))
    listing = rejection.as_text()
    assert "dopis.txt is not valid UTF-8" in listing
    assert len(listing.splitlines()) == 1


def test_text_files_read_without_guessing_are_added_without_the_step(
    qtbot, window, evidence, tmp_path
):
    _create_case(qtbot, window)
    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        window.cases.add_documents(KNOWN, [evidence["known1"]])
    assert window.cases.encoding_dialog is None
    assert len(blocker.args[0].added) == 1


def test_a_file_that_cannot_be_read_is_listed_in_the_step_and_refused_after(
    qtbot, window, tmp_path
):
    _create_case(qtbot, window)
    note = tmp_path / "note.txt"
    note.write_bytes(SHORT.encode("cp1252"))
    photo = tmp_path / "photo.txt"
    photo.write_bytes(bytes(range(256)) * 4)
    dialog = _start_add(qtbot, window, KNOWN, [note, photo])
    rows = {
        dialog.files.topLevelItem(i).text(0): dialog.files.topLevelItem(i).text(1)
        for i in range(dialog.files.topLevelItemCount())
    }
    assert rows["photo.txt"] == "cannot be read: will be refused"
    assert "1 of them declare no encoding" in dialog.intro.text()
    dialog.files.setCurrentItem(dialog.files.topLevelItem(1))
    assert dialog.preview.toPlainText().startswith("This file will be refused: photo.txt")
    with qtbot.waitSignal(window.documents_added, timeout=30_000) as blocker:
        dialog.accept()
    result = blocker.args[0]
    assert [d.file_name for d in result.added] == ["note.txt"]
    assert [r.reason for r in result.rejected] == [RejectionReason.BINARY]
