"""The result view: decision, similarity bars, LR, stability worker, hashes, one choice."""

from __future__ import annotations

import hashlib

from taveer_desktop.core.stability import decision_stability
from taveer_desktop.core.verbal_scales import describe
from taveer_desktop.ui.explain import ResultView
from taveer_desktop.ui.explain.explanation_data import decision_words


def _view(qtbot, data, **kwargs) -> ResultView:
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    view.show_result(data.result, data.model, data.known, data.unknown, **kwargs)
    return view


def test_decision_similarity_bars_lr_and_hashes(qtbot, federalist):
    hashes = {"questioned (file)": "ab" * 32, "known 1 (file)": "cd" * 32}
    view = _view(qtbot, federalist, document_hashes=hashes)
    result = federalist.result
    assert view.summary.headline.text() == decision_words(result["prediction"])[0]
    assert view.summary.scale.score == result["similarity"]
    rows = view.similarity_chart.chart_layout.rows
    assert [r.category for r in rows] == list(result["categories"])
    for row in rows:
        entry = result["categories"][row.category]
        assert row.value == (None if entry["abstained"] else entry["similarity"])
        assert (row.style == "member") == (row.category in result["ensemble"])
    statement = describe(result["log10_lr"])
    assert statement.sentence.replace("'", "&#x27;") in view.summary.verbal_label.text()
    assert "ab" * 32 in view.summary.documents_label.text().replace(" ", "")
    assert result["model"]["sha256"] in view.summary.model_label.text().replace(" ", "")
    ensemble = [view.category_box.itemData(i) for i in range(view.category_box.count())]
    assert ensemble == list(result["ensemble"])


def test_default_hashes_are_of_the_texts(qtbot, federalist):
    view = _view(qtbot, federalist)
    digest = hashlib.sha256(federalist.unknown.encode("utf-8")).hexdigest()
    assert digest in view.summary.documents_label.text().replace(" ", "")


def test_choosing_a_feature_selects_it_everywhere(qtbot, federalist):
    view = _view(qtbot, federalist)
    view.show_category("F6")
    assert view.category == "F6"
    row = max(view.rows["F6"], key=lambda r: r.importance)
    with qtbot.waitSignal(view.feature_chosen) as signal:
        view.distance_view.select_feature(None)
        index = view.distance_view.model.index(view.distance_view.model.row_of(row.feature), 0)
        view.distance_view.table.setCurrentIndex(index)
    assert signal.args == ["F6", row.feature]
    assert view.importance_chart.selected == row.feature
    assert view.evidence_view.feature == row.feature
    assert view.evidence_view.counts() == (row.count_unknown, row.count_known)


def test_stability_runs_in_the_pool_and_matches_the_engine(qtbot, stackexchange):
    view = _view(qtbot, stackexchange)
    with qtbot.waitSignal(view.summary.stability_finished, timeout=60_000) as signal:
        view.summary.stability_button.click()
    expected = decision_stability(
        stackexchange.model,
        stackexchange.known,
        stackexchange.unknown,
        stackexchange.result["prediction"],
    ).to_dict()
    assert signal.args[0] == expected
    assert f"{expected['agreement']:.0%}" in view.summary.stability_label.text()
    assert view.summary.scale.interval == tuple(expected["similarity_interval"])
    view.shutdown()


def test_uncalibrated_and_uninterpreted_results(qtbot, federalist):
    result = dict(federalist.result, calibrated=False, log10_lr=None, likelihood_ratio=None)
    result.pop("interpretation")
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result, federalist.model, federalist.known, federalist.unknown)
    assert "not calibrated" in view.summary.lr_label.text()
    assert view.category_box.count() == 0 and not view.no_interpretation.isHidden()
