"""The main window of TAVeer Desktop: menus, the open case, the status bar, saved geometry.

This is the shell the examiner's desktop grows into. Actions that need the project store or the
model manager already sit in the menus (so the layout and keyboard shortcuts are settled) but are
disabled, with a tooltip saying why, until the parts behind them exist.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass
from pathlib import Path

from PySide6 import __version__ as PYSIDE6_VERSION
from PySide6.QtCore import QSettings, Qt, Signal, qVersion
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QLabel,
    QListWidget,
    QMainWindow,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME, __version__, paths

SETTINGS_FILE_NAME = "taveer-desktop.ini"
NOT_YET = "Not available yet: this needs the project store and will be enabled when it lands."
NOT_YET_MODELS = "Not available yet: the model manager will be enabled when it lands."


def settings() -> QSettings:
    """The application's settings, in an ini file under the platformdirs config directory."""
    return QSettings(str(paths.config_dir() / SETTINGS_FILE_NAME), QSettings.Format.IniFormat)


def app_icon() -> QIcon:
    """The application icon, with every shipped PNG size and the SVG."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        png = paths.resource("icons", f"taveer-{size}.png")
        if png.is_file():
            icon.addFile(str(png))
    return icon


def version_lines() -> list[tuple[str, str]]:
    """(component, version) for the About box and bug reports."""
    import numpy
    import pyqtgraph

    return [
        (PROGRAM_NAME, __version__),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PYSIDE6_VERSION),
        ("pyqtgraph", pyqtgraph.__version__),
        ("numpy", numpy.__version__),
    ]


@dataclass(frozen=True)
class CaseSummary:
    """What the case panel shows about one case (plain data; the window never reads files)."""

    case_number: str
    title: str
    description: str
    known_names: tuple[str, ...]
    questioned_name: str


class CasePanel(QWidget):
    """The open case: its number and title, its documents, and the latest verification."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel("No case is open")
        heading_font = self.heading.font()
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.5)
        heading_font.setBold(True)
        self.heading.setFont(heading_font)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.description = QLabel("Open a project to see its cases here.")
        self.description.setWordWrap(True)
        self.description.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        documents = QGroupBox("Documents")
        self.known_heading = QLabel("Known documents")
        self.known_list = QListWidget()
        self.known_list.setToolTip("Documents known to be written by the candidate author")
        self.known_heading.setBuddy(self.known_list)
        self.questioned_heading = QLabel("Questioned document")
        self.questioned_label = QLabel("—")
        self.questioned_label.setToolTip("The document whose authorship is in question")
        self.questioned_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        doc_layout = QVBoxLayout(documents)
        doc_layout.addWidget(self.known_heading)
        doc_layout.addWidget(self.known_list, stretch=1)
        doc_layout.addSpacing(self.fontMetrics().height() // 2)
        doc_layout.addWidget(self.questioned_heading)
        doc_layout.addWidget(self.questioned_label)

        verification = QGroupBox("Verification")
        self.verdict_label = QLabel("Not verified yet.")
        verdict_font = self.verdict_label.font()
        verdict_font.setPointSizeF(verdict_font.pointSizeF() * 1.25)
        verdict_font.setBold(True)
        self.verdict_label.setFont(verdict_font)
        self.verdict_label.setWordWrap(True)
        self.verdict_detail = QLabel("")
        self.verdict_detail.setWordWrap(True)
        self.verdict_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        ver_layout = QVBoxLayout(verification)
        ver_layout.addWidget(self.verdict_label)
        ver_layout.addWidget(self.verdict_detail)

        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.description)
        layout.addWidget(documents, stretch=1)
        layout.addWidget(verification)

    def show_case(self, case: CaseSummary) -> None:
        self.heading.setText(f"{case.case_number} — {case.title}")
        self.description.setText(case.description)
        self.known_list.clear()
        self.known_list.addItems(list(case.known_names))
        self.known_heading.setText(f"Known documents ({len(case.known_names)})")
        self.questioned_label.setText(case.questioned_name)
        self.verdict_label.setText("Not verified yet.")
        self.verdict_detail.setText("")

    def show_verification(self, verdict: str, detail: str) -> None:
        self.verdict_label.setText(verdict)
        self.verdict_detail.setText(detail)


