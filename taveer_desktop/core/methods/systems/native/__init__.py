"""The compiled unmasking curve (``unmasking_curve.c``), loaded with ctypes where it was built.

``scripts/build_native.py`` compiles the C file into a library beside this module
(``scripts/setup.sh`` runs it; ``packaging/taveer.spec`` puts the library in the bundle). It
computes what ``unmasking.degradation_curves`` computes in numpy for chunk sets whose features
outnumber their samples — the same model, solver, starts and removals — about four times
faster (docs/performance.md), because a fold model's active set is small and C can work on it
alone where numpy works on whole arrays.

Where the library is absent (set up without a C compiler) or fails to load, ``curves`` returns
None and the caller computes in numpy; ``engine()`` says which one runs. The two sum some
numbers in a different order, so a held-out chunk whose decision value lies within rounding of
0 can be predicted differently: measured, 1 curve point in 7,200 (docs/method.md).
"""

from __future__ import annotations

import ctypes
import functools
import sys
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).with_name("unmasking_curve.c")
# a dotted name, so that no import machinery (pkgutil's walk of the package, PyInstaller's
# analysis) takes the library for a Python extension module called _unmasking_curve
LIBRARY = Path(__file__).with_name(
    "_unmasking_curve.lib" + {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
)

_STATUS = {  # the C function's negative returns
    -1: "a Newton system was not positive definite",
    -2: "out of memory",
    -3: "arguments out of range",
}

_DOUBLES = ctypes.POINTER(ctypes.c_double)
_INT64S = ctypes.POINTER(ctypes.c_int64)


@functools.cache
def _function() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    """The C function, or None where the library is not there or cannot be loaded."""
    if not LIBRARY.is_file():
        return None
    try:
        library = ctypes.CDLL(str(LIBRARY))
        function = library.taveer_unmasking_curve
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,  # samples
        ctypes.c_int,  # features
        _DOUBLES,  # samples (n x f)
        _DOUBLES,  # labels
        _INT64S,  # folds
        ctypes.c_int,  # number of folds
        ctypes.c_int,  # features removed per side
        ctypes.c_int,  # rounds
        ctypes.c_double,  # C
        _DOUBLES,  # the curve (rounds)
    ]
    function.restype = ctypes.c_int
    return function


def engine() -> str:
    """Which computes the curves of Generalised Unmasking: "compiled" or "numpy"."""
    return "compiled" if _function() is not None else "numpy"


def curves(
    x: np.ndarray,
    y: np.ndarray,
    folds: np.ndarray,
    n_folds: int,
    eliminated: int,
    rounds: int,
    c: float,
) -> np.ndarray | None:
    """(R, rounds) accuracy curves of R chunk sets — ``x`` (R, N, F) whole-number samples with
    N ≤ F + 1 and exact Gram sums (``linear_svm.gram_is_exact``), ``y`` and ``folds`` (R, N) —
    as ``unmasking.degradation_curves``; None where the library is not there or a set's
    Newton system failed (the caller then computes in numpy)."""
    function = _function()
    if function is None:
        return None
    x = np.asarray(x, dtype=float)
    n_sets, n_samples, n_features = x.shape
    labels = np.ascontiguousarray(y, dtype=float)
    fold_of = np.ascontiguousarray(folds, dtype=np.int64)
    if labels.shape != (n_sets, n_samples) or fold_of.shape != labels.shape:
        raise ValueError("curves needs y and folds (R, N) for x (R, N, F)")
    if not np.all(np.abs(labels) == 1.0):
        raise ValueError("labels must be −1 or +1")
    found = np.empty((n_sets, rounds))
    for index in range(n_sets):
        samples = np.ascontiguousarray(x[index])
        status = function(
            n_samples,
            n_features,
            samples.ctypes.data_as(_DOUBLES),
            labels[index].ctypes.data_as(_DOUBLES),
            fold_of[index].ctypes.data_as(_INT64S),
            n_folds,
            eliminated,
            rounds,
            c,
            found[index].ctypes.data_as(_DOUBLES),
        )
        if status == -1:
            return None
        if status == -2:
            raise MemoryError("the compiled unmasking curve ran out of memory")
        if status != 0:
            raise ValueError(
                f"the compiled unmasking curve refused its input: {_STATUS.get(status, status)}"
            )
    return found
