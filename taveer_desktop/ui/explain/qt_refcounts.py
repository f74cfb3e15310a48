"""Keep PySide6 6.12 on Python 3.11 from aborting with "deallocating None/True or False".

Measured here (PySide6 6.12.0, Python 3.11.7): every call of a Qt method that returns nothing
drops one reference of ``None`` (the report package's ``qt_workaround.protect_none`` handles
that), and every ``Signal.disconnect(slot)`` — which returns a ``bool`` — drops one reference of
``True``. pyqtgraph disconnects two signals each time an item leaves a plot, so redrawing the
importance chart a few thousand times ends the process with "Fatal Python error:
bool_dealloc". From Python 3.12 on these objects are immortal and the bug is harmless;
``protect_constants`` gives ``None``, ``True`` and ``False`` 2**40 extra references once per
process (what 3.12 does by design), after checking that the counter it changes is the
reference count.
"""

from __future__ import annotations

import ctypes
import sys

from taveer_desktop.report.qt_workaround import EXTRA_REFERENCES, protect_none

_protected: dict[bool, bool] = {}


def _protect(obj: bool) -> bool:
    if obj in _protected:
        return _protected[obj]
    before = sys.getrefcount(obj)
    counter = ctypes.c_ssize_t.from_address(id(obj))
    if abs(counter.value - before) > 16:  # not the reference count: unknown layout, leave it
        _protected[obj] = False
        return False
    counter.value += EXTRA_REFERENCES
    _protected[obj] = sys.getrefcount(obj) - before >= EXTRA_REFERENCES - 16
    return _protected[obj]


def protect_constants() -> bool:
    """Make ``None``, ``True`` and ``False`` effectively immortal on Python < 3.12."""
    if sys.version_info >= (3, 12):
        return True
    none_ok = protect_none()
    return none_ok and _protect(True) and _protect(False)
