"""The distance view (Φ) of one category: a sortable table and x beside y for its rows.

Left, a ``QTableView`` over ``PhiTableModel`` (feature, x, y, |x − y|, λ, side), sorted by
distance (largest first) to begin with and by any column on a header click; rows can be copied
(Ctrl+C or the Copy button: tab-separated, formula injection escaped) or exported as CSV.
Right, a chart of the rows currently visible in the table: for each feature its relative
frequency in the questioned text (x, blue) and in the known texts (y, orange, hatched), on one
axis scaled to the largest value of the whole category, so thousands of features scroll as
smoothly as the table and the chart never draws more than a screenful. Its legend sits under
its title (inside the plot it would hide bars of a narrow chart), on as many lines as the
chart's width needs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QCursor, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from taveer_desktop.core.ground.atomic_file import write_bytes_atomically
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.presentation import glossary, numbers
from taveer_desktop.presentation.explanation_data import PhiRow, feature_tooltip
from taveer_desktop.report.chart_layout import short_label
from taveer_desktop.ui import app_settings
from taveer_desktop.ui.explain.chart_export import export_button
from taveer_desktop.ui.explain.fit_text import set_title
from taveer_desktop.ui.explain.phi_table_model import DISTANCE, ROW_ROLE, PhiTableModel
from taveer_desktop.ui.table_view import house_table

log = logging.getLogger(__name__)
X_COLOUR, Y_COLOUR, Y_HATCH = "#0072B2", "#E69F00", "#7a5200"
LEGEND_PIECES = (
    f'<span style="color:{X_COLOUR}">■</span>&nbsp;questioned&nbsp;(x)',
    f'<span style="color:{Y_COLOUR}">■</span>&nbsp;known&nbsp;(y)',
)
TEXT_COLOUR = "#1a1a1a"
BAR = 0.38


class PhiChart(pg.PlotWidget):
    """x (questioned) and y (known) of a window of Φ rows, one row per feature."""

    _title = ""  # the rows shown; set before any resize can ask for it

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.rows: list[PhiRow] = []
        self.selected: str | None = None
        self._items: list = []
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.showGrid(x=True, y=False, alpha=0.25)
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.enableAutoSIPrefix(False)
            axis.setTextPen(pg.mkPen(TEXT_COLOUR))
            axis.setPen(pg.mkPen("#555555"))
        plot.getAxis("bottom").setLabel("relative frequency")
        self._x_item = pg.BarGraphItem(
            x0=[0], y=[0], width=[0], height=BAR, brush=QColor(X_COLOUR), pen=pg.mkPen(None)
        )
        self._y_item = pg.BarGraphItem(
            x0=[0], y=[0], width=[0], height=BAR, brush=QColor(Y_COLOUR), pen=pg.mkPen(None)
        )
        self._y_hatch = pg.BarGraphItem(
            x0=[0],
            y=[0],
            width=[0],
            height=BAR,
            brush=QBrush(QColor(Y_HATCH), Qt.BrushStyle.FDiagPattern),
            pen=pg.mkPen(None),
        )
        self._band = pg.BarGraphItem(
            x0=[0], y=[0], width=[0], height=1.0, brush=QColor("#e6e6e6"), pen=pg.mkPen(None)
        )
        plot.addItem(self._band)
        plot.addItem(self._x_item)
        plot.addItem(self._y_item)
        plot.addItem(self._y_hatch)
        self.setMinimumSize(220, 240)
        self.scene().sigMouseMoved.connect(self._hovered)

    def _fit_title(self) -> None:
        """The title and the legend's entries, on as many lines as the chart's width needs."""
        if not self._title:
            return
        set_title(self.getPlotItem(), (self._title, *LEGEND_PIECES), self.width() - 8, TEXT_COLOUR)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_title()

    def show_rows(self, rows: Sequence[PhiRow], x_max: float, title: str = "") -> None:
        self.rows = list(rows)
        plot = self.getPlotItem()
        if title:  # the legend under the title: a legend inside the plot would hide bars
            self._title = title
            self._fit_title()
        n = len(self.rows)
        ys = -np.arange(n, dtype=float)
        xs = np.array([r.x for r in self.rows])
        yv = np.array([r.y for r in self.rows])
        self._x_item.setOpts(x0=np.zeros(n), y=ys + BAR / 2, width=xs, height=BAR)
        self._y_item.setOpts(x0=np.zeros(n), y=ys - BAR / 2, width=yv, height=BAR)
        self._y_hatch.setOpts(x0=np.zeros(n), y=ys - BAR / 2, width=yv, height=BAR)
        chosen = [i for i, r in enumerate(self.rows) if r.feature == self.selected]
        self._band.setOpts(
            x0=[0] * len(chosen),
            y=[-i for i in chosen],
            width=[x_max * 1.05] * len(chosen),
            height=1.0,
        )
        ticks = [(-i, short_label(r.feature, 24)) for i, r in enumerate(self.rows)]
        plot.getAxis("left").setTicks([ticks, []])
        plot.setYRange(-max(n, 1) + 0.5, 0.5, padding=0)
        plot.setXRange(0, x_max * 1.05 if x_max > 0 else 1.0, padding=0)

    def row_at(self, y: float) -> PhiRow | None:
        i = round(-y)
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def _hovered(self, scene_pos) -> None:
        view_box = self.getPlotItem().getViewBox()
        if not view_box.sceneBoundingRect().contains(scene_pos):
            return
        row = self.row_at(view_box.mapSceneToView(scene_pos).y())
        if row is not None:
            QToolTip.showText(QCursor.pos(), feature_tooltip(row), self)


class DistanceView(QWidget):
    """Φ of one category as a table and a chart; ``feature_chosen`` when a row is selected."""

    feature_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.category = ""
        self.model = PhiTableModel(self)
        self.table = house_table(QTableView(self), self.model, sortable=True)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setResizeContentsPrecision(64)  # not all 2,000 rows
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.chart = PhiChart(self)
        self.caption = QLabel(self)
        self.caption.setWordWrap(True)
        self.caption.setToolTip(glossary.tooltip("Φ", "θ′", "λ"))
        copy = QPushButton("Copy", self)
        copy.setToolTip("Copy the selected rows (or all rows) as tab-separated text")
        copy.clicked.connect(self.copy_rows)
        export = QPushButton("Export CSV…", self)
        export.setToolTip("Save the whole table as a CSV file")
        export.clicked.connect(self._export_csv_interactively)
        chart_export = export_button(self, lambda: self.chart, self._stem, "the Φ chart")
        QShortcut(QKeySequence.StandardKey.Copy, self.table, self.copy_rows)
        bar = QHBoxLayout()
        bar.addWidget(self.caption, 1)
        for widget in (copy, export, chart_export):
            bar.addWidget(widget)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.chart)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([700, 240])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)
        self._x_max = 1.0
        self._pending = QTimer(self, singleShot=True, interval=0)
        self._pending.timeout.connect(self._update_chart)
        # not start() itself: valueChanged(int) would call start(msec=value)
        self.table.verticalScrollBar().valueChanged.connect(self._schedule_chart)
        self.model.layoutChanged.connect(self._schedule_chart)
        self.model.modelReset.connect(self._schedule_chart)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)

    def _stem(self) -> str:
        return f"taveer-phi-{self.category or 'category'}"

    def show_rows(self, category: str, rows: Sequence[PhiRow]) -> None:
        """Show Φ of ``category`` sorted by distance, largest first (the engine's order)."""
        self.category = category
        self._x_max = max((max(r.x, r.y) for r in rows), default=1.0)
        self.model.set_rows(rows, category)
        self.table.horizontalHeader().setSortIndicator(DISTANCE, Qt.SortOrder.DescendingOrder)
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(0, min(max(self.table.columnWidth(0), 100), 160))
        total = sum(r.distance for r in rows)
        self.caption.setText(
            f"<b>{category}: {numbers.count(len(rows), 'feature')}.</b> The category's distance is "
            f"the sum of |x − y| = {numbers.decimal(total, 4)}. Click a header to sort; choose a "
            "row to see the feature in the texts."
        )
        self._update_chart()

    def visible_rows(self) -> tuple[int, int]:
        """(first, last) row indices currently visible in the table (last inclusive).

        Rows have a fixed height and the table scrolls per pixel, so the window follows from
        the scroll bar's value alone (``rowAt`` lags behind while a scroll is processed).
        """
        count = self.model.rowCount()
        if count == 0:
            return 0, -1
        height = self.table.verticalHeader().defaultSectionSize()
        top = self.table.verticalScrollBar().value()
        first = min(top // height, count - 1)
        last = (top + max(self.table.viewport().height(), height) - 1) // height
        return first, min(last, count - 1)

    def _update_chart(self) -> None:
        first, last = self.visible_rows()
        rows = self.model.rows[first : last + 1]
        self.chart.show_rows(
            rows,
            self._x_max,
            f"rows {numbers.integer(first + 1)}–{numbers.integer(last + 1)} / "
            f"{numbers.integer(self.model.rowCount())}",
        )

    def _schedule_chart(self, *_args) -> None:
        self._pending.start()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._pending.start()

    def select_feature(self, feature: str | None) -> None:
        self.chart.selected = feature
        row = -1 if feature is None else self.model.row_of(feature)
        if row >= 0:
            blocked = self.table.selectionModel().blockSignals(True)
            self.table.selectRow(row)
            self.table.selectionModel().blockSignals(blocked)
            self.table.scrollTo(
                self.model.index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible
            )
        self._update_chart()

    def _row_changed(self, current, _previous) -> None:
        if current.isValid():
            row = self.model.data(current, ROW_ROLE)
            self.chart.selected = row.feature
            self._update_chart()
            self.feature_chosen.emit(row.feature)

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def copy_rows(self) -> str:
        text = self.model.to_tsv(self.selected_rows() or None)
        QGuiApplication.clipboard().setText(text)
        return text

    def export_csv(self, path: str | Path) -> Path:
        """Write the whole table (in its current order) as UTF-8 CSV with a BOM for Excel."""
        return write_bytes_atomically(Path(path), self.model.to_csv().encode("utf-8-sig"))

    def _export_csv_interactively(self) -> None:
        suggestion = Path(app_settings.start_folder("exports")) / f"{self._stem()}.csv"
        name, _ = QFileDialog.getSaveFileName(
            self, "Export the feature table", str(suggestion), "CSV file (*.csv)"
        )
        if not name:
            return
        app_settings.remember_folder("exports", Path(name))
        try:
            self.export_csv(name if name.lower().endswith(".csv") else name + ".csv")
        except (OSError, TaveerError) as error:
            log.exception("CSV export failed")
            QMessageBox.warning(self, "Export failed", str(error))
