"""Tables set up the house way, in one place: ``house_table(view, model, …)``.

Every table of the desktop shows records and is read the same way: Tab leaves the table and the
arrow keys move in it (``tests/ui/test_dialog_habits.py``), a click selects the whole row, no
cell is edited, rows have no numbers, and each row is one line unless the table asks for its
text to wrap. A table may allow one row at a time and may be sortable, with the column it is
first sorted by. Column widths differ from table to table and stay with the caller.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView

View = TypeVar("View", bound=QTableView)  # a QTableView or a QTableWidget


def house_table(
    view: View,
    model: QAbstractItemModel | None = None,
    *,
    single: bool = False,
    sortable: bool = False,
    sort_by: tuple[int, Qt.SortOrder] | None = None,
    wrap: bool = False,
) -> View:
    """``view`` over ``model`` (None: a ``QTableWidget``'s own), set up the house way; ``single``:
    one row selected at a time; ``sortable``: the examiner sorts by a click on a heading,
    ``sort_by`` (column, order) first; ``wrap``: long text wraps inside its row."""
    view.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
    if model is not None:
        view.setModel(model)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    if single:
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    if sortable or sort_by is not None:
        view.setSortingEnabled(True)
    if sort_by is not None:
        view.sortByColumn(*sort_by)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(wrap)
    return view
