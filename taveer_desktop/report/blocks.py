"""The report as plain blocks: headings, paragraphs, tables, charts, page breaks (pure, no Qt).

``content`` produces a list of these; the PDF layer paints them. Every piece of text in a block
is already safe HTML: fixed wording plus values passed through ``escape``. Table rows are never
split across pages; a row's optional ``detail`` line (e.g. a full SHA-256) spans all columns
and stays with its row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from taveer_desktop.report.chart_layout import ImportanceChartLayout, SimilarityChartLayout
from taveer_desktop.report.plot_layout import PlotLayout


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1  # 1 = numbered section, 2 = sub-heading
    new_page: bool = False


@dataclass(frozen=True)
class Paragraph:
    html: str
    style: str = "body"  # body, small, note, warning, excerpt, title, subtitle


@dataclass(frozen=True)
class Column:
    title: str
    width: float  # relative width
    align: str = "left"  # left, right, center


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    detail: str | None = None
    shade: bool = False


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    style: str = "grid"  # grid, keyvalue
    font: str = "table"  # table, small


@dataclass(frozen=True)
class Chart:
    layout: ImportanceChartLayout | SimilarityChartLayout | PlotLayout
    height: float  # in points; the chart takes the full text width
    caption: str = ""


@dataclass(frozen=True)
class Spacer:
    height: float


@dataclass(frozen=True)
class KeepTogether:
    """Blocks that must start on the same page (e.g. a sub-heading with its chart)."""

    blocks: tuple = field(default_factory=tuple)


Block = Heading | Paragraph | Table | Chart | Spacer | KeepTogether
