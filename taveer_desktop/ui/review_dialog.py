"""Case ▸ Technical Review…: a second examiner reviews the case's latest declaration.

``ReviewDialog`` names the declaration under review (examiner, role, when) and what a report of
the case still lacks, and asks for the reviewer's name, the outcome (approved / changes
required) and comments (required when asking for changes). OK keeps the review as one job on
the job runner's writer pool; a refusal — the reviewer is the declaring examiner, no
declaration yet, an empty name, control characters — is shown in the dialog in the store's own
words. ``open_review(controller)`` is what the Case menu calls.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.declaration_repository import OUTCOMES
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.sign_off_dialog import SignOffDialog, open_on_selected_case
from taveer_desktop.ui.task_worker import TaskWorker


class ReviewDialog(SignOffDialog):
    def __init__(
        self, store: ProjectStore, case: Case, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(store, case, runner, parent)
        self.setWindowTitle(f"Technical Review — case {case.number} — {PROGRAM_NAME}")
        declaration = self.standing.declaration
        if declaration is None:
            under_review = "No declaration yet: the examiner declares the report first."
        else:
            under_review = (
                f"Declaration {declaration.id} by {declaration.examiner} ({declaration.role}), "
                f"{recorded_time(declaration.declared_utc)}"
            )
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
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Record Review")
        self.buttons.accepted.connect(self.record)
        self.lay_out(form, note)
        resize_to_fit(self, 45, lines=30)

    @property
    def reviewed(self):
        """The review the store kept (None until it is kept)."""
        return self.kept

    def record(self) -> TaskWorker | None:
        """Keep the review (a job on the writer pool); the dialog closes when it is kept."""
        store, case_id = self.store, self.case.id
        reviewer, outcome = self.reviewer.text(), self.outcome.currentData()
        comments = self.comments.toPlainText()
        return self.keep(
            f"Keeping the review of case {self.case.number}",
            "Not recorded",
            lambda: store.declarations.review(case_id, reviewer, outcome, comments),
        )


def open_review(controller) -> SignOffDialog | None:
    """Case ▸ Technical Review… for the controller's selected case."""
    return open_on_selected_case(controller, ReviewDialog)
