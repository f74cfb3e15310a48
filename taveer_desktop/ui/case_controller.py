"""Case work of the main window: cases, documents (adding, excluding), the case's model, verifying.

Writes of one short transaction (a case, choosing its model, excluding or including a document
with its reason) happen here on the GUI thread; importing documents and verifying run as jobs on
the store's writer pool. Each ends in ``session.changed`` and a past-tense signal of the window
(``documents_added``, ``verification_finished``). A case is verified only with the model the
examiner chose for it: Verify on a case without one opens the model picker first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.errors import TaveerError
from taveer_desktop.store import KNOWN, QUESTIONED, Case, Document, IntakeResult
from taveer_desktop.store.receipts import read_receipt
from taveer_desktop.ui import jobs
from taveer_desktop.ui.case_dialog import CaseDialog
from taveer_desktop.ui.encoding_dialog import EncodingChoiceDialog
from taveer_desktop.ui.error_dialog import show_failure, show_rejections
from taveer_desktop.ui.model_picker_dialog import ModelPickerDialog
from taveer_desktop.ui.project_session import CASES, DOCUMENTS, RUNS
from taveer_desktop.ui.receipt_text import report_exported_text
from taveer_desktop.ui.task_worker import Job

if TYPE_CHECKING:
    from taveer_desktop.ui.main_window import MainWindow

EVIDENCE_FILTER = "Evidence files (*.txt *.text *.eml *.docx);;All files (*)"
DETECT = "detect"  # add_documents: detect the text files' encodings and ask if one was guessed


class CaseController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session = window.session
        self.runner = window.runner
        self.verify_worker = None
        self.picker: ModelPickerDialog | None = None
        self.encoding_dialog: EncodingChoiceDialog | None = None
        self.report_box: QMessageBox | None = None  # the last report confirmation (for tests)
        a = window.actions
        a.new_case.triggered.connect(self.new_case)
        a.edit_case.triggered.connect(self.edit_case)
        a.add_known.triggered.connect(lambda: self.add_documents(KNOWN))
        a.add_questioned.triggered.connect(lambda: self.add_documents(QUESTIONED))
        a.verify.triggered.connect(self.verify)
        a.export_report.triggered.connect(self.export_report)
        window.documents_tab.exclude_requested.connect(self.exclude_documents)
        window.documents_tab.include_requested.connect(self.include_documents)

    def export_report(self):
        """Case ▸ Export Report: the report colleague's dialog, then reload (audit entry)."""
        from taveer_desktop.ui.report_export_dialog import show_report_export_dialog

        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None:
            return None
        exported = show_report_export_dialog(store, case.number, self.window)
        self.session.changed(CASES)
        if exported is not None:
            self.confirm_report(exported)
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
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(f"Report written — {PROGRAM_NAME}")
        box.setText(f"The report of case {exported.case_number} was written and recorded.")
        box.setInformativeText(report_exported_text(exported, receipt))
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r: setattr(self, "report_box", None))
        self.report_box = box
        self.window.statusBar().showMessage(f"Report written: {exported.path}", 10_000)
        box.open()
        return box

    # ---- cases --------------------------------------------------------------------------------

    def new_case(self) -> CaseDialog:
        dialog = CaseDialog(parent=self.window)
        dialog.accepted.connect(lambda: self._store_case(None, dialog.values()))
        dialog.open()
        return dialog

    def edit_case(self) -> CaseDialog | None:
        case = self.window.selected_case()
        if case is None:
            return None
        dialog = CaseDialog(case, parent=self.window)
        dialog.accepted.connect(lambda: self._store_case(case.id, dialog.values()))
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
            show_failure(self.window, f"The case was not saved: {error}", title="Not saved")
            return None
        self.window.case_list.set_cases(self.session.cases())
        self.window.case_list.select_case_id(case.id)
        self.session.changed(CASES)
        return case

    # ---- documents ----------------------------------------------------------------------------

    def add_documents(
        self, role: str, files: list[Path] | None = None, encoding: str | None = DETECT
    ):
        """Import files into the selected case as ``role`` in the background (dialog if None).

        With ``encoding=DETECT`` the text files' encodings are detected first (a read-only job)
        and, if any had to be guessed, the encoding step (``EncodingChoiceDialog``) opens before
        anything is stored; a codec name (the examiner's choice) or None imports at once."""
        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None:
            return None
        if files is None:
            title = "Add known documents" if role == KNOWN else "Add questioned documents"
            names, _f = QFileDialog.getOpenFileNames(self.window, title, "", EVIDENCE_FILTER)
            files = [Path(n) for n in names]
        if not files:
            return None
        texts = [f for f in files if jobs.is_text_file(f)]
        if encoding != DETECT or not texts:
            return self._import(store, case, role, files, None if encoding == DETECT else encoding)
        job = Job(
            f"Reading the encodings of {len(texts)} text file(s)",
            lambda p, c: jobs.check_text_files(texts, p, c),
        )  # on the writer pool, where the import goes next: never queued behind a training
        return self.runner.start(
            job, lambda checks: self._encodings_checked(store, case, role, files, checks)
        )

    def _encodings_checked(self, store, case: Case, role: str, files: list[Path], checks) -> None:
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
        dialog = EncodingChoiceDialog(checks, words, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(
            lambda: self._import(store, case, role, files, dialog.chosen_encoding())
        )
        dialog.finished.connect(lambda _r: setattr(self, "encoding_dialog", None))
        self.encoding_dialog = dialog
        dialog.open()

    def _import(self, store, case: Case, role: str, files: list[Path], encoding: str | None):
        if self.session.store is not store:
            return None
        shown = f" as {encoding}" if encoding else ""
        job = Job(
            f"Adding {len(files)} {role} document(s){shown}",
            lambda p, c: jobs.import_documents(store, case.id, role, files, p, c, encoding),
        )
        return self.runner.start(job, self._documents_added)

    def _documents_added(self, result: IntakeResult) -> None:
        self.session.changed(DOCUMENTS)
        self.window.tabs.setCurrentWidget(self.window.documents_tab)
        if result.rejected:
            show_rejections(self.window, result.rejected, len(result.added))
        self.window.statusBar().showMessage(
            f"{len(result.added)} document(s) added, {len(result.rejected)} refused", 10_000
        )
        self.window.documents_added.emit(result)

    def ask_role_for_drop(self, files: list[Path]) -> str | None:
        """Ask whether dropped files are known or questioned (tests replace this)."""
        box = QMessageBox(self.window)
        box.setWindowTitle(f"Add documents — {PROGRAM_NAME}")
        box.setText(f"Add {len(files)} dropped file(s) to the case as:")
        known = box.addButton("&Known documents", QMessageBox.ButtonRole.AcceptRole)
        questioned = box.addButton("&Questioned documents", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        clicked = box.clickedButton()
        return KNOWN if clicked is known else QUESTIONED if clicked is questioned else None

    def ask_reason(self, title: str, prompt: str) -> str | None:
        """Ask for the reason of an exclusion or inclusion (tests replace this)."""
        text, ok = QInputDialog.getText(self.window, title, prompt, QLineEdit.EchoMode.Normal)
        return text.strip() if ok and text.strip() else None

    def exclude_documents(self, documents: list[Document]) -> list[Document]:
        """Take documents out of the case's later runs, with the examiner's reason (audited)."""
        return self._set_excluded([d for d in documents if not d.excluded], exclude=True)

    def include_documents(self, documents: list[Document]) -> list[Document]:
        """Put excluded documents back into the case's later runs, with a reason (audited)."""
        return self._set_excluded([d for d in documents if d.excluded], exclude=False)

    def _set_excluded(self, documents: list[Document], exclude: bool) -> list[Document]:
        store = self.session.store
        if store is None or not documents:
            return []
        names = ", ".join(d.file_name for d in documents)
        if exclude:
            title = "Exclude evidence"
            prompt = (
                f"Exclude {names} from later verifications of this case? The document stays "
                "stored with its hash, and earlier runs keep their record.\n\nReason (kept in "
                "the audit log):"
            )
        else:
            title = "Include evidence again"
            prompt = f"Use {names} in later verifications again?\n\nReason (kept in the audit log):"
        reason = self.ask_reason(title, prompt)
        if reason is None:
            return []
        changed = []
        try:
            for doc in documents:
                if exclude:
                    changed.append(store.documents.exclude(doc.id, reason))
                else:
                    changed.append(store.documents.include(doc.id, reason))
        except TaveerError as error:
            show_failure(self.window, f"Not changed: {error}", title=title)
        self.session.changed(DOCUMENTS)
        word = "excluded" if exclude else "included again"
        self.window.statusBar().showMessage(f"{len(changed)} document(s) {word}", 10_000)
        return changed

    # ---- the case's model -----------------------------------------------------------------

    def choose_model(self, then_verify: bool = False) -> ModelPickerDialog | None:
        """Open the model picker for the selected case; store the choice (and verify)."""
        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None:
            return None
        dialog = ModelPickerDialog(self.session, case, self.window)
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
            show_failure(self.window, f"The model was not chosen: {error}", title="Not chosen")
            return
        self.session.changed(CASES)
        self.window.statusBar().showMessage(
            f"Case {case.number} will be verified with {choice.name}", 10_000
        )
        if then_verify:
            self.verify()

    # ---- verification ---------------------------------------------------------------------

    def verify(self):
        """Verify the selected case with its chosen model in the background; store the runs.

        A case without a chosen model opens the model picker instead (and verifies once one is
        chosen): the program never picks a model for the examiner."""
        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None or self.verify_worker is not None:
            return None
        if case.model_id is None:
            return self.choose_model(then_verify=True)
        job = Job(
            f"Verifying case {case.number}",
            lambda p, c: jobs.run_verification(store, case.id, None, p, c),
        )
        self.verify_worker = self.runner.start(job, lambda runs: self._verified(case, runs))
        self.window.update_actions()
        return self.verify_worker

    def _verified(self, case: Case, runs: list) -> None:
        self.session.changed(RUNS)
        self.window.case_list.select_case_id(case.id)
        self.window.tabs.setCurrentWidget(self.window.verification_tab)
        if runs and self.window.verification_tab.select_run(runs[-1].id):
            view = self.window.verification_tab.result_view.current
            self.window.statusBar().showMessage(f"Verification of {case.number} stored", 10_000)
            self.window.verification_finished.emit(view)
