"""The table of a validation record's compared methods: one row per method (the stated one
first, in bold), one column per figure (``presentation/method_comparison_text.COLUMNS``).

Rows are ``ComparedMethod`` values made by ``comparison_table(record)``; ``data`` only reads
them. A method's name carries its family and reference as a tooltip (the registry's).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.presentation.method_comparison_text import COLUMNS as FIGURE_COLUMNS
from taveer_desktop.presentation.method_comparison_text import ComparedMethod
from taveer_desktop.ui.record_table_model import Column, RecordTableModel


def _method_tip(row: ComparedMethod) -> str:
    try:
        info = method_info(row.method)
    except KeyError:
        return row.label
    stated = "the stated method: the model states its ratio" if row.stated else "compared"
    # the row's own name: a fusion named by what it fuses, as everywhere (not the registry's)
    return f"{row.name} ({stated}) — {info.family.value}. {info.reference}"


def _cell(position: int) -> Column:
    key, heading, meaning = FIGURE_COLUMNS[position]
    return Column(
        heading,
        lambda row: row.cells[position],
        f"{heading}: {meaning}",
        tooltip=lambda row: f"{row.name}, {heading.lower()}: {row.cells[position]}",
        numeric=key != "seed_spread",
    )


class MethodComparisonTableModel(RecordTableModel):
    """Every compared method of one record (see the module)."""

    METHOD = 0
    COLUMNS = (
        Column("Method", lambda row: row.label, "The method; the stated one first", _method_tip),
        *(_cell(i) for i in range(len(FIGURE_COLUMNS))),
    )

    def extra_data(self, record: Any, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.FontRole and record.stated:
            font = QFont()
            font.setBold(True)
            return font
        return None
