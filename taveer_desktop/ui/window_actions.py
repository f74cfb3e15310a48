"""Every action of the main window, its menus and its toolbar.

Each action has a mnemonic, a keyboard shortcut where one is expected (the platform's standard
key first), a tooltip and a status tip. Actions start disabled where they need an open project
or a selected case; ``update`` (called by the window whenever that state may have changed)
keeps them current and puts the reason into the tooltip of a disabled action.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.calibration.verbal_scales import SCALES
from taveer_desktop.store import Case, IntegrityReport
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.declaration_dialog import open_declaration
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.review_dialog import open_review


def make_action(
    window: QMainWindow,
    text: str,
    tip: str,
    shortcut: str | None = None,
    standard: QKeySequence.StandardKey | None = None,
) -> QAction:
    """An action; ``standard`` is the platform's key for it, ``shortcut`` the fallback."""
    action = QAction(text, window)
    action.setToolTip(tip)
    action.setStatusTip(tip)
    action.setProperty("base_tip", tip)
    if standard is not None and QKeySequence.keyBindings(standard):
        action.setShortcuts(standard)
    elif shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    return action


class WindowActions:
    """Creates the actions on ``window`` and puts them into menus and the toolbar."""

    def __init__(self, window: QMainWindow) -> None:
        key = QKeySequence.StandardKey
        a = lambda *args, **kw: make_action(window, *args, **kw)  # noqa: E731
        self.new_project = a("&New Project…", "Create a new, empty project file", "Ctrl+N", key.New)
        self.open_project = a("&Open Project…", "Open a project file", "Ctrl+O", key.Open)
        self.save_copy = a(
            "Save a &Copy…", "Write a complete copy of the open project", "Ctrl+Shift+S", key.SaveAs
        )
        self.write_receipt = a(
            "&Write Receipt…",
            "Write a receipt of the project (its identity and audit chain head) to keep outside it",
            "Ctrl+Shift+R",
        )
        self.check_receipt = a(
            "C&heck Against Receipt…",
            "Check that the project is still a continuation of a receipt written earlier (not "
            "rolled back, trimmed or re-chained)",
            "Ctrl+Shift+C",
        )
        self.quit = a("&Quit", f"Quit {PROGRAM_NAME}", "Ctrl+Q", key.Quit)
        self.quit.setMenuRole(QAction.MenuRole.QuitRole)

        self.new_case = a("&New Case…", "Create a case in the open project", "Ctrl+Shift+N")
        self.edit_case = a("&Edit Case…", "Change the selected case's details", "Ctrl+E")
        self.add_known = a(
            "Add &Known Documents…",
            "Add documents known to be written by the candidate author",
            "Ctrl+K",
        )
        self.add_questioned = a(
            "Add &Questioned Documents…",
            "Add the documents whose authorship is in question",
            "Ctrl+Shift+K",
        )
        self.verify = a(
            "&Verify",
            "Verify the selected case with the model chosen for it and store the run (a case "
            "without a model asks for one first)",
            "Ctrl+R",
        )
        self.validate = a(
            "Validate on a &Population…",
            "Validate the method for the selected case on a relevant population: choose or "
            "import the population, take the case's lengths, set the acceptance criteria, run, "
            "and keep the record and the model it produces",
            "Ctrl+Shift+L",
        )
        self.export_report = a(
            "Export &Report…", "Write a PDF report of a stored verification run", "Ctrl+Shift+P"
        )
        self.declare_case = a(
            "Examiner &Declaration…",
            "Declare the case's report as its examiner (name, role, the lab's statement of truth)",
            None,
        )
        self.review_case = a(
            "Technical Re&view…",
            "Record a second examiner's technical review of the case's declared report",
            None,
        )

        self.model_manager = a(
            "&Models…", "List, train, import, export and evaluate models", "Ctrl+M"
        )
        self.train = a("&Train Model…", "Train a new model on a corpus folder", "Ctrl+T")
        self.import_model = a("&Import Model…", "Add a model file (.json) to the project", "Ctrl+I")
        self.export_model = a(
            "&Export Model…", "Save a model of the project as a file", "Ctrl+Shift+E"
        )
        self.evaluate = a("E&valuate Model…", "Measure a model on a test corpus", "Ctrl+Shift+V")
        self.validation_records = a(
            "Validation &Records…",
            "The project's validation records: population, figures with intervals, acceptance "
            "and charts",
        )

        self.method = a(
            "The TAVeer &Method", "How the method decides, in plain words", "F1", key.HelpContents
        )
        self.glossary = a(
            "&Glossary",
            "L_Y, L_N, λ, θ, Φ, the score and the likelihood ratio in plain words",
            "Shift+F1",
        )
        self.about = a(f"&About {PROGRAM_NAME}", "Program and library versions")
        self.about.setMenuRole(QAction.MenuRole.AboutRole)
        self._build_menus(window)
        self._build_toolbar(window)

    def _menu(self, window: QMainWindow, title: str) -> QMenu:
        menu = window.menuBar().addMenu(title)
        menu.setToolTipsVisible(True)
        return menu

    def _build_menus(self, window: QMainWindow) -> None:
        self.file_menu = self._menu(window, "&File")
        self.file_menu.addAction(self.new_project)
        self.file_menu.addAction(self.open_project)
        self.recent_menu = self.file_menu.addMenu("Open &Recent")
        self.recent_menu.setToolTipsVisible(True)
        self.recent_menu.menuAction().setToolTip("Projects opened recently")
        self.file_menu.addAction(self.save_copy)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.write_receipt)
        self.file_menu.addAction(self.check_receipt)
        self.file_menu.addSeparator()
        self.scale_menu = self.file_menu.addMenu("Verbal &Scale for Likelihood Ratios")
        self.scale_menu.setToolTipsVisible(True)
        self.scale_menu.menuAction().setToolTip(
            "The published scale that puts likelihood ratios into words, in results and reports"
        )
        self.scale_group = QActionGroup(window)
        self.scale_group.setExclusive(True)
        chosen = app_settings.verbal_scale_id()
        for scale in SCALES.values():
            action = self.scale_menu.addAction(scale.name)
            action.setCheckable(True)
            action.setChecked(scale.scale_id == chosen)
            action.setData(scale.scale_id)
            action.setToolTip(scale.citation)
            self.scale_group.addAction(action)
        self.scale_group.triggered.connect(
            lambda action: app_settings.set_verbal_scale_id(action.data())
        )
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit)

        self.case_menu = self._menu(window, "&Case")
        self.case_menu.addAction(self.new_case)
        self.case_menu.addAction(self.edit_case)
        self.case_menu.addSeparator()
        self.case_menu.addAction(self.add_known)
        self.case_menu.addAction(self.add_questioned)
        self.case_menu.addSeparator()
        self.case_menu.addAction(self.verify)
        self.case_menu.addAction(self.validate)
        self.case_menu.addAction(self.declare_case)
        self.case_menu.addAction(self.review_case)
        self.case_menu.addAction(self.export_report)

        self.model_menu = self._menu(window, "&Model")
        self.model_menu.addAction(self.model_manager)
        self.model_menu.addSeparator()
        for action in (self.train, self.import_model, self.export_model, self.evaluate):
            self.model_menu.addAction(action)
        self.model_menu.addSeparator()
        self.model_menu.addAction(self.validation_records)

        self.help_menu = self._menu(window, "&Help")
        self.help_menu.addAction(self.method)
        self.help_menu.addAction(self.glossary)
        self.help_menu.addSeparator()
        self.help_menu.addAction(self.about)

    def _build_toolbar(self, window: QMainWindow) -> None:
        self.toolbar = QToolBar("Main toolbar")
        self.toolbar.setObjectName("main_toolbar")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toolbar.setMovable(False)
        for action in (self.new_case, self.add_known, self.add_questioned, self.verify):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.model_manager)
        self.toolbar.addAction(self.train)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)

    def set_available(self, action: QAction, reason: str | None) -> None:
        """Enable ``action``, or disable it and say why in its tooltip."""
        base = action.property("base_tip") or action.toolTip()
        action.setEnabled(reason is None)
        tip = base if reason is None else f"{base} — {reason}"
        action.setToolTip(tip)
        action.setStatusTip(tip)

    def update(
        self,
        session: ProjectSession,
        case: Case | None,
        verifying: bool,
        integrity: IntegrityReport | None,
    ) -> None:
        """Enable what can be done now; a disabled action says why in its tooltip."""
        no_project = None if session.is_open else "open a project first"
        read_only = no_project or (
            f"the project is read-only ({session.read_only_reason})"
            if session.read_only_reason
            else None
        )
        need_case = read_only or (None if case else "select a case first")
        verify_reason = need_case
        if verify_reason is None and case is not None:
            if not case.known_count or not case.questioned_count:
                verify_reason = "the case needs known and questioned documents"
            elif not session.models():
                verify_reason = "the project has no model: train or import one"
            elif verifying:
                verify_reason = "a verification is running"
        failed = integrity is not None and not integrity.ok
        self.set_available(self.save_copy, no_project)
        self.set_available(self.check_receipt, no_project)
        self.set_available(
            self.write_receipt,
            no_project or ("the project failed its integrity check" if failed else None),
        )
        self.set_available(self.new_case, read_only)
        for action in (
            self.edit_case,
            self.add_known,
            self.add_questioned,
            self.declare_case,
            self.review_case,
        ):
            self.set_available(action, need_case)
        self.set_available(self.verify, verify_reason)
        validate_reason = need_case
        if (
            validate_reason is None
            and case is not None
            and (not case.known_count or not case.questioned_count)
        ):
            validate_reason = "the case needs known and questioned documents"
        self.set_available(self.validate, validate_reason)
        self.set_available(
            self.export_report,
            need_case
            or (None if case is not None and case.run_count else "the case has no stored run yet"),
        )
        for action in (
            self.model_manager,
            self.export_model,
            self.evaluate,
            self.validation_records,
        ):
            self.set_available(action, no_project)
        self.set_available(self.train, read_only)
        self.set_available(self.import_model, read_only)


