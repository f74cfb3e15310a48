"""The model view of validation: the project's validation records, and one in full.

Above, every validation record of the project (when, which case, population and model, Cllr,
criteria met); below, the selected record as ``ValidationRecordView`` shows it — acceptance,
figures with intervals, the Tippett, empirical cross-entropy and score-distribution charts,
population, protocol and limits. ``show_model`` selects the latest record that produced a
model; a model validated elsewhere (its JSON carries the summary, the project no record) is
shown from that summary, without charts. The list reloads on ``store_changed`` about
validations or models.
"""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.ui.project_session import MODELS, VALIDATIONS, ProjectSession
from taveer_desktop.ui.record_table_model import RECORD_ROLE, SORT_ROLE
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from taveer_desktop.ui.validation_table_models import (
    V_CREATED,
    V_MODEL,
    ValidationRow,
    ValidationTableModel,
    validation_rows,
)


class ValidationRecordsDialog(QDialog):
    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(f"Validation Records — {PROGRAM_NAME}")
        self.model = ValidationTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setTabKeyNavigation(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(V_CREATED, Qt.SortOrder.DescendingOrder)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setToolTip("Every validation record kept in this project; select one")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(V_MODEL, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        label = QLabel("&Records:")
        label.setBuddy(self.table)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(label)
        top_layout.addWidget(self.table)
        self.view = ValidationRecordView()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.view)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setChildrenCollapsible(False)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        self.close_button = close.button(QDialogButtonBox.StandardButton.Close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(close)
        session.store_changed.connect(self._store_changed)
        self._fit_to_screen()
        self.reload()

    def _fit_to_screen(self) -> None:
        width = self.fontMetrics().horizontalAdvance("m") * 110
        height = self.fontMetrics().height() * 46
        screen = self.screen()
        if screen is not None:
            area = screen.availableGeometry()
            width = min(width, area.width() * 92 // 100)
            height = min(height, area.height() * 90 // 100)
        self.resize(width, height)
        self.table.setMinimumHeight(self.fontMetrics().height() * 4)

    def reload(self) -> None:
        store = self.session.store
        shown = self.selected()
        rows = validation_rows(store, self.session.validations()) if store else []
        self.model.set_records(rows)
        if shown is not None and self.select_record(shown.stored.id):
            return
        if self.proxy.rowCount():
            self.table.selectRow(0)
        else:
            self.view.clear("This project holds no validation record yet: Case ▸ Validate on a "
                            "Population makes one.")  # fmt: skip

    def _store_changed(self, change) -> None:
        if change.kinds & {VALIDATIONS, MODELS}:
            self.reload()

    def selected(self) -> ValidationRow | None:
        rows = self.table.selectionModel().selectedRows()
        return self.proxy.data(rows[0], RECORD_ROLE) if rows else None

    def select_record(self, validation_id: int) -> bool:
        for row in range(self.proxy.rowCount()):
            record = self.proxy.data(self.proxy.index(row, 0), RECORD_ROLE)
            if record.stored.id == validation_id:
                self.table.selectRow(row)
                return True
        return False

    def show_model(self, model_id: int) -> bool:
        """Show the validation that produced a model; False if it has none at all."""
        store = self.session.store
        stored = store.validations.for_model(model_id) if store else None
        if stored is not None:
            return self.select_record(stored.id)
        summary = self.session.model_validation_summary(model_id)
        self.table.clearSelection()
        name = self.session.model_name(model_id) or f"model {model_id}"
        if summary is None:
            self.view.clear(f"The model “{name}” was not validated on a population.")
            return False
        self.view.show_record(summary, name)
        return True

    def _selected(self, *_args) -> None:
        row = self.selected()
        store = self.session.store
        if row is None or store is None:
            return
        self.view.show_record(store.validations.record(row.stored.id), row.model_name)
