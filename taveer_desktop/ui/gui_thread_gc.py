"""Python's cyclic garbage collector, run on the GUI thread only, once background jobs exist.

Left to itself, the collector runs in whichever thread happens to allocate past its threshold —
often a pool thread busy with a validation. A cycle it frees there may hold a Qt object (a
closed window's widgets reachable from a lambda): its C++ destructor then runs on the pool
thread, takes Qt's locks while holding the interpreter lock, and can freeze against the GUI
thread doing the opposite, or delete an object the GUI thread is using.

``install()`` (called by every ``JobRunner``) turns automatic collection off and lets a timer of
the running ``QCoreApplication`` collect instead: every ``CHECK_INTERVAL_MS`` it looks at
Python's allocation counts and collects the oldest generation past its threshold, exactly the
rule the automatic collector follows, only always on the GUI thread. Once the application
object is gone, automatic collection is switched back on.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

CHECK_INTERVAL_MS = 250


class GuiThreadCollector(QObject):
    """Collects garbage on the thread of the application object (the GUI thread)."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.collections = 0
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._timer.start()
        self.destroyed.connect(lambda *_: gc.enable())
        gc.disable()

    def check(self) -> None:
        """Collect the oldest generation whose count passed its threshold, if any."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if thresholds[generation] and counts[generation] > thresholds[generation]:
                gc.collect(generation)
                self.collections += 1
                return


def install() -> GuiThreadCollector | None:
    """The application's collector, made on the first call; None without an application."""
    app = QCoreApplication.instance()
    if app is None:
        return None
    existing = app.findChild(GuiThreadCollector)
    return existing if existing is not None else GuiThreadCollector(app)
