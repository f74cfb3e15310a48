"""Bands of questioned length, and the likelihood-ratio bound of each band.

A validation declares a range of questioned lengths (LO, HI characters). Its figures and its
ELUB bound are reported for the whole range and for ``BANDS`` log-spaced bands of it (one band
when LO = HI): the trials of short texts show less than those of long ones, and a single bound
over the whole range would let a short case borrow the strength the long trials earned.

- ``length_bands(lo, hi)``: the bands' (lo, hi) in whole characters, contiguous, covering the
  range; a band's upper edge belongs to it, the next band starts one character above.
- ``band_of(bands, chars)``: the band a length falls in (lengths outside the range: the nearest
  end band — a length is clamped to the validated range before it is used).
- ``BandBound``: a band with the ELUB of its trials' log10 LRs; ``band_bounds`` computes them
  (a band lacking trials of either class gets none, and the overall bound applies there).
- ``bounded``: a log10 LR clipped to the bound of its band, or the overall bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from taveer_desktop.core.calibration.elub import elub

BANDS = 3
MAX_BAND_MAGNITUDE = 100.0


@dataclass(frozen=True)
class BandBound:
    """The questioned lengths of a band (characters, both ends included) and its bound."""

    questioned_chars: tuple[int, int]
    min_log10_lr: float
    max_log10_lr: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "questioned_chars": list(self.questioned_chars),
            "min_log10_lr": self.min_log10_lr,
            "max_log10_lr": self.max_log10_lr,
        }


def length_bands(lo: int, hi: int, count: int = BANDS) -> list[tuple[int, int]]:
    """``count`` log-spaced bands over [lo, hi] (fewer where the range has too few whole
    characters; one when lo = hi)."""
    if lo > hi or lo < 1:
        raise ValueError("a length range needs 1 ≤ lo ≤ hi")
    if lo == hi:
        return [(lo, hi)]
    edges = np.geomspace(lo, hi, count + 1)
    uppers = sorted({min(hi, max(lo, round(float(e)))) for e in edges[1:-1]} | {hi})
    bands, start = [], lo
    for upper in uppers:
        if upper >= start:
            bands.append((start, upper))
            start = upper + 1
    return bands


def band_of(bands: Sequence[tuple[int, int]], chars: float) -> int:
    """The index of the band ``chars`` falls in (clamped to the bands' range)."""
    for index, (_, upper) in enumerate(bands):
        if chars <= upper:
            return index
    return len(bands) - 1


def band_indices(bands: Sequence[tuple[int, int]], chars: np.ndarray) -> np.ndarray:
    """``band_of`` of every length."""
    uppers = np.array([upper for _, upper in bands], dtype=float)
    index = np.searchsorted(uppers, np.asarray(chars, dtype=float), side="left")
    return np.minimum(index, len(bands) - 1)


def band_bounds(
    log10_lr: np.ndarray,
    truth: np.ndarray,
    questioned_chars: np.ndarray,
    bands: Sequence[tuple[int, int]],
) -> tuple[BandBound, ...]:
    """The ELUB of each band's trials (bands with trials of both classes only)."""
    index = band_indices(bands, questioned_chars)
    out = []
    for b, band in enumerate(bands):
        members = index == b
        t = truth[members]
        if not t.any() or t.all():
            continue
        bound = elub(log10_lr[members], t)
        out.append(BandBound(band, bound.lower, bound.upper))
    return tuple(out)


def bounded(
    value: np.ndarray,
    questioned_chars: np.ndarray | float | None,
    bands: Sequence[BandBound],
    low: float | None,
    high: float | None,
) -> np.ndarray:
    """log10 LRs clipped to their band's bound (the overall ``low``/``high`` where no band
    applies: no length given, or no bound for that band)."""
    if bands and questioned_chars is not None:
        chars = np.broadcast_to(np.asarray(questioned_chars, dtype=float), np.shape(value))
        edges = [b.questioned_chars for b in bands]
        index = band_indices(edges, chars)
        starts = np.array([e[0] for e in edges], dtype=float)[index]
        ends = np.array([e[1] for e in edges], dtype=float)[index]
        inside = (chars >= starts) & (chars <= ends)
        lows = np.array([b.min_log10_lr for b in bands])[index]
        highs = np.array([b.max_log10_lr for b in bands])[index]
        lows = np.where(inside, lows, -np.inf if low is None else low)
        highs = np.where(inside, highs, np.inf if high is None else high)
        clipped: np.ndarray = np.clip(value, lows, highs)
        return clipped
    if low is not None or high is not None:
        return np.asarray(np.clip(value, low, high))
    return value


def bound_at(
    bands: Sequence[BandBound],
    questioned_chars: float | None,
    low: float | None,
    high: float | None,
) -> tuple[float | None, float | None]:
    """The (lower, upper) bound that applies to a questioned length: its band's, or the overall
    ``low``/``high`` where no band holds it (or no length is given)."""
    if questioned_chars is not None:
        for band in bands:
            if band.questioned_chars[0] <= questioned_chars <= band.questioned_chars[1]:
                return band.min_log10_lr, band.max_log10_lr
    return low, high


def bands_from_list(data: Any, fail: Callable[[str], NoReturn]) -> tuple[BandBound, ...]:
    """Validate a calibration's ``bands`` list (``fail(message)`` raises)."""
    if not isinstance(data, list) or len(data) > 16:
        fail("bands must be a list of at most 16 bands")
    out: list[BandBound] = []
    previous = 0
    for item in data:
        chars = item.get("questioned_chars") if isinstance(item, dict) else None
        if not (
            isinstance(chars, list)
            and len(chars) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) for c in chars)
            and previous < chars[0] <= chars[1] < 10**12
        ):
            fail("bands must give increasing, disjoint questioned_chars [lo, hi]")
        low, high = item.get("min_log10_lr"), item.get("max_log10_lr")
        for value in (low, high):
            if not (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
                and abs(value) <= MAX_BAND_MAGNITUDE
            ):
                fail(f"band bounds must be numbers within ±{MAX_BAND_MAGNITUDE:g}")
        if not low <= 0.0 <= high:
            fail("band bounds must satisfy min_log10_lr ≤ 0 ≤ max_log10_lr")
        out.append(BandBound((chars[0], chars[1]), float(low), float(high)))
        previous = chars[1]
    return tuple(out)
