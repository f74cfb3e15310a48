"""The main window: the case list, the selected case's tabs, the status bar, and case work.

Left: the project's cases with a search box. Right: the selected case (heading, then the
Documents, Verification and Audit log tabs). The status bar shows the open project, the selected
case's chosen model and the progress of background work with a Cancel button. File and Model
menu work lives in ``ProjectController`` and ``ModelController``; case work (new, edit,
documents, the case's model, verify) in ``CaseController``. Every change goes through the store
and ends in ``session.changed``, after which the views reload (``reload``). Closing while
background work runs asks first, cancels it, waits for it and only then closes the store.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME, paths
from taveer_desktop.store import Case
from taveer_desktop.ui.about_box import about_text, app_icon, version_lines
from taveer_desktop.ui.app_settings import SETTINGS_FILE_NAME, settings
from taveer_desktop.ui.audit_tab import AuditTab
from taveer_desktop.ui.case_controller import CaseController
from taveer_desktop.ui.case_list import CaseListPanel
from taveer_desktop.ui.documents_tab import DocumentsTab
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.method_dialog import MethodDialog
from taveer_desktop.ui.model_controller import ModelController
from taveer_desktop.ui.progress_panel import ProgressPanel
from taveer_desktop.ui.project_controller import ProjectController
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.verification_tab import VerificationTab
from taveer_desktop.ui.window_actions import WindowActions

__all__ = ["SETTINGS_FILE_NAME", "MainWindow", "app_icon", "settings", "version_lines"]
EVIDENCE_FILTER = "Evidence files (*.txt *.text *.eml *.docx);;All files (*)"
DETAILS_SHOWN_CHARS = 240
SPLITTERS = ("main_splitter", "documents_splitter", "verification_splitter")


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
        self.actions = WindowActions(self)
        self._build_central()
        self._build_status_bar()
        self.projects = ProjectController(self)
        self.models = ModelController(self)
        self.cases = CaseController(self)
        self._connect()
        self._restore_geometry()
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
        self.case_heading = QLabel()
        font = self.case_heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.case_heading.setFont(font)
        self.case_heading.setWordWrap(True)
        self.case_heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.case_details = QLabel()
        self.case_details.setWordWrap(True)
        self.case_details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        a = self.actions
        self.documents_tab = DocumentsTab(self.session, (a.add_known, a.add_questioned))
        self.verification_tab = VerificationTab(self.session, a.verify, runner=self.runner)
        a.scale_group.triggered.connect(lambda _action: self.verification_tab.refresh())
        self.audit_tab = AuditTab(self.session)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.documents_tab, "&Documents")
        self.tabs.addTab(self.verification_tab, "&Verification")
        self.tabs.addTab(self.audit_tab, "&Audit Log")
        self.tabs.setTabToolTip(0, "The case's evidence and a preview of its text")
        self.tabs.setTabToolTip(1, "Verify the case and see the stored runs and their results")
        self.tabs.setTabToolTip(2, "Every change to the case, in a tamper-evident chain")
        right = QWidget()
        layout = QVBoxLayout(right)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.case_heading)
        layout.addWidget(self.case_details)
        layout.addWidget(self.tabs, stretch=1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main_splitter")
        self.splitter.addWidget(self.case_list)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.setTabOrder(self.case_list.search, self.case_list.view)
        self.setTabOrder(self.case_list.view, self.tabs)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.job_panel = ProgressPanel(compact=True)
        self.project_label = QLabel()
        self.model_label = QLabel()
        separator = QFrame()
        separator.setFrameShape(QFrame.Shape.VLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        em = self.fontMetrics().horizontalAdvance("m")
        for label in (self.project_label, self.model_label):  # may shrink on narrow windows
            label.setMinimumWidth(em * 8)
        bar.addPermanentWidget(self.job_panel)
        bar.addPermanentWidget(self.project_label)
        bar.addPermanentWidget(separator)
        bar.addPermanentWidget(self.model_label)
        bar.showMessage("Ready", 5000)

    def _connect(self) -> None:
        a = self.actions
        a.quit.triggered.connect(self.close)
        a.method.triggered.connect(self.show_method)
        a.about.triggered.connect(self.show_about)
        self.case_list.case_selected.connect(self._case_selected)
        self.session.store_changed.connect(lambda _what: self.reload())
        self.session.project_opened.connect(lambda _path: self.reload())
        self.session.project_closed.connect(self.reload)
        self.verification_tab.choose_model_requested.connect(lambda: self.cases.choose_model())
        self.runner.job_started.connect(self._job_started)
        self.runner.job_ended.connect(self._job_ended)
        self.runner.job_failed.connect(
            lambda worker, message: show_failure(
                self, message, worker.error_details, f"{worker.title} failed"
            )
        )

    # ---- state shown --------------------------------------------------------------------------

    def selected_case(self) -> Case | None:
        return self.case_list.selected_case()

    def reload(self) -> None:
        """Read everything shown again from the store (after any change)."""
        self.case_list.set_cases(self.session.cases())
        self._show_case(self.selected_case())
        self.project_state_changed()

    def _case_selected(self, case: Case | None) -> None:
        self._show_case(case)
        self.project_state_changed()
        self.case_opened.emit(case)

    def _show_case(self, case: Case | None) -> None:
        documents = self.session.documents(case.id) if case else []
        if case is None:
            self.case_heading.setText(
                "No case selected" if self.session.is_open else "No project open"
            )
            self.case_details.setText(
                "Select a case on the left, or create one with Case ▸ New Case."
                if self.session.is_open
                else "Open or create a project with the File menu."
            )
        else:
            self.case_heading.setText(
                f"{case.number} — {case.title}" if case.title else case.number
            )
            people = ", ".join(p for p in (case.examiner, case.agency) if p)
            details = (f"{people}. " if people else "") + (case.description or "No description.")
            shown = " ".join(details.split())
            if len(shown) > DETAILS_SHOWN_CHARS:  # the tabs keep their room; all of it on hover
                shown = shown[:DETAILS_SHOWN_CHARS].rsplit(" ", 1)[0] + " …"
            self.case_details.setText(shown)
            self.case_details.setToolTip(details)
        self.documents_tab.set_documents(documents)
        self.verification_tab.show_case(case, documents)
        self.audit_tab.show_case(case)

    def project_state_changed(self) -> None:
        path = self.session.path
        name = path.name if path else "no project"
        read_only = self.session.read_only_reason if path else None
        self.setWindowTitle(f"{name}{' (read-only)' if read_only else ''} — {PROGRAM_NAME}")
        self.project_label.setText(f"Project: {name}")
        self.project_label.setToolTip(str(path) if path else "No project is open")
        case = self.selected_case() if path else None
        model = self.verification_tab.chosen_model() if case else None
        self.model_label.setText(
            f"Case model: {model or 'none chosen'}" if case else "Case model: no case selected"
        )
        self.model_label.setToolTip(
            "The model the examiner chose for the selected case (Verification ▸ Choose Model…)"
        )
        self.update_actions()

    def update_actions(self) -> None:
        a, session = self.actions, self.session
        no_project = None if session.is_open else "open a project first"
        read_only = no_project or (
            f"the project is read-only ({session.read_only_reason})"
            if session.read_only_reason
            else None
        )
        case = self.selected_case()
        need_case = read_only or (None if case else "select a case first")
        verify_reason = need_case
        if verify_reason is None:
            if not case.known_count or not case.questioned_count:
                verify_reason = "the case needs known and questioned documents"
            elif not self.session.models():
                verify_reason = "the project has no model: train or import one"
            elif self.cases.verify_worker is not None:
                verify_reason = "a verification is running"
        a.set_available(a.save_copy, no_project)
        a.set_available(a.check_receipt, no_project)
        integrity = self.projects.integrity
        a.set_available(
            a.write_receipt,
            no_project
            or (
                "the project failed its integrity check"
                if integrity is not None and not integrity.ok
                else None
            ),
        )
        a.set_available(a.new_case, read_only)
        a.set_available(a.edit_case, need_case)
        a.set_available(a.add_known, need_case)
        a.set_available(a.add_questioned, need_case)
        a.set_available(a.verify, verify_reason)
        a.set_available(
            a.export_report,
            need_case or (None if case.run_count else "the case has no stored run yet"),
        )
        for action in (a.model_manager, a.export_model, a.evaluate):
            a.set_available(action, no_project)
        a.set_available(a.train, read_only)
        a.set_available(a.import_model, read_only)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and all(u.isLocalFile() for u in urls) and self.actions.add_known.isEnabled():
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        role = self.cases.ask_role_for_drop(files) if files else None
        if role is not None:
            self.cases.add_documents(role, files)

    def _job_started(self, worker) -> None:
        if self.job_panel.worker is None:
            self.job_panel.attach(worker)

    def _job_ended(self, worker, _outcome: str) -> None:
        if worker is self.cases.verify_worker:
            self.cases.verify_worker = None
        if self.job_panel.worker is worker:
            self.job_panel.detach()
            if self.runner.running:
                self.job_panel.attach(self.runner.running[0])
        self.update_actions()

    # ---- Help ---------------------------------------------------------------------------------

    def show_method(self) -> MethodDialog:
        if self._method_dialog is None:
            self._method_dialog = MethodDialog(self)
        self._method_dialog.show()
        return self._method_dialog

    def show_about(self) -> QMessageBox:
        """Open the About box (window-modal, returns at once) and return it."""
        box = QMessageBox(self)
        box.setWindowTitle(f"About {PROGRAM_NAME}")
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(about_text())
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(self._forget_about_box)
        self._about_box = box
        box.open()
        return box

    def _forget_about_box(self) -> None:
        self._about_box = None

    # ---- geometry and closing -----------------------------------------------------------------

    def _splitters(self) -> dict[str, QSplitter]:
        return {
            s.objectName(): s for s in self.findChildren(QSplitter) if s.objectName() in SPLITTERS
        }

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._splitter_restored:  # first start: a fifth for the case list
            self._splitter_restored = True
            width = max(self.width(), self.splitter.width())
            self.splitter.setSizes([width // 5, width - width // 5])

    def _restore_geometry(self) -> None:
        store = settings()
        self._splitter_restored = False
        for name, splitter in self._splitters().items():
            state = store.value(f"main_window/{name}")
            if isinstance(state, QByteArray) and splitter.restoreState(state):
                self._splitter_restored |= splitter is self.splitter
        geometry = store.value("main_window/geometry")
        state = store.value("main_window/state")
        if geometry is not None and self.restoreGeometry(geometry):
            if state is not None:
                self.restoreState(state)
            return
        screen = self.screen()
        if screen is not None:  # first start: most of the screen (the result views need room)
            area = screen.availableGeometry()
            self.resize(max(area.width() * 9 // 10, 640), max(area.height() * 9 // 10, 480))
            frame = self.frameGeometry()
            frame.moveCenter(area.center())
            self.move(frame.topLeft())

    def save_geometry(self) -> None:
        store = settings()
        store.setValue("main_window/geometry", self.saveGeometry())
        store.setValue("main_window/state", self.saveState())
        for name, splitter in self._splitters().items():
            store.setValue(f"main_window/{name}", splitter.saveState())
        store.sync()

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
        for dialog in (self.models.train_dialog, self.models.evaluate_dialog, self.models.manager):
            if dialog is not None:
                dialog.hide()
        self.session.close()
        if self.persist_settings:
            self.save_geometry()
        self.closed.emit()
        super().closeEvent(event)
