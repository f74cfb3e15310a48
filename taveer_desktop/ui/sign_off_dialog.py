"""What the two sign-off dialogs of a case share (Case ▸ Examiner Declaration… and Technical
Review…): the case's standing in words, the red line a refusal is shown on, the OK button that
keeps the entry as one job on the job runner's writer pool, and opening the dialog on the
controller's selected case.

A refusal by the store (``TaveerError``) is the job's answer, not a failure: it is shown in the
dialog in the store's own words and the dialog stays open; what the store kept is ``kept`` and
the dialog closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QWidget

from taveer_desktop.core.errors import TaveerError
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.declaration_repository import Standing
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import Job, TaskWorker


def standing_text(standing: Standing) -> str:
    """What the dialogs say of the case's report: final possible, or what it lacks."""
    if standing.final:
        return "A report of this case can now be issued as final."
    return "A report of this case is a DRAFT until: " + "; ".join(standing.missing) + "."


class SignOffDialog(QDialog):
    """The shared part (see the module); a subclass builds its form and calls ``keep``."""

    def __init__(
        self, store: ProjectStore, case: Case, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store, self.case, self.runner = store, case, runner
        self.worker: TaskWorker | None = None
        self.kept: Any = None
        self.standing = store.declarations.standing(case.id)
        self.state_label = QLabel(standing_text(self.standing))
        self.state_label.setWordWrap(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #a3141b")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.rejected.connect(self.reject)

    def keep(self, what: str, refused: str, write: Callable[[], Any]) -> TaskWorker | None:
        """Run ``write`` as the job ``what``; a refusal is shown after ``refused``."""
        if self.worker is not None:
            return None

        def run(_progress) -> Any:
            try:
                return write()
            except TaveerError as error:  # a refusal is an answer, shown in the dialog
                return _Refusal(error.plain_message)

        def done(result: Any) -> None:
            self.worker = None
            self.buttons.setEnabled(True)
            if isinstance(result, _Refusal):
                self.error_label.setText(f"{refused}: {result.message}.")
                return
            self.kept = result
            self.accept()

        self.buttons.setEnabled(False)
        self.worker = self.runner.start(Job(what, run, cancellable=False), done)
        return self.worker


class _Refusal:
    """The store's refusal of an entry, carried back from the job as its answer."""

    def __init__(self, message: str) -> None:
        self.message = message


def open_on_selected_case(controller, dialog_class: type[SignOffDialog]) -> SignOffDialog | None:
    """The dialog on the controller's selected case; the audit view reloads once it keeps."""
    from taveer_desktop.ui.project_session import AUDIT

    case, store = controller.selected_case(), controller.session.store
    if case is None or store is None:
        return None
    dialog = dialog_class(store, case, controller.runner, controller.parent_widget)
    dialog.accepted.connect(lambda: controller.session.changed(AUDIT, case_id=case.id))
    dialog.open()
    return dialog
