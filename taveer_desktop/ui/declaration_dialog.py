"""Case ▸ Examiner Declaration…: the examiner's name, role and the lab's statement of truth.

``DeclarationDialog`` shows what a report of the case still lacks (``store.declarations.
standing``), the declaration's fixed wording (the report's standard; that the opinions are the
examiner's own and within their expertise) and the statement of truth, prefilled with the lab's
(the project's latest declaration's, or the program's default), which the examiner may edit.
OK keeps the declaration as one job on the job runner's writer pool (one audited, sealed
transaction); a refusal (an empty name, control or invisible characters) comes back as the
job's answer and is shown in the dialog, which stays open. ``open_declaration(controller)`` is
what the Case menu calls.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.declaration_repository import (
    DEFAULT_STATEMENT_OF_TRUTH,
    REPORT_STANDARD,
)
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.sign_off_dialog import SignOffDialog, open_on_selected_case
from taveer_desktop.ui.task_worker import TaskWorker


class DeclarationDialog(SignOffDialog):
    def __init__(
        self, store: ProjectStore, case: Case, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(store, case, runner, parent)
        self.setWindowTitle(f"Examiner Declaration — case {case.number} — {PROGRAM_NAME}")
        latest = self.standing.declaration
        self.examiner = QLineEdit(latest.examiner if latest else case.examiner)
        self.examiner.setToolTip("The examiner who declares the report (full name)")
        self.role = QLineEdit(latest.role if latest else "")
        self.role.setPlaceholderText("e.g. forensic linguist, Example Lab")
        self.statement = QPlainTextEdit(store.declarations.lab_statement())
        self.statement.setTabChangesFocus(True)
        self.statement.setMaximumHeight(self.statement.fontMetrics().lineSpacing() * 8)
        self.statement.setToolTip(
            "The lab's statement of truth; the next declaration in this project starts from it"
        )
        fixed = QLabel(
            "<i>I, [examiner], [role], declare that this report was prepared to the standard "
            f"of {REPORT_STANDARD}; that the opinions in it are my own and within my expertise; "
            "and that I have stated the limitations of the method and of the material "
            "examined.</i>"
        )
        fixed.setWordWrap(True)
        form = QFormLayout()
        form.addRow("&Examiner:", self.examiner)
        form.addRow("&Role:", self.role)
        form.addRow("Declaration:", fixed)
        form.addRow("&Statement of truth:", self.statement)
        note = QLabel(
            "The declaration is of the case as it stands now; any later change of its "
            "evidence, runs or chosen validation makes it, and the review, stale. It is "
            "recorded in the case's audit log and cannot be changed, only made again."
        )
        note.setWordWrap(True)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Declare")
        self.buttons.accepted.connect(self.declare)
        restore = self.buttons.addButton("Default statement", QDialogButtonBox.ButtonRole.ResetRole)
        restore.clicked.connect(lambda: self.statement.setPlainText(DEFAULT_STATEMENT_OF_TRUTH))
        self.lay_out(form, note)
        resize_to_fit(self, 50, lines=34)

    @property
    def declared(self):
        """The declaration the store kept (None until it is kept)."""
        return self.kept

    def declare(self) -> TaskWorker | None:
        """Keep the declaration (a job on the writer pool); the dialog closes when it is kept."""
        store, case_id = self.store, self.case.id
        examiner, role = self.examiner.text(), self.role.text()
        statement = self.statement.toPlainText()
        return self.keep(
            f"Keeping the declaration of case {self.case.number}",
            "Not declared",
            lambda: store.declarations.declare(case_id, examiner, role, statement),
        )


def open_declaration(controller) -> SignOffDialog | None:
    """Case ▸ Examiner Declaration… for the controller's selected case."""
    return open_on_selected_case(controller, DeclarationDialog)
