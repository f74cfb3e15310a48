"""Comparing a run's numbers with a pinned or golden record the way a different processor allows.

Counts, strings, booleans, orders, dict keys and choices are compared exactly; a float within a
relative ``FLOAT_TOLERANCE`` (absolute ``FLOAT_ABSOLUTE`` near 0), because NumPy's vectorised
sums and OpenBLAS's kernels follow the processor, and the last digit of a sum may differ on
another machine of the same kind. The engine's own sums do not depend on the order its input
arrives in, so the tolerance covers the processor, never the importer.
"""

from __future__ import annotations

import math

# Tolerance of a float against its golden value, relative (FLOAT_TOLERANCE) and, for values near
# 0 such as a log10 LR, absolute (FLOAT_ABSOLUTE): far below any digit a person reads (four
# significant digits at most) and above what a processor's last digit can become after a
# calibration fit amplifies it (one unit in the 16th digit became 4e-11 relative, seen here).
FLOAT_TOLERANCE = 1e-9
FLOAT_ABSOLUTE = 1e-12


def same_record(now, golden, where: str = "") -> str | None:
    """None when ``now`` equals ``golden`` (floats within ``FLOAT_TOLERANCE``, everything else
    exactly; dicts by their keys, in any order, as ``==`` does), else the path of the first
    difference."""
    if isinstance(golden, float) or (isinstance(now, float) and isinstance(golden, int)):
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            return where or "."
        ok = math.isclose(now, golden, rel_tol=FLOAT_TOLERANCE, abs_tol=FLOAT_ABSOLUTE)
        return None if ok else f"{where or '.'}: {now!r} != {golden!r}"
    if isinstance(golden, dict):
        if not isinstance(now, dict) or set(now) != set(golden):
            return f"{where or '.'}: keys differ"
        for key in golden:
            found = same_record(now[key], golden[key], f"{where}/{key}")
            if found:
                return found
        return None
    if isinstance(golden, list):
        if not isinstance(now, list) or len(now) != len(golden):
            return f"{where or '.'}: lengths differ"
        for i, (a, b) in enumerate(zip(now, golden, strict=True)):
            found = same_record(a, b, f"{where}[{i}]")
            if found:
                return found
        return None
    same = type(now) is type(golden) and now == golden
    return None if same else f"{where or '.'}: {now!r} != {golden!r}"
