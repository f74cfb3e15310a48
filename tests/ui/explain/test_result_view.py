"""The result view: decision, similarity bars, LR, stability worker, hashes, one choice."""

from __future__ import annotations

import hashlib

from PySide6.QtCore import Qt

from taveer_desktop.core.calibration.verbal_scales import describe
from taveer_desktop.core.methods.taveer.stability import decision_stability
from taveer_desktop.presentation.conclusion_text import headline, share_text
from taveer_desktop.ui.explain import ResultView


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
    conclusion = view.summary.verification.conclusion
    assert view.summary.headline.text() == headline(conclusion, "enfsi2015")
    assert view.summary.headline.text().startswith("Likelihood ratio ")
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


def test_stability_runs_on_the_job_runner_and_matches_the_engine(qtbot, stackexchange):
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
    agreeing = round(expected["agreement"] * expected["resamples"])
    assert share_text(agreeing, expected["resamples"]) in view.summary.stability_label.text()
    assert view.summary.scale.interval == tuple(expected["similarity_interval"])
    view.shutdown()


def test_uncalibrated_and_uninterpreted_results(qtbot, federalist):
    uncalibrated = {
        "kind": "investigative",
        "findings": [
            {"rule": "not_calibrated", "message": "the model is not calibrated: it gives no LR"}
        ],
        "log10_lr": None,
        "population": federalist.result["conclusion"]["population"],
    }
    result = dict(
        federalist.result,
        calibrated=False,
        log10_lr=None,
        likelihood_ratio=None,
        conclusion=uncalibrated,
    )
    result.pop("interpretation")
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result, federalist.model, federalist.known, federalist.unknown)
    assert "not calibrated" in view.summary.lr_label.text()
    assert view.category_box.count() == 0 and not view.no_interpretation.isHidden()


def test_three_kinds_of_conclusion_are_labelled_and_worded(
    qtbot, federalist, federalist_investigative, no_conclusion
):
    view = _view(qtbot, federalist)
    summary = view.summary
    assert "Evaluative conclusion" in summary.kind_label.text()
    assert summary.investigative_label.isHidden()
    assert "Hp:" in summary.propositions_label.text() and "Hd:" in summary.propositions_label.text()
    population = federalist.model.conditions.population
    assert population.split(" (")[0] in summary.propositions_label.text()
    assert summary.classification_label.text().startswith("The method's classification")

    view.show_result(
        federalist_investigative.result,
        federalist_investigative.model,
        federalist_investigative.known,
        federalist_investigative.unknown,
    )
    assert "For investigation only" in summary.kind_label.text()
    assert summary.headline.text().startswith("No evaluative conclusion: ")
    assert not summary.investigative_label.isHidden()
    # under the banner's "For investigation only", not repeating it (issue 23: room at 150 %)
    assert "The model&#x27;s likelihood ratio" in (
        summary.investigative_label.text()
    ) or "The model's likelihood ratio" in (summary.investigative_label.text())
    assert "for investigation only" in summary.lr_label.text()
    assert "not validated" in summary.verbal_label.text()

    view.show_result(
        no_conclusion.result, no_conclusion.model, no_conclusion.known, no_conclusion.unknown
    )
    assert "No conclusion" in summary.kind_label.text()
    # the banner names the kind; the headline gives the reason without repeating it
    assert summary.headline.text().startswith("A document is too short for the method")
    assert "questioned document has 2 words" in summary.reasons_label.text()
    assert "No likelihood ratio" in summary.lr_label.text()
    assert summary.stability_button.isHidden()
    assert "not assessed" in summary.stability_label.text()
    for text in (summary.headline.text(), summary.classification_label.text()):
        assert "was written by" not in text


def test_headline_lr_and_stability_are_in_view_at_the_default_size(qtbot, federalist):
    from PySide6.QtCore import QPoint

    from taveer_desktop.presentation.explanation_data import StabilityFigures

    view = ResultView()
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    stored = StabilityFigures(
        199, 200, 0.9, 5, (0.45, 0.6), {"Y": 199, "N": 1}, "2025-01-01T00:00:00Z"
    )
    view.show_result(
        federalist.result, federalist.model, federalist.known, federalist.unknown, stability=stored
    )
    qtbot.wait(50)
    summary = view.summary
    assert "199 of 200 (99.5 %)" in summary.stability_label.text()
    assert summary.stability_button.isHidden()
    assert summary.scale.interval == (0.45, 0.6)
    for label in (summary.kind_label, summary.headline, summary.stability_label):
        bottom = label.mapTo(view, QPoint(0, label.height())).y()
        assert label.isVisible() and bottom <= view.height(), label.objectName()


def test_the_features_tab_never_scrolls_sideways(qtbot, federalist):
    view = _view(qtbot, federalist)
    view.tabs.setCurrentIndex(1)
    qtbot.wait(20)
    assert view.features_top.orientation() == Qt.Orientation.Horizontal  # side by side
    view.resize(560, 900)
    qtbot.waitUntil(lambda: view.features_top.orientation() == Qt.Orientation.Vertical)
    page = view.tabs.currentWidget()
    assert page.minimumSizeHint().width() <= view.width()  # the chart went above the table
    view.resize(1400, 900)
    qtbot.waitUntil(lambda: view.features_top.orientation() == Qt.Orientation.Horizontal)


def test_the_repeats_sentence_is_shown_under_the_reasons(qtbot, federalist):
    """Issue 30: a result says whether its ratio's direction depends on the validation's seed
    (here a model from before: the check could not be made); a result without it says nothing."""
    from taveer_desktop.core.calibration.repeat_agreement import NotPossible, not_possible

    view = _view(qtbot, federalist)
    assert not view.summary.repeats_label.isVisible()  # a stored result from before the check
    result = {**federalist.result}
    result["repeats"] = not_possible(NotPossible.NO_REPEAT_FITS, 0.3).to_dict()
    view.show_result(result, federalist.model, federalist.known, federalist.unknown)
    assert view.summary.repeats_label.isVisible()
    assert "could not be checked" in view.summary.repeats_label.text()
