"""Table model of Φ for one category: feature, x, y, |x − y|, λ and side, sortable.

A ``QAbstractTableModel`` over a list of ``PhiRow`` (plain data, built from the engine's
interpretation by ``explanation_data.phi_rows``). Sorting reorders the list in place (fast for
thousands of rows, no proxy model); ``ROW_ROLE`` returns the row itself; ``SORT_ROLE`` the
numeric key. CSV and clipboard text come from ``explanation_data`` (formula injection escaped).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.explanation_data import (
    SIDE_WORDS,
    SIDE_Y,
    PhiRow,
    feature_tooltip,
    rows_to_csv,
    rows_to_tsv,
)

FEATURE, X, Y, DISTANCE, IMPORTANCE, SIDE = range(6)
HEADERS = (
    "Feature",
    "x\nquestioned",
    "y\nknown",
    "|x − y|",
    "λ",
    "Side",
)
HEADER_TIPS = (
    "The feature (n-gram) of the category; # stands for a masked topic word",
    "Relative frequency of the feature in the questioned text",
    "Relative frequency of the feature in the known texts",
    "Element-wise distance; the category's distance is the sum of this column",
    "Importance: |θ′ − |x − y||, the height of the feature's rectangle in the chart",
    "L_Y: the feature points to the same author; L_N: to different authors",
)
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
SIDE_COLOURS = {SIDE_Y: QColor("#00664a"), "N": QColor("#a34700")}
_KEYS = {
    FEATURE: lambda r: r.feature,
    X: lambda r: r.x,
    Y: lambda r: r.y,
    DISTANCE: lambda r: r.distance,
    IMPORTANCE: lambda r: r.importance,
    SIDE: lambda r: r.side,
}
Index = QModelIndex | QPersistentModelIndex


class PhiTableModel(QAbstractTableModel):
    """Φ of one category; ``set_rows`` replaces it, ``sort`` reorders it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[PhiRow] = []
        self._category = ""
        self._mono = QFont("DejaVu Sans Mono")

    # --- contents -------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[PhiRow], category: str = "") -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._category = category
        self.endResetModel()

    @property
    def rows(self) -> list[PhiRow]:
        """The rows in their current (displayed) order."""
        return list(self._rows)

    def row_of(self, feature: str) -> int:
        for i, row in enumerate(self._rows):
            if row.feature == feature:
                return i
        return -1

    def to_csv(self, rows: Sequence[int] | None = None) -> str:
        chosen = self._rows if rows is None else [self._rows[i] for i in rows]
        return rows_to_csv(chosen)

    def to_tsv(self, rows: Sequence[int] | None = None) -> str:
        chosen = self._rows if rows is None else [self._rows[i] for i in rows]
        return rows_to_tsv(chosen)

    # --- Qt model API ---------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS[section]
        return None

    def data(self, index: Index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == ROW_ROLE:
            return row
        if role == SORT_ROLE:
            return _KEYS[column](row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return feature_tooltip(row, self._category)
        if role == Qt.ItemDataRole.ForegroundRole and column == SIDE:
            return SIDE_COLOURS.get(row.side)
        if role == Qt.ItemDataRole.FontRole and column == FEATURE:
            return self._mono
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in (FEATURE, SIDE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(row: PhiRow, column: int) -> str:
        if column == FEATURE:
            return row.feature
        if column == X:
            return f"{numbers.decimal(row.x, 4)} ({numbers.integer(row.count_unknown)})"
        if column == Y:
            return f"{numbers.decimal(row.y, 4)} ({numbers.integer(row.count_known)})"
        if column == DISTANCE:
            return numbers.decimal(row.distance, 5)
        if column == IMPORTANCE:
            return numbers.decimal(row.importance, 5)
        return SIDE_WORDS[row.side]

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(HEADERS):
            return
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        held = [self._rows[p.row()] for p in persistent]
        key = _KEYS[column]
        descending = order == Qt.SortOrder.DescendingOrder
        self._rows.sort(key=lambda r: r.feature)  # ties by feature, always ascending
        self._rows.sort(key=key, reverse=descending)
        position = {id(r): i for i, r in enumerate(self._rows)}
        moved = [
            self.index(position[id(r)], p.column()) for r, p in zip(held, persistent, strict=True)
        ]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()
