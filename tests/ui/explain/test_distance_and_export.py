"""Distance view (CSV export, copy, visible rows) and PNG/SVG export of every chart."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtGui import QGuiApplication, QImage

from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation.explanation_data import CSV_HEADER, phi_rows
from taveer_desktop.ui.explain.chart_export import PRINT_SCALE, export_png, export_svg
from taveer_desktop.ui.explain.distance_view import DistanceView
from taveer_desktop.ui.explain.importance_chart import ImportanceChart
from taveer_desktop.ui.explain.similarity_chart import SimilarityChart

from .builders import synthetic_interpretation, typed


def _distance_view(qtbot, interpretation) -> DistanceView:
    view = DistanceView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    qtbot.waitExposed(view)
    view.show_rows("F6", phi_rows(typed(interpretation)))
    return view


def test_csv_export_content(qtbot, tmp_path, federalist):
    interpretation = federalist.result["interpretation"]["F6"]
    view = _distance_view(qtbot, interpretation)
    path = view.export_csv(tmp_path / "phi.csv")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_HEADER
    assert len(rows) == len(interpretation["phi"]) + 1
    for entry, row in zip(interpretation["phi"], rows[1:], strict=True):  # distance order
        assert row[0].removeprefix("'") == entry["feature"]
        assert float(row[1]) == entry["x"] and float(row[3]) == entry["distance"]
        assert int(row[6]) == entry["count_unknown"] and int(row[7]) == entry["count_known"]
        if entry["feature"][0] in "=+-@":
            assert row[0] == "'" + entry["feature"]


def test_copy_puts_the_selected_rows_on_the_clipboard(qtbot, federalist):
    view = _distance_view(qtbot, federalist.result["interpretation"]["F6"])
    view.table.selectRow(2)
    text = view.copy_rows()
    assert QGuiApplication.clipboard().text() == text
    assert len(text.splitlines()) == 2 and view.model.rows[2].feature in text


def test_chart_shows_the_rows_visible_in_the_table(qtbot):
    view = _distance_view(qtbot, synthetic_interpretation(2000))
    first, last = view.visible_rows()
    assert first == 0 and 0 < last < 100
    assert [r.feature for r in view.chart.rows] == [r.feature for r in view.model.rows[: last + 1]]
    bar = view.table.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: view.chart.rows and view.chart.rows[-1] == view.model.rows[-1])


@pytest.mark.parametrize("kind", ["importance", "similarity", "phi"])
def test_exports_are_valid_png_and_svg(qtbot, tmp_path, federalist, kind):
    interpretation = federalist.result["interpretation"]["F4"]
    if kind == "importance":
        widget = ImportanceChart()
        widget.show_category("F4", typed(interpretation), phi_rows(typed(interpretation)))
    elif kind == "similarity":
        widget = SimilarityChart()
        widget.show_result(read_result(federalist.result))
    else:
        widget = _distance_view(qtbot, interpretation).chart
    qtbot.addWidget(widget)
    widget.resize(640, 420)
    widget.show()
    qtbot.waitExposed(widget)
    png = export_png(widget, tmp_path / f"{kind}.png")
    image = QImage(str(png))
    assert not image.isNull()
    assert image.width() == round(widget.viewport().width() * PRINT_SCALE)
    assert len({image.pixel(x, image.height() // 2) for x in range(0, image.width(), 7)}) > 2
    svg = export_svg(widget, tmp_path / f"{kind}.svg", title=kind)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    text = svg.read_text(encoding="utf-8")
    assert "<path" in text or "<rect" in text or "<polyline" in text
    if kind == "importance":
        assert "F4" in text
