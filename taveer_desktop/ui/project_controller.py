"""File menu work: open, create, reopen and copy projects; receipts; first start.

A ``ProjectController`` is given the session, the job runner and a parent widget for its
dialogs, and announces outcomes as signals (``integrity_checked``, ``demo_seeded``,
``project_ready``, ``status_message``). On opening, the integrity check runs as a background job
(a store that fails it is read-only and the user is told). When the default project is empty on
first start, the demo cases and the bundled models are seeded into it by another job;
``project_ready`` is emitted when both are done.

Receipts (``store.receipts``, the functions behind ``taveer receipt`` and ``check --receipt``):
*Write Receipt…* and *Check Against Receipt…* run on the writer pool, so they see every write
asked for before them; the check runs the full integrity check first, as the CLI does, and
says plainly whether the project continues the receipt (``receipt_text``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from taveer_desktop import PROGRAM_NAME, paths
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.store import IntegrityReport, ProjectStore, demo_project
from taveer_desktop.store.receipts import Receipt, read_receipt, write_receipt
from taveer_desktop.store.records import utc_now
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.error_dialog import show_failure
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import AUDIT, CASES, MODELS, ProjectSession
from taveer_desktop.ui.receipt_text import (
    ReceiptCheckOutcome,
    receipt_check_outcome,
    receipt_written_text,
)
from taveer_desktop.ui.task_worker import Job

log = logging.getLogger(__name__)
PROJECT_FILTER = "TAVeer projects (*.taveer);;All files (*)"
RECEIPT_FILTER = "TAVeer receipts (*.json);;All files (*)"


class ProjectController(QObject):
    """Opens projects (checking and, on first start, seeding them), copies and receipts."""

    integrity_checked = Signal(object)  # IntegrityReport
    demo_seeded = Signal(object)  # SeedResult
    project_ready = Signal()  # opened, checked and (first start) seeded
    status_message = Signal(str, int)  # text, milliseconds to show it

    def __init__(
        self,
        session: ProjectSession,
        runner: JobRunner,
        parent: QWidget,
        remember_projects: bool = True,
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.session = session
        self.runner = runner
        self.remember_projects = remember_projects  # in the recent list (not in tests)
        self.open_error: str | None = None  # why the last open failed, if it did
        self.integrity: IntegrityReport | None = None
        self.receipt_box: QMessageBox | None = None  # the last receipt message (for tests)

    # ---- opening ------------------------------------------------------------------------------

    def open_path(self, path: Path, create: bool = False, seed_demo: bool = False) -> bool:
        """Open (or create) a project; on failure tell the user and keep the current one."""
        if self.runner.busy:
            show_failure(
                self.parent_widget,
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
                self.parent_widget, f"The project could not be opened: {error}", title="Not opened"
            )
            return False
        self.open_error = None
        if self.remember_projects:
            app_settings.remember_project(store.path)
        self.integrity = None
        self.runner.start(
            Job(
                "Checking the project's integrity",
                lambda _p: store.check_integrity(False),
                cancellable=False,
            ),
            lambda report: self._checked(report, seed_demo),
        )
        return True

    def _checked(self, report: IntegrityReport, seed_demo: bool) -> None:
        self.integrity = report
        self.status_message.emit(report.summary(), 10_000)
        if not report.ok:
            problems = "\n".join(f"{p.subject}: {p.message}" for p in report.problems)
            show_failure(
                self.parent_widget,
                "The project failed its integrity check: some stored evidence, model, run or "
                "audit entry no longer matches its fingerprint. The project is open read-only: "
                "you can read everything, but nothing can be added.",
                problems,
                title="Integrity check failed",
            )
        self.integrity_checked.emit(report)
        store = self.session.store
        if seed_demo and report.ok and store is not None and demo_project.is_empty(store):
            self.runner.start(
                Job(
                    "Adding the demo case and models",
                    lambda p: demo_project.seed_demo_project(store, p),
                    cancellable=False,
                ),
                self._seeded,
            )
        else:
            self.project_ready.emit()

    def _seeded(self, result: demo_project.SeedResult) -> None:
        self.session.changed(MODELS, CASES)
        self.demo_seeded.emit(result)
        self.status_message.emit("The demo case is ready: see the guide beside the cases.", 5_000)
        self.project_ready.emit()

    # ---- File menu ----------------------------------------------------------------------------

    def new_project(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(
            self.parent_widget, "New project", str(paths.data_dir()), PROJECT_FILTER
        )
        if name:
            path = Path(name)
            if path.suffix.lower() != paths.PROJECT_SUFFIX:
                path = path.with_name(path.name + paths.PROJECT_SUFFIX)
            self.open_path(path, create=True)

    def open_project(self, path: Path | None = None) -> None:
        if path is None:
            name, _filter = QFileDialog.getOpenFileName(
                self.parent_widget, "Open project", str(paths.data_dir()), PROJECT_FILTER
            )
            if not name:
                return
            path = Path(name)
        self.open_path(path)

    def fill_recent_menu(self, menu: QMenu) -> None:
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

    def save_copy(self) -> Path | None:
        """File ▸ Save a Copy: ask where, then write the copy."""
        store = self.session.store
        if store is None:
            return None
        suggestion = store.path.with_name(store.path.stem + "-copy" + paths.PROJECT_SUFFIX)
        name, _filter = QFileDialog.getSaveFileName(
            self.parent_widget, "Save a copy of the project", str(suggestion), PROJECT_FILTER
        )
        return self.save_copy_to(Path(name)) if name else None

    def save_copy_to(self, target: Path) -> Path | None:
        """Write a complete copy of the open project to ``target`` (its audit log notes it)."""
        store = self.session.store
        if store is None:
            return None
        if target.suffix.lower() != paths.PROJECT_SUFFIX:
            target = target.with_name(target.name + paths.PROJECT_SUFFIX)
        try:
            written = store.save_copy(target, overwrite=target.exists())
        except TaveerError as error:
            show_failure(self.parent_widget, f"The copy was not saved: {error}", title="Not saved")
            return None
        self.session.changed(AUDIT)
        self.status_message.emit(f"Copy saved: {written}", 10_000)
        return written

    # ---- receipts -----------------------------------------------------------------------------

    def suggested_receipt_name(self, store: ProjectStore) -> Path:
        stamp = utc_stamp()
        return store.path.with_name(f"{store.path.stem}-receipt-{stamp}.json")

    def write_receipt(self, target: Path | None = None):
        """File ▸ Write Receipt: ask for a file (unless given) and write it on the writer pool."""
        store = self.session.store
        if store is None:
            return None
        if target is None:
            name, _filter = QFileDialog.getSaveFileName(
                self.parent_widget,
                "Write a receipt of the project",
                str(self.suggested_receipt_name(store)),
                RECEIPT_FILTER,
            )
            if not name:
                return None
            target = Path(name)
        return self.runner.start(
            Job(
                "Writing a receipt of the project",
                lambda _p: write_receipt(store, target),
                cancellable=False,
            ),
            lambda receipt: self._receipt_written(receipt, target),
        )

    def _receipt_written(self, receipt: Receipt, target: Path) -> None:
        self.status_message.emit(f"Receipt written: {target}", 10_000)
        self._show_receipt_box(
            "Receipt written", receipt_written_text(receipt, target), QMessageBox.Icon.Information
        )

    def check_receipt(self, receipt_file: Path | None = None):
        """File ▸ Check Against Receipt: read the receipt, then check the project against it."""
        store = self.session.store
        if store is None:
            return None
        if receipt_file is None:
            name, _filter = QFileDialog.getOpenFileName(
                self.parent_widget,
                "Check the project against a receipt",
                str(store.path.parent),
                RECEIPT_FILTER,
            )
            if not name:
                return None
            receipt_file = Path(name)
        try:
            receipt = read_receipt(receipt_file)
        except TaveerError as error:
            show_failure(
                self.parent_widget, f"The receipt was not read: {error}", title="Not checked"
            )
            return None

        def run(_p):  # the state root and every record sealed at the receipt included
            report = store.check_integrity(True, receipt=receipt)
            return report, list(report.receipt.problems) if report.receipt else []

        return self.runner.start(
            Job("Checking the project against a receipt", run, cancellable=False),
            lambda result: self._receipt_checked(receipt, receipt_file, *result),
        )

    def _receipt_checked(
        self, receipt: Receipt, receipt_file: Path, report: IntegrityReport, problems: list[str]
    ) -> ReceiptCheckOutcome:
        self.integrity = report
        outcome = receipt_check_outcome(receipt, problems, report, receipt_file)
        self.status_message.emit(outcome.headline, 15_000)
        icon = QMessageBox.Icon.Information if outcome.ok else QMessageBox.Icon.Critical
        box = self._show_receipt_box(
            "Receipt check passed" if outcome.ok else "Receipt check failed",
            outcome.headline,
            icon,
            outcome.explanation,
            outcome.details,
        )
        box.setProperty("outcome_ok", outcome.ok)
        self.integrity_checked.emit(report)
        return outcome

    def _show_receipt_box(
        self, title: str, text: str, icon, informative: str = "", details: str = ""
    ) -> QMessageBox:
        box = QMessageBox(self.parent_widget)
        box.setIcon(icon)
        box.setWindowTitle(f"{title} — {PROGRAM_NAME}")
        box.setText(text)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if informative:
            box.setInformativeText(informative)
        if details:
            box.setDetailedText(details)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r: setattr(self, "receipt_box", None))
        self.receipt_box = box
        box.open()
        return box


def utc_stamp() -> str:
    """``20260126T031500Z``: a file-name-safe UTC time for a suggested receipt name."""
    return utc_now()[:19].replace("-", "").replace(":", "") + "Z"
