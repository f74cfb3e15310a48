"""The per-category scores of one verification result as a table (from the engine's dict)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from taveer_desktop.ui.record_table_model import Column, RecordTableModel

CATEGORY, NAME, ENSEMBLE, SIMILARITY, DISTANCE, THRESHOLD, OCCURRENCES = range(7)


@dataclass(frozen=True)
class CategoryRow:
    category: str
    name: str
    in_ensemble: bool
    abstained: bool
    similarity: float | None
    distance: float | None
    threshold: float
    occurrences_unknown: int
    occurrences_known: int
    warning: str | None


def category_rows(result: Mapping[str, Any]) -> list[CategoryRow]:
    """One row per category of ``VerificationResult.to_dict()``, in F1…F11 order."""
    rows = []
    for key, data in (result.get("categories") or {}).items():
        rows.append(
            CategoryRow(
                category=key,
                name=data.get("name", ""),
                in_ensemble=bool(data.get("in_ensemble")),
                abstained=bool(data.get("abstained")),
                similarity=data.get("similarity"),
                distance=data.get("distance"),
                threshold=float(data.get("threshold") or 0.0),
                occurrences_unknown=int(data.get("occurrences_unknown") or 0),
                occurrences_known=int(data.get("occurrences_known") or 0),
                warning=data.get("warning"),
            )
        )
    return sorted(rows, key=lambda r: int(r.category[1:]) if r.category[1:].isdigit() else 99)


def _number(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _similarity(row: CategoryRow) -> str:
    return "abstains" if row.abstained else _number(row.similarity)


def _similarity_tip(row: CategoryRow) -> str:
    if row.abstained:
        return row.warning or "Too few occurrences in one of the documents: no vote"
    side = "same author" if (row.similarity or 0) > 0.5 else "different authors"
    return f"{_number(row.similarity)}: points towards {side} (0.5 is the boundary)"


class CategoryTableModel(RecordTableModel):
    COLUMNS = (
        Column("Category", lambda r: r.category, "Feature category of the TAVeer method"),
        Column("Features", lambda r: r.name, "What the category counts"),
        Column(
            "In ensemble",
            lambda r: "yes" if r.in_ensemble else "",
            "Whether this category is one of the model's deciding ensemble",
        ),
        Column(
            "Similarity",
            _similarity,
            "Similarity from 0 to 1; above 0.5 points towards the same author",
            _similarity_tip,
            sort_key=lambda r: -1.0 if r.similarity is None else r.similarity,
            numeric=True,
        ),
        Column(
            "Distance",
            lambda r: _number(r.distance, 4),
            "Manhattan distance between the two documents' feature frequencies",
            sort_key=lambda r: -1.0 if r.distance is None else r.distance,
            numeric=True,
        ),
        Column(
            "Threshold",
            lambda r: _number(r.threshold, 4),
            "The model's threshold θ for this category (distance at similarity 0.5)",
            numeric=True,
        ),
        Column(
            "Occurrences",
            lambda r: f"{r.occurrences_unknown:,} / {r.occurrences_known:,}",
            "Feature occurrences in the questioned / the known documents",
            sort_key=lambda r: r.occurrences_unknown + r.occurrences_known,
            numeric=True,
        ),
    )

    def extra_data(self, record: CategoryRow, column: int, role: int):
        if role == Qt.ItemDataRole.FontRole and record.in_ensemble:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and record.abstained:
            return Qt.GlobalColor.gray
        return None
