"""The methods of a validation record side by side: one row per method with its figures on the
same held-out trials, the trials it scored and could not compare, its time per trial and, for a
seeded method, its spread across seeds (``MethodComparisonTableModel``); the stated method first
and in bold, how it was chosen (the rule registered before the run, if any); LambdaG's settings
where LambdaG ran; and the Tippett curves of every method in one chart.

A tab of ``ValidationRecordView``, shown only for a record that keeps more than one method's
figures (``record["methods"]``); a model's validation summary has no trials, so its chart is
replaced by a sentence saying so. Words come from ``presentation/method_comparison_text.py``
and ``method_validation_text.py``.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import method_comparison_text as ct
from taveer_desktop.presentation import method_validation_text as mt
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.method_comparison_table_model import MethodComparisonTableModel
from taveer_desktop.ui.table_view import house_table
from taveer_desktop.ui.validation_charts import MethodTippettChart


def _label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class MethodComparisonView(QWidget):
    """The record's methods compared (see the module)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stem = "taveer-methods"
        self.model = MethodComparisonTableModel(self)
        self.table = house_table(QTableView(), self.model)
        self.table.setToolTip("Each method's cross-validated figures on the same trials")
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.rule_line = _label()
        self.table_note = _label()
        self.lambdag_box = QGroupBox("LambdaG's settings")
        self.lambdag_text = _label()
        self.lambdag_text.setTextFormat(Qt.TextFormat.RichText)
        box_layout = QVBoxLayout(self.lambdag_box)
        box_layout.addWidget(self.lambdag_text)

        self.chart = MethodTippettChart()
        self.chart_message = _label()
        self.chart_caption = _label(mt.METHOD_TIPPETT.caption)
        chart_bar = QHBoxLayout()
        chart_bar.addStretch(1)
        chart_bar.addWidget(
            export_button(self, lambda: self.chart, lambda: self.stem, "the methods' Tippett plot")
        )

        # LambdaG's settings beside the chart where the width allows, above it otherwise
        self.settings_part = QWidget()
        left = QVBoxLayout(self.settings_part)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.lambdag_box)
        left.addStretch(1)
        self.chart_part = QWidget()
        right = QVBoxLayout(self.chart_part)
        right.setContentsMargins(0, 0, 0, 0)
        right.addLayout(chart_bar)
        right.addWidget(self.chart, 1)
        right.addWidget(self.chart_message)
        right.addWidget(self.chart_caption)
        content = QWidget()
        column = QVBoxLayout(content)
        column.addWidget(self.table)
        column.addWidget(self.rule_line)
        column.addWidget(self.table_note)
        self.columns = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.columns.addWidget(self.settings_part)
        self.columns.addWidget(self.chart_part, 1)
        column.addLayout(self.columns, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def resizeEvent(self, event) -> None:
        self._arrange(event.size().width())
        super().resizeEvent(event)
        if self.model.rowCount():
            self._fit_table()

    def _arrange(self, width: int) -> None:
        """LambdaG's settings beside the chart if both fit in ``width``, above it otherwise."""
        settings = self.fontMetrics().averageCharWidth() * 62
        shown = self.lambdag_box.isVisibleTo(self)
        wide = not shown or width >= settings + self.chart.minimumWidth() + 40
        self.columns.setDirection(
            QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        )
        self.settings_part.setMaximumWidth(settings if wide else 16_777_215)

    def show_record(self, record: ValidationRecord, stem: str = "taveer-methods") -> bool:
        """Show the record's methods; False (nothing shown) for a one-method record."""
        self.stem = stem
        rows = ct.comparison_table(record)
        self.model.set_records(rows)
        if not rows:
            self.chart.show_record(record)
            return False
        self._fit_table()
        self.rule_line.setText(ct.rule_sentence(record))
        self.table_note.setText(ct.comparison_note(record))
        pairs = mt.lambdag_pairs(record)
        self.settings_part.setVisible(bool(pairs))
        self.lambdag_box.setVisible(bool(pairs))
        table_rows = "".join(
            f"<tr><td><b>{html.escape(label)}</b></td><td>{html.escape(value)}</td></tr>"
            for label, value in pairs
        )
        self.lambdag_text.setText(
            f"<table cellpadding='2'>{table_rows}</table>"
            f"<p>{html.escape(mt.LAMBDAG_ORDER_NOTE)}</p>"
        )
        drawn = self.chart.show_record(record)
        self.chart.setVisible(drawn)
        self.chart_caption.setVisible(drawn)
        self.chart_message.setText(mt.METHOD_TIPPETT_KEY if drawn else mt.NO_METHOD_CHART)
        self._arrange(self.width())
        return True

    def _fit_table(self) -> None:
        """Every row of the table shown, no vertical scroll bar of its own (a horizontal one,
        on a narrow screen, is counted in its height)."""
        self.table.resizeColumnsToContents()
        header = self.table.horizontalHeader()
        frame = 2 * self.table.frameWidth()
        height = header.sizeHint().height() + frame
        height += sum(self.table.rowHeight(r) for r in range(self.model.rowCount()))
        columns = sum(self.table.columnWidth(c) for c in range(self.model.columnCount()))
        if columns + frame > self.table.width():
            height += self.table.horizontalScrollBar().sizeHint().height()
        self.table.setFixedHeight(height)
