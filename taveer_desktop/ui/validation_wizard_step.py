"""What every page of the validation wizard shares: its base class (title, subtitle, the
wizard it belongs to, and a scroll area so that a page never pushes Back, Next and Close off a
small screen), the page ids and the small label helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget, QWizardPage

if TYPE_CHECKING:
    from taveer_desktop.ui.validation_wizard import ValidationWizard

POPULATION, CONDITIONS, METHOD, CRITERIA, RUN, RECORD = range(6)
ERROR_STYLE = "color: #b00020;"


def wrapped(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def form_label(text: str, buddy: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(buddy)
    return label


class WizardStep(QWizardPage):
    """A page of the wizard: its title, what it is for, and the wizard it belongs to."""

    def __init__(self, wizard: ValidationWizard, title: str, subtitle: str = "") -> None:
        super().__init__()
        self.owner = wizard
        self.setTitle(title)
        if subtitle:
            self.setSubTitle(subtitle)

    def scrolled(self) -> QVBoxLayout:
        """The layout of a content widget inside a scroll area that fills the page: at 150 %
        on a 1366 × 768 screen the page scrolls, the wizard's buttons stay on screen."""
        content = QWidget()
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(content)
        page_layout = QVBoxLayout(self)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.scroll_area)
        return QVBoxLayout(content)
