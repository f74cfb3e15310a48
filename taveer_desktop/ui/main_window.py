"""The main window: the case list, the selected case's tabs, the status bar — and nothing else.

Left: the project's cases with a search box. Right: the selected case (heading, then the
Documents, Verification and Audit log tabs). The status bar shows the open project, the selected
case's chosen model and the progress of background work with a Cancel button.

The work is done by collaborators that know nothing of the window: ``ProjectController`` (File
menu), ``ModelController`` (Model menu) and ``CaseController`` (Case menu). Each is given the
session, the job runner, this window as the parent of its dialogs and a way to ask for the
selected case; the window connects the actions to them and their past-tense signals to its
widgets. Every change to the store ends in ``session.store_changed`` with a ``StoreChange``;
each tab says which kinds of change it shows (``reloads_on``) and only those tabs reload.
Closing while background work runs asks first, cancels it, waits for it and then closes the
store.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
    QSplitter,
)

from taveer_desktop import PROGRAM_NAME, paths
from taveer_desktop.store import Case
from taveer_desktop.ui import window_geometry
from taveer_desktop.ui.about_box import about_box, app_icon, version_lines
from taveer_desktop.ui.app_settings import SETTINGS_FILE_NAME, settings
from taveer_desktop.ui.case_controller import CaseController
from taveer_desktop.ui.case_list import CaseListPanel
from taveer_desktop.ui.case_view import CaseView
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.first_start_guide import FirstStartGuide
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.method_dialog import MethodDialog
from taveer_desktop.ui.model_controller import ModelController
from taveer_desktop.ui.project_controller import ProjectController
from taveer_desktop.ui.project_session import ProjectSession, StoreChange
from taveer_desktop.ui.status_line import StatusLine
from taveer_desktop.ui.window_actions import WindowActions, connect_work

__all__ = ["SETTINGS_FILE_NAME", "MainWindow", "app_icon", "settings", "version_lines"]


class MainWindow(QMainWindow):
    """The application window. Signals are past-tense events for the parts built on it."""

    closed = Signal()
    project_ready = Signal()  # opened, checked and (first start) seeded
    case_opened = Signal(object)  # Case | None
    verification_finished = Signal(object)  # RunView of the newest run
    documents_added = Signal(object)  # IntakeResult

    def __init__(
        self,
        project_path: Path | None = None,
        seed_demo: bool | None = None,
        persist_settings: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("MainWindow")
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self.persist_settings = persist_settings
        self._about_box: QMessageBox | None = None
        self._method_dialog: MethodDialog | None = None
        self.session = ProjectSession(self)
        self.runner = JobRunner(self)
        self.window_actions = WindowActions(self)
        self._build_central()
        self.status_line = StatusLine(self.statusBar(), self.runner)
        self.status_line.show_message("Ready", 5000)
        self.projects = ProjectController(self.session, self.runner, self, persist_settings)
        self.models = ModelController(
            self.session, self.runner, self, self.verification_tab.chosen_model
        )
        self.cases = CaseController(self.session, self.runner, self, self.selected_case)
        self._connect()
        self._splitter_restored = window_geometry.restore(self, self.splitter)
        if project_path is None:
            project_path = paths.default_project_path()
            seed_demo = True if seed_demo is None else seed_demo
        self.projects.open_path(
            Path(project_path), create=not Path(project_path).exists(), seed_demo=bool(seed_demo)
        )
        self.project_state_changed()

    # ---- construction -------------------------------------------------------------------------

    def _build_central(self) -> None:
        self.case_list = CaseListPanel()
        self.guide = FirstStartGuide(remember=self.persist_settings)  # until it is hidden
        self.case_list.add_below(self.guide)
        self.case_view = CaseView(self.session, self.window_actions, self.runner)
        self.case_header = self.case_view.header
        self.tabs = self.case_view.tabs
        self.documents_tab = self.case_view.documents_tab
        self.verification_tab = self.case_view.verification_tab
        self.audit_tab = self.case_view.audit_tab
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main_splitter")
        self.splitter.addWidget(self.case_list)
        self.splitter.addWidget(self.case_view)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.setTabOrder(self.case_list.search, self.case_list.view)
        self.setTabOrder(self.case_list.view, self.tabs)

    def _connect(self) -> None:
        a, p, m, c = self.window_actions, self.projects, self.models, self.cases
        show = self.status_line.show_message
        a.quit.triggered.connect(self.close)
        a.method.triggered.connect(self.show_method)
        a.glossary.triggered.connect(lambda: self.show_method().show_glossary())
        a.about.triggered.connect(self.show_about)
        a.scale_group.triggered.connect(lambda _action: self.verification_tab.refresh())
        connect_work(a, p, m, c)
        for controller in (p, m, c):
            controller.status_message.connect(show)
        p.integrity_checked.connect(lambda _report: self.project_state_changed())
        p.demo_seeded.connect(self._demo_seeded)
        p.project_ready.connect(self.project_ready.emit)
        c.case_saved.connect(lambda case: self.case_list.select_case_id(case.id))
        c.documents_added.connect(self._documents_added)
        c.runs_stored.connect(self._runs_stored)
        c.verifying_changed.connect(lambda _busy: self.update_actions())
        self.documents_tab.exclude_requested.connect(c.exclude_documents)
        self.documents_tab.include_requested.connect(c.include_documents)
        self.verification_tab.choose_model_requested.connect(lambda: c.choose_model())
        self.verification_tab.validation_requested.connect(m.show_validations)
        c.validation_stored.connect(lambda case, _done: self.case_list.select_case_id(case.id))
        self.case_list.case_selected.connect(self._case_selected)
        self.session.store_changed.connect(self._store_changed)
        self.session.project_opened.connect(lambda _path: self.reload())
        self.session.project_closed.connect(self.reload)
        self.runner.job_ended.connect(lambda _worker, _outcome: self.update_actions())
        self.runner.job_failed.connect(
            lambda worker, message: show_failure(
                self, message, worker.error_details, f"{worker.title} failed"
            )
        )

    # ---- state shown --------------------------------------------------------------------------

    def selected_case(self) -> Case | None:
        return self.case_list.selected_case()

    def reload(self) -> None:
        """Read everything shown again from the store (a project opened or closed)."""
        self.case_list.set_cases(self.session.cases())
        self.case_view.show_case(self.selected_case())
        self.project_state_changed()

    def _store_changed(self, change: StoreChange) -> None:
        """Reload the case list (its counts) and only the tabs that show this kind of change."""
        before = self.selected_case()
        self.case_list.set_cases(self.session.cases())
        case = self.selected_case()
        if case is None or before is None or case.id != before.id:
            self.case_view.show_case(case)
        else:
            self.case_view.store_changed(change, case)
        self.project_state_changed()

    def _case_selected(self, case: Case | None) -> None:
        self.case_view.show_case(case)
        self.project_state_changed()
        self.case_opened.emit(case)

    def project_state_changed(self) -> None:
        path = self.session.path
        name = path.name if path else "no project"
        read_only = self.session.read_only_reason if path else None
        self.setWindowTitle(f"{name}{' (read-only)' if read_only else ''} — {PROGRAM_NAME}")
        case = self.selected_case() if path else None
        model = self.verification_tab.chosen_model() if case else None
        self.status_line.show_project(path, case is not None, model)
        self.update_actions()

    def update_actions(self) -> None:
        self.window_actions.update(
            self.session, self.selected_case(), self.cases.verifying, self.projects.integrity
        )

    # ---- outcomes of the collaborators ----------------------------------------------------------

    def _demo_seeded(self, result) -> None:
        if result.case_numbers:
            self.case_list.select_case_number(result.case_numbers[0])

    def _documents_added(self, result) -> None:
        self.tabs.setCurrentWidget(self.documents_tab)
        self.documents_added.emit(result)

    def _runs_stored(self, case: Case, runs: list) -> None:
        self.case_list.select_case_id(case.id)
        self.tabs.setCurrentWidget(self.verification_tab)
        if runs and self.verification_tab.select_run(runs[-1].id):
            self.verification_finished.emit(self.verification_tab.result_view.current)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if (
            urls
            and all(u.isLocalFile() for u in urls)
            and self.window_actions.add_known.isEnabled()
        ):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        role = self.cases.ask_role_for_drop(files) if files else None
        if role is not None:
            self.cases.add_documents(role, files)

    # ---- Help ---------------------------------------------------------------------------------

    def show_method(self) -> MethodDialog:
        if self._method_dialog is None:
            self._method_dialog = MethodDialog(self)
        self._method_dialog.show()
        return self._method_dialog

    def show_about(self) -> QMessageBox:
        """Open the About box (window-modal, returns at once) and return it."""
        box = about_box(self)
        box.finished.connect(lambda _r: setattr(self, "_about_box", None))
        self._about_box = box
        box.open()
        return box

    # ---- showing and closing ------------------------------------------------------------------

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._splitter_restored:
            self._splitter_restored = True
            window_geometry.first_split(self, self.splitter)

    def confirm_close_while_busy(self, titles: list[str]) -> bool:
        """Ask before stopping background work (tests replace this)."""
        answer = QMessageBox.question(
            self,
            f"Quit {PROGRAM_NAME}?",
            "Background work is still running:\n\n"
            + "\n".join(f"• {t}" for t in titles)
            + "\n\nStop it and quit? Nothing half-done is kept: a stopped training or "
            "verification stores nothing.",
        )
        return answer == QMessageBox.StandardButton.Yes

    def closeEvent(self, event: QCloseEvent) -> None:
        # short store transactions (integrity check, seeding, storing a model) are waited for;
        # only work that would be lost is asked about
        running = [w for w in self.runner.running if w.job.cancellable]
        if running and not self.confirm_close_while_busy([w.title for w in running]):
            event.ignore()
            return
        self.runner.shut_down()
        self.verification_tab.shut_down()
        for dialog in self.models.dialogs():
            dialog.hide()
        self.session.close()
        if self.persist_settings:
            window_geometry.save(self)
        self.closed.emit()
        super().closeEvent(event)
