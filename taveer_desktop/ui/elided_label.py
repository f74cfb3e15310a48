"""A one-line label that shortens its text with "…" to the width it is given.

``ElidedLabel`` keeps its whole text (``text()`` returns it, the tooltip shows it unless one is
set) and paints as much as fits, so a long model name, validation sentence or case description
takes one line instead of pushing what matters below the fold on a small screen (1366 × 768 at
150 %). It asks for no width of its own: the layout decides, the text follows.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """Plain text on one line, shortened at the end with "…" where it does not fit."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._own_tip = False
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(" ".join(text.split()))
        if not self._own_tip:
            super().setToolTip(text if self.elided() else "")

    def setToolTip(self, tip: str) -> None:
        self._own_tip = bool(tip)
        super().setToolTip(tip)

    def shown_text(self) -> str:
        """The text as painted (shortened with "…" where it does not fit)."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, max(self.contentsRect().width(), 0)
        )

    def elided(self) -> bool:
        return self.shown_text() != self.text()

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("M…"), super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(
            min(hint.width(), self.fontMetrics().horizontalAdvance("m") * 40), hint.height()
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if not self._own_tip:
            super().setToolTip(self.text() if self.elided() else "")

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(
            self.contentsRect(),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            self.shown_text(),
        )
