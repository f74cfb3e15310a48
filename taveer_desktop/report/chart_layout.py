"""Pure layout of the report's charts, shared by the PDF painter and the GUI's charts (no Qt).

Two charts:

- **Importance chart** of one ensemble category (the paper's figure): two stacked bars, L_Y
  ("same author", green, solid) and L_N ("different authors", vermillion, hatched). Each of the
  top features of a list is one rectangle whose height is its importance λ, stacked from the
  largest at the bottom; the remaining features are grouped into one lighter rectangle labelled
  "k more features". Labels sit beside their bar; the number of labelled features is cut down
  until every label fits the plot height without overlapping, and labels pushed away from their
  rectangle get a leader line.
- **Similarity chart**: one horizontal bar per category F1–F11 on a 0–1 axis, with the 0.5
  decision line and the case's score (the ensemble median); categories outside the ensemble are
  drawn outlined, abstaining categories have no bar and say so.

Colours are from the Okabe–Ito palette (safe for colour-blind readers) and never carry meaning
alone: hatching and text labels say the same. All positions are in data units; ``label_gap``
arguments convert the label height (in the renderer's units) to data units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.methods.taveer.verify import CategoryResult
from taveer_desktop.presentation import numbers
from taveer_desktop.report.escape import plain_text

SAME, DIFFERENT = "same", "different"
# Style ids -> (fill colour, hatch id or None). Hatch ids: "diagonal" = lines at 45°.
STYLES: dict[str, tuple[str, str | None]] = {
    "same": ("#009E73", None),
    "same-rest": ("#9fd8c6", None),
    "different": ("#D55E00", "diagonal"),
    "different-rest": ("#f0b896", "diagonal"),
    "member": ("#0072B2", None),
    "non-member": ("#ffffff", None),
}
SERIES_TITLES = {
    SAME: "L_Y: features that point to the same author",
    DIFFERENT: "L_N: features that point to different authors",
}
DEFAULT_TOP_N = 8
MAX_LABEL_CHARS = 28
# Geometry (points) shared by the PDF painter and ``content``: the plot area of the importance
# chart is its height minus the title above and the axis and legend below.
IMPORTANCE_HEIGHT = 300.0
IMPORTANCE_PLOT_TOP = 24.0
IMPORTANCE_PLOT_BOTTOM = 52.0
LABEL_HEIGHT = 9.5
SIMILARITY_ROW_HEIGHT = 17.0
SIMILARITY_EXTRA_HEIGHT = 58.0


@dataclass(frozen=True)
class Segment:
    """One rectangle of a stack: a feature (or the grouped rest) from ``start`` to ``end``.

    ``label`` is the text shown beside it: the feature (shortened) and its λ.
    """

    label: str
    value: float
    start: float
    end: float
    count: int
    style: str
    feature: str | None

    @property
    def middle(self) -> float:
        return (self.start + self.end) / 2


@dataclass(frozen=True)
class Label:
    """A label beside a stack: ``anchor`` is its segment's middle, ``position`` where it sits."""

    text: str
    anchor: float
    position: float

    @property
    def displaced(self) -> bool:
        return not math.isclose(self.anchor, self.position, rel_tol=1e-9, abs_tol=1e-12)


@dataclass(frozen=True)
class Stack:
    side: str
    title: str
    total: float
    feature_count: int
    segments: tuple[Segment, ...]
    labels: tuple[Label, ...]


@dataclass(frozen=True)
class ImportanceChartLayout:
    category: str
    title: str
    y_max: float
    ticks: tuple[float, ...]
    same: Stack
    different: Stack

    @property
    def empty(self) -> bool:
        return not (self.same.feature_count or self.different.feature_count)


@dataclass(frozen=True)
class SimilarityRow:
    category: str
    name: str
    value: float | None
    style: str
    value_text: str

    @property
    def short_text(self) -> str:
        """The value alone, for a narrow chart (its style still tells a non-member apart)."""
        return "abstains" if self.value is None else numbers.decimal(self.value)


@dataclass(frozen=True)
class SimilarityChartLayout:
    rows: tuple[SimilarityRow, ...]
    x_ticks: tuple[float, ...]
    decision: float
    score: float | None
    score_text: str


