"""The main window's size, position and splitter positions, kept between sessions.

On first start the window takes most of the screen (the result views need room) and the case
list a fifth of its width, and on a short screen (under ``SHORT_SCREEN`` device-independent
pixels of height: a 1366 × 768 laptop at 150 % has 512) the toolbar starts hidden — every one of
its actions is in the menus with its shortcut, and its line is the room of two lines of the
conclusion; the menu bar's context menu shows it again, and that choice is kept. Afterwards the
window opens as it was left. Only splitters named in
``SPLITTERS`` are kept (their object names are the settings keys).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QMainWindow, QSplitter, QToolBar

from taveer_desktop.ui.app_settings import settings

SPLITTERS = ("main_splitter", "documents_splitter")  # the Verification tab fits itself
_PREFIX = "main_window/"
SHORT_SCREEN = 600  # device-independent pixels of available height


def _splitters(window: QMainWindow) -> dict[str, QSplitter]:
    return {
        s.objectName(): s for s in window.findChildren(QSplitter) if s.objectName() in SPLITTERS
    }


def restore(window: QMainWindow, main_splitter: QSplitter) -> bool:
    """Restore what was saved; return whether ``main_splitter`` got its saved position."""
    store = settings()
    restored = False
    for name, splitter in _splitters(window).items():
        state = store.value(_PREFIX + name)
        if isinstance(state, QByteArray) and splitter.restoreState(state):
            restored |= splitter is main_splitter
    geometry = store.value(_PREFIX + "geometry")
    state = store.value(_PREFIX + "state")
    if geometry is not None and window.restoreGeometry(geometry):
        if state is not None:
            window.restoreState(state)
        return restored
    screen = window.screen()
    if screen is not None:  # first start: most of the screen, centred
        area = screen.availableGeometry()
        if area.height() < SHORT_SCREEN:
            for toolbar in window.findChildren(QToolBar):
                toolbar.setVisible(False)
        window.resize(max(area.width() * 9 // 10, 640), max(area.height() * 9 // 10, 480))
        frame = window.frameGeometry()
        frame.moveCenter(area.center())
        window.move(frame.topLeft())
    return restored


def first_split(window: QMainWindow, main_splitter: QSplitter) -> None:
    """A fifth of the width for the case list (first start, once the window is shown)."""
    width = max(window.width(), main_splitter.width())
    main_splitter.setSizes([width // 5, width - width // 5])


def save(window: QMainWindow) -> None:
    store = settings()
    store.setValue(_PREFIX + "geometry", window.saveGeometry())
    store.setValue(_PREFIX + "state", window.saveState())
    for name, splitter in _splitters(window).items():
        store.setValue(_PREFIX + name, splitter.saveState())
    store.sync()
