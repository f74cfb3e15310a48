"""The importance chart shows the engine's L_Y and L_N exactly, laid out like the report."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetricsF

from taveer_desktop.presentation.explanation_data import phi_rows
from taveer_desktop.report.chart_layout import DIFFERENT, SAME
from taveer_desktop.ui.explain.importance_chart import ImportanceChart

from .builders import synthetic_interpretation, typed


def _chart(qtbot, interpretation, category="F4", top_n=8) -> ImportanceChart:
    chart = ImportanceChart(top_n=top_n)
    qtbot.addWidget(chart)
    chart.resize(700, 480)
    chart.show()
    qtbot.waitExposed(chart)
    chart.show_category(category, typed(interpretation), phi_rows(typed(interpretation)))
    return chart


def _check_against_engine(chart: ImportanceChart, interpretation: dict) -> None:
    engine = {SAME: interpretation["l_y"], DIFFERENT: interpretation["l_n"]}
    layout = chart.chart_layout
    for side, stack in ((SAME, layout.same), (DIFFERENT, layout.different)):
        items = [(f, v) for f, v in engine[side]]
        assert chart.lists[side] == items  # same features, same λ, same order, same side
        own = [s for s in stack.segments if s.feature is not None]
        assert [(s.feature, s.value) for s in own] == items[: len(own)]
        assert all(s.style == side for s in own)
        rest = [s for s in stack.segments if s.feature is None]
        if len(own) < len(items):
            assert len(rest) == 1 and rest[0].count == len(items) - len(own)
            assert rest[0].value == pytest.approx(sum(v for _, v in items[len(own) :]))
        else:
            assert not rest
        assert stack.total == pytest.approx(sum(v for _, v in items))
        assert stack.feature_count == len(items)


@pytest.mark.parametrize("case", ["federalist", "stackexchange"])
def test_chart_data_equal_the_engine_lists(qtbot, request, case):
    data = request.getfixturevalue(case)
    for category, interpretation in data.result["interpretation"].items():
        chart = _chart(qtbot, interpretation, category)
        _check_against_engine(chart, interpretation)


def test_labels_never_overlap_and_stay_in_the_plot(qtbot, federalist):
    interpretation = federalist.result["interpretation"]["F9"]  # hundreds of features
    chart = _chart(qtbot, interpretation, "F9", top_n=40)
    line_height = QFontMetricsF(chart._font).height()
    for height in (260, 480, 900):
        chart.resize(700, height)
        qtbot.wait(10)
        chart._relayout()
        view = chart.getPlotItem().getViewBox().sceneBoundingRect()
        for side in (SAME, DIFFERENT):
            boxes = [
                item.sceneBoundingRect()
                for item, segment in chart._labels
                if segment.style.startswith(side)
            ]
            centres = sorted(box.center().y() for box in boxes)
            gaps = [b - a for a, b in itertools.pairwise(centres)]
            assert all(gap >= line_height - 0.5 for gap in gaps), (height, side, min(gaps))
            for box in boxes:
                assert view.left() - 1 <= box.left() and box.right() <= view.right() + 1
                assert view.top() - line_height <= box.center().y() <= view.bottom() + 1


def test_hover_text_and_click_choose_a_feature(qtbot, federalist):
    interpretation = federalist.result["interpretation"]["F6"]
    chart = _chart(qtbot, interpretation, "F6")
    segment = chart.chart_layout.different.segments[0]
    text = chart.tooltip_for(segment)
    row = next(r for r in phi_rows(typed(interpretation)) if r.feature == segment.feature)
    assert segment.feature in text and f"{row.importance:.5f}" in text
    assert (
        f"({row.count_unknown} occurrences)" in text and f"({row.count_known} occurrences)" in text
    )
    assert chart.segment_at(1.0, segment.middle) == segment
    rest = [s for s in chart.chart_layout.same.segments if s.feature is None]
    if rest:
        assert "more features" in chart.tooltip_for(rest[0])
    view_box = chart.getPlotItem().getViewBox()
    scene_point = view_box.mapViewToScene(QPointF(1.0, segment.middle))

    class Click:
        def scenePos(self):
            return scene_point

    with qtbot.waitSignal(chart.feature_chosen) as signal:
        chart._clicked(Click())
    assert signal.args == [segment.feature] and chart.selected == segment.feature


def test_an_abstaining_category_and_two_thousand_features(qtbot):
    chart = _chart(qtbot, {"l_y": [], "l_n": [], "phi": []}, "F11")
    assert chart.chart_layout.empty
    big = synthetic_interpretation(2000)
    chart.show_category("F9", typed(big), phi_rows(typed(big)))
    _check_against_engine(chart, big)
    assert len(chart.chart_layout.same.segments) <= chart.top_n + 1


def test_the_caption_says_what_share_the_labelled_features_carry(qtbot):
    interpretation = synthetic_interpretation(200)
    chart = _chart(qtbot, interpretation, top_n=5)
    n_same = len(interpretation["l_y"])
    assert n_same > 5  # some features are grouped
    same, different = chart.caption.splitlines()
    labelled = [s.value for s in chart.chart_layout.same.segments if s.feature is not None]
    total = sum(v for _, v in interpretation["l_y"])
    share = f"{sum(labelled) / total:.1%}".replace("%", " %")
    assert same == (
        f"L_Y: same author; Σλ = {total:.4f} over {n_same:,} features, "
        f"the {len(labelled)} labelled carry {share}"
    )
    assert different.startswith("L_N: different authors; Σλ = ")
    # no side heading is drawn beside the bars any more, so none can be cut off
    texts = [item.toPlainText() for item in chart._items if hasattr(item, "toPlainText")]
    assert "L_Y" in texts and "L_N" in texts
    assert not any("Σλ" in text for text in texts)
