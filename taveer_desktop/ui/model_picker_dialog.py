"""Choosing the model of a case, with what decides whether it fits the case in view.

Nothing is chosen for the examiner: a new case has no model, and Verify on such a case opens
this dialog. Each model shows its training corpus, genre, the text lengths it was validated on,
its held-out Cllr and rates of misleading evidence (or "not measured") and whether it records
its validated conditions; the selected model's population (Hd of its conclusions) and every
held-out figure are spelled out below the table. The caller stores the choice
(``store.cases.choose_model``, audited).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop import PROGRAM_NAME
from taveer_desktop.store import Case
from taveer_desktop.ui import model_choice_table_model as mct
from taveer_desktop.ui.dialog_size import resize_to_fit
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.record_table_model import (
    SORT_ROLE,
    select_record,
    selected_record,
)
from taveer_desktop.ui.table_view import house_table

INTRO = (
    "Choose the model this case is verified with. Its likelihood ratios are calibrated on its "
    "training population, which becomes Hd of every conclusion, and are only evaluative for "
    "texts like those it was validated on: compare the genre and text lengths with the case, "
    "and prefer a model measured on held-out data (low Cllr, few misleading results)."
)


class ModelPickerDialog(QDialog):
    """Pick one model for ``case``; ``chosen()`` after ``accepted``."""

    def __init__(self, session: ProjectSession, case: Case, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.case = case
        self.setWindowTitle(f"Choose the model for case {case.number} — {PROGRAM_NAME}")
        intro = QLabel(INTRO)
        intro.setWordWrap(True)
        self.model = mct.ModelChoiceTableModel(self)
        self.model.set_records(session.model_choices())
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = house_table(QTableView(), self.proxy, single=True)
        self.view.resizeColumnsToContents()
        widest = self.fontMetrics().horizontalAdvance("m") * 22
        for column in range(self.model.columnCount()):  # long genres in full below and on hover
            if self.view.columnWidth(column) > widest:
                self.view.setColumnWidth(column, widest)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.view.doubleClicked.connect(lambda _i: self.accept())
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("&Use for This Case")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        # the selected model's details scroll on their own: at 150 % on a 1366 × 768 screen
        # they pushed the table to one row and were cut at the bottom; the two share the height
        details_scroll = QScrollArea()
        details_scroll.setWidgetResizable(True)
        details_scroll.setFrameShape(QFrame.Shape.NoFrame)
        details_scroll.setWidget(self.details)
        self.details_scroll = details_scroll
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.view)
        splitter.addWidget(details_scroll)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(splitter, stretch=1)
        layout.addWidget(self.buttons)
        if case.model_id is not None:
            self.select_id(case.model_id)
        self._selection_changed()
        resize_to_fit(self, 110, 30)

    def select_id(self, model_id: int) -> bool:
        return select_record(self.view, lambda choice: choice.stored.id == model_id)

    def select_name(self, name: str) -> bool:
        return select_record(self.view, lambda choice: choice.name == name)

    def chosen(self) -> mct.ModelChoice | None:
        return selected_record(self.view)

    def _selection_changed(self, *_args) -> None:
        choice = self.chosen()
        self.ok_button.setEnabled(choice is not None)
        if choice is None:
            self.details.setText(
                "No model chosen yet: select one above."
                if self.model.rowCount()
                else "The project has no model: train or import one first."
            )
            return
        e = html.escape
        lines = []
        for line in choice.summary_lines:  # the CLI's own wording (presentation/model_text)
            label, _sep, rest = line.partition(": ")
            lines.append(f"<b>{e(label[:1].upper() + label[1:])}:</b> {e(rest)}")
        conditions = (
            "It records the conditions it was validated under; cases outside them get an "
            "investigative conclusion only."
            if choice.conditions_recorded
            else "Without validated conditions its likelihood ratios are for investigation only."
        )
        self.details.setText(
            f"<b>{e(choice.name)}</b>, trained on “{e(choice.stored.corpus_name)}”. "
            f"{conditions}<br>"
            + "<br>".join(lines)
            + "<br><small>Misleading: the share of same-author test trials with a likelihood "
            "ratio below 1, and of different-author trials above 1. Cllr 1 means "
            "uninformative; above 1, worse than no evidence.</small>"
        )
