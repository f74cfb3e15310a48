"""A splitter whose parts start equal and whose split the examiner sets is remembered.

Used where a result's details must keep at least half of their place below the conclusion at
150 % (the Decision tab): the parts start at half each, neither can be collapsed to nothing,
and a split the examiner drags is stored in the settings (``app_settings.remember_layout``)
and restored at the next start.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtWidgets import QSplitter, QWidget

from taveer_desktop.ui import app_settings


class RememberedSplit(QSplitter):
    def __init__(self, orientation: Qt.Orientation, name: str, parent: QWidget | None) -> None:
        super().__init__(orientation, parent)
        self.name = name
        self.setChildrenCollapsible(False)
        self._restored = False
        self.splitterMoved.connect(self._moved)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._restored:  # once, when the parts have their sizes
            self._restored = True
            QTimer.singleShot(0, self._restore)

    def _restore(self) -> None:
        saved = app_settings.layout_value(self.name)
        if isinstance(saved, QByteArray) and self.restoreState(saved):
            return
        total = sum(self.sizes()) or 2
        self.setSizes([total // 2, total - total // 2])  # half each

    def _moved(self, *_args) -> None:
        app_settings.remember_layout(self.name, self.saveState())


def remembered_split(orientation: Qt.Orientation, name: str, parent: QWidget | None) -> QSplitter:
    """A splitter starting at half each, its split remembered under ``name``."""
    split = RememberedSplit(orientation, name, parent)
    split.setStretchFactor(0, 1)
    split.setStretchFactor(1, 1)
    return split
