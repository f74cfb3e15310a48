"""Case ▸ Export report: choose the run, preview the pages, save the PDF.

``ReportExportDialog`` lays the report out once (integrity check included) and shows each page
as an image painted by the report's own painter code (the same drawing that goes into the PDF;
QtPdf is not part of PySide6-Essentials), with page navigation and zoom. "Save PDF…" asks for a
file name and calls ``report.export.export_report``, which writes the file atomically and
records its SHA-256 in the audit log and writes a receipt of the store beside it
(``NAME.pdf.receipt.json``); ``report_exported`` then carries the ``ExportedReport``, and the
case controller's confirmation names the receipt and the chain head.
The main window opens it with ``show_report_export_dialog(store, case_number, parent, runner)``.
Both run as jobs on the job runner, never on the GUI thread: the preview (integrity check and
layout, which only read) on the compute pool; the export on the writer pool as one job (check,
layout, PDF, audit entry, receipt), so no write can come between the check and the record. A
refusal (a case without runs, a failed integrity check) comes back as the job's answer and is
shown in the dialog.

"Final report" asks for a final report (the preview is laid out again as final, or shows why
the case does not allow one: no current declaration, no approved current review); otherwise the
report is a DRAFT on every page. "Sign with a certificate" (final reports only) takes a PKCS#12
file, its passphrase (never stored) and optionally the lab's time-stamping authority; the
signature is made in the same export job, before the file takes its name. A wrong passphrase,
an expired certificate or an unreachable TSA is shown in plain words and nothing is written.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import CLASSIFICATION_SHORT
from taveer_desktop.report.export import ExportedReport, export_report, prepare_report
from taveer_desktop.report.pdf import RenderedReport
from taveer_desktop.report.report_signing import SigningRequest
from taveer_desktop.store import ProjectStore
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.certificate_fields import CertificateFields
from taveer_desktop.ui.collapsing_group import CollapsingGroupBox
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.elided_combo import ElidedComboBox
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.record_table_model import short_utc
from taveer_desktop.ui.task_worker import Job, TaskWorker

ZOOMS = (("75 %", 1.0), ("100 %", 1.333), ("150 %", 2.0))
TSA_SETTING = "signing/tsa_url"


class ReportExportDialog(QDialog):
    """Preview and export the PDF report of one case."""

    report_exported = Signal(object)  # ExportedReport
    preview_ready = Signal(object)  # RenderedReport

    def __init__(
        self,
        store: ProjectStore,
        case_number: str,
        parent: QWidget | None = None,
        runner: JobRunner | None = None,
    ):
        super().__init__(parent)
        self.store = store
        self.runner = runner or JobRunner(self)  # the window's, or one of its own
        self.preview_worker: TaskWorker | None = None
        self.export_worker: TaskWorker | None = None
        self.case_number = case_number
        self.rendered: RenderedReport | None = None
        self.identity: tuple[datetime, str] | None = None  # the preview's time and identifier
        self.exported: ExportedReport | None = None
        self.setWindowTitle(f"Export report — case {case_number}")
        resize_to_fit(self, 55, 60)

        # long run names never widen the dialog, and end in "…" where they are cut (the list
        # shows them whole)
        self.run_box = ElidedComboBox()
        self.run_box.hint = "The stored run the report is written on"
        case = store.cases.find(case_number)
        for run in reversed(store.runs.list_for_case(case.id)):
            similarity = numbers.decimal(run.similarity)
            self.run_box.addItem(
                f"Run {run.id} · {short_utc(run.run_utc)} · "
                f"{run.model_name} · {CLASSIFICATION_SHORT[run.prediction]} ({similarity})",
                run.id,
            )
        self.archival_box = QCheckBox("Archival PDF/A-1b (no attached result JSON; not signed)")
        self.final_box = QCheckBox("&Final report")
        self.final_box.setToolTip(
            "Needs a current examiner's declaration and an approved, current technical review; "
            "otherwise the report is a DRAFT on every page"
        )
        self.tsa_url = QLineEdit(str(app_settings.settings().value(TSA_SETTING, "") or ""))
        self.tsa_url.setPlaceholderText("optional; without it the workstation's clock")
        self.tsa_url.setToolTip(
            "The lab's RFC 3161 time-stamping authority (http://…); without it the report says "
            "its signing time is the workstation's clock"
        )
        # shown while signing is ticked (the preview keeps room); two rows for small screens
        self.sign_fields = CertificateFields(beside_passphrase=(QLabel("TSA URL:"), self.tsa_url))
        self.certificate = self.sign_fields.certificate
        self.passphrase = self.sign_fields.passphrase
        # no empty frame under it until signing is ticked (the fields show then)
        self.sign_group = CollapsingGroupBox("&Sign with a certificate (PAdES)", self.sign_fields)
        self.sign_group.setEnabled(False)
        self.final_box.toggled.connect(self._final_toggled)
        self.sign_group.toggled.connect(self._sign_toggled)
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
        choices = QHBoxLayout()
        choices.addWidget(self.final_box)
        choices.addWidget(self.archival_box)
        choices.addStretch(1)
        layout.addLayout(choices)
        layout.addWidget(self.sign_group)
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

    def _final_toggled(self, final: bool) -> None:
        self.sign_group.setEnabled(final)
        if not final:
            self.sign_group.setChecked(False)
        self.refresh_preview()

    def _sign_toggled(self, signing: bool) -> None:
        """A signed report is never PDF/A-1b (docs/report.md); the certificate's fields show."""
        self.archival_box.setChecked(self.archival_box.isChecked() and not signing)
        self.archival_box.setEnabled(not signing)

    def signing_request(self) -> SigningRequest | str | None:
        """The signature asked for (None: unsigned), or why it cannot be made."""
        if not (self.final_box.isChecked() and self.sign_group.isChecked()):
            return None
        certificate = self.sign_fields.path()
        if certificate is None:
            return "choose the certificate file to sign with"
        tsa = self.tsa_url.text().strip() or None
        app_settings.settings().setValue(TSA_SETTING, tsa or "")  # the lab's TSA, remembered
        return SigningRequest(certificate, self.sign_fields.secret(), tsa)

    def refresh_preview(self):
        """Lay the report of the selected run out again (a job on the compute pool: the
        integrity check and the layout) and show its first page when it is done."""
        self.rendered = None
        self.identity = None
        self.page_label.clear()
        self.save_button.setEnabled(False)
        run_id = self.selected_run()
        if run_id is None:
            self._fail("This case has no verification run yet; verify it first.")
            return None
        self.status_label.setText("Checking the project's integrity and laying out the pages…")
        store, number, scale = self.store, self.case_number, app_settings.verbal_scale_id()
        final = self.final_box.isChecked()

        def lay_out(_progress) -> tuple[RenderedReport, tuple[datetime, str]] | str:
            try:
                inputs, content = prepare_report(store, number, run_id, scale_id=scale, final=final)
                return RenderedReport.layout(content), (inputs.generated, inputs.report_id)
            except TaveerError as error:  # a refusal is an answer, not a failure of the job
                return str(error)

        job = Job(
            f"Laying out the report of case {number}",
            lay_out,
            writes_store=False,
            makes_qt_objects=True,
        )
        started: list[TaskWorker] = []
        self.preview_worker = self.runner.start(
            job, lambda result: self._laid_out(started[0], result)
        )
        started.append(self.preview_worker)
        return self.preview_worker

    def _laid_out(
        self, worker: TaskWorker, laid_out: tuple[RenderedReport, tuple[datetime, str]] | str
    ) -> None:
        if worker is not self.preview_worker:
            return  # another run was chosen meanwhile
        self.preview_worker = None
        if isinstance(laid_out, str):
            self._fail(laid_out)
            return
        result, self.identity = laid_out  # the saved PDF keeps the preview's time and identifier
        self.rendered = result
        count = result.page_count
        self.page_box.setMaximum(count)
        self.page_count_label.setText(f"of {count}")
        marking = getattr(result.content, "draft", None)
        self.status_label.setText(
            "Preview of the report as it will be written. The integrity check passed just now. "
            + (
                "It is final."
                if marking is None
                else "It is a DRAFT: " + "; ".join(marking or ("not issued as final",)) + "."
            )
        )
        self.save_button.setEnabled(self.export_worker is None)
        self.page_box.setValue(1)
        self.show_page()
        self.preview_ready.emit(result)

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

    def export_to(self, path: Path):
        """Write the report to ``path`` in the background; on success emit ``report_exported``
        and close. One job on the writer pool checks the project, lays the pages out, writes
        the PDF and its audit entry and the receipt, so no write can come between the check and
        the record. Returns the job's worker (None if no run is chosen)."""
        if self.export_worker is not None:
            return None
        store, number, run_id = self.store, self.case_number, self.selected_run()
        archival, scale = self.archival_box.isChecked(), app_settings.verbal_scale_id()
        identity = self.identity if self.rendered is not None else None
        final, sign = self.final_box.isChecked(), self.signing_request()
        if isinstance(sign, str):
            self.status_label.setText(f"The report was not written: {sign}.")
            QMessageBox.warning(self, "The report was not written", sign.capitalize() + ".")
            return None

        def write(progress) -> ExportedReport | str:
            try:
                return export_report(
                    store,
                    number,
                    path,
                    run_id=run_id,
                    archival=archival,
                    progress=progress,
                    scale_id=scale,
                    identity=identity,
                    final=final,
                    sign=sign,
                )
            except TaveerError as error:  # a refusal is an answer, shown as one
                return str(error)

        self.save_button.setEnabled(False)
        self.status_label.setText(f"Writing {path} …")
        job = Job(
            f"Writing the report of case {number}", write, cancellable=False, makes_qt_objects=True
        )
        self.export_worker = self.runner.start(job, self._written)
        return self.export_worker

    def _written(self, result: ExportedReport | str) -> None:
        self.export_worker = None
        if isinstance(result, str):
            self.save_button.setEnabled(self.rendered is not None)
            self.status_label.setText(f"The report was not written: {result}")
            QMessageBox.warning(self, "The report was not written", result)
            return
        self.exported = result
        self.report_exported.emit(result)
        signed = f", signed by {result.signed.signer}" if result.signed else ""
        self.status_label.setText(
            f"Wrote {result.path} ({result.page_count} pages{signed}); SHA-256 {result.sha256} "
            "recorded in the audit log."
        )
        self.accept()

    def reject(self) -> None:
        """Close and Escape; a report being written is finished first (it is one transaction)."""
        if self.export_worker is None:
            super().reject()


def show_report_export_dialog(
    store: ProjectStore,
    case_number: str,
    parent: QWidget | None = None,
    runner: JobRunner | None = None,
) -> ExportedReport | None:
    """Open the dialog modally; the exported report, or None if the user closed it."""
    dialog = ReportExportDialog(store, case_number, parent, runner)
    dialog.exec()
    return dialog.exported
