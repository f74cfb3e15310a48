"""The first-start guide beside the case list: the first steps of a case in a few lines, shown
on every start until the examiner hides it (remembered in the settings, ``app_settings``).

It replaces the status bar's fifteen-second "Welcome" hint, which was cut at 150 % and gone
before it was read. The words are ``presentation/first_start_text.py``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation import first_start_text as text
from taveer_desktop.ui import app_settings


class FirstStartGuide(QFrame):
    """The guide (hidden at once when it was dismissed before)."""

    dismissed = Signal()

    def __init__(self, remember: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("first_start_guide")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.remember = remember
        self.label = QLabel(text.guide_html())
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide_button = QPushButton(text.GUIDE_DISMISS)
        self.hide_button.setToolTip(text.GUIDE_DISMISS_TIP)
        self.hide_button.clicked.connect(self.dismiss)
        # the steps scroll in the room left under the case list (narrow at 150 %): the list
        # keeps most of the column
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.hide_button, alignment=Qt.AlignmentFlag.AlignRight)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.setVisible(not app_settings.guide_dismissed())

    def dismiss(self) -> None:
        """Hide the guide, and (``remember``) for every later start too."""
        if self.remember:
            app_settings.dismiss_guide()
        self.setVisible(False)
        self.dismissed.emit()
