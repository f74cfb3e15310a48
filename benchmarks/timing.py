"""Timing helper shared by the benchmark scripts: the median of several runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(function: Callable[[], object], runs: int) -> tuple[float, list[float]]:
    """Run ``function`` ``runs`` times; return the median wall time and every run's time."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), times
