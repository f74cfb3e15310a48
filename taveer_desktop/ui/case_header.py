"""The heading above the case's tabs: the case's number and title, who examines it, what it is.

A long description is shortened to ``DETAILS_SHOWN_CHARS`` (the tabs keep their room); all of
it is in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from taveer_desktop.store import Case

DETAILS_SHOWN_CHARS = 240


class CaseHeader(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.heading.setFont(font)
        self.details = QLabel()
        for label in (self.heading, self.details):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.details)

    def show_case(self, case: Case | None, project_open: bool) -> None:
        if case is None:
            self.heading.setText("No case selected" if project_open else "No project open")
            self.details.setText(
                "Select a case on the left, or create one with Case ▸ New Case."
                if project_open
                else "Open or create a project with the File menu."
            )
            self.details.setToolTip("")
            return
        self.heading.setText(f"{case.number} — {case.title}" if case.title else case.number)
        people = ", ".join(p for p in (case.examiner, case.agency) if p)
        details = (f"{people}. " if people else "") + (case.description or "No description.")
        shown = " ".join(details.split())
        if len(shown) > DETAILS_SHOWN_CHARS:
            shown = shown[:DETAILS_SHOWN_CHARS].rsplit(" ", 1)[0] + " …"
        self.details.setText(shown)
        self.details.setToolTip(details)
