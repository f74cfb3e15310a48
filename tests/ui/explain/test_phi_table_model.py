"""The Φ table model, tested without a window."""

from __future__ import annotations

import csv
import io

from PySide6.QtCore import QPersistentModelIndex, Qt

from taveer_desktop.presentation.explanation_data import SIDE_WORDS, phi_rows
from taveer_desktop.ui.explain.phi_table_model import (
    DISTANCE,
    FEATURE,
    HEADERS,
    IMPORTANCE,
    ROW_ROLE,
    SIDE,
    SORT_ROLE,
    PhiTableModel,
    X,
)

from .builders import synthetic_interpretation, typed


def _model(interpretation) -> PhiTableModel:
    model = PhiTableModel()
    model.set_rows(phi_rows(typed(interpretation)), "F9")
    return model


def test_rows_columns_and_roles(qapp, federalist):
    interpretation = federalist.result["interpretation"]["F4"]
    model = _model(interpretation)
    assert model.rowCount() == len(interpretation["phi"]) and model.columnCount() == len(HEADERS)
    first = interpretation["phi"][0]
    assert model.data(model.index(0, FEATURE)) == first["feature"]
    assert model.data(model.index(0, DISTANCE)) == f"{first['distance']:.5f}"
    assert model.data(model.index(0, X)) == f"{first['x']:.4f} ({first['count_unknown']})"
    row = model.data(model.index(0, 0), ROW_ROLE)
    assert row.feature == first["feature"]
    assert model.data(model.index(0, SIDE)) == SIDE_WORDS[row.side]
    assert model.data(model.index(0, IMPORTANCE), SORT_ROLE) == row.importance
    assert "λ =" in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Feature"


def test_sort_by_each_column_and_keep_persistent_indexes(qapp):
    model = _model(synthetic_interpretation(300))
    held = QPersistentModelIndex(model.index(10, 0))
    feature = model.rows[10].feature
    for column in range(len(HEADERS)):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            model.sort(column, order)
            keys = [model.data(model.index(i, column), SORT_ROLE) for i in range(model.rowCount())]
            assert keys == sorted(keys, reverse=order == Qt.SortOrder.DescendingOrder)
            assert model.rows[held.row()].feature == feature
    model.sort(IMPORTANCE, Qt.SortOrder.DescendingOrder)
    assert model.row_of(model.rows[0].feature) == 0 and model.row_of("nothing") == -1


def test_csv_follows_the_displayed_order(qapp, federalist):
    model = _model(federalist.result["interpretation"]["F6"])
    model.sort(FEATURE, Qt.SortOrder.AscendingOrder)
    parsed = list(csv.reader(io.StringIO(model.to_csv())))
    features = [r.feature for r in model.rows]
    assert [row[0].removeprefix("'") for row in parsed[1:]] == features
    assert len(model.to_tsv([0, 1]).splitlines()) == 3
