"""File menu work of the main window: open, create, reopen and copy projects; first start.

On opening, the integrity check runs as a background job (a store that fails it is read-only
and the user is told). When the default project is empty on first start, the demo cases and the
bundled models are seeded into it by another job; ``MainWindow.project_ready`` is emitted when
both are done.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from taveer_desktop import paths
from taveer_desktop.core.errors import TaveerError
from taveer_desktop.store import IntegrityReport
from taveer_desktop.ui import app_settings, demo_seed
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.project_session import CASES, MODELS
from taveer_desktop.ui.task_worker import Job

if TYPE_CHECKING:
    from taveer_desktop.ui.main_window import MainWindow

log = logging.getLogger(__name__)
PROJECT_FILTER = "TAVeer projects (*.taveer);;All files (*)"


class ProjectController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.open_error: str | None = None  # why the last open failed, if it did
        self.session = window.session
        self.runner = window.runner
        self.integrity: IntegrityReport | None = None
        actions = window.actions
        actions.new_project.triggered.connect(self.new_project)
        actions.open_project.triggered.connect(lambda: self.open_project())
        actions.save_copy.triggered.connect(self.save_copy)
        actions.recent_menu.aboutToShow.connect(self.fill_recent_menu)

    # ---- opening ------------------------------------------------------------------------------

    def open_path(self, path: Path, create: bool = False, seed_demo: bool = False) -> bool:
        """Open (or create) a project; on failure tell the user and keep the current one."""
        if self.runner.busy:
            show_failure(
                self.window,
                "Background work is still running. Wait for it to finish (or cancel it), then "
                "open the project again.",
                title="Cannot open now",
            )
            return False
        try:
            store = self.session.open(path, create=create)
        except TaveerError as error:
            log.warning("project not opened: %s", error)
            self.open_error = str(error)
            show_failure(
                self.window, f"The project could not be opened: {error}", title="Not opened"
            )
            return False
        self.open_error = None
        if self.window.persist_settings:
            app_settings.remember_project(store.path)
        self.integrity = None
        self.runner.start(
            Job(
                "Checking the project's integrity",
                lambda _p, _c: store.check_integrity(False),
                cancellable=False,
            ),
            lambda report: self._checked(report, seed_demo),
        )
        return True

    def _checked(self, report: IntegrityReport, seed_demo: bool) -> None:
        self.integrity = report
        self.window.statusBar().showMessage(report.summary(), 10_000)
        if not report.ok:
            problems = "\n".join(f"{p.subject}: {p.message}" for p in report.problems)
            show_failure(
                self.window,
                "The project failed its integrity check: some stored evidence, model, run or "
                "audit entry no longer matches its fingerprint. The project is open read-only: "
                "you can read everything, but nothing can be added.",
                problems,
                title="Integrity check failed",
            )
        self.window.project_state_changed()
        store = self.session.store
        if seed_demo and report.ok and store is not None and demo_seed.is_empty(store):
            self.runner.start(
                Job(
                    "Adding the demo case and models",
                    lambda p, c: demo_seed.seed_demo_project(store, p, c),
                    cancellable=False,
                ),
                self._seeded,
            )
        else:
            self.window.project_ready.emit()

    def _seeded(self, result: demo_seed.SeedResult) -> None:
        self.session.changed(MODELS)
        self.session.changed(CASES)
        if result.case_numbers:
            self.window.case_list.select_case_number(result.case_numbers[0])
        self.window.statusBar().showMessage(
            "Welcome: the demo case is ready. Select it and press Verify.", 15_000
        )
        self.window.project_ready.emit()

    # ---- File menu ----------------------------------------------------------------------------

    def new_project(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(
            self.window, "New project", str(paths.data_dir()), PROJECT_FILTER
        )
        if name:
            path = Path(name)
            if path.suffix.lower() != paths.PROJECT_SUFFIX:
                path = path.with_name(path.name + paths.PROJECT_SUFFIX)
            self.open_path(path, create=True)

    def open_project(self, path: Path | None = None) -> None:
        if path is None:
            name, _filter = QFileDialog.getOpenFileName(
                self.window, "Open project", str(paths.data_dir()), PROJECT_FILTER
            )
            if not name:
                return
            path = Path(name)
        self.open_path(path)

    def fill_recent_menu(self) -> None:
        menu = self.window.actions.recent_menu
        menu.clear()
        recent = app_settings.recent_projects()
        for path in recent:
            action = menu.addAction(path.name)
            action.setToolTip(str(path) if path.exists() else f"{path} (missing)")
            action.setEnabled(path.exists() and path != self.session.path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_project(p))
        if not recent:
            menu.addAction("No recent projects").setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction("Clear the List", app_settings.clear_recent_projects)

    def save_copy(self) -> None:
        store = self.session.store
        if store is None:
            return
        suggestion = store.path.with_name(store.path.stem + "-copy" + paths.PROJECT_SUFFIX)
        name, _filter = QFileDialog.getSaveFileName(
            self.window, "Save a copy of the project", str(suggestion), PROJECT_FILTER
        )
        if not name:
            return
        target = Path(name)
        if target.suffix.lower() != paths.PROJECT_SUFFIX:
            target = target.with_name(target.name + paths.PROJECT_SUFFIX)
        try:
            written = store.save_copy(target, overwrite=target.exists())
        except TaveerError as error:
            show_failure(self.window, f"The copy was not saved: {error}", title="Not saved")
            return
        self.session.changed(CASES)
        self.window.statusBar().showMessage(f"Copy saved: {written}", 10_000)
