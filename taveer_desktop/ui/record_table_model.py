"""The base of every table model: a ``QAbstractTableModel`` over a list of frozen dataclasses.

A subclass declares its ``COLUMNS`` (each a ``Column`` saying how to show, explain and sort one
field) and the index constants naming them. ``set_records`` replaces the list; ``data`` only
reads it and never queries the store. ``RECORD_ROLE`` returns a row's dataclass and
``SORT_ROLE`` a value that sorts naturally (numbers as numbers), for ``QSortFilterProxyModel``.
``selected_record`` and ``select_record`` read and set the selection of a table view showing
such a model (directly or through a proxy) by record, not by row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

from taveer_desktop.presentation.audit_text import recorded_time

RECORD_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
SHORT_HASH_CHARS = 12

_Index = QModelIndex | QPersistentModelIndex


def selected_record(view: QTableView) -> Any | None:
    """The record of the first selected row of ``view`` (None when nothing is selected)."""
    rows = view.selectionModel().selectedRows()
    return view.model().data(rows[0], RECORD_ROLE) if rows else None


def select_record(view: QTableView, matches: Callable[[Any], bool]) -> bool:
    """Select the first row of ``view`` whose record ``matches``; False if none does."""
    model = view.model()
    for row in range(model.rowCount()):
        if matches(model.data(model.index(row, 0), RECORD_ROLE)):
            view.selectRow(row)
            return True
    return False


@dataclass(frozen=True)
class Column:
    """How one column shows its records."""

    title: str
    text: Callable[[Any], str]
    header_tip: str = ""
    tooltip: Callable[[Any], str] | None = None
    sort_key: Callable[[Any], Any] | None = None
    numeric: bool = False


short_utc = recorded_time  # ``2025-01-31T09:15:02.123456Z`` → ``2025-01-31 09:15:02 UTC``


def short_hash(sha256: str) -> str:
    return sha256[:SHORT_HASH_CHARS] + "…" if len(sha256) > SHORT_HASH_CHARS else sha256


class RecordTableModel(QAbstractTableModel):
    """Rows are records (frozen dataclasses); columns come from ``COLUMNS``."""

    COLUMNS: tuple[Column, ...] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._records: list[Any] = []

    # ---- the records --------------------------------------------------------------------------

    def set_records(self, records: Sequence[Any]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def records(self) -> list[Any]:
        return list(self._records)

    def record(self, row: int) -> Any:
        return self._records[row]

    def find_row(self, predicate: Callable[[Any], bool]) -> int:
        """The first row whose record satisfies ``predicate``, or -1."""
        for row, record in enumerate(self._records):
            if predicate(record):
                return row
        return -1

    # ---- QAbstractTableModel ------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records):
            return None
        record = self._records[index.row()]
        column = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(record)
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tooltip(record) if column.tooltip else column.text(record)
        if role == RECORD_ROLE:
            return record
        if role == SORT_ROLE:
            return column.sort_key(record) if column.sort_key else column.text(record)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return self.extra_data(record, index.column(), role)

    def extra_data(self, record: Any, column: int, role: int) -> Any:
        """Other roles (fonts, colours) for subclasses; None by default."""
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.COLUMNS[section].header_tip or self.COLUMNS[section].title
        return None
