"""The house's table set-up and folder choice, in one place each (``ui/table_view.py``,
``ui/folder_choice.py``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QFileDialog, QTableView, QTableWidget, QWidget

from taveer_desktop.ui import app_settings
from taveer_desktop.ui.folder_choice import choose_folder
from taveer_desktop.ui.table_view import house_table


def _model() -> QStandardItemModel:
    model = QStandardItemModel(3, 2)
    for row, value in enumerate((2, 3, 1)):
        model.setData(model.index(row, 0), value, Qt.ItemDataRole.DisplayRole)
    return model


def test_a_table_is_set_up_the_house_way(qtbot):
    view = house_table(QTableView(), _model())
    qtbot.addWidget(view)
    assert not view.tabKeyNavigation()  # Tab leaves the table
    assert view.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows
    assert view.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
    assert not view.verticalHeader().isVisible() and not view.wordWrap()
    assert not view.isSortingEnabled()
    assert view.selectionMode() == QAbstractItemView.SelectionMode.ExtendedSelection


def test_a_table_may_be_single_row_sorted_and_wrapped(qtbot):
    model = _model()
    view = house_table(
        QTableView(), model, single=True, sort_by=(0, Qt.SortOrder.DescendingOrder), wrap=True
    )
    qtbot.addWidget(view)
    assert view.selectionMode() == QAbstractItemView.SelectionMode.SingleSelection
    assert view.isSortingEnabled() and view.wordWrap()
    header = view.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (
        0,
        Qt.SortOrder.DescendingOrder,
    )
    assert [model.index(r, 0).data() for r in range(3)] == [3, 2, 1]
    sortable = house_table(QTableView(), _model(), sortable=True)
    qtbot.addWidget(sortable)
    assert sortable.isSortingEnabled()


def test_a_table_widget_keeps_its_own_model(qtbot):
    table = QTableWidget(2, 2)
    own = table.model()
    assert house_table(table) is table and table.model() is own
    qtbot.addWidget(table)
    assert not table.tabKeyNavigation()


def test_a_chosen_folder_is_remembered_and_a_cancel_is_none(qtbot, tmp_path, monkeypatch):
    parent = QWidget()
    qtbot.addWidget(parent)
    folder = tmp_path / "corpus"
    folder.mkdir()
    asked: list[tuple[str, str]] = []

    def dialog(_parent, title, start):
        asked.append((title, start))
        return str(folder)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", dialog)
    assert choose_folder(parent, "Choose a corpus", "corpora") == folder
    assert app_settings.start_folder("corpora") == str(folder)
    assert choose_folder(parent, "Again", "corpora") == folder
    assert asked[1] == ("Again", str(folder))  # opens where the last one was chosen
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a: "")
    assert choose_folder(parent, "Cancelled", "populations") is None
    assert app_settings.start_folder("populations") != str(folder)
