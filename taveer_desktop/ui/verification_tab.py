"""The Verification tab: the case's chosen model, verify, and the stored runs and their results.

The case's model is the one the examiner chose (stored with the case); "Choose Model…" asks for
it to be chosen (the window opens the model picker), and no model is ever chosen silently. The
runs of the case are listed newest first, with their conclusion and likelihood ratio, in a table
of a few rows; selecting one shows it in the result view (``RunExplanationPanel``), which gets
the rest of the height with the conclusion at its top, and the run shown stays shown when the
case reloads. The model and its validation take one line each (whole on hover), so that on a
1366 × 768 screen at 150 % the conclusion is still in view.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation.model_text import stated_validation_line
from taveer_desktop.presentation.validation_wizard_text import model_validation_line
from taveer_desktop.store import Case, Document, ProjectStore
from taveer_desktop.ui import app_settings
from taveer_desktop.ui import run_table_model as rtm
from taveer_desktop.ui.elided_label import ElidedLabel
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import (
    CASES,
    DOCUMENTS,
    MODELS,
    RUNS,
    VALIDATIONS,
    ProjectSession,
)
from taveer_desktop.ui.record_table_model import (
    SORT_ROLE,
    select_record,
    selected_record,
)
from taveer_desktop.ui.run_explanation_panel import RunExplanationPanel
from taveer_desktop.ui.run_view import RunView
from taveer_desktop.ui.table_view import house_table

RUN_ROWS = 3  # rows of the runs table shown before it scrolls


class VerificationTab(QWidget):
    # the case's model (CASES, MODELS), the documents the run views name, and the runs
    reloads_on = frozenset({CASES, DOCUMENTS, MODELS, RUNS, VALIDATIONS})
    choose_model_requested = Signal()  # the examiner asked to choose the case's model
    validation_requested = Signal(int)  # the examiner asked to see the model's validation (id)
    run_shown = Signal(object)  # RunView now shown in the result view

    def __init__(
        self,
        session: ProjectSession,
        verify_action: QAction,
        parent: QWidget | None = None,
        runner: JobRunner | None = None,
        validate_action: QAction | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.case: Case | None = None
        self.documents: list[Document] = []
        self.model_name: str | None = None
        self.validation_model_id: int | None = None

        # one line each for the model and its validation (shortened with "…", whole on hover)
        # so that the conclusion keeps its place on a small screen at 150 %
        self.model_label = ElidedLabel()
        self.model_label.setToolTip("The model the examiner chose to verify this case with")
        self.choose_model_button = QPushButton("Choose M&odel…")
        self.choose_model_button.setToolTip(
            "Choose the case's model, with each model's training population, text lengths and "
            "held-out error rates in view"
        )
        self.choose_model_button.clicked.connect(self.choose_model_requested.emit)
        self.verify_button = QToolButton()
        self.verify_button.setDefaultAction(verify_action)
        self.verify_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.validation_label = ElidedLabel()
        self.validation_link = QLabel("<a href='show'>Show the validation…</a>")
        self.validation_link.setToolTip(
            "The validation that produced the case's model: its population, cross-validated "
            "Cllr, rates of misleading evidence and whether the criteria set before it were met"
        )
        self.validation_link.linkActivated.connect(self._validation_link)
        top = QHBoxLayout()
        top.addWidget(self.model_label, stretch=1)
        top.addWidget(self.choose_model_button)
        self.validate_button = None
        if validate_action is not None:
            self.validate_button = QToolButton()
            self.validate_button.setDefaultAction(validate_action)
            self.validate_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            top.addWidget(self.validate_button)
        top.addWidget(self.verify_button)
        validation = QHBoxLayout()
        validation.addWidget(self.validation_label, stretch=1)
        validation.addWidget(self.validation_link)
        # the runs table folds away (remembered), giving its height to the result's details
        self.runs_toggle = QToolButton()
        self.runs_toggle.setText("R&uns")
        self.runs_toggle.setCheckable(True)
        self.runs_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.runs_toggle.setToolTip(
            "Show or hide the table of this case's runs (the newest run is shown either way); "
            "hidden, its height goes to the result"
        )
        validation.addWidget(self.runs_toggle)

        self.run_model = rtm.RunTableModel(self)
        self.run_proxy = QSortFilterProxyModel(self)
        self.run_proxy.setSourceModel(self.run_model)
        self.run_proxy.setSortRole(SORT_ROLE)
        self.runs_view = house_table(
            QTableView(),
            self.run_proxy,
            single=True,
            sort_by=(rtm.TIME, Qt.SortOrder.DescendingOrder),
        )
        self.runs_view.setToolTip("Stored verification runs of this case; select one to see it")
        header = self.runs_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.runs_view.selectionModel().selectionChanged.connect(self._run_selected)

        # the result view scrolls and splits itself: it fills its place, without a scroll area;
        # the runs table keeps a few rows (``_fit_runs``) and the result gets the rest, its
        # conclusion at most half of it (``_fit_conclusion``); no splitter whose saved sizes
        # could squeeze the result to a sliver on a smaller screen
        self.result_view = RunExplanationPanel(session, runner=runner)
        self.runs_view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addLayout(validation)
        layout.addWidget(self.runs_view)
        layout.addWidget(self.result_view, stretch=1)
        self.runs_toggle.setChecked(app_settings.layout_value("runs_hidden") != "true")
        self._runs_toggled(self.runs_toggle.isChecked(), remember=False)
        self.runs_toggle.toggled.connect(self._runs_toggled)

    def _runs_toggled(self, shown: bool, remember: bool = True) -> None:
        """Show or fold away the runs table (``remember``: for later starts too)."""
        self.runs_view.setVisible(shown)
        self.runs_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        if remember:
            app_settings.remember_layout("runs_hidden", "false" if shown else "true")

    # ---- the result view ----------------------------------------------------------------------

    def shut_down(self) -> None:
        """Wait for the result view's background work before the window closes."""
        self.result_view.shutdown()

    # ---- models -------------------------------------------------------------------------------

    def chosen_model(self) -> str | None:
        """The name of the model chosen for the case shown (None until one is chosen)."""
        return self.model_name

    def _show_model(self, case: Case | None) -> None:
        self.model_name = self.session.model_name(case.model_id) if case else None
        if case is None:
            text = ""
        elif self.model_name:
            text = f"Model: {self.model_name}"
        else:
            text = "Model: none chosen — choose one before verifying"
        self.model_label.setText(text)
        self.choose_model_button.setEnabled(case is not None and bool(self.session.models()))
        self._show_validation(case.model_id if case and self.model_name else None)

    def _show_validation(self, model_id: int | None) -> None:
        """One line on the validation of the case's model, with a link to its record."""
        self.validation_model_id = model_id
        summary = self.session.model_validation_summary(model_id) if model_id else None
        self.validation_link.setVisible(model_id is not None and bool(summary))
        self.validation_label.setVisible(model_id is not None)
        stored = self.session.model_validation(model_id) if model_id else None
        line = (
            stated_validation_line(summary)
            if summary is not None and stored is None
            else model_validation_line(read_validation_record(summary) if summary else None)
        )
        self.validation_label.setText(line if model_id else "")  # a file's claim: "stated by"

    def _validation_link(self, _href: str) -> None:
        if self.validation_model_id is not None:
            self.validation_requested.emit(self.validation_model_id)

    # ---- case and runs ------------------------------------------------------------------------

    def show_case(self, case: Case | None, documents: Sequence[Document] = ()) -> None:
        shown = self.selected_run()
        same_case = case is not None and self.case is not None and self.case.id == case.id
        self.case = case
        self.documents = list(documents)
        self._show_model(case)
        rows = self.session.runs(case.id) if case else []
        self.run_model.set_records(rows)
        self.runs_view.resizeColumnsToContents()
        widest = self.fontMetrics().horizontalAdvance("m") * 24
        for column in range(self.run_model.columnCount()):
            if self.runs_view.columnWidth(column) > widest:
                self.runs_view.setColumnWidth(column, widest)
        self._fit_runs()
        if rows:
            if not (same_case and shown is not None and self.select_run(shown.run.id)):
                self.select_run(rows[0].run.id)
        else:
            self.result_view.clear(
                "No verification yet. Choose a model and press Verify."
                if case
                else "Select a case."
            )

    def _fit_runs(self) -> None:
        """The runs table as tall as its runs but at most ``RUN_ROWS`` rows and a fifth of the
        tab (it scrolls beyond that): the result below gets the rest, so the conclusion is in
        view on a small screen."""
        view = self.runs_view
        rows = max(1, min(self.run_model.rowCount(), RUN_ROWS))
        row_height = view.verticalHeader().defaultSectionSize()
        chrome = view.horizontalHeader().sizeHint().height() + 2 * view.frameWidth()
        if view.horizontalScrollBar().maximum() > 0:
            chrome += view.horizontalScrollBar().sizeHint().height()
        limit = max(chrome + row_height, self.height() // 5)
        view.setMinimumHeight(chrome + row_height)
        view.setMaximumHeight(min(chrome + rows * row_height, limit))
        self._fit_conclusion()

    def _fit_conclusion(self) -> None:
        """The result never shorter than the bar of its tabs and a line of its conclusion;
        the result divides its height itself (``RunExplanationPanel.fit_conclusion``: the
        conclusion at most half, the tabs the rest)."""
        panel = self.result_view
        tabs = panel.result_view.tabs.tabBar().sizeHint().height()
        needed = 2 * tabs + panel.page_spacing
        if panel.minimumHeight() != needed:
            panel.setMinimumHeight(needed)
        panel.fit_conclusion()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_runs()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_runs()

    def select_run(self, run_id: int) -> bool:
        if not select_record(self.runs_view, lambda row: row.run.id == run_id):
            return False
        self._run_selected()
        return True

    def selected_run(self) -> rtm.RunRow | None:
        return selected_record(self.runs_view)

    def refresh(self) -> None:
        """Show the selected run again (e.g. after the verbal scale setting changed)."""
        self._run_selected()

    def _run_selected(self, *_args) -> None:
        row, case, store = self.selected_run(), self.case, self.session.store
        if row is None or case is None or store is None:
            return
        view = self.run_view(row, case, store)
        self.result_view.show_run(view)
        self._fit_conclusion()
        self.run_shown.emit(view)

    def run_view(self, row: rtm.RunRow, case: Case, store: ProjectStore) -> RunView:
        by_id = {doc.id: doc for doc in self.documents}
        run = row.run
        return RunView(
            case=case,
            run=run,
            result=store.runs.result(run.id),
            questioned=by_id.get(run.questioned_document_id),
            known=tuple(by_id[i] for i in run.known_document_ids if i in by_id),
        )
