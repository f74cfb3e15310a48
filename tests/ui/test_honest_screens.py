"""Issue 23's smaller items on the desktop, each with its test: the status bar's passing
message never overlaps the project's name; the model picker shows every model's validation
figures; the model manager keeps names readable on a laptop screen; Evaluate shows Cllr."""

from __future__ import annotations

from PySide6.QtCore import QRect


def test_the_status_message_is_shortened_never_painted_under_the_project(demo_window, qtbot):
    window = demo_window
    window.resize(866, 600)  # the window's minimum width (1366 × 768 at 150 %)
    qtbot.wait(50)
    line = window.status_line
    long = "Verification of DEMO-002 started with the model " + "Bundled model " * 8
    line.show_message(long, 10_000)
    qtbot.wait(50)
    message, project = line.message_label, line.project_label
    assert message.text() == long  # the whole text on hover and for tests
    from PySide6.QtWidgets import QLabel

    shown = QLabel.text(message)  # what is painted
    assert shown.endswith("…") and long in message.toolTip()
    left = QRect(message.mapTo(window, message.rect().topLeft()), message.size())
    right = QRect(project.mapTo(window, project.rect().topLeft()), project.size())
    assert message.isVisible() and project.isVisible()
    assert left.right() < right.left(), (left, right)
    assert window.statusBar().currentMessage() == ""  # nothing painted under the widgets
    assert message.width() < message.fontMetrics().horizontalAdvance(long)
