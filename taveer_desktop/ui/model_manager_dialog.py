"""The model manager: every model of the project with its training facts, and what to do with it.

The buttons only ask (signals); the main window carries out training, import, export and
evaluation, so the same code runs from the menu and from here. The list reloads on every
``store_changed`` about models.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.model_text import stated_validation_line
from taveer_desktop.presentation.validation_wizard_text import model_validation_line
from taveer_desktop.ui import model_table_model as mtm
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.project_session import MODELS, ProjectSession
from taveer_desktop.ui.record_table_model import (
    SORT_ROLE,
    select_record,
    selected_record,
    short_hash,
)
from taveer_desktop.ui.table_view import house_table


class ModelManagerDialog(QDialog):
    train_requested = Signal()
    import_requested = Signal()
    export_requested = Signal(object)  # ModelSummary
    evaluate_requested = Signal(object)  # ModelSummary
    validation_requested = Signal(object)  # ModelSummary

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(f"Models — {PROGRAM_NAME}")
        intro = QLabel(
            "Models kept in this project. A model is trained once on a corpus with known answers "
            "and then used to verify cases; its training accuracy is measured on its own "
            "training corpus and is therefore optimistic — Evaluate it on a separate test corpus."
        )
        intro.setWordWrap(True)
        self.model = mtm.ModelTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = house_table(
            QTableView(),
            self.proxy,
            single=True,
            sort_by=(mtm.NAME, Qt.SortOrder.AscendingOrder),
            wrap=True,  # a long name wraps inside its column, whole
        )
        self.view.setToolTip(
            "The project's models; each case's model is chosen for it (Verification tab)"
        )
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        def button(text: str, tip: str, slot) -> QPushButton:
            widget = QPushButton(text)
            widget.setToolTip(tip)
            widget.clicked.connect(slot)
            return widget

        self.train_button = button(
            "&Train…", "Train a new model on a corpus folder", self.train_requested.emit
        )
        self.import_button = button(
            "&Import…", "Add a model file (.json) to the project", self.import_requested.emit
        )
        self.export_button = button("E&xport…", "Save the selected model as a file", self._export)
        self.evaluate_button = button(
            "E&valuate…", "Measure the selected model on a test corpus", self._evaluate
        )
        self.validation_button = button(
            "Show Va&lidation…",
            "The selected model's validation: population, figures with intervals, acceptance "
            "and charts",
            self._show_validation,
        )
        row = QHBoxLayout()
        for widget in (
            self.train_button,
            self.import_button,
            self.export_button,
            self.evaluate_button,
            self.validation_button,
        ):
            row.addWidget(widget)
        row.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.view, stretch=1)
        layout.addWidget(self.details)
        layout.addWidget(close)
        session.store_changed.connect(self._store_changed)
        resize_to_fit(self, 90, 28)
        self.reload()

    def reload(self) -> None:
        selected = self.selected()
        self.model.set_records(self.session.model_summaries())
        self.fit_columns()
        if selected is not None:
            self.select(selected.name)
        elif self.proxy.rowCount():
            self.view.selectRow(0)
        self._selection_changed()

    def fit_columns(self) -> None:
        """Every column in view on a laptop screen (1366 × 768, at 100 % and 150 %): the name
        gets up to a third of the table and wraps within it, whole (it was squeezed to "R…");
        the other columns share the rest, a long value elided (whole in its tooltip)."""
        self.view.resizeColumnsToContents()
        room = max(self.view.viewport().width(), self.width() - 40)
        char = self.fontMetrics().averageCharWidth()
        name = min(self.view.columnWidth(mtm.NAME), max(room // 4, char * 26))
        self.view.setColumnWidth(mtm.NAME, name)
        others = [c for c in range(self.model.columnCount()) if c != mtm.NAME]
        widest = max(char * 8, (room - name) // max(1, len(others)))
        header = self.view.horizontalHeader()
        for column in others:
            title = header.fontMetrics().horizontalAdvance(
                str(self.model.headerData(column, Qt.Orientation.Horizontal))
            )
            if self.view.columnWidth(column) > max(widest, title + char * 2):
                self.view.setColumnWidth(column, max(widest, title + char * 2))
        # two lines a row: a long name wraps once; a longer one ends in "…" (whole on hover
        # and in the details under the table)
        self.view.verticalHeader().setDefaultSectionSize(
            2 * self.view.fontMetrics().lineSpacing() + char
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.model.rowCount():
            self.fit_columns()

    def _store_changed(self, change) -> None:
        if MODELS in change.kinds:
            self.reload()

    def select(self, name: str) -> bool:
        return select_record(self.view, lambda summary: summary.name == name)

    def selected(self) -> mtm.ModelSummary | None:
        return selected_record(self.view)

    def _selection_changed(self, *_args) -> None:
        summary = self.selected()
        for widget in (self.export_button, self.evaluate_button):
            widget.setEnabled(summary is not None and summary.problem is None)
        self.validation_button.setEnabled(summary is not None and summary.validation is not None)
        if summary is None:
            self.details.setText("No model selected.")
            return
        if summary.problem is not None:  # stored by an older version; refused where used
            self.details.setText(
                f"<b>{html.escape(summary.name)}</b>: {html.escape(summary.method_sentence)}"
            )
            return
        stored = summary.stored
        validation = html.escape(  # the model file's own summary: stated, never a record
            stated_validation_line(summary.validation)
            if summary.validation
            else model_validation_line(None)
        )
        self.details.setText(
            f"<b>{html.escape(stored.name)}</b>: trained on "
            f"{numbers.count(summary.cases, 'case')} of “{html.escape(stored.corpus_name)}” "
            f"({numbers.integer(summary.cases_y)} same author, "
            f"{numbers.integer(summary.cases_n)} different), thresholds by "
            f"{summary.threshold_method}; ensemble {' '.join(summary.ensemble)}. "
            f"{html.escape(summary.method_sentence)} "
            f"Model SHA-256 <code>{short_hash(stored.sha256)}</code>, corpus SHA-256 "
            f"<code>{short_hash(stored.corpus_sha256)}</code>.<br>{validation}"
        )

    def _export(self) -> None:
        if (summary := self.selected()) is not None:
            self.export_requested.emit(summary)

    def _show_validation(self) -> None:
        if (summary := self.selected()) is not None:
            self.validation_requested.emit(summary)

    def _evaluate(self) -> None:
        if (summary := self.selected()) is not None:
            self.evaluate_requested.emit(summary)
