"""Keep PySide6 6.12 on Python 3.11 from crashing the process with "deallocating None".

Measured here (PySide6 6.12.0, Python 3.11.7): every call of a Qt method that returns nothing
(``QPainter.drawLine``, ``setPen``, ``QImage.fill`` …) hands Python a ``None`` without the
reference that goes with it, so ``None``'s reference count drops by one per call. Drawing a
report makes tens of thousands of such calls; when the count reaches zero Python aborts with
"Fatal Python error: none_dealloc". From Python 3.12 on ``None`` is immortal and the bug is
harmless. ``protect_none`` gives ``None`` 2**40 extra references once per process (what 3.12
does by design), which no session can use up. It checks that the count really moved and
leaves everything untouched otherwise (e.g. on an interpreter built with another object
layout).
"""

from __future__ import annotations

import ctypes
import sys

EXTRA_REFERENCES = 1 << 40
_protected: list[bool] = []


def protect_none() -> bool:
    """Make ``None`` effectively immortal on Python < 3.12; True if it is protected now."""
    if sys.version_info >= (3, 12):
        return True
    if _protected:
        return _protected[0]
    before = sys.getrefcount(None)
    counter = ctypes.c_ssize_t.from_address(id(None))
    if abs(counter.value - before) > 16:  # not the reference count: unknown layout, leave it
        _protected.append(False)
        return False
    counter.value += EXTRA_REFERENCES
    ok = sys.getrefcount(None) - before >= EXTRA_REFERENCES - 16
    _protected.append(ok)
    return ok
