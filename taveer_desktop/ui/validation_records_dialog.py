"""The model view of validation: the project's validation records, and one in full.

Above, every validation record of the project (when, which case, population and model, Cllr,
criteria met); below, the selected record as ``ValidationRecordView`` shows it — acceptance,
figures with intervals, the Tippett, empirical cross-entropy and score-distribution charts,
population, protocol and limits. ``show_model`` selects the latest record that produced a
model; a model validated elsewhere (its JSON carries the summary, the project no record) is
shown from that summary, without charts. The list reloads on ``store_changed`` about
validations or models.

*Export Validation Report…* writes the selected stored record as its PDF validation report
(``report/validation_export.export_stored_validation_report``: integrity check, audit entry,
receipt beside it) as one job on the writer pool.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation.model_text import STATED_BY_FILE
from taveer_desktop.presentation.validation_wizard_text import validation_report_written_text
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.project_session import AUDIT, MODELS, VALIDATIONS, ProjectSession
from taveer_desktop.ui.record_table_model import SORT_ROLE, selected_record
from taveer_desktop.ui.record_table_model import select_record as select_matching
from taveer_desktop.ui.table_view import house_table
from taveer_desktop.ui.task_worker import Job, TaskWorker
from taveer_desktop.ui.validation_case_views import RecordCaseTabs
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from taveer_desktop.ui.validation_table_models import (
    V_CASE,
    V_CLLR,
    V_CREATED,
    V_CRITERIA,
    V_METHOD,
    V_MODEL,
    V_POPULATION,
    ValidationRow,
    ValidationTableModel,
    validation_rows,
)

SHOWN_RECORDS = 3  # records the list keeps in view when the dialog is short


class ValidationRecordsDialog(QDialog):
    def __init__(
        self,
        session: ProjectSession,
        parent: QWidget | None = None,
        runner: JobRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.export_worker: TaskWorker | None = None
        self.setWindowTitle(f"Validation Records — {PROGRAM_NAME}")
        self.model = ValidationTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = house_table(
            QTableView(), self.proxy, single=True, sort_by=(V_CREATED, Qt.SortOrder.DescendingOrder)
        )
        self.table.setToolTip("Every validation record kept in this project; select one")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(V_MODEL, QHeaderView.ResizeMode.Stretch)
        # what a record concluded before the long names: at 150 % the Cllr and the criteria
        # sat past the right edge, behind a horizontal scroll bar
        for place, column in enumerate((V_CREATED, V_CASE, V_CLLR, V_CRITERIA, V_METHOD)):
            header.moveSection(header.visualIndex(column), place)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        label = QLabel("&Records:")
        label.setBuddy(self.table)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(label)
        top_layout.addWidget(self.table)
        self.view = ValidationRecordView()
        self.case_tabs = RecordCaseTabs(self.view)  # as on the wizard's last page
        # the record scrolls as a whole where the dialog is short (1366 × 768 at 150 %): its
        # verdict lines took the height and left the figures table its header alone
        self.view.setMinimumHeight(self.fontMetrics().height() * 26)
        view_scroll = QScrollArea()
        view_scroll.setWidgetResizable(True)
        view_scroll.setFrameShape(QFrame.Shape.NoFrame)
        view_scroll.setWidget(self.view)
        self.view_scroll = view_scroll
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(view_scroll)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setChildrenCollapsible(False)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        self.close_button = close.button(QDialogButtonBox.StandardButton.Close)
        self.export_button = QPushButton("E&xport Validation Report…")
        self.export_button.setToolTip(
            "Write the selected record as a PDF validation report (audited, with a receipt "
            "beside it)"
        )
        self.export_button.clicked.connect(lambda: self.export_report())
        self.export_status = QLabel()
        self.export_status.setWordWrap(True)
        self.export_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bottom = QHBoxLayout()
        bottom.addWidget(self.export_button)
        bottom.addWidget(self.export_status, 1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(bottom)
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
        # the header and three whole records in view, whatever the scale (four lines of text
        # showed the header and a record and a half)
        rows = self.table.verticalHeader().defaultSectionSize() * SHOWN_RECORDS
        frame = 2 * self.table.frameWidth() + self.table.horizontalScrollBar().sizeHint().height()
        self.table.setMinimumHeight(
            self.table.horizontalHeader().sizeHint().height() + rows + frame
        )

    def reload(self) -> None:
        store = self.session.store
        shown = self.selected()
        rows = validation_rows(store, self.session.validations()) if store else []
        self.model.set_records(rows)
        self.table.resizeColumnsToContents()
        chars = self.fontMetrics().averageCharWidth()
        for column in range(self.model.columnCount()):  # a long name is elided (whole on
            widest = chars * (24 if column == V_POPULATION else 36)  # hover), not a reason
            if column != V_MODEL and self.table.columnWidth(column) > widest:  # to scroll
                self.table.setColumnWidth(column, widest)  # the Cllr and criteria out of view
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
        return selected_record(self.table)

    def select_record(self, validation_id: int) -> bool:
        return select_matching(self.table, lambda row: row.stored.id == validation_id)

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
        # the file's claim, never shown as a record:
        self.view.show_record(read_validation_record(summary), name)
        self.view.headline.setText(f"{STATED_BY_FILE.capitalize()}: {self.view.headline.text()}")
        return True

    def _selected(self, *_args) -> None:
        row = self.selected()
        store = self.session.store
        self._update_export()
        if row is None or store is None:
            return
        record = read_validation_record(store.validations.record(row.stored.id))
        self.view.show_record(record, row.model_name)
        if row.stored.case_id is None:  # a record made for no case: no fit, no attempts
            self.case_tabs.set_visible(False)
            self.view.set_fit_line(None)
            return
        case = store.cases.get(row.stored.case_id)
        self.case_tabs.show_case(store, case, record, row.population_name)

    # ---- the validation report ----------------------------------------------------------------

    def _update_export(self) -> None:
        store = self.session.store
        reason = None
        if self.runner is None or store is None:
            reason = "no project is open"
        elif store.read_only_reason:
            reason = f"the project is read-only ({store.read_only_reason})"
        elif self.selected() is None:
            reason = "select a stored record"
        elif self.export_worker is not None:
            reason = "a report is being written"
        self.export_button.setEnabled(reason is None)
        base = "Write the selected record as a PDF validation report (audited, with a receipt)"
        self.export_button.setToolTip(base if reason is None else f"{base} — {reason}")

    def export_report(self, path: Path | None = None) -> TaskWorker | None:
        """Write the selected record's validation report (asks where, unless ``path``)."""
        row, store, runner = self.selected(), self.session.store, self.runner
        self._update_export()
        if row is None or store is None or runner is None or not self.export_button.isEnabled():
            return None
        if path is None:
            suggestion = Path(app_settings.start_folder("reports")) / (
                f"validation-{row.stored.id}.pdf"
            )
            name, _f = QFileDialog.getSaveFileName(
                self, "Export the validation report", str(suggestion), "PDF files (*.pdf)"
            )
            if not name:
                return None
            path = Path(name)
            app_settings.remember_folder("reports", path)
        from taveer_desktop.report.validation_export import export_stored_validation_report

        validation_id, case_id = row.stored.id, row.stored.case_id
        job = Job(
            f"Writing the validation report of record {validation_id}",
            lambda p: export_stored_validation_report(store, validation_id, path, p),
            makes_qt_objects=True,
        )
        self.export_worker = runner.start(
            job,
            lambda exported: self._exported(exported, case_id),
            lambda message, _details: self._export_ended(
                f"The validation report was not written: {message}"
            ),
            lambda: self._export_ended("Cancelled; no report was written."),
        )
        self.export_status.setText("Writing the validation report…")
        self._update_export()
        return self.export_worker

    def _export_ended(self, text: str) -> None:
        self.export_worker = None
        self.export_status.setText(text)
        self._update_export()

    def _exported(self, exported, case_id: int | None) -> None:
        self.session.changed(AUDIT, case_id=case_id)
        self._export_ended(validation_report_written_text(exported))
