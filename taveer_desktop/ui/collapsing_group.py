"""A checkable group box that, unticked, is only its tick box and title.

A ``QGroupBox`` whose fields are hidden until it is ticked still drew an empty frame under its
title (the report dialog's "Sign with a certificate (PAdES)", the sign-off dialogs' checkpoint
signature), and ``setFlat`` does not remove it in Qt's Fusion style. ``CollapsingGroupBox``
draws no frame and keeps no margins while unticked; ticked, it is an ordinary group box around
its fields.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QGroupBox,
    QStyle,
    QStyleOptionGroupBox,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)


class CollapsingGroupBox(QGroupBox):
    """A checkable ``QGroupBox`` holding ``content``, shown only while it is ticked."""

    def __init__(self, title: str, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setCheckable(True)
        self.setChecked(False)
        self.content = content
        layout = self._layout = QVBoxLayout(self)
        self._margins = layout.contentsMargins()
        layout.addWidget(content)
        self.toggled.connect(self._show)
        self._show(False)

    def _show(self, ticked: bool) -> None:
        self.content.setVisible(ticked)
        self.setFlat(not ticked)
        if ticked:
            self._layout.setContentsMargins(self._margins)
        else:
            self._layout.setContentsMargins(0, 0, 0, 0)
        self.updateGeometry()

    def paintEvent(self, _event) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionGroupBox()
        self.initStyleOption(option)
        if not self.isChecked():  # the tick box and its title, no empty frame under them
            option.subControls &= ~QStyle.SubControl.SC_GroupBoxFrame
        painter.drawComplexControl(QStyle.ComplexControl.CC_GroupBox, option)
