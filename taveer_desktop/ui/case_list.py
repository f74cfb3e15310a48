"""The left side of the window: the project's cases with a search box.

Selecting a case emits ``case_selected`` with the ``Case`` (or None when nothing is selected);
the list keeps the selection across reloads by case id.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation.numbers import count, integer
from taveer_desktop.store import Case
from taveer_desktop.ui import case_table_model as ctm
from taveer_desktop.ui.record_table_model import selected_record
from taveer_desktop.ui.table_view import house_table


class CaseListPanel(QWidget):
    case_selected = Signal(object)  # Case | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search cases")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Show only cases whose number, title, examiner or description match")
        label = QLabel("Ca&ses")
        self.model = ctm.CaseTableModel(self)
        self.proxy = ctm.CaseFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = house_table(
            QTableView(), self.proxy, single=True, sort_by=(ctm.NUMBER, Qt.SortOrder.AscendingOrder)
        )
        self.view.setToolTip("The cases of the open project; select one to see it on the right")
        self.view.setColumnHidden(ctm.MODIFIED, True)
        self.view.setColumnHidden(ctm.DOCUMENTS, True)  # the counts are in the Case tooltip
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ctm.TITLE, QHeaderView.ResizeMode.Stretch)
        label.setBuddy(self.view)
        self.count_label = QLabel()
        self.count_label.setToolTip("Cases shown and cases in the project")
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.search)
        layout.addWidget(self.view, stretch=1)
        layout.addWidget(self.count_label)
        self.search.textChanged.connect(self._search_changed)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.setTabOrder(self.search, self.view)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("m") * 14)

    def add_below(self, widget: QWidget) -> None:
        """Put ``widget`` under the list (the first-start guide), the list keeping the larger
        part of the column."""
        self._layout.setStretchFactor(self.view, 3)
        self._layout.addWidget(widget, 2)

    # ---- content ------------------------------------------------------------------------------

    def set_cases(self, cases: Sequence[Case]) -> None:
        """Replace the list, keeping the selected case selected when it is still there.

        Emits nothing: the caller shows ``selected_case()`` afterwards.
        """
        current = self.selected_case()
        self.blockSignals(True)
        try:
            self.model.set_records(cases)
            if current is not None:
                self.select_case_id(current.id)
        finally:
            self.blockSignals(False)
        self._update_count()

    def selected_case(self) -> Case | None:
        return selected_record(self.view)

    def select_case_id(self, case_id: int) -> bool:
        row = self.model.find_row(lambda c: c.id == case_id)
        return row >= 0 and self._select_source_row(row)

    def select_case_number(self, number: str) -> bool:
        row = self.model.find_row(lambda c: c.number == number)
        return row >= 0 and self._select_source_row(row)

    def _select_source_row(self, row: int) -> bool:
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            self.search.clear()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.view.selectionModel().select(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    # ---- reactions ----------------------------------------------------------------------------

    def _search_changed(self, text: str) -> None:
        self.proxy.set_search(text)
        self._update_count()

    def _selection_changed(self, *_args) -> None:
        self.case_selected.emit(self.selected_case())

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count_label.setText(
            count(total, "case")
            if shown == total
            else f"{integer(shown)} of {count(total, 'case')} shown"
        )
