"""Pure layout of an x–y plot (lines, step curves, paired histogram bars, reference lines), the
third kind of report chart beside the importance and similarity charts (``chart_layout``).

A ``PlotLayout`` holds everything ``plot_painter`` needs in data units: the axes' ranges and
ticks, their titles, the series (polylines), the bars and the vertical reference lines with
their labels, and the legend's order. Styles are named (``PLOT_STYLES``): Okabe–Ito colours,
each with its own dash pattern or hatching, so no series is told apart by colour alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# style -> (colour, dash: "solid" | "dash" | "dot" | "dashdot", line width in points, hatch)
PLOT_STYLES: dict[str, tuple[str, str, float, str | None]] = {
    "same": ("#009E73", "solid", 1.4, None),
    "different": ("#D55E00", "dash", 1.4, "diagonal"),
    "validated": ("#0072B2", "solid", 1.5, None),
    "calibrated": ("#009E73", "dash", 1.3, None),
    "neutral": ("#555555", "dot", 1.1, None),
    "mark": ("#1a1a1a", "dashdot", 0.7, None),
    "bound": ("#777777", "dot", 0.7, None),
}


@dataclass(frozen=True)
class Series:
    """A polyline in data units, drawn in ``style`` and named ``name`` in the legend."""

    name: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    style: str


@dataclass(frozen=True)
class Bars:
    """Bars over ``edges`` (len = heights + 1); bars of several ``Bars`` share each bin side by
    side, in the order given."""

    name: str
    edges: tuple[float, ...]
    heights: tuple[float, ...]
    style: str


@dataclass(frozen=True)
class Mark:
    """A vertical reference line at ``x`` with a short label at its top."""

    x: float
    label: str
    style: str = "mark"


@dataclass(frozen=True)
class PlotLayout:
    title: str
    x_label: str
    y_label: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    x_ticks: tuple[float, ...]
    y_ticks: tuple[float, ...]
    series: tuple[Series, ...] = ()
    bars: tuple[Bars, ...] = ()
    marks: tuple[Mark, ...] = ()
    note: str = ""  # one line under the legend (e.g. what is clipped)

    @property
    def legend(self) -> tuple[tuple[str, str, bool], ...]:
        """(style, name, is a bar) of every named bar set and series, bars first."""
        return tuple((b.style, b.name, True) for b in self.bars if b.name) + tuple(
            (s.style, s.name, False) for s in self.series if s.name
        )


def range_ticks(low: float, high: float, target: int = 6) -> tuple[float, ...]:
    """Evenly spaced round ticks (steps of 1, 2, 2.5 or 5 × 10^k) inside [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return (low,)
    raw = (high - low) / target
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return tuple(round(i * step, 12) for i in range(first, last + 1))


def tick_text(value: float) -> str:
    """A tick label: no trailing zeros, a true minus sign."""
    text = f"{value:g}"
    return text.replace("-", "−") if value < 0 else text


def thin_polyline(
    xs, ys, tolerance: tuple[float, float]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Drop interior points of horizontal or vertical runs (a step curve keeps its corners
    only), and points closer to the last kept one than ``tolerance`` = (x, y) in data units on
    both axes (less than a printed dot, so a curve of thousands of trials draws the same). The
    first and last points are always kept."""
    tol_x, tol_y = tolerance
    xs, ys = [float(x) for x in xs], [float(y) for y in ys]
    if len(xs) <= 2:
        return tuple(xs), tuple(ys)
    kept_x, kept_y = [xs[0]], [ys[0]]
    for i in range(1, len(xs) - 1):
        px, py, x, y, nx, ny = kept_x[-1], kept_y[-1], xs[i], ys[i], xs[i + 1], ys[i + 1]
        if (px == x == nx) or (py == y == ny):
            continue  # the middle of a straight horizontal or vertical run
        if abs(x - px) < tol_x and abs(y - py) < tol_y:
            continue
        kept_x.append(x)
        kept_y.append(y)
    kept_x.append(xs[-1])
    kept_y.append(ys[-1])
    return tuple(kept_x), tuple(kept_y)
