"""One validation record as the examiner reads it: the acceptance verdict and the method
first, then tabs for the figures with their intervals, the three charts, the methods side by
side (a LambdaG or fused record only: ``MethodComparisonView``), the population and protocol,
and the limits.

Used by the wizard's last page and by the model view (``ValidationRecordsDialog``). All wording
comes from ``presentation/validation_text.py`` (and the wizard's own module); this widget only
lays it out. A record may be a stored validation record (with its trials: charts drawn) or the
summary a validated model carries in its JSON (no trials: the charts tab says so).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation import validation_text as vt
from taveer_desktop.presentation.method_validation_text import stated_method_sentence
from taveer_desktop.presentation.validation_wizard_text import acceptance_headline
from taveer_desktop.ui.method_comparison_view import MethodComparisonView
from taveer_desktop.ui.validation_charts import ValidationCharts

MET_COLOUR, NOT_MET_COLOUR, NONE_COLOUR = "#1b5e20", "#b00020", "#444444"
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
FIGURE_COLUMNS = ("Figure", "Value", "95 % interval (over authors)", "What it says")


def _paragraphs(sentences: list[str]) -> str:
    return "".join(f"<p>{html.escape(s)}</p>" for s in sentences)


class ValidationRecordView(QWidget):
    """The acceptance headline and the record's tabs (see the module)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: dict | None = None
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.headline.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.headline.setFont(font)
        self.method_line = QLabel()
        self.method_line.setWordWrap(True)
        self.method_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.acceptance = QLabel()
        self.acceptance.setWordWrap(True)
        self.acceptance.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.figures = QTableWidget(0, len(FIGURE_COLUMNS))
        self.figures.setHorizontalHeaderLabels(FIGURE_COLUMNS)
        self.figures.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.figures.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.figures.setTabKeyNavigation(False)
        self.figures.verticalHeader().setVisible(False)
        self.figures.setWordWrap(False)
        header = self.figures.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.figures.setToolTip("Cross-validated figures; hover over a row for what it measures")
        figures_page = QWidget()
        figures_layout = QVBoxLayout(figures_page)
        figures_layout.addWidget(self.acceptance)
        figures_layout.addWidget(self.figures, 1)

        self.charts = ValidationCharts()
        self.methods = MethodComparisonView()
        self.population_text = QTextBrowser()
        self.limits_text = QTextBrowser()
        self.tabs = QTabWidget()
        self.tabs.addTab(figures_page, "Fi&gures and Acceptance")
        self.tabs.addTab(self.charts, "C&harts")
        self.tabs.addTab(self.methods, "Metho&ds Compared")
        self.tabs.addTab(self.population_text, "&Population and Protocol")
        self.tabs.addTab(self.limits_text, "Li&mits")
        for widget, tip in (
            (figures_page, "Cross-validated figures with 95 % intervals; the criteria"),
            (self.charts, "Tippett, empirical cross-entropy and score distributions"),
            (self.methods, "Every method's figures on the same trials; LambdaG's settings"),
            (self.population_text, "Who is in the population and how the trials were built"),
            (self.limits_text, "What this validation does not cover"),
        ):
            self.tabs.setTabToolTip(self.tabs.indexOf(widget), tip)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.headline)
        layout.addWidget(self.method_line)
        layout.addWidget(self.tabs, 1)

    def clear(self, message: str) -> None:
        self.record = None
        self.headline.setText(message)
        self.headline.setStyleSheet(f"color: {NONE_COLOUR};")
        self.method_line.setVisible(False)
        self.tabs.setVisible(False)

    def show_record(self, record: dict, model_name: str | None = None) -> None:
        self.record = record
        self.tabs.setVisible(True)
        met = (record.get("acceptance") or {}).get("met")
        colour = NONE_COLOUR if met is None else MET_COLOUR if met else NOT_MET_COLOUR
        self.headline.setStyleSheet(f"color: {colour};")
        self.headline.setText(acceptance_headline(met))
        self.method_line.setVisible(True)
        self.method_line.setText(stated_method_sentence(record))
        lines = [html.escape(vt.acceptance_sentence(record))]
        for line in vt.acceptance_lines(record):
            word = "met" if line.met else "NOT met"
            lines.append(
                f"• {html.escape(line.criterion)} — measured {html.escape(line.measured)}: "
                f"<b>{word}</b>"
            )
        if model_name:
            lines.append(f"Model produced: <b>{html.escape(model_name)}</b>")
        self.acceptance.setText("<br>".join(lines))
        self._fill_figures(record)
        name = str((record.get("population") or {}).get("name") or "population")
        stem = f"taveer-validation-{name}".replace("/", "-")
        self.charts.show_record(record, stem)
        compared = self.methods.show_record(record, f"{stem}-methods")
        self.tabs.setTabVisible(self.tabs.indexOf(self.methods), compared)
        if not compared and self.tabs.currentWidget() is self.methods:
            self.tabs.setCurrentIndex(0)
        pairs = "".join(
            f"<tr><td><b>{html.escape(label)}</b></td><td>{html.escape(value)}</td></tr>"
            for label, value in vt.population_pairs(record)
        )
        self.population_text.setHtml(
            f"<h3>The relevant population</h3><table cellpadding='3'>{pairs}</table>"
            f"<h3>How the trials were built</h3>{_paragraphs(vt.protocol_sentences(record))}"
        )
        self.limits_text.setHtml(
            f"<h3>What this validation does not cover</h3>"
            f"{_paragraphs(vt.limits_sentences(record))}"
        )

    def _fill_figures(self, record: dict) -> None:
        rows = vt.figure_lines(record)
        self.figures.setRowCount(len(rows))
        for row, line in enumerate(rows):
            for column, text in enumerate((line.name, line.value, line.interval, line.reading)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{line.reading}\n\n{line.meaning}".strip())
                if column in (1, 2):
                    item.setTextAlignment(RIGHT)
                self.figures.setItem(row, column, item)
        self.figures.resizeColumnsToContents()
