"""One validation record as the examiner reads it: the acceptance verdict (judged on the
pessimistic end of the intervals where the record was), the method and the size for casework
first, then tabs for the figures with their intervals, the three charts, the methods side by
side (a LambdaG or fused record only: ``MethodComparisonView``), what the validation covers (the
declared range, the repeats and their spread, the figures per length band), the population and
protocol, and the limits. The wizard adds tabs about its case (``add_case_tab``) and a line on
the case's population fit (``set_fit_line``).

Used by the wizard's last page and by the model view (``ValidationRecordsDialog``). All wording
comes from ``presentation/validation_text.py`` and ``validation_figures_text.py`` (and the
wizard's own module); this widget only lays it out. A record may be a stored validation record
(with its trials: charts drawn) or the summary a validated model carries in its JSON (no
trials: the charts tab says so).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import population_fit_text as fit_words
from taveer_desktop.presentation import validation_range_text as rt
from taveer_desktop.presentation.method_validation_text import stated_method_sentence
from taveer_desktop.presentation.validation_figures_text import (
    acceptance_lines,
    acceptance_sentence,
    figure_lines,
    judged_pessimistically,
)
from taveer_desktop.presentation.validation_text import (
    limits_sentences,
    population_pairs,
    protocol_sentences,
)
from taveer_desktop.presentation.validation_wizard_text import acceptance_headline
from taveer_desktop.ui.method_comparison_view import MethodComparisonView
from taveer_desktop.ui.table_view import house_table
from taveer_desktop.ui.validation_charts import ValidationCharts

MET_COLOUR, NOT_MET_COLOUR, NONE_COLOUR = "#1b5e20", "#b00020", "#444444"
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
FIGURE_COLUMNS = ("Figure", "Value", "95 % interval (over authors)", "What it says")
READING = FIGURE_COLUMNS.index("What it says")


def _paragraphs(sentences: list[str]) -> str:
    return "".join(f"<p>{html.escape(s)}</p>" for s in sentences)


class ValidationRecordView(QWidget):
    """The acceptance headline and the record's tabs (see the module)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: ValidationRecord | None = None
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
        self.casework_line = QLabel()
        self.casework_line.setWordWrap(True)
        self.casework_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fit_line = QLabel()
        self.fit_line.setWordWrap(True)
        self.fit_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fit_line.setVisible(False)
        self.acceptance = QLabel()
        self.acceptance.setWordWrap(True)
        self.acceptance.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        # what a figure says wraps in its row, whole: cut at the window's edge, "Below 1: the
        # likelihood ratios carry information (0.741 of the…" hid the number's meaning
        self.figures = house_table(QTableWidget(0, len(FIGURE_COLUMNS)), wrap=True)
        self.figures.setHorizontalHeaderLabels(FIGURE_COLUMNS)
        header = self.figures.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(READING, QHeaderView.ResizeMode.Stretch)
        self.figures.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.figures.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.figures.setToolTip("Cross-validated figures; hover over a row for what it measures")
        figures_page = QWidget()
        figures_layout = QVBoxLayout(figures_page)
        figures_layout.addWidget(self.acceptance)
        figures_layout.addWidget(self.figures, 1)

        self.charts = ValidationCharts()
        self.methods = MethodComparisonView()
        self.coverage_text = QTextBrowser()
        self.population_text = QTextBrowser()
        self.limits_text = QTextBrowser()
        self.tabs = QTabWidget()
        self.tabs.addTab(figures_page, "Fi&gures and Acceptance")
        self.tabs.addTab(self.charts, "C&harts")
        self.tabs.addTab(self.methods, "Metho&ds Compared")
        self.tabs.addTab(self.coverage_text, "Co&verage")
        self.tabs.addTab(self.population_text, "&Population and Protocol")
        self.tabs.addTab(self.limits_text, "Li&mits")
        for widget, tip in (
            (figures_page, "Cross-validated figures with 95 % intervals; the criteria"),
            (self.charts, "Tippett, empirical cross-entropy and score distributions"),
            (self.methods, "Every method's figures on the same trials; LambdaG's settings"),
            (self.coverage_text, "The declared range, the repeats and the figures per band"),
            (self.population_text, "Who is in the population and how the trials were built"),
            (self.limits_text, "What this validation does not cover"),
        ):
            self.tabs.setTabToolTip(self.tabs.indexOf(widget), tip)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.headline)
        layout.addWidget(self.method_line)
        layout.addWidget(self.casework_line)
        layout.addWidget(self.fit_line)
        layout.addWidget(self.tabs, 1)

    def add_case_tab(self, widget: QWidget, title: str, tip: str) -> None:
        """A tab about the case the record was made for (the wizard's fit and attempts)."""
        index = self.tabs.addTab(widget, title)
        self.tabs.setTabToolTip(index, tip)

    def set_fit_line(self, check: fit_words.FitCheck | None) -> None:
        """One line under the verdict: the case's fit to the population (hidden: no check)."""
        self.fit_line.setVisible(check is not None)
        if check is not None:
            colour = MET_COLOUR if check.fits else NOT_MET_COLOUR
            self.fit_line.setStyleSheet(f"color: {colour};")
            self.fit_line.setText(fit_words.fit_headline(check))

    def clear(self, message: str) -> None:
        self.record = None
        self.headline.setText(message)
        self.headline.setStyleSheet(f"color: {NONE_COLOUR};")
        self.method_line.setVisible(False)
        self.casework_line.setVisible(False)
        self.fit_line.setVisible(False)
        self.tabs.setVisible(False)

    def show_record(self, record: ValidationRecord, model_name: str | None = None) -> None:
        self.record = record
        self.tabs.setVisible(True)
        met = record.acceptance.met
        colour = NONE_COLOUR if met is None else MET_COLOUR if met else NOT_MET_COLOUR
        self.headline.setStyleSheet(f"color: {colour};")
        self.headline.setText(acceptance_headline(met, judged_pessimistically(record)))
        verdict = rt.casework_verdict(record)
        self.casework_line.setVisible(True)
        self.casework_line.setStyleSheet(f"color: {NOT_MET_COLOUR};" if verdict.too_small else "")
        self.casework_line.setText(verdict.headline)
        self.method_line.setVisible(True)
        self.method_line.setText(stated_method_sentence(record))
        lines = [html.escape(acceptance_sentence(record))]
        for line in acceptance_lines(record):
            word = "met" if line.met else "NOT met"
            lines.append(
                f"• {html.escape(line.criterion)} — measured {html.escape(line.measured)}: "
                f"<b>{word}</b>"
            )
        if model_name:
            lines.append(f"Model produced: <b>{html.escape(model_name)}</b>")
        self.acceptance.setText("<br>".join(lines))
        self._fill_figures(record)
        name = record.population.name or "population"
        stem = f"taveer-validation-{name}".replace("/", "-")
        self.charts.show_record(record, stem)
        compared = self.methods.show_record(record, f"{stem}-methods")
        self.tabs.setTabVisible(self.tabs.indexOf(self.methods), compared)
        if not compared and self.tabs.currentWidget() is self.methods:
            self.tabs.setCurrentIndex(0)
        pairs = "".join(
            f"<tr><td><b>{html.escape(label)}</b></td><td>{html.escape(value)}</td></tr>"
            for label, value in population_pairs(record)
        )
        self.population_text.setHtml(
            f"<h3>The relevant population</h3><table cellpadding='3'>{pairs}</table>"
            f"<h3>How the trials were built</h3>{_paragraphs(protocol_sentences(record))}"
        )
        self.coverage_text.setHtml(coverage_html(record))
        self.limits_text.setHtml(
            f"<h3>What this validation does not cover</h3>{_paragraphs(limits_sentences(record))}"
        )

    def _fill_figures(self, record: ValidationRecord) -> None:
        rows = figure_lines(record)
        self.figures.setRowCount(len(rows))
        for row, line in enumerate(rows):
            for column, text in enumerate((line.name, line.value, line.interval, line.reading)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{line.reading}\n\n{line.meaning}".strip())
                if column in (1, 2):
                    item.setTextAlignment(RIGHT)
                self.figures.setItem(row, column, item)
        self.figures.resizeColumnsToContents()


def coverage_html(record: ValidationRecord) -> str:
    """The declared range, the repeats (with a row per repeat), the size for casework and the
    figures per band, as the Coverage tab shows them."""
    verdict = rt.casework_verdict(record)
    parts = [
        "<h3>The declared casework range</h3>",
        f"<p>{html.escape(rt.conditions_sentence(record))}</p>",
        "<h3>Repeats</h3>",
        f"<p>{html.escape(rt.repeats_sentence(record))}</p>",
    ]
    rows = rt.repeat_rows(record)
    if len(rows) > 1:
        cells = "".join(
            "<tr>" + "".join(f"<td align='right'>{html.escape(c)}</td>" for c in row) + "</tr>"
            for row in rows
        )
        parts.append(
            "<table cellpadding='3' border='1' cellspacing='0'><tr><th>Seed</th><th>Cllr</th>"
            f"<th>AUC</th></tr>{cells}</table>"
        )
    colour = f" style='color: {NOT_MET_COLOUR};'" if verdict.too_small else ""
    parts += ["<h3>Size for casework</h3>", f"<p{colour}>{html.escape(verdict.headline)}</p>"]
    if verdict.reasons:
        items = "".join(f"<li>{html.escape(r)}</li>" for r in verdict.reasons)
        parts.append(f"<ul>{items}</ul>")
    parts.append("<h3>Figures per length band</h3>")
    lines = rt.band_lines(record)
    if not lines:
        parts.append(f"<p>{html.escape(rt.NO_BANDS)}</p>")
    else:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in rt.BAND_COLUMNS)
        body = "".join(
            "<tr>"
            + "".join(
                f"<td>{html.escape(c)}</td>"
                for c in (line.questioned, line.trials, line.cllr, line.misleading, line.bound)
            )
            + "</tr>"
            for line in lines
        )
        parts.append(
            f"<table cellpadding='3' border='1' cellspacing='0'><tr>{head}</tr>{body}</table>"
            f"<p>{html.escape(rt.BANDS_NOTE)}</p>"
        )
    return "".join(parts)
