"""Whether what must be read lies on screen (not a test): used by the layout tests and the
screenshot scripts.

``hidden_part(widget)`` is the part of a widget that cannot be seen without scrolling or
resizing — clipped by a scroll area's viewport, a splitter, its window or the screen — measured
from Qt's own ``visibleRegion`` and the window's place on its screen; ``text_cut(label)`` the
lines of a word-wrapped label that its height leaves out. ``conclusion_hidden(window)``
applies it to the conclusion of the shown run: its kind and its statement with the likelihood
ratio (``DecisionSummary.kind_label`` and ``headline``): its kind must be in view, and the
rest in view or in the conclusion's own place, which is wholly in view and scrolls to it (the
conclusion takes at most half of the result, so that the result's tabs keep the other half at
150 %, issue 33).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QLabel, QWidget


def hidden_part(widget: QWidget, on_screen: bool = True) -> QRegion:
    """The part of ``widget`` (its own coordinates) not visible: all of it when hidden.
    ``on_screen`` False leaves the screen out (the offscreen platform's is 800 × 600)."""
    whole = QRegion(widget.rect())
    if not widget.isVisible() or widget.rect().isEmpty():
        return whole
    hidden = whole.subtracted(widget.visibleRegion())
    window = widget.window()
    screen = window.screen().availableGeometry() if window.screen() and on_screen else None
    if screen is not None:
        on_screen = QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size()).intersected(screen)
        visible = QRegion(on_screen.translated(-widget.mapToGlobal(QPoint(0, 0))))
        hidden = hidden.united(whole.subtracted(visible))
    return hidden


def text_cut(label: QLabel) -> int:
    """How many pixels of a word-wrapped label's text its height leaves out (0: none)."""
    if not label.wordWrap():
        return 0
    return max(0, label.heightForWidth(label.width()) - label.height())


def place_in_view(place: QWidget, on_screen: bool = True) -> bool:
    """Whether all of ``place`` (a scroll area) lies inside its window (and on its screen)."""
    window = place.window()
    if not place.isVisible():
        return False
    inside = QRect(place.mapTo(window, QPoint(0, 0)), place.size())
    if not window.rect().contains(inside):
        return False
    screen = window.screen().availableGeometry() if window.screen() and on_screen else None
    return screen is None or screen.contains(QRect(place.mapToGlobal(QPoint(0, 0)), place.size()))


def conclusion_hidden(window, on_screen: bool = True) -> dict[str, QRect]:
    """For the kind and the statement of the shown conclusion, the bounding box of any part
    hidden (empty when all is well)."""
    panel = window.verification_tab.result_view
    summary = panel.result_view.summary
    place = panel.conclusion_scroll  # the conclusion's own place, scrolled within it
    parts = {"kind": summary.kind_label, "statement": summary.headline}
    if summary.investigative_label.isVisibleTo(summary):  # an investigative conclusion's ratio
        parts["ratio"] = summary.investigative_label
    reachable = place.widget().height() <= (
        place.viewport().height() + place.verticalScrollBar().maximum()
    )
    hidden = {}
    for name, widget in parts.items():
        part = hidden_part(widget, on_screen)
        if name != "kind" and reachable and not part.isEmpty():  # there by its own scrolling
            part = QRegion() if place_in_view(place, on_screen) else part
        cut = text_cut(widget)
        if cut:  # the label is on screen but too short for its wrapped text
            part = part.united(QRect(0, widget.height() - cut, widget.width(), cut))
        if not part.isEmpty():
            hidden[name] = part.boundingRect()
    return hidden
