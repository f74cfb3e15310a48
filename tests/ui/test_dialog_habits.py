"""Habits a person expects of every window: Close and Escape close, mnemonics are unique, Tab
leaves a table, file dialogs open where the user keeps files."""

from __future__ import annotations

import re

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QTableView

from taveer_desktop.ui import app_settings


def _mnemonic(text: str) -> str | None:
    match = re.search(r"&([^&])", text.replace("&&", ""))
    return match.group(1).lower() if match else None


def test_train_and_evaluate_close_with_escape_and_with_close(qtbot, window):
    for open_dialog in (window.models.open_train_dialog, window.models.open_evaluate_dialog):
        dialog = open_dialog()
        qtbot.waitExposed(dialog)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda d=dialog: not d.isVisible())
        dialog = open_dialog()
        qtbot.waitExposed(dialog)
        dialog.close_button.click()
        qtbot.waitUntil(lambda d=dialog: not d.isVisible())
        dialog = open_dialog()
        qtbot.waitExposed(dialog)
        assert dialog.close()  # the title bar's close box
        assert not dialog.isVisible()


def test_a_running_training_stays_unless_the_examiner_stops_it(qtbot, window, tiny_corpus):
    dialog = window.models.open_train_dialog()
    dialog.set_corpus_folder(tiny_corpus)
    dialog.confirm_stop = lambda: False
    dialog.start_training()
    assert dialog.worker is not None
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible() and dialog.worker is not None
    dialog.confirm_stop = lambda: True
    dialog.close_button.click()
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=30_000)


def test_mnemonics_of_the_window_are_unique(window):
    seen: dict[str, list[str]] = {}
    for action in window.menuBar().actions():
        seen.setdefault(_mnemonic(action.text()), []).append(action.text())
    tabs = window.tabs
    for i in range(tabs.count()):
        seen.setdefault(_mnemonic(tabs.tabText(i)), []).append(tabs.tabText(i))
    for button in window.findChildren(QAbstractButton):
        if button.isVisibleTo(window) or button.parent() is window.verification_tab:
            seen.setdefault(_mnemonic(button.text()), []).append(button.text())
    for label in window.findChildren(QLabel):
        if label.buddy() is not None:
            seen.setdefault(_mnemonic(label.text()), []).append(label.text())
    seen.pop(None, None)
    assert {key: texts for key, texts in seen.items() if len(texts) > 1} == {}


def test_tab_leaves_every_table(qtbot, window):
    tables = window.findChildren(QTableView)
    assert len(tables) >= 4
    assert all(not table.tabKeyNavigation() for table in tables)
    window.case_list.view.setFocus()
    qtbot.keyClick(window.case_list.view, Qt.Key.Key_Tab)
    assert not window.case_list.view.hasFocus()


def test_file_dialogs_open_in_the_documents_folder_or_the_last_one_used(tmp_path):
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    first = app_settings.start_folder("evidence")
    assert first in (documents, str(tmp_path.home()))
    folder = tmp_path / "letters"
    folder.mkdir()
    app_settings.remember_folder("evidence", folder / "letter.txt")
    assert app_settings.start_folder("evidence") == str(folder)
    assert app_settings.start_folder("reports") == first  # each purpose keeps its own


def test_help_glossary_opens_the_method_page_at_the_glossary(qtbot, window):
    window.window_actions.glossary.trigger()
    dialog = window._method_dialog
    qtbot.waitExposed(dialog)
    page = dialog.text.toPlainText()
    assert "Glossary" in page and "L_Y — the same-author list" in page
    assert dialog.text.verticalScrollBar().value() > 0  # scrolled past the method
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_escape_closes_every_dialog_of_the_window(qtbot, demo_window):
    from taveer_desktop.ui.report_export_dialog import ReportExportDialog

    window = demo_window
    window.case_list.select_case_number("DEMO-001")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000):
        window.window_actions.verify.trigger()
    with qtbot.waitSignal(window.runner.job_ended, timeout=60_000):  # the preview's job
        report = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
    qtbot.addWidget(report)
    assert report.rendered is not None
    report.show()
    openers = {
        "new case": window.cases.new_case,
        "edit case": window.cases.edit_case,
        "model picker": window.cases.choose_model,
        "model manager": window.models.open_manager,
        "validation wizard": window.cases.validate_on_population,
        "validation records": window.models.show_validations,
        "method": window.show_method,
        "report": lambda: report,
    }
    for name, open_dialog in openers.items():
        dialog = open_dialog()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda d=dialog: not d.isVisible(), timeout=2_000)
        assert not dialog.isVisible(), name