def connect_work(actions: WindowActions, projects, models, cases) -> None:
    """Connect the File, Model and Case actions to the collaborators that do the work."""
    from taveer_desktop.store import KNOWN, QUESTIONED

    a, p, m, c = actions, projects, models, cases
    a.new_project.triggered.connect(p.new_project)
    a.open_project.triggered.connect(lambda: p.open_project())
    a.save_copy.triggered.connect(p.save_copy)
    a.write_receipt.triggered.connect(lambda: p.write_receipt())
    a.check_receipt.triggered.connect(lambda: p.check_receipt())
    a.recent_menu.aboutToShow.connect(lambda: p.fill_recent_menu(a.recent_menu))
    a.model_manager.triggered.connect(m.open_manager)
    a.train.triggered.connect(m.open_train_dialog)
    a.import_model.triggered.connect(lambda: m.import_model())
    a.export_model.triggered.connect(lambda: m.export_model())
    a.evaluate.triggered.connect(lambda: m.open_evaluate_dialog())
    a.new_case.triggered.connect(c.new_case)
    a.edit_case.triggered.connect(c.edit_case)
    a.add_known.triggered.connect(lambda: c.add_documents(KNOWN))
    a.add_questioned.triggered.connect(lambda: c.add_documents(QUESTIONED))
    a.verify.triggered.connect(c.verify)
    a.validate.triggered.connect(c.validate_on_population)
    a.validation_records.triggered.connect(lambda: m.show_validations())
    a.export_report.triggered.connect(c.export_report)
    a.declare_case.triggered.connect(lambda: open_declaration(c))
    a.review_case.triggered.connect(lambda: open_review(c))
