"""Creating or editing a case: number (required), title, examiner, agency, description.

The dialog is given what saves it and closes only once the case is saved: a refused write (a
case number in use, the project file replaced or locked) is explained and what was typed stays.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
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
from taveer_desktop.store import Case
from taveer_desktop.ui.dialog_size import resize_to_fit


class CaseDialog(QDialog):
    def __init__(
        self,
        case: Case | None = None,
        parent: QWidget | None = None,
        save: Callable[[dict[str, str]], bool] | None = None,
    ) -> None:
        """``save`` stores the values and says whether it did; the dialog stays open if not."""
        super().__init__(parent)
        self._save = save
        self.setWindowTitle(("Edit Case" if case else "New Case") + f" — {PROGRAM_NAME}")
        self.number = QLineEdit()
        self.number.setToolTip("The case number your organisation uses; it must be unique")
        self.title = QLineEdit()
        self.title.setToolTip("A short title")
        self.examiner = QLineEdit()
        self.examiner.setToolTip("Who examines the case")
        self.agency = QLineEdit()
        self.agency.setToolTip("The requesting agency or client")
        self.description = QPlainTextEdit()
        self.description.setToolTip("The question asked and anything else worth recording")
        self.description.setTabChangesFocus(True)
        form = QFormLayout()
        form.addRow("Case &number:", self.number)
        form.addRow("&Title:", self.title)
        form.addRow("&Examiner:", self.examiner)
        form.addRow("&Agency:", self.agency)
        form.addRow("&Description:", self.description)
        note = QLabel("Every change is recorded in the case's audit log.")
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        if case is not None:
            self.number.setText(case.number)
            self.title.setText(case.title)
            self.examiner.setText(case.examiner)
            self.agency.setText(case.agency)
            self.description.setPlainText(case.description)
        self.number.textChanged.connect(self._validate)
        self._validate()
        resize_to_fit(self, 50)

    def accept(self) -> None:
        if self._save is None or self._save(self.values()):
            super().accept()

    def _validate(self) -> None:
        ok = bool(self.number.text().strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def values(self) -> dict[str, str]:
        return {
            "number": self.number.text().strip(),
            "title": self.title.text().strip(),
            "examiner": self.examiner.text().strip(),
            "agency": self.agency.text().strip(),
            "description": self.description.toPlainText().strip(),
        }
