"""Case work of the main window: new and edited cases, adding documents, verifying.

Writes of one short transaction (a case) happen here on the GUI thread; importing documents
and verifying run as jobs on the store's writer pool. Each ends in ``session.changed`` and a
past-tense signal of the window (``documents_added``, ``verification_finished``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.errors import TaveerError
from taveer_desktop.store import KNOWN, QUESTIONED, Case, IntakeResult
from taveer_desktop.ui import app_settings, jobs
from taveer_desktop.ui.case_dialog import CaseDialog
from taveer_desktop.ui.error_dialog import show_failure, show_rejections
from taveer_desktop.ui.project_session import CASES, DOCUMENTS, RUNS
from taveer_desktop.ui.task_worker import Job

if TYPE_CHECKING:
    from taveer_desktop.ui.main_window import MainWindow

EVIDENCE_FILTER = "Evidence files (*.txt *.text *.eml *.docx);;All files (*)"


class CaseController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session = window.session
        self.runner = window.runner
        self.verify_worker = None
        a = window.actions
        a.new_case.triggered.connect(self.new_case)
        a.edit_case.triggered.connect(self.edit_case)
        a.add_known.triggered.connect(lambda: self.add_documents(KNOWN))
        a.add_questioned.triggered.connect(lambda: self.add_documents(QUESTIONED))
        a.verify.triggered.connect(self.verify)
        a.export_report.triggered.connect(self.export_report)

    def export_report(self):
        """Case ▸ Export Report: the report colleague's dialog, then reload (audit entry)."""
        from taveer_desktop.ui.report_export_dialog import show_report_export_dialog

        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None:
            return None
        exported = show_report_export_dialog(store, case.number, self.window)
        self.session.changed(CASES)
        return exported

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

    def add_documents(self, role: str, files: list[Path] | None = None):
        """Import files into the selected case as ``role`` in the background (dialog if None)."""
        case, store = self.window.selected_case(), self.session.store
        if case is None or store is None:
            return None
        if files is None:
            title = "Add known documents" if role == KNOWN else "Add questioned documents"
            names, _f = QFileDialog.getOpenFileNames(self.window, title, "", EVIDENCE_FILTER)
            files = [Path(n) for n in names]
        if not files:
            return None
        job = Job(
            f"Adding {len(files)} {role} document(s)",
            lambda p, c: jobs.import_documents(store, case.id, role, files, p, c),
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

    # ---- verification ---------------------------------------------------------------------

    def verify(self):
        """Verify the selected case with the chosen model in the background; store the runs."""
        case, store = self.window.selected_case(), self.session.store
        model_name = self.window.verification_tab.chosen_model()
        if case is None or store is None or not model_name or self.verify_worker is not None:
            return None
        job = Job(
            f"Verifying case {case.number}",
            lambda p, c: jobs.run_verification(store, case.id, model_name, p, c),
        )
        self.verify_worker = self.runner.start(
            job, lambda runs: self._verified(case, model_name, runs)
        )
        self.window.update_actions()
        return self.verify_worker

    def _verified(self, case: Case, model_name: str, runs: list) -> None:
        if self.window.persist_settings and self.session.path is not None:
            app_settings.set_case_model_name(self.session.path, case.number, model_name)
        self.session.changed(RUNS)
        self.window.case_list.select_case_id(case.id)
        self.window.tabs.setCurrentWidget(self.window.verification_tab)
        if runs and self.window.verification_tab.select_run(runs[-1].id):
            view = self.window.verification_tab.result_view.current
            self.window.statusBar().showMessage(f"Verification of {case.number} stored", 10_000)
            self.window.verification_finished.emit(view)