class MainWindow(QMainWindow):
    """The application window. Signals are past-tense events for the parts built on it."""

    closed = Signal()

    def __init__(self, project_path: Path | None = None) -> None:
        super().__init__()
        self.setObjectName("MainWindow")
        self.setWindowIcon(app_icon())
        self._about_box: QMessageBox | None = None
        self.case_panel = CasePanel()
        self.setCentralWidget(self.case_panel)
        self._build_actions()
        self._build_menus()
        self._build_status_bar()
        self.set_project(project_path or paths.default_project_path())
        self.set_model_name(None)
        self._restore_geometry()

    # ---- construction -----------------------------------------------------------------------

    def _action(
        self,
        text: str,
        tip: str,
        shortcut: str | None = None,
        enabled: bool = True,
        standard: QKeySequence.StandardKey | None = None,
    ) -> QAction:
        """An action; ``standard`` is the platform's key for it, ``shortcut`` the fallback."""
        action = QAction(text, self)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        if standard is not None and QKeySequence.keyBindings(standard):
            action.setShortcuts(standard)
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setEnabled(enabled)
        return action

    def _build_actions(self) -> None:
        key = QKeySequence.StandardKey
        a = self._action
        self.action_new_project = a("&New Project…", NOT_YET, "Ctrl+N", False, key.New)
        self.action_open_project = a("&Open Project…", NOT_YET, "Ctrl+O", False, key.Open)
        self.action_save_copy = a("Save a &Copy…", NOT_YET, "Ctrl+Shift+S", False, key.SaveAs)
        self.action_quit = a("&Quit", f"Quit {PROGRAM_NAME}", "Ctrl+Q", standard=key.Quit)
        self.action_quit.triggered.connect(self.close)

        self.action_new_case = a("&New Case…", NOT_YET, "Ctrl+Shift+N", enabled=False)
        self.action_edit_case = a("&Edit Case…", NOT_YET, "Ctrl+E", enabled=False)
        self.action_add_known = a("Add &Known Documents…", NOT_YET, "Ctrl+K", enabled=False)
        self.action_add_questioned = a(
            "Add &Questioned Documents…", NOT_YET, "Ctrl+Shift+K", enabled=False
        )
        self.action_verify = a("&Verify", NOT_YET, "Ctrl+R", enabled=False)

        self.action_train = a("&Train Model…", NOT_YET_MODELS, "Ctrl+T", enabled=False)
        self.action_import_model = a("&Import Model…", NOT_YET_MODELS, enabled=False)
        self.action_export_model = a("&Export Model…", NOT_YET_MODELS, enabled=False)
        self.action_evaluate = a("E&valuate Model…", NOT_YET_MODELS, enabled=False)

        self.action_method = a(
            "The TAVeer &Method",
            "Not available yet: the description of the method will be enabled when it lands.",
            "F1",
            enabled=False,
            standard=key.HelpContents,
        )
        self.action_about = a(f"&About {PROGRAM_NAME}", "Program and library versions")
        self.action_about.setMenuRole(QAction.MenuRole.AboutRole)
        self.action_about.triggered.connect(self.show_about)

    def _menu(self, title: str) -> QMenu:
        menu = self.menuBar().addMenu(title)
        menu.setToolTipsVisible(True)  # the disabled actions explain themselves
        return menu

    def _build_menus(self) -> None:
        self.file_menu = self._menu("&File")
        self.file_menu.addAction(self.action_new_project)
        self.file_menu.addAction(self.action_open_project)
        self.recent_menu = self.file_menu.addMenu("Open &Recent")
        self.recent_menu.setToolTipsVisible(True)
        self.recent_menu.menuAction().setToolTip(NOT_YET)
        self.recent_menu.setEnabled(False)
        self.file_menu.addAction(self.action_save_copy)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.action_quit)

        self.case_menu = self._menu("&Case")
        for action in (self.action_new_case, self.action_edit_case):
            self.case_menu.addAction(action)
        self.case_menu.addSeparator()
        self.case_menu.addAction(self.action_add_known)
        self.case_menu.addAction(self.action_add_questioned)
        self.case_menu.addSeparator()
        self.case_menu.addAction(self.action_verify)

        self.model_menu = self._menu("&Model")
        for action in (
            self.action_train,
            self.action_import_model,
            self.action_export_model,
            self.action_evaluate,
        ):
            self.model_menu.addAction(action)

        self.help_menu = self._menu("&Help")
        self.help_menu.addAction(self.action_method)
        self.help_menu.addSeparator()
        self.help_menu.addAction(self.action_about)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.project_label = QLabel()
        self.model_label = QLabel()
        separator = QFrame()
        separator.setFrameShape(QFrame.Shape.VLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        bar.addPermanentWidget(self.project_label)
        bar.addPermanentWidget(separator)
        bar.addPermanentWidget(self.model_label)
        bar.showMessage("Ready", 5000)

    # ---- state shown ------------------------------------------------------------------------

    def set_project(self, path: Path | None) -> None:
        self.project_path = path
        name = path.name if path else "no project"
        self.setWindowTitle(f"{name} — {PROGRAM_NAME}")
        self.project_label.setText(f"Project: {name}")
        self.project_label.setToolTip(str(path) if path else "No project is open")

    def set_model_name(self, name: str | None) -> None:
        self.model_label.setText(f"Model: {name or 'none'}")
        self.model_label.setToolTip("The model verifications use unless another is chosen")

    def show_case(self, case: CaseSummary) -> None:
        self.case_panel.show_case(case)
        self.statusBar().showMessage(f"Opened case {case.case_number}", 5000)

    def show_verification(self, verdict: str, detail: str) -> None:
        self.case_panel.show_verification(verdict, detail)
        self.statusBar().showMessage("Verification finished", 5000)

    # ---- Help ▸ About -----------------------------------------------------------------------

    def about_text(self) -> str:
        rows = "".join(
            f"<tr><td>{name}</td><td>&nbsp;&nbsp;{version}</td></tr>"
            for name, version in version_lines()
        )
        return (
            f"<h3>{PROGRAM_NAME} {__version__}</h3>"
            "<p>Offline forensic authorship verification with the TAVeer method "
            "(Halvani, Graner, Regev: <i>A Step Towards Interpretable Authorship "
            "Verification</i>). Nothing in this program uses the network.</p>"
            f"<p><b>Versions</b></p><table>{rows}</table>"
            f"<p>Settings: {paths.config_dir()}<br>Log files: {paths.log_dir()}</p>"
        )

    def show_about(self) -> QMessageBox:
        """Open the About box (window-modal, returns at once) and return it."""
        box = QMessageBox(self)
        box.setWindowTitle(f"About {PROGRAM_NAME}")
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(self.about_text())
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(self._forget_about_box)
        self._about_box = box
        box.open()
        return box

    def _forget_about_box(self) -> None:
        self._about_box = None

    # ---- geometry ---------------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        store = settings()
        geometry = store.value("main_window/geometry")
        state = store.value("main_window/state")
        if geometry is not None and self.restoreGeometry(geometry):
            if state is not None:
                self.restoreState(state)
            return
        screen = QGuiApplication.primaryScreen()
        if screen is not None:  # first start: two thirds of the screen, centred
            area = screen.availableGeometry()
            self.resize(max(area.width() * 2 // 3, 640), max(area.height() * 3 // 4, 480))
            frame = self.frameGeometry()
            frame.moveCenter(area.center())
            self.move(frame.topLeft())

    def save_geometry(self) -> None:
        store = settings()
        store.setValue("main_window/geometry", self.saveGeometry())
        store.setValue("main_window/state", self.saveState())
        store.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        self.closed.emit()
        super().closeEvent(event)
