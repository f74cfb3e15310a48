"""Receipts in the desktop: File ▸ Write Receipt, File ▸ Check Against Receipt, and the receipt
beside an exported report named in its confirmation.

The check is held against a continuation (passes), an older copy of the project (rolled back),
another project, a receipt whose sealed hash differs (re-chained), and a file that is not a
receipt (one plain line, nothing run). The wording is tested without a window too.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from taveer_desktop.presentation.numbers import digest
from taveer_desktop.report.export import RECEIPT_SUFFIX
from taveer_desktop.store import IntegrityProblem
from taveer_desktop.store.receipts import read_receipt
from taveer_desktop.ui import error_dialog
from taveer_desktop.ui.receipt_text import what_went_wrong
from taveer_desktop.ui.report_export_dialog import ReportExportDialog

from .conftest import open_window
from .test_case_workflow import _create_case


def _write(qtbot, window, target):
    window.projects.write_receipt(target)
    qtbot.waitUntil(lambda: window.projects.receipt_box is not None, timeout=30_000)
    box = window.projects.receipt_box
    box.done(0)
    qtbot.waitUntil(lambda: window.projects.receipt_box is None)
    return box


def _check(qtbot, window, receipt_file) -> QMessageBox:
    window.projects.check_receipt(receipt_file)
    qtbot.waitUntil(lambda: window.projects.receipt_box is not None, timeout=30_000)
    return window.projects.receipt_box


def _close(qtbot, window, box):
    box.done(0)
    qtbot.waitUntil(lambda: window.projects.receipt_box is None)


def test_write_a_receipt_and_check_the_project_against_it(qtbot, window, tmp_path):
    assert window.window_actions.write_receipt.isEnabled()
    assert window.window_actions.check_receipt.isEnabled()
    target = tmp_path / "receipts" / "r1.json"
    target.parent.mkdir()
    box = _write(qtbot, window, target)
    receipt = read_receipt(target)
    head = window.session.store.audit.entries(None)[-1]
    assert (receipt.chain_length, receipt.head_hash) == (head.seq, head.entry_hash)
    assert f"entry {head.seq}, head hash {digest(head.entry_hash)}" in box.text()  # wraps
    assert "r1.json" in box.text()

    # the project goes on: still a continuation of the receipt
    _create_case(qtbot, window)
    box = _check(qtbot, window, target)
    assert box.property("outcome_ok") is True
    assert box.text().startswith("Receipt check passed: the project continues r1.json")
    assert "nothing the receipt sealed was changed, removed or rolled back" in (
        box.informativeText()
    )
    assert "Integrity check passed" in box.informativeText()
    assert receipt.head_hash in box.detailedText()
    _close(qtbot, window, box)


def test_a_rolled_back_project_fails_the_check_plainly(qtbot, tmp_path):
    project = tmp_path / "p.taveer"
    window = open_window(qtbot, project)
    _create_case(qtbot, window, number="2025-001")
    window.close()
    older = tmp_path / "older.taveer"
    shutil.copy(project, older)  # the file as it is now (closed cleanly: no -wal)

    window = open_window(qtbot, project)
    _create_case(qtbot, window, number="2025-002")
    _write(qtbot, window, tmp_path / "later.json")
    window.close()

    window = open_window(qtbot, older)
    box = _check(qtbot, window, tmp_path / "later.json")
    assert box.property("outcome_ok") is False
    assert box.icon() == QMessageBox.Icon.Critical
    assert "Receipt check FAILED" in box.text()
    assert "(rolled back or trimmed)" in box.text()
    assert "rolled back to an older copy or its chain was trimmed" in box.informativeText()
    _close(qtbot, window, box)


def test_another_project_and_a_rechained_receipt_fail_the_check(qtbot, window, tmp_path):
    target = tmp_path / "r.json"
    _write(qtbot, window, target)

    forged = json.loads(target.read_text(encoding="utf-8"))
    forged["head_hash"] = "0" * 64
    rechained = tmp_path / "rechained.json"
    rechained.write_text(json.dumps(forged), encoding="utf-8")
    box = _check(qtbot, window, rechained)
    assert box.property("outcome_ok") is False
    assert "(re-chained)" in box.text()
    assert "rebuilt or replaced" in box.informativeText()
    _close(qtbot, window, box)

    other = open_window(qtbot, tmp_path / "other.taveer")
    box = _check(qtbot, other, target)
    assert box.property("outcome_ok") is False
    assert "(another project)" in box.text()
    assert "not the project the receipt was made for" in box.informativeText()
    _close(qtbot, other, box)


def test_a_file_that_is_not_a_receipt_is_one_plain_line(qtbot, window, tmp_path):
    bogus = tmp_path / "notes.json"
    bogus.write_text("[1, 2, 3]", encoding="utf-8")
    assert window.projects.check_receipt(bogus) is None
    boxes = [d for d in error_dialog.open_dialogs() if isinstance(d, QMessageBox)]
    assert len(boxes) == 1
    assert boxes[0].text() == f"The receipt was not read: {bogus}: is not a TAVeer receipt"
    assert not window.runner.busy


def test_what_went_wrong_names_each_kind_of_failure():
    assert what_went_wrong("the store is not the project the receipt was made for") == (
        "another project"
    )
    assert (
        what_went_wrong("… the store was rolled back to an older copy or its chain was trimmed")
        == "rolled back or trimmed"
    )
    assert what_went_wrong("… the chain was rebuilt or replaced since") == "re-chained"


@pytest.mark.slow
def test_the_report_confirmation_names_the_receipt_beside_it_and_the_chain_head(
    qtbot, demo_window, tmp_path
):
    window = demo_window
    window.case_list.select_case_number("DEMO-001")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000):
        window.window_actions.verify.trigger()
    dialog = ReportExportDialog(window.session.store, "DEMO-001", window, window.runner)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.report_exported, timeout=60_000):
        dialog.export_to(tmp_path / "demo-report.pdf")
    exported = dialog.exported
    assert exported is not None
    beside = tmp_path / ("demo-report.pdf" + RECEIPT_SUFFIX)
    assert exported.receipt_path == beside and beside.is_file()

    box = window.cases.confirm_report(exported)
    text = box.informativeText()
    assert "demo-report.pdf.receipt.json" in text
    assert f"Audit chain head at the report: {digest(exported.audit_entry.entry_hash)}" in text
    assert digest(exported.sha256) in text
    assert f"sealing the chain at entry {read_receipt(beside).chain_length}" in text
    assert str(exported.path) in window.status_line.message_label.text()  # where it went
    opened = []
    window.cases.open_file = opened.append  # the system's viewer is not started in tests
    opener = next(b for b in box.buttons() if b.text() == "&Open the Report")
    opener.click()
    assert opened == [Path(exported.path)]

    # the receipt beside the report passes the desktop's check
    box = _check(qtbot, window, beside)
    assert box.property("outcome_ok") is True
    _close(qtbot, window, box)


def test_write_receipt_is_disabled_on_a_project_that_failed_its_integrity_check(window):
    report = window.projects.integrity
    window.projects.integrity = dataclasses.replace(
        report, problems=(IntegrityProblem("document", "document 1", "its bytes no longer match"),)
    )
    window.update_actions()
    action = window.window_actions.write_receipt
    assert not action.isEnabled()
    assert "the project failed its integrity check" in action.toolTip()
    assert window.window_actions.check_receipt.isEnabled()  # checking is reading
