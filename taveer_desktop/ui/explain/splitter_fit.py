"""Turns a two-part splitter side by side where both parts fit the width, one above the other
where they do not (a narrow window or 150 %), so that a result's tab never scrolls sideways
and cuts its text (the Features tab's chart and table, the Decision tab's score and chart).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QSplitter, QWidget


def least_width(part: QWidget) -> int:
    """The least width ``part`` shows whole in: a scroll area's, that of what it scrolls."""
    scrolled = part.widget() if isinstance(part, QScrollArea) else None
    if isinstance(part, QScrollArea) and scrolled is not None:
        inner = scrolled.minimumSizeHint().width()
        return inner + part.verticalScrollBar().sizeHint().width() + 2 * part.frameWidth()
    return part.minimumSizeHint().width()


def fit_orientation(splitter: QSplitter, width: int, *above: QWidget) -> bool:
    """Side by side when ``width`` holds both parts' least widths and four "m"s, else one
    above the other; ``above``: the widgets whose layouts must learn the new least width.
    True if the orientation changed."""
    parts = (splitter.widget(i) for i in range(splitter.count()))
    side_by_side = sum(least_width(part) for part in parts if part is not None)
    roomy = width >= side_by_side + 4 * splitter.fontMetrics().horizontalAdvance("m")
    wanted = Qt.Orientation.Horizontal if roomy else Qt.Orientation.Vertical
    if splitter.orientation() == wanted:
        return False
    splitter.setOrientation(wanted)
    # the layouts above keep the side-by-side least width until told: without this the
    # result stays wider than a small screen and scrolls sideways
    splitter.updateGeometry()
    for widget in above:
        widget.updateGeometry()
    return True
