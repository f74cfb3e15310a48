"""The methods of a LambdaG or fused validation record side by side: every method's figures on
the same held-out trials (the stated one first, in bold; which method the record states is said
above the record's tabs), LambdaG's settings (the order each
fold chose, the reference samples) and the Tippett curves of every method in one chart.

A tab of ``ValidationRecordView``, shown only for a record that keeps more than one method's
figures (``record["methods"]``); a model's validation summary has no trials, so its chart is
replaced by a sentence saying so. Words come from ``presentation/method_validation_text.py``.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.presentation import method_validation_text as mt
from taveer_desktop.presentation.validation_figures_text import FIGURE_MEANINGS
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.validation_charts import MethodTippettChart

RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


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
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setToolTip("Each method's cross-validated figures on the same trials")
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
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

        # the figures (table, note, LambdaG's settings) beside the chart where the width
        # allows, above it otherwise (a large scale or a small screen)
        self.figures_part = QWidget()
        left = QVBoxLayout(self.figures_part)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.table)
        left.addWidget(self.table_note)
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
        self.columns = QBoxLayout(QBoxLayout.Direction.LeftToRight, content)
        self.columns.addWidget(self.figures_part)
        self.columns.addWidget(self.chart_part, 1)
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

    def _arrange(self, width: int) -> None:
        """The figures beside the chart if both fit in ``width``, above it otherwise."""
        table = self.table.maximumWidth()
        wide = width >= table + self.chart.minimumWidth() + 4 * self.columns.spacing()
        self.columns.setDirection(
            QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        )
        self.figures_part.setMaximumWidth(table if wide else 16_777_215)

    def show_record(self, record: dict, stem: str = "taveer-methods") -> bool:
        """Show the record's methods; False (nothing shown) for a one-method record."""
        self.stem = stem
        table = mt.method_figure_table(record)
        if table is None:
            self.table.setRowCount(0)
            self.chart.show_record(record)
            return False
        self._fill_table(table)
        self.table_note.setText(mt.figures_table_note(record))
        pairs = mt.lambdag_pairs(record)
        self.lambdag_box.setVisible(bool(pairs))
        rows = "".join(
            f"<tr><td><b>{html.escape(label)}</b></td><td>{html.escape(value)}</td></tr>"
            for label, value in pairs
        )
        self.lambdag_text.setText(
            f"<table cellpadding='2'>{rows}</table><p>{html.escape(mt.LAMBDAG_ORDER_NOTE)}</p>"
        )
        drawn = self.chart.show_record(record)
        self.chart.setVisible(drawn)
        self.chart_caption.setVisible(drawn)
        self.chart_message.setText(mt.METHOD_TIPPETT_KEY if drawn else mt.NO_METHOD_CHART)
        return True

    def _fill_table(self, table: mt.MethodFigureTable) -> None:
        self.table.clear()
        self.table.setColumnCount(len(table.headers))
        self.table.setHorizontalHeaderLabels(table.headers)
        self.table.setRowCount(len(table.rows))
        for row, (key, name, values) in enumerate(table.rows):
            name_item = QTableWidgetItem(name)
            name_item.setToolTip(FIGURE_MEANINGS[key])
            self.table.setItem(row, 0, name_item)
            for column, value in enumerate(values, start=1):
                item = QTableWidgetItem(value)
                item.setTextAlignment(RIGHT)
                item.setToolTip(f"{table.headers[column]}: {name} {value}")
                if column == 1:  # the stated method
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(row, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeColumnsToContents()
        frame = 2 * self.table.frameWidth()
        height = header.height() + frame
        height += sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setFixedHeight(height)  # the whole table, no scroll bar of its own
        width = frame + sum(self.table.columnWidth(c) for c in range(self.table.columnCount()))
        self.table.setFixedWidth(width)
        self._arrange(self.width())
