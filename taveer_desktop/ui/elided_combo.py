"""A combo box that shortens its shown choice with "…" to the room it has.

A ``QComboBox`` narrower than its text cuts the text off mid-word and without a mark ("…
Public-domain demo populatic", "(6,000–24,300/30,800–123,"): a reader cannot tell that more
follows. ``ElidedComboBox`` paints the current choice shortened at its end with "…" instead
(the drop-down list shows every choice whole) and shows the whole choice on hover. It asks for
the width of ``minimum_chars`` characters, not of its longest choice, so a long model or run
name never widens its dialog past a small screen (1366 × 768 at 150 %).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)


class ElidedComboBox(QComboBox):
    """A ``QComboBox`` whose shown choice ends in "…" where it does not fit."""

    def __init__(self, parent: QWidget | None = None, minimum_chars: int = 24) -> None:
        super().__init__(parent)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(minimum_chars)
        self.hint = ""  # what the box is, on hover before the whole choice
        self.currentTextChanged.connect(self._tip)

    def _tip(self, text: str) -> None:
        self.setToolTip("\n".join(t for t in (self.hint, text) if t))

    def _option(self) -> QStyleOptionComboBox:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        return option

    def shown_text(self) -> str:
        """The current choice as painted: whole where it fits, else shortened with "…"."""
        option = self._option()
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox,
            option,
            QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        return self.fontMetrics().elidedText(
            self.currentText(), Qt.TextElideMode.ElideRight, max(field.width(), 0)
        )

    def paintEvent(self, _event) -> None:
        painter = QStylePainter(self)
        option = self._option()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
