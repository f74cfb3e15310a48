"""The heading above the case's tabs: the case's number and title, who examines it, what it is.

The number and title take one line, and so do the examiner, agency and description, each
shortened with "…" where the window is narrow (``ElidedLabel``), so that the tabs keep their room
on a small screen at 150 % (a long title wrapped onto a second line took the room of the
result's first lines); all of it is in the tooltips. On a short screen (``SHORT_SCREEN``, as
1366 × 768 at 150 % is) the second line is left out and its text is in the heading's tooltip:
that line is the room of the first reason under a limited conclusion.
"""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from taveer_desktop.store import Case
from taveer_desktop.ui.elided_label import ElidedLabel
from taveer_desktop.ui.window_geometry import SHORT_SCREEN


class CaseHeader(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = ElidedLabel()
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.heading.setFont(font)
        self.details = ElidedLabel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.details)

    def _short_screen(self) -> bool:
        screen = self.screen()
        return screen is not None and screen.availableGeometry().height() < SHORT_SCREEN

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_to_screen()

    def _fit_to_screen(self) -> None:
        short = self._short_screen()
        self.details.setVisible(not short)
        heading = self.heading.text()
        if short:
            self.heading.setToolTip(f"{heading}\n{self.details.text()}")
        else:  # the heading's own tooltip again: its whole text when shortened
            self.heading.setToolTip("")
            self.heading.setText(heading)

    def show_case(self, case: Case | None, project_open: bool) -> None:
        if case is None:
            self.heading.setText("No case selected" if project_open else "No project open")
            self.details.setText(
                "Select a case on the left, or create one with Case ▸ New Case."
                if project_open
                else "Open or create a project with the File menu."
            )
            self.details.setToolTip("")
            self._fit_to_screen()
            return
        self.heading.setText(f"{case.number} — {case.title}" if case.title else case.number)
        people = ", ".join(p for p in (case.examiner, case.agency) if p)
        details = (f"{people}. " if people else "") + (case.description or "No description.")
        self.details.setText(details)
        self.details.setToolTip(details)
        self._fit_to_screen()
