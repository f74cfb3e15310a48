"""Two views of one case against its validations, for the wizard's record page: the
population-fit check of this case against the validation's population (``FitView``) and every
validation attempt of the case (``AttemptsView``). Words from ``presentation.population_fit_text``
and ``presentation.validation_attempts_text``, the same the case report prints."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import population_fit_text as fit_words
from taveer_desktop.presentation.validation_attempts_text import (
    ATTEMPT_COLUMNS,
    Attempt,
    attempt_cells,
    attempts_sentence,
    failed_attempts_sentence,
)
from taveer_desktop.ui.table_view import house_table

FITS_COLOUR, FLAGGED_COLOUR, NONE_COLOUR = "#1b5e20", "#b00020", "#444444"
CHOSEN_BACKGROUND = QColor("#e8f0fe")


def _label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _table(columns: Sequence[str]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    house_table(table)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class FitView(QWidget):
    """The case's fit to the validation's population: the verdict in words, p per part, what
    p means and the stated false-flag rate — or why no check could be made."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.check: fit_words.FitCheck | None = None
        self.headline = _label()
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.consequence = _label()
        self.table = _table(fit_words.FIT_COLUMNS)
        self.table.setToolTip(fit_words.FIT_MEANING)
        self.meaning = _label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.consequence)
        layout.addWidget(self.table)
        layout.addWidget(self.meaning)
        layout.addStretch(1)

    def show_check(self, check: fit_words.FitCheck) -> None:
        self.check = check
        headline, consequence, meaning = fit_words.fit_sentences(check)
        self.headline.setText(headline)
        self.headline.setStyleSheet(f"color: {FITS_COLOUR if check.fits else FLAGGED_COLOUR};")
        self.consequence.setText(consequence)
        self.meaning.setText(meaning)
        self.table.setVisible(True)
        self.table.setRowCount(len(check.parts))
        for row, part in enumerate(check.parts):
            for column, text in enumerate(fit_words.fit_cells(part)):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.setMaximumHeight(self._rows_height())

    def show_missing(self, reason: str) -> None:
        self.check = None
        self.headline.setText("No population-fit check for this case.")
        self.headline.setStyleSheet(f"color: {NONE_COLOUR};")
        self.consequence.setText(reason)
        self.meaning.setText(fit_words.FIT_MEANING)
        self.table.setVisible(False)

    def headline_text(self) -> str:
        return self.headline.text()

    def _rows_height(self) -> int:
        header = self.table.horizontalHeader().height()
        rows = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        return header + rows + 2 * self.table.frameWidth() + 2


class AttemptsView(QWidget):
    """Every validation attempt of the case, oldest first, the chosen one shaded."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attempts: tuple[Attempt, ...] = ()
        self.summary = _label()
        self.table = _table(ATTEMPT_COLUMNS)
        self.table.setToolTip("Every validation run for this case; shaded: the case's model")
        layout = QVBoxLayout(self)
        self.failed = _label()
        self.failed.setVisible(False)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.failed)

    def show_attempts(
        self, attempts: Sequence[Attempt], case_number: str, failed: Sequence[str] = ()
    ) -> None:
        """The attempts that gave a record in the table; those that failed (no model, no
        record) listed under it with their reasons."""
        self.attempts = tuple(attempts)
        self.summary.setText(attempts_sentence(self.attempts, case_number))
        self.failed.setText("\n".join([failed_attempts_sentence(len(failed)), *failed]))
        self.failed.setVisible(bool(failed))
        self.table.setRowCount(len(self.attempts))
        for row, attempt in enumerate(self.attempts):
            for column, text in enumerate(attempt_cells(attempt)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{text}\n{attempt.lengths}\nModel: {attempt.model}")
                if attempt.chosen:
                    item.setBackground(CHOSEN_BACKGROUND)
                self.table.setItem(row, column, item)
        self.table.resizeColumnsToContents()
        widest = self.fontMetrics().horizontalAdvance("m") * 18  # long names elide; tooltips
        for column in range(self.table.columnCount()):
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), widest))


class RecordCaseTabs:
    """The Case Fit and Attempts tabs of a record view (``ValidationRecordView``), filled for the
    case the record was made for: on the wizard's last page and in Validation Records alike."""

    def __init__(self, view) -> None:
        self.view = view
        self.fit = FitView()
        self.attempts = AttemptsView()
        view.add_case_tab(self.fit, "Case &Fit", "Whether this case looks like the population")
        view.add_case_tab(self.attempts, "A&ttempts", "Every validation run for this case")

    def set_visible(self, visible: bool) -> None:
        """Show the tabs (a record of a case) or hide them (a record of no case)."""
        for widget in (self.fit, self.attempts):
            self.view.tabs.setTabVisible(self.view.tabs.indexOf(widget), visible)

    def show_case(self, store, case, record: ValidationRecord, population: str) -> None:
        """The case's fit to the record's population and every attempt of the case."""
        from taveer_desktop.report.validation_attempts import (
            case_attempts,
            failed_lines,
            record_fit_check,
        )

        self.show_fit(*record_fit_check(store, case, record, population))
        self.attempts.show_attempts(
            case_attempts(store, case), case.number, failed_lines(store, case)
        )
        self.set_visible(True)

    def show_fit(self, check: fit_words.FitCheck | None, problem: str) -> None:
        """This case's fit check against the record's population, or why there is none."""
        if check is not None:
            self.fit.show_check(check)
        else:
            self.fit.show_missing(problem or fit_words.FIT_NOT_MADE)
        self.view.set_fit_line(check)
