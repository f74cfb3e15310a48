"""Case ▸ Technical Review…: a second examiner reviews the case's latest declaration.

``ReviewDialog`` names the declaration under review (examiner, role, when) and what a report of
the case still lacks, and asks for the reviewer's name, the outcome (approved / changes
required) and comments (required when asking for changes). OK keeps the review as one job on
the job runner's writer pool; a refusal — the reviewer is the declaring examiner, no
declaration yet, an empty name, control characters — is shown in the dialog in the store's own
words. ``open_review(controller)`` is what the Case menu calls.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.errors import TaveerError
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.declaration_repository import OUTCOMES
from taveer_desktop.ui.declaration_dialog import standing_text
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.task_worker import Job, TaskWorker


class ReviewDialog(QDialog):
    def __init__(
        self, store: ProjectStore, case: Case, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.store, self.case, self.runner = store, case, runner
        self.worker: TaskWorker | None = None
        self.reviewed: Any = None
        self.setWindowTitle(f"Technical Review — case {case.number} — {PROGRAM_NAME}")
        standing = store.declarations.standing(case.id)
        declaration = standing.declaration
        if declaration is None:
            under_review = "No declaration yet: the examiner declares the report first."
        else:
            under_review = (
                f"Declaration {declaration.id} by {declaration.examiner} ({declaration.role}), "
                f"{recorded_time(declaration.declared_utc)}"
            )
        self.state_label = QLabel(standing_text(standing))
        self.state_label.setWordWrap(True)
        declaration_label = QLabel(under_review)
        declaration_label.setWordWrap(True)
        self.reviewer = QLineEdit()
        self.reviewer.setToolTip("The reviewing examiner: not the one who declared the report")
        self.outcome = QComboBox()
        for value, words in OUTCOMES.items():
            self.outcome.addItem(words.capitalize(), value)
        self.comments = QPlainTextEdit()
        self.comments.setTabChangesFocus(True)
        self.comments.setMaximumHeight(self.comments.fontMetrics().lineSpacing() * 8)
        self.comments.setPlaceholderText(
            "What was checked; when asking for changes, which changes (required then)"
        )
        form = QFormLayout()
        form.addRow("Under review:", declaration_label)
        form.addRow("&Reviewer:", self.reviewer)
        form.addRow("&Outcome:", self.outcome)
        form.addRow("&Comments:", self.comments)
        note = QLabel(
            "The review is of the case as it stands now; any later change of its evidence, "
            "runs or chosen validation makes it stale. ISO/IEC 17025 (7.8) and the Forensic "
            "Science Regulator's Code ask for it before a report is issued."
        )
        note.setWordWrap(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #a3141b")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Record Review")
        self.buttons.accepted.connect(self.record)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.state_label)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        resize_to_fit(self, 45)

    def record(self) -> TaskWorker | None:
        if self.worker is not None:
            return None
        store, case_id = self.store, self.case.id
        reviewer, outcome = self.reviewer.text(), self.outcome.currentData()
        comments = self.comments.toPlainText()

        def write(_progress) -> Any:
            try:
                return store.declarations.review(case_id, reviewer, outcome, comments)
            except TaveerError as error:
                return error.plain_message

        self.buttons.setEnabled(False)
        job = Job(f"Keeping the review of case {self.case.number}", write, cancellable=False)
        self.worker = self.runner.start(job, self._done)
        return self.worker

    def _done(self, result: Any) -> None:
        self.worker = None
        self.buttons.setEnabled(True)
        if isinstance(result, str):
            self.error_label.setText(f"Not recorded: {result}.")
            return
        self.reviewed = result
        self.accept()


def open_review(controller) -> ReviewDialog | None:
    """Case ▸ Technical Review… for the controller's selected case."""
    from taveer_desktop.ui.project_session import AUDIT

    case, store = controller.selected_case(), controller.session.store
    if case is None or store is None:
        return None
    dialog = ReviewDialog(store, case, controller.runner, controller.parent_widget)
    dialog.accepted.connect(lambda: controller.session.changed(AUDIT, case_id=case.id))
    dialog.open()
    return dialog
