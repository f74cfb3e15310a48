"""Case ▸ Export report: choose the run, preview the pages, save the PDF.

``ReportExportDialog`` lays the report out once (integrity check included) and shows each page
as an image painted by the report's own painter code (the same drawing that goes into the PDF;
QtPdf is not part of PySide6-Essentials), with page navigation and zoom. "Save PDF…" asks for a
file name and calls ``report.export.export_report``, which writes the file atomically and
records its SHA-256 in the audit log and writes a receipt of the store beside it
(``NAME.pdf.receipt.json``); ``report_exported`` then carries the ``ExportedReport``, and the
case controller's confirmation names the receipt and the chain head.
The main window opens it with ``show_report_export_dialog(store, case_number, parent)`` and
reloads the audit view when ``report_exported`` fires. Laying out and writing take well under a
second for ordinary cases (docs/performance.md), so they run on the GUI thread behind a busy
cursor.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.errors import TaveerError
from taveer_desktop.report.export import ExportedReport, export_report, prepare_report
from taveer_desktop.report.pdf import RenderedReport
from taveer_desktop.store import ProjectStore
from taveer_desktop.ui import app_settings

ZOOMS = (("75 %", 1.0), ("100 %", 1.333), ("150 %", 2.0))


class ReportExportDialog(QDialog):
    """Preview and export the PDF report of one case."""

    report_exported = Signal(object)  # ExportedReport

    def __init__(self, store: ProjectStore, case_number: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.store = store
        self.case_number = case_number
        self.rendered: RenderedReport | None = None
        self.exported: ExportedReport | None = None
        self.setWindowTitle(f"Export report — case {case_number}")
        self.resize(860, 980)

        self.run_box = QComboBox()
        case = store.cases.find(case_number)
        for run in reversed(store.runs.list_for_case(case.id)):
            similarity = "–" if run.similarity is None else f"{run.similarity:.3f}"
            self.run_box.addItem(
                f"Run {run.id} · {run.run_utc[:19].replace('T', ' ')} UTC · "
                f"{run.model_name} · {run.prediction} ({similarity})",
                run.id,
            )
        self.archival_box = QCheckBox("Archival PDF/A-1b (without the attached result JSON)")
        self.page_box = QSpinBox()
        self.page_box.setMinimum(1)
        self.page_count_label = QLabel()
        self.zoom_box = QComboBox()
        for text, scale in ZOOMS:
            self.zoom_box.addItem(text, scale)
        self.zoom_box.setCurrentIndex(1)
        self.page_label = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        scroll = QScrollArea()
        scroll.setWidget(self.page_label)
        scroll.setWidgetResizable(True)
        scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)

        previous_button = QPushButton("◀ Previous")
        next_button = QPushButton("Next ▶")
        previous_button.clicked.connect(lambda: self.page_box.setValue(self.page_box.value() - 1))
        next_button.clicked.connect(lambda: self.page_box.setValue(self.page_box.value() + 1))
        navigation = QHBoxLayout()
        navigation.addWidget(QLabel("Run:"))
        navigation.addWidget(self.run_box, 1)
        pages = QHBoxLayout()
        for widget in (previous_button, QLabel("Page"), self.page_box, self.page_count_label):
            pages.addWidget(widget)
        pages.addWidget(next_button)
        pages.addStretch(1)
        pages.addWidget(QLabel("Zoom:"))
        pages.addWidget(self.zoom_box)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.save_button = buttons.addButton("Save PDF…", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.choose_file_and_export)

        layout = QVBoxLayout(self)
        layout.addLayout(navigation)
        layout.addWidget(self.archival_box)
        layout.addLayout(pages)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)

        self.run_box.currentIndexChanged.connect(self.refresh_preview)
        self.page_box.valueChanged.connect(self.show_page)
        self.zoom_box.currentIndexChanged.connect(self.show_page)
        self.refresh_preview()

    # -- preview -------------------------------------------------------------------------------
    def selected_run(self) -> int | None:
        return self.run_box.currentData()

    def refresh_preview(self) -> None:
        """Lay the report of the selected run out again and show its first page."""
        self.rendered = None
        self.page_label.clear()
        if self.selected_run() is None:
            self._fail("This case has no verification run yet; verify it first.")
            return
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            _, content = prepare_report(
                self.store,
                self.case_number,
                self.selected_run(),
                scale_id=app_settings.verbal_scale_id(),
            )
            self.rendered = RenderedReport.layout(content)
        except TaveerError as error:
            self._fail(str(error))
            return
        finally:
            QGuiApplication.restoreOverrideCursor()
        count = self.rendered.page_count
        self.page_box.setMaximum(count)
        self.page_count_label.setText(f"of {count}")
        self.status_label.setText(
            "Preview of the report as it will be written. The integrity check passed just now."
        )
        self.save_button.setEnabled(True)
        self.page_box.setValue(1)
        self.show_page()

    def show_page(self) -> None:
        if self.rendered is None:
            return
        scale = self.zoom_box.currentData() * self.devicePixelRatioF()
        image = self.rendered.page_image(self.page_box.value() - 1, scale)
        image.setDevicePixelRatio(self.devicePixelRatioF())
        self.page_label.setPixmap(QPixmap.fromImage(image))

    def _fail(self, message: str) -> None:
        self.status_label.setText(message)
        self.page_count_label.setText("of 0")
        self.save_button.setEnabled(False)

    # -- export --------------------------------------------------------------------------------
    def suggested_name(self) -> str:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.case_number)
        return f"{safe or 'case'}-report.pdf"

    def choose_file_and_export(self) -> None:
        suggestion = Path(app_settings.start_folder("reports")) / self.suggested_name()
        name, _ = QFileDialog.getSaveFileName(
            self, "Save the report", str(suggestion), "PDF documents (*.pdf)"
        )
        if name:
            app_settings.remember_folder("reports", Path(name))
            if not name.lower().endswith(".pdf"):
                name += ".pdf"
            self.export_to(Path(name))

    def export_to(self, path: Path) -> ExportedReport | None:
        """Write the report to ``path``; on success emit ``report_exported`` and close."""
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            exported = export_report(
                self.store,
                self.case_number,
                path,
                run_id=self.selected_run(),
                archival=self.archival_box.isChecked(),
                scale_id=app_settings.verbal_scale_id(),
            )
        except TaveerError as error:
            QGuiApplication.restoreOverrideCursor()
            QMessageBox.warning(self, "The report was not written", str(error))
            return None
        QGuiApplication.restoreOverrideCursor()
        self.exported = exported
        self.report_exported.emit(exported)
        self.status_label.setText(
            f"Wrote {exported.path} ({exported.page_count} pages); SHA-256 {exported.sha256} "
            "recorded in the audit log."
        )
        self.accept()
        return exported


def show_report_export_dialog(
    store: ProjectStore, case_number: str, parent: QWidget | None = None
) -> ExportedReport | None:
    """Open the dialog modally; the exported report, or None if the user closed it."""
    dialog = ReportExportDialog(store, case_number, parent)
    dialog.exec()
    return dialog.exported
