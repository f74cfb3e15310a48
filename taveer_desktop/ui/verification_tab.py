"""The Verification tab: choose a model, verify, and see the stored runs and their results.

The runs of the case are listed newest first; selecting one shows it in the result view. The
result view is replaceable (``set_result_view``) so later work (charts, likelihood ratios) can
put a richer view in this place without touching the tab: it must offer ``show_run(RunView)``
and ``clear(message)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.store import Case, Document
from taveer_desktop.ui import run_table_model as rtm
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.record_table_model import RECORD_ROLE, SORT_ROLE
from taveer_desktop.ui.run_explanation_panel import RunExplanationPanel
from taveer_desktop.ui.run_view import RunView


class VerificationTab(QWidget):
    model_chosen = Signal(str)  # the user picked another model in the list
    run_shown = Signal(object)  # RunView now shown in the result view

    def __init__(
        self, session: ProjectSession, verify_action: QAction, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.case: Case | None = None
        self.documents: list[Document] = []

        model_label = QLabel("&Model:")
        self.model_combo = QComboBox()
        self.model_combo.setToolTip("The trained model to verify this case with")
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        model_label.setBuddy(self.model_combo)
        self.model_combo.activated.connect(
            lambda _i: self.model_chosen.emit(self.model_combo.currentText())
        )
        self.verify_button = QToolButton()
        self.verify_button.setDefaultAction(verify_action)
        self.verify_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        top = QHBoxLayout()
        top.addWidget(model_label)
        top.addWidget(self.model_combo, stretch=1)
        top.addWidget(self.verify_button)

        self.run_model = rtm.RunTableModel(self)
        self.run_proxy = QSortFilterProxyModel(self)
        self.run_proxy.setSourceModel(self.run_model)
        self.run_proxy.setSortRole(SORT_ROLE)
        self.runs_view = QTableView()
        self.runs_view.setModel(self.run_proxy)
        self.runs_view.setToolTip("Stored verification runs of this case; select one to see it")
        self.runs_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.runs_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.runs_view.setSortingEnabled(True)
        self.runs_view.sortByColumn(rtm.TIME, Qt.SortOrder.DescendingOrder)
        self.runs_view.verticalHeader().setVisible(False)
        self.runs_view.setWordWrap(False)
        header = self.runs_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.runs_view.selectionModel().selectionChanged.connect(self._run_selected)

        # the result view scrolls and splits itself: it fills its place, without a scroll area
        self.result_view: QWidget = RunExplanationPanel(session)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("verification_splitter")
        self.splitter.addWidget(self.runs_view)
        self.splitter.addWidget(self.result_view)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 4)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.splitter, stretch=1)

    # ---- the result view ----------------------------------------------------------------------

    def set_result_view(self, view: QWidget) -> QWidget:
        """Put ``view`` where results are shown; returns the previous view (now unparented)."""
        previous = self.splitter.replaceWidget(self.splitter.indexOf(self.result_view), view)
        previous.setParent(None)
        self.result_view = view
        self._run_selected()
        return previous

    def shut_down(self) -> None:
        """Wait for the result view's background work (if it has any) before the window closes."""
        shutdown = getattr(self.result_view, "shutdown", None)
        if callable(shutdown):
            shutdown()

    # ---- models -------------------------------------------------------------------------------

    def set_models(self, names: Sequence[str], preferred: str | None) -> None:
        current = preferred or self.model_combo.currentText()
        self.model_combo.clear()
        self.model_combo.addItems(list(names))
        if current in names:
            self.model_combo.setCurrentIndex(list(names).index(current))
        self.model_combo.setEnabled(bool(names))
        if not names:
            self.model_combo.setPlaceholderText("No model yet: train or import one")

    def chosen_model(self) -> str | None:
        return self.model_combo.currentText() or None

    # ---- case and runs ------------------------------------------------------------------------

    def show_case(self, case: Case | None, documents: Sequence[Document] = ()) -> None:
        self.case = case
        self.documents = list(documents)
        rows = self.session.runs(case.id) if case else []
        self.run_model.set_records(rows)
        self.runs_view.resizeColumnsToContents()
        widest = self.fontMetrics().horizontalAdvance("m") * 24
        for column in range(self.run_model.columnCount()):
            if self.runs_view.columnWidth(column) > widest:
                self.runs_view.setColumnWidth(column, widest)
        if rows:
            self.select_run(rows[0].run.id)
        else:
            self.result_view.clear(
                "No verification yet. Choose a model and press Verify."
                if case
                else "Select a case."
            )

    def select_run(self, run_id: int) -> bool:
        for row in range(self.run_proxy.rowCount()):
            record = self.run_proxy.data(self.run_proxy.index(row, 0), RECORD_ROLE)
            if record.run.id == run_id:
                self.runs_view.selectRow(row)
                self._run_selected()
                return True
        return False

    def selected_run(self) -> rtm.RunRow | None:
        rows = self.runs_view.selectionModel().selectedRows()
        return self.run_proxy.data(rows[0], RECORD_ROLE) if rows else None

    def refresh(self) -> None:
        """Show the selected run again (e.g. after the verbal scale setting changed)."""
        self._run_selected()

    def _run_selected(self, *_args) -> None:
        row = self.selected_run()
        if row is None or self.case is None or self.session.store is None:
            return
        view = self.run_view(row)
        self.result_view.show_run(view)
        self.run_shown.emit(view)

    def run_view(self, row: rtm.RunRow) -> RunView:
        by_id = {doc.id: doc for doc in self.documents}
        run = row.run
        return RunView(
            case=self.case,
            run=run,
            result=self.session.store.runs.result(run.id),
            questioned=by_id.get(run.questioned_document_id),
            known=tuple(by_id[i] for i in run.known_document_ids if i in by_id),
        )