def _dialog_mnemonics(dialog) -> dict[str, list[str]]:
    """The mnemonics of ``dialog`` used more than once (buttons, buddied labels, tabs)."""
    from PySide6.QtWidgets import QGroupBox, QTabWidget

    texts = [b.text() for b in dialog.findChildren(QAbstractButton) if b.isVisibleTo(dialog)]
    texts += [lab.text() for lab in dialog.findChildren(QLabel) if lab.buddy() is not None]
    texts += [g.title() for g in dialog.findChildren(QGroupBox)]
    for tabs in dialog.findChildren(QTabWidget):
        texts += [tabs.tabText(i) for i in range(tabs.count())]
    seen: dict[str, list[str]] = {}
    for text in texts:
        seen.setdefault(_mnemonic(text), []).append(text)
    seen.pop(None, None)
    return {key: found for key, found in seen.items() if len(found) > 1}


def _close_button(dialog) -> QAbstractButton:
    """The dialog's Close (or Cancel) button: the reject role of its button box."""
    from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

    if isinstance(dialog, QMessageBox):
        return dialog.escapeButton() or dialog.buttons()[0]
    for box in dialog.findChildren(QDialogButtonBox):
        for button in box.buttons():
            if box.buttonRole(button) == QDialogButtonBox.ButtonRole.RejectRole:
                return button
    return dialog.close_button


def test_every_dialog_closes_with_close_and_escape_and_has_unique_mnemonics(
    qtbot, demo_window, tmp_path
):
    """As a user would: each dialog the window opens, opened twice — closed once with Escape
    and once with its Close (or Cancel) button — and its own mnemonics unique."""
    from taveer_desktop.store import KNOWN
    from taveer_desktop.ui.encoding_dialog import EncodingChoiceDialog
    from taveer_desktop.ui.error_dialog import RejectionDialog, open_dialogs
    from taveer_desktop.ui.report_export_dialog import ReportExportDialog

    window = demo_window
    window.case_list.select_case_number("DEMO-001")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000):
        window.window_actions.verify.trigger()
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "dopis.txt").write_bytes("Vážený pane řediteli, píšu Vám.".encode("cp1250"))

    def refused():
        window.cases.add_documents(KNOWN, [tmp_path / "empty.txt"])
        qtbot.waitUntil(lambda: any(isinstance(d, RejectionDialog) for d in open_dialogs()))
        return next(d for d in open_dialogs() if isinstance(d, RejectionDialog))

    def encoding_step():
        window.cases.add_documents(KNOWN, [tmp_path / "dopis.txt"])
        qtbot.waitUntil(lambda: isinstance(window.cases.encoding_dialog, EncodingChoiceDialog))
        return window.cases.encoding_dialog

    def report():
        dialog = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.rendered is not None, timeout=60_000)
        return dialog

    openers = {
        "new case": window.cases.new_case,
        "edit case": window.cases.edit_case,
        "model picker": window.cases.choose_model,
        "model manager": window.models.open_manager,
        "train": window.models.open_train_dialog,
        "evaluate": window.models.open_evaluate_dialog,
        "method": window.show_method,
        "about": window.show_about,
        "refused files": refused,
        "encoding step": encoding_step,
        "report": report,
    }
    for name, open_dialog in openers.items():
        for how in ("Escape", "Close"):
            dialog = open_dialog()
            qtbot.waitExposed(dialog)
            assert _dialog_mnemonics(dialog) == {}, name
            if how == "Escape":
                dialog.activateWindow()
                qtbot.keyClick(dialog, Qt.Key.Key_Escape)
            else:
                _close_button(dialog).click()
            qtbot.waitUntil(lambda d=dialog: not d.isVisible(), timeout=5_000)
