"""Case ▸ Export report: the dialog previews the pages and writes the PDF."""

from __future__ import annotations

from datetime import UTC

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QMessageBox

from taveer_desktop.store import ProjectStore
from taveer_desktop.ui.report_export_dialog import ReportExportDialog

from .conftest import demo_store, normalised


@pytest.mark.slow
def test_dialog_previews_pages_and_exports(qtbot, tmp_path):
    project = demo_store(tmp_path)
    with ProjectStore.open(project) as store:
        dialog = ReportExportDialog(store, "DEMO-001")
        qtbot.addWidget(dialog)
        item = dialog.run_box.itemText(0)
        assert ("same-author side" in item or "different-author side" in item) and "·" in item
        assert "Classification" not in item  # no raw codes
        assert dialog.rendered is None  # laid out in the background, not on the GUI thread
        assert not dialog.save_button.isEnabled()
        qtbot.waitSignal(dialog.preview_ready, timeout=60_000).wait()
        assert dialog.save_button.isEnabled()
        assert dialog.rendered is not None and dialog.rendered.page_count > 8
        assert dialog.page_count_label.text() == f"of {dialog.rendered.page_count}"
        first = dialog.page_label.pixmap().toImage()
        assert not first.isNull() and first.width() > 500
        dialog.page_box.setValue(3)
        assert dialog.page_label.pixmap().toImage() != first
        emitted = []
        dialog.report_exported.connect(emitted.append)
        with qtbot.waitSignal(dialog.report_exported, timeout=60_000):
            worker = dialog.export_to(tmp_path / "from-dialog.pdf")
            assert worker.job.writes_store and dialog.export_worker is worker
        exported = dialog.exported
        assert exported is not None and emitted == [exported]
        assert (tmp_path / "from-dialog.pdf").read_bytes().startswith(b"%PDF")
        # the saved PDF is the one previewed: the same identifier and time (issue 23)
        assert dialog.identity is not None
        previewed_time, previewed_id = dialog.identity
        assert exported.report_id == previewed_id
        saved = normalised(PdfReader(tmp_path / "from-dialog.pdf").pages[0].extract_text())
        assert previewed_id in saved
        assert f"{previewed_time.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC" in saved
        assert store.audit.entries()[-1].action == "report_exported"


def test_dialog_for_a_case_without_runs_says_so(qtbot, tmp_path, monkeypatch):
    project = demo_store(tmp_path)
    with ProjectStore.open(project) as store:
        store.cases.create("EMPTY-2")
        dialog = ReportExportDialog(store, "EMPTY-2")
        qtbot.addWidget(dialog)
        assert dialog.rendered is None and not dialog.save_button.isEnabled()
        assert "no verification run" in dialog.status_label.text()
        warnings = []
        monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[2]))
        dialog.export_to(tmp_path / "x.pdf")
        qtbot.waitUntil(lambda: dialog.export_worker is None, timeout=30_000)
        assert dialog.exported is None
        assert warnings and "no verification run" in warnings[0]