def nice_ticks(maximum: float, target: int = 5) -> tuple[float, tuple[float, ...]]:
    """A rounded axis maximum ≥ ``maximum`` and evenly spaced ticks from 0 (1, 2 or 5 steps)."""
    if not maximum > 0 or not math.isfinite(maximum):
        return 1.0, (0.0, 0.25, 0.5, 0.75, 1.0)
    raw = maximum / target
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    top = step * math.ceil(maximum / step - 1e-9)
    count = round(top / step)
    return top, tuple(round(i * step, 12) for i in range(count + 1))


def short_label(feature: str, limit: int = MAX_LABEL_CHARS) -> str:
    """A feature as a label: control characters made visible, cut to ``limit`` characters."""
    text = plain_text(feature, collapse_spaces=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def spread_labels(anchors: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as close to ``anchors`` (ascending) as possible, ≥ ``gap`` apart, in range.

    The caller makes sure that the labels fit (``len * gap <= high - low``).
    """
    positions: list[float] = []
    lowest = low + gap / 2
    for anchor in anchors:
        floor = lowest if not positions else positions[-1] + gap
        positions.append(max(anchor, floor))
    ceiling = high - gap / 2
    for i in range(len(positions) - 1, -1, -1):
        limit = ceiling if i == len(positions) - 1 else positions[i + 1] - gap
        positions[i] = min(positions[i], limit)
    return positions


def _stack(
    side: str,
    items: Sequence[tuple[str, float]],
    top_n: int,
    max_labels: int,
    gap: float,
    y_max: float,
) -> Stack:
    labelled = min(top_n, len(items), max_labels)
    if labelled < len(items):  # the rest needs a label of its own
        labelled = min(labelled, max_labels - 1)
    rest_exists = len(items) > labelled
    segments: list[Segment] = []
    base = 0.0
    for feature, value in items[:labelled]:
        text = f"{short_label(feature)}  {numbers.decimal(value, 4)}"
        segments.append(Segment(text, value, base, base + value, 1, side, feature))
        base += value
    if rest_exists:
        rest = items[labelled:]
        value = sum(v for _, v in rest)
        text = numbers.count(len(rest), "more feature" if labelled else "feature")
        text += f"  {numbers.decimal(value, 4)}"
        segments.append(Segment(text, value, base, base + value, len(rest), f"{side}-rest", None))
        base += value
    anchors = [s.middle for s in segments]
    positions = spread_labels(anchors, gap, 0.0, y_max) if segments else []
    labels = tuple(
        Label(s.label, a, p) for s, a, p in zip(segments, anchors, positions, strict=True)
    )
    return Stack(side, SERIES_TITLES[side], base, len(items), tuple(segments), labels)


def importance_chart(
    category: str,
    title: str,
    l_y: Sequence[tuple[str, float]],
    l_n: Sequence[tuple[str, float]],
    plot_height: float,
    label_height: float,
    top_n: int = DEFAULT_TOP_N,
) -> ImportanceChartLayout:
    """Layout of one category's importance chart for a plot of ``plot_height`` units.

    ``l_y``/``l_n`` are (feature, λ) sorted by λ descending, as the engine returns them.
    """
    total = max(sum(v for _, v in l_y), sum(v for _, v in l_n))
    y_max, ticks = nice_ticks(total)
    max_labels = max(1, int(plot_height // label_height))
    gap = y_max * label_height / plot_height
    return ImportanceChartLayout(
        category,
        title,
        y_max,
        ticks,
        _stack(SAME, list(l_y), top_n, max_labels, gap, y_max),
        _stack(DIFFERENT, list(l_n), top_n, max_labels, gap, y_max),
    )


def similarity_chart(
    categories: Sequence[CategoryResult], ensemble: Sequence[str], score: float | None
) -> SimilarityChartLayout:
    """Layout of the per-category similarity bars from the result's categories, in the
    order F1 … F11 whatever order they come in (a stored result keeps its keys sorted as text)."""
    rows = []
    for entry in sorted(categories, key=lambda e: CATEGORY_IDS.index(e.category)):
        member = entry.category in ensemble
        value = entry.similarity
        if entry.abstained or value is None:
            text = "abstains (no features on one side)"
            value = None
        else:
            text = numbers.decimal(value)
        rows.append(
            SimilarityRow(
                entry.category,
                entry.name,
                value,
                "member" if member else "non-member",
                text + ("" if member else "  (not in the ensemble)"),
            )
        )
    score_text = (
        "no score" if score is None else f"score (median of the ensemble) {numbers.decimal(score)}"
    )
    return SimilarityChartLayout(tuple(rows), (0.0, 0.25, 0.5, 0.75, 1.0), 0.5, score, score_text)
