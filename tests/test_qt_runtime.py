"""Guards against a PySide6 release that corrupts Python's reference counts.

PySide6 6.12.0 on Python 3.11 dropped one reference to ``None`` on every Qt call returning
nothing and one to ``True`` on every ``Signal.disconnect``; after a few thousand calls Python
aborts ("none_dealloc"/"bool_dealloc"), e.g. while painting a report or redrawing a chart.
pyproject.toml excludes that release; these tests fail loudly if an installed PySide6 has the
same defect, instead of letting the application crash in an examiner's session.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage, QPainter

CALLS = 500


def test_qt_calls_returning_nothing_keep_none_alive(qapp):
    image = QImage(32, 32, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        before = sys.getrefcount(None)
        for _ in range(CALLS):
            painter.drawLine(0, 0, 10, 10)
        assert sys.getrefcount(None) - before > -CALLS // 10
    finally:
        painter.end()


class _Emitter(QObject):
    happened = Signal()


def test_signal_disconnect_keeps_true_alive(qapp):
    emitter = _Emitter()

    def slot() -> None:
        return None

    before = sys.getrefcount(True)
    for _ in range(CALLS // 5):
        emitter.happened.connect(slot)
        emitter.happened.disconnect(slot)
    assert sys.getrefcount(True) - before > -CALLS // 50
