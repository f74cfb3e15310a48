"""Case work: cases, documents (adding, excluding), the case's model, verifying, reports.

A ``CaseController`` is given only what it needs: the session, the job runner, a parent widget
for its dialogs and a way to ask for the selected case. It knows nothing of the window; it
announces outcomes as past-tense signals (``case_saved``, ``documents_added``, ``runs_stored``,
``report_exported``, ``status_message``) and the window decides what to show.

Writes of one short transaction (a case, choosing its model, excluding or including a document
with its reason) happen on the GUI thread; importing documents and verifying run as jobs on the
store's writer pool. Each ends in ``session.changed`` (with the case). A case is verified only
with the model the examiner chose for it: Verify on a case without one opens the picker first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.presentation.numbers import count, integer
from taveer_desktop.store import KNOWN, QUESTIONED, Case, IntakeResult, ProjectStore
from taveer_desktop.store.receipts import read_receipt
from taveer_desktop.ui import app_settings, jobs
from taveer_desktop.ui.case_dialog import CaseDialog
from taveer_desktop.ui.case_exclusions import DocumentExclusions
from taveer_desktop.ui.encoding_dialog import EncodingChoiceDialog
from taveer_desktop.ui.error_dialog import show_failure, show_rejections
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.model_picker_dialog import ModelPickerDialog
from taveer_desktop.ui.project_session import AUDIT, CASES, DOCUMENTS, RUNS, ProjectSession
from taveer_desktop.ui.receipt_text import report_exported_text
from taveer_desktop.ui.task_worker import Job, TaskWorker

if TYPE_CHECKING:  # imported when first opened
    from taveer_desktop.ui.validation_wizard import ValidationWizard

EVIDENCE_FILTER = "Evidence files (*.txt *.text *.eml *.docx);;All files (*)"
DETECT = "detect"  # add_documents: detect the text files' encodings and ask if one was guessed


class CaseController(DocumentExclusions):
    """Does the Case menu's work for the case ``selected_case()`` returns (excluding and
    including evidence with a reason: ``DocumentExclusions``, ``case_exclusions.py``)."""

    case_saved = Signal(object)  # Case, created or changed
    documents_added = Signal(object)  # IntakeResult
    runs_stored = Signal(object, object)  # Case, [Run] of one verification
    report_exported = Signal(object)  # ExportedReport
    verifying_changed = Signal(bool)  # a verification started (True) or ended (False)
    validation_stored = Signal(object, object)  # Case, CaseValidation (its model chosen or not)
    # status_message(text, milliseconds to show it): declared by DocumentExclusions

    def __init__(
        self,
        session: ProjectSession,
        runner: JobRunner,
        parent: QWidget,
        selected_case: Callable[[], Case | None],
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.session = session
        self.runner = runner
        self.selected_case = selected_case
        self.verify_worker: TaskWorker | None = None  # the running verification (one at a time)
        self.picker: ModelPickerDialog | None = None
        self.encoding_dialog: EncodingChoiceDialog | None = None
        self.report_box: QMessageBox | None = None  # the last report confirmation (for tests)
        self.refusal: QMessageBox | None = None  # an exclusion refused for want of a reason
        self.wizard: ValidationWizard | None = None  # the open validation wizard
        runner.job_ended.connect(self._job_ended)

    def _job_ended(self, worker, _outcome: str) -> None:
        if worker is self.verify_worker:
            self.verify_worker = None
            self.verifying_changed.emit(False)

    @property
    def verifying(self) -> bool:
        return self.verify_worker is not None

    def export_report(self):
        """Case ▸ Export Report: the report dialog, then the confirmation (audit entry)."""
        from taveer_desktop.ui.report_export_dialog import show_report_export_dialog

        case, store = self.selected_case(), self.session.store
        if case is None or store is None:
            return None
        exported = show_report_export_dialog(store, case.number, self.parent_widget, self.runner)
        self.session.changed(AUDIT, case_id=case.id)
        if exported is not None:
            self.confirm_report(exported)
            self.report_exported.emit(exported)
        return exported

    def confirm_report(self, exported) -> QMessageBox:
        """Say what was written: the PDF, its recorded hash, the chain head and the receipt
        beside it (read back from the file, so the message names what is really there)."""
        receipt = None
        if exported.receipt_path is not None:
            try:
                receipt = read_receipt(exported.receipt_path)
            except TaveerError:
                receipt = None
        box = QMessageBox(self.parent_widget)
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(f"Report written — {PROGRAM_NAME}")
        box.setText(f"The report of case {exported.case_number} was written and recorded.")
        box.setInformativeText(report_exported_text(exported, receipt))
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        opener = box.addButton("&Open the Report", QMessageBox.ButtonRole.ActionRole)
        opener.setToolTip(f"Open {exported.path} in the system's PDF viewer")
        opener.clicked.connect(lambda: self.open_file(Path(exported.path)))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r: setattr(self, "report_box", None))
        self.report_box = box
        self.status_message.emit(f"Report written: {exported.path}", 10_000)
        box.open()
        return box

    def open_file(self, path: Path) -> bool:
        """Open ``path`` with the system's viewer (tests replace this)."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))

    # ---- cases --------------------------------------------------------------------------------

    def new_case(self) -> CaseDialog:
        dialog = CaseDialog(
            parent=self.parent_widget,
            save=lambda values: self._store_case(None, values) is not None,
        )
        dialog.open()
        return dialog

    def edit_case(self) -> CaseDialog | None:
        case = self.selected_case()
        if case is None:
            return None
        dialog = CaseDialog(
            case,
            parent=self.parent_widget,
            save=lambda values: self._store_case(case.id, values) is not None,
        )
        dialog.open()
        return dialog

    def _store_case(self, case_id: int | None, values: dict[str, str]) -> Case | None:
        store = self.session.store
        if store is None:
            return None
        try:
            if case_id is None:
                case = store.cases.create(**values)
            else:
                case = store.cases.update(case_id, **values)
        except TaveerError as error:
            show_failure(self.parent_widget, f"The case was not saved: {error}", title="Not saved")
            return None
        self.session.changed(CASES, case_id=case.id)
        self.case_saved.emit(case)
        return case

    # ---- documents ----------------------------------------------------------------------------

    def add_documents(
        self, role: str, files: list[Path] | None = None, encoding: str | None = DETECT
    ):
        """Import files into the selected case as ``role`` in the background (dialog if None).

        With ``encoding=DETECT`` the text files' encodings are detected first (a read-only job)
        and, if any had to be guessed, the encoding step (``EncodingChoiceDialog``) opens before
        anything is stored; a codec name (the examiner's choice) or None imports at once."""
        case, store = self.selected_case(), self.session.store
        if case is None or store is None:
            return None
        if files is None:
            title = "Add known documents" if role == KNOWN else "Add questioned documents"
            names, _f = QFileDialog.getOpenFileNames(
                self.parent_widget, title, app_settings.start_folder("evidence"), EVIDENCE_FILTER
            )
            files = [Path(n) for n in names]
            if files:
                app_settings.remember_folder("evidence", files[0])
        if not files:
            return None
        texts = [f for f in files if jobs.is_text_file(f)]
        if encoding != DETECT or not texts:
            return self._import(store, case, role, files, None if encoding == DETECT else encoding)
        job = Job(
            f"Reading the encodings of {count(len(texts), 'text file')}",
            lambda p: jobs.check_text_files(texts, p),
        )  # on the writer pool, where the import goes next: never queued behind a training
        return self.runner.start(
            job, lambda checks: self._encodings_checked(store, case, role, files, checks)
        )

    def _encodings_checked(
        self,
        store: ProjectStore,
        case: Case,
        role: str,
        files: list[Path],
        checks: list[jobs.TextFileCheck],
    ) -> None:
        if self.session.store is not store:  # the project was closed meanwhile
            return
        if not any(check.guessed for check in checks):
            self._import(store, case, role, files, None)
            return
        many = len(checks) > 1
        words = ("known" if role == KNOWN else "questioned") + (
            " documents" if many else " document"
        )
        words = words if many else f"a {words}"
        dialog = EncodingChoiceDialog(checks, words, self.parent_widget)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(
            lambda: self._import(store, case, role, files, dialog.chosen_encoding())
        )
        dialog.finished.connect(lambda _r: setattr(self, "encoding_dialog", None))
        self.encoding_dialog = dialog
        dialog.open()

    def _import(
        self, store: ProjectStore, case: Case, role: str, files: list[Path], encoding: str | None
    ):
        if self.session.store is not store:
            return None
        shown = f" as {encoding}" if encoding else ""
        job = Job(
            f"Adding {count(len(files), role + ' document')}{shown}",
            lambda p: jobs.import_documents(store, case.id, role, files, p, encoding),
        )
        return self.runner.start(job, lambda result: self._documents_added(case, result))

    def _documents_added(self, case: Case, result: IntakeResult) -> None:
        self.session.changed(DOCUMENTS, case_id=case.id)
        self.documents_added.emit(result)
        if result.rejected:
            show_rejections(self.parent_widget, result.rejected, len(result.added))
        self.status_message.emit(
            f"{count(len(result.added), 'document')} added, "
            f"{integer(len(result.rejected))} refused",
            10_000,
        )

    def ask_role_for_drop(self, files: list[Path]) -> str | None:
        """Ask whether dropped files are known or questioned (tests replace this)."""
        box = QMessageBox(self.parent_widget)
        box.setWindowTitle(f"Add documents — {PROGRAM_NAME}")
        box.setText(f"Add {count(len(files), 'dropped file')} to the case as:")
        known = box.addButton("&Known documents", QMessageBox.ButtonRole.AcceptRole)
        questioned = box.addButton("&Questioned documents", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        clicked = box.clickedButton()
        return KNOWN if clicked is known else QUESTIONED if clicked is questioned else None

    # ---- the case's model -----------------------------------------------------------------

    def choose_model(self, then_verify: bool = False) -> ModelPickerDialog | None:
        """Open the model picker for the selected case; store the choice (and verify)."""
        case, store = self.selected_case(), self.session.store
        if case is None or store is None:
            return None
        dialog = ModelPickerDialog(self.session, case, self.parent_widget)
        dialog.accepted.connect(lambda: self._model_chosen(case, dialog, then_verify))
        dialog.finished.connect(lambda _r: setattr(self, "picker", None))
        self.picker = dialog
        dialog.open()
        return dialog

    def _model_chosen(self, case: Case, dialog: ModelPickerDialog, then_verify: bool) -> None:
        choice, store = dialog.chosen(), self.session.store
        if choice is None or store is None:
            return
        try:
            store.cases.choose_model(case.id, choice.stored.id)
        except TaveerError as error:
            show_failure(
                self.parent_widget, f"The model was not chosen: {error}", title="Not chosen"
            )
            return
        self.session.changed(CASES, case_id=case.id)
        self.status_message.emit(f"Case {case.number} will be verified with {choice.name}", 10_000)
        if then_verify:
            self.verify()

    # ---- validation -----------------------------------------------------------------------

    def validate_on_population(self):
        """Case ▸ Validate on a Population: the wizard for the selected case (one at a time)."""
        from taveer_desktop.ui.validation_wizard import ValidationWizard

        case, store = self.selected_case(), self.session.store
        if case is None or store is None:
            return None
        if self.wizard is not None:
            self.wizard.raise_()
            self.wizard.activateWindow()
            return self.wizard
        wizard = ValidationWizard(self.session, self.runner, case, self.parent_widget)
        wizard.validation_stored.connect(lambda done: self._validated(case, done))
        wizard.finished.connect(lambda _r: self._wizard_closed(wizard))
        self.wizard = wizard
        wizard.open()
        return wizard

    def _wizard_closed(self, wizard) -> None:
        if self.wizard is wizard:
            self.wizard = None
        if wizard.running() is None:  # a cancelled job still reports to it until it ends
            wizard.deleteLater()

    def _validated(self, case: Case, done) -> None:
        from taveer_desktop.presentation.validation_basis_text import model_choice_sentence

        choice = model_choice_sentence(
            done.chosen,
            done.model.name,
            done.case_model.name if done.case_model else None,
            done.validation.criteria_met,
        )
        self.status_message.emit(f"Validation of {case.number} stored; {choice}", 10_000)
        self.validation_stored.emit(case, done)

    # ---- verification ---------------------------------------------------------------------

    def verify(self):
        """Verify the selected case with its chosen model in the background; store the runs.

        A case without a chosen model opens the model picker instead (and verifies once one is
        chosen): the program never picks a model for the examiner."""
        case, store = self.selected_case(), self.session.store
        if case is None or store is None or self.verify_worker is not None:
            return None
        if case.model_id is None:
            return self.choose_model(then_verify=True)
        job = Job(
            f"Verifying case {case.number}",
            lambda p: jobs.run_verification(store, case.id, None, p),
        )
        self.verify_worker = self.runner.start(job, lambda runs: self._verified(case, runs))
        self.verifying_changed.emit(True)
        return self.verify_worker

    def _verified(self, case: Case, runs: list) -> None:
        self.session.changed(RUNS, case_id=case.id)
        self.status_message.emit(f"Verification of {case.number} stored", 10_000)
        self.runs_stored.emit(case, runs)
