"""Issue 11 in the desktop: no silent model choice, evidence exclusion, the stored stability
shown exactly (and a computed one stored with its run), and a banded model through Verify."""

from __future__ import annotations

import dataclasses

import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.inconclusive_band import InconclusiveBand
from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.training import train
from taveer_desktop.presentation.conclusion_text import share_text
from taveer_desktop.presentation.refusal_text import conclusion_reasons
from taveer_desktop.store import KNOWN, QUESTIONED
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.ui.project_session import RUNS

from .conftest import make_pan_corpus
from .fit_checks import conclusion_hidden


def _case_with_evidence(window, evidence, number="2025-100"):
    store = window.session.store
    case = store.cases.create(number, title="Letters")
    store.documents.add(case.id, KNOWN, [evidence["known1"], evidence["known2"]])
    store.documents.add(case.id, QUESTIONED, [evidence["questioned"]])
    window.session.changed(RUNS)
    assert window.case_list.select_case_number(number)
    return store.cases.get(case.id)


def _import_default(window) -> int:
    assert window.models.import_model(paths.resource("models", "default.json"))
    return window.session.store.models.find("TAVeer default (Stack Exchange)").id


def test_a_new_case_has_no_model_and_the_picker_shows_what_decides_the_choice(
    qtbot, window, evidence
):
    _import_default(window)
    case = _case_with_evidence(window, evidence)
    assert case.model_id is None
    assert "Case model: none chosen" in window.status_line.model_label.text()
    picker = window.cases.choose_model()
    qtbot.waitExposed(picker)
    assert picker.chosen() is None and not picker.ok_button.isEnabled()
    assert picker.model.rowCount() == 1
    assert picker.select_name("TAVeer default (Stack Exchange)")
    details = picker.details.text()
    for words in ("Genre:", "Population (Hd):", "Validated lengths:", "Cllr", "misleading"):
        assert words in details
    picker.reject()
    assert window.session.store.cases.get(case.id).model_id is None  # cancelled: still none
    picker = window.cases.choose_model()
    picker.select_name("TAVeer default (Stack Exchange)")
    picker.accept()
    chosen = window.session.store.cases.get(case.id)
    assert chosen.model_id is not None
    assert window.verification_tab.chosen_model() == "TAVeer default (Stack Exchange)"
    assert "Case model: TAVeer default" in window.status_line.model_label.text()
    entries = window.session.store.audit.entries(case.id)
    assert entries[-1].action == "case_model_chosen"
    picker = window.cases.choose_model()  # the picker opens on the current choice
    assert picker.chosen().stored.id == chosen.model_id
    picker.reject()


@pytest.mark.slow
def test_excluding_and_including_evidence_with_a_reason(qtbot, window, evidence):
    model_id = _import_default(window)
    case = _case_with_evidence(window, evidence)
    window.session.store.cases.choose_model(case.id, model_id)
    tab = window.documents_tab
    tab.set_documents(window.session.documents(case.id))
    known_rows = [
        r for r in range(tab.proxy.rowCount()) if tab.proxy.index(r, 0).data().startswith("Known")
    ]
    tab.view.selectRow(known_rows[0])
    doc = tab.selected_documents()[0]
    assert tab.exclude_action.isEnabled() and not tab.include_action.isEnabled()

    window.cases.ask_reason = lambda title, prompt: None  # the examiner cancels
    tab.exclude_action.trigger()
    assert not window.session.store.documents.get(doc.id).excluded
    assert window.cases.refusal is None  # a cancel is not refused

    window.cases.ask_reason = lambda title, prompt: "   "  # OK with no reason: refused aloud
    tab.exclude_action.trigger()
    assert not window.session.store.documents.get(doc.id).excluded
    refusal = window.cases.refusal
    assert refusal is not None and refusal.isVisible()
    assert refusal.text().startswith("Not excluded: a reason is needed")
    refusal.close()

    window.cases.ask_reason = lambda title, prompt: "  belongs to another case  "
    tab.exclude_action.trigger()
    stored = window.session.store.documents.get(doc.id)
    assert stored.excluded and stored.excluded_reason == "belongs to another case"
    row = tab.model.find_row(lambda d: d.id == doc.id)
    index = tab.model.index(row, tab.model.COLUMNS.index(tab.model.COLUMNS[2]))
    assert index.data() == "Excluded"
    assert "belongs to another case" in tab.model.data(index, 3)  # ToolTipRole
    tab.view.selectRow(tab.proxy.mapFromSource(tab.model.index(row, 0)).row())
    assert "Excluded" in tab.preview_heading.text()
    assert tab.include_action.isEnabled() and not tab.exclude_action.isEnabled()
    assert "document_excluded" in [e.action for e in window.session.store.audit.entries(case.id)]

    # the next run leaves it out
    with qtbot.waitSignal(window.verification_finished, timeout=60_000) as blocker:
        window.window_actions.verify.trigger()
    run = blocker.args[0].run
    assert doc.id not in run.known_document_ids and len(run.known_document_ids) == 1

    window.cases.ask_reason = lambda title, prompt: "needed after all"
    tab.view.selectRow(tab.proxy.mapFromSource(tab.model.index(row, 0)).row())
    tab.include_action.trigger()
    assert not window.session.store.documents.get(doc.id).excluded
    assert "document_included" in [e.action for e in window.session.store.audit.entries(case.id)]


@pytest.mark.slow
def test_the_stored_stability_is_shown_exactly_and_a_computed_one_is_stored(
    qtbot, window, evidence
):
    model_id = _import_default(window)
    case = _case_with_evidence(window, evidence)
    store = window.session.store
    store.cases.choose_model(case.id, model_id)
    window.session.changed(RUNS)

    # a run verified by the window comes with its stored stability, shown exactly
    with qtbot.waitSignal(window.verification_finished, timeout=60_000) as blocker:
        window.window_actions.verify.trigger()
    first = blocker.args[0].run
    summary = window.verification_tab.result_view.result_view.summary
    (check,) = store.runs.stability_checks(first.id)
    assert share_text(check.agreeing, check.resamples) in summary.stability_label.text()
    assert f"seed {check.seed}" in summary.stability_label.toolTip()
    assert summary.stability_button.isHidden()

    # a run without one (stored without it) offers to compute it; the result is stored
    (second,) = verify_case(store, case.id, stability_resamples=None)
    window.session.changed(RUNS)
    assert window.verification_tab.select_run(second.id)
    assert not store.runs.stability_checks(second.id)
    assert not summary.stability_button.isHidden()
    assert "not computed yet" in summary.stability_label.text()
    with qtbot.waitSignal(summary.stability_finished, timeout=60_000) as done:
        summary.stability_button.click()
    (stored,) = store.runs.stability_checks(second.id)
    assert done.args[0] == stored
    assert share_text(stored.agreeing, stored.resamples) in summary.stability_label.text()
    assert window.verification_tab.selected_run().run.id == second.id  # still the one shown
    assert "stability_stored" in [e.action for e in store.audit.entries(case.id)]


@pytest.mark.slow
def test_a_banded_model_goes_through_verify(qtbot, window, evidence, tmp_path):
    corpus = open_corpus(make_pan_corpus(tmp_path / "band-corpus", cases=8))
    model = train(corpus, name="Banded Brontës", workers=1, with_inconclusive_band=True)
    assert model.inconclusive_band is not None
    # widen the learned band so that this case's score surely falls inside it
    wide = InconclusiveBand(0.0, 1.0, model.inconclusive_band.training_c_at_1)
    model = dataclasses.replace(model, inconclusive_band=wide)
    store = window.session.store
    stored = store.models.add_bytes(model.to_json().encode("utf-8"), "banded.json")
    window.session.changed(RUNS)
    case = _case_with_evidence(window, evidence)
    store.cases.choose_model(case.id, stored.id)
    window.session.changed(RUNS)
    with qtbot.waitSignal(window.verification_finished, timeout=60_000) as blocker:
        window.window_actions.verify.trigger()
    run = blocker.args[0].run
    assert run.prediction is Classification.INCONCLUSIVE
    tab = window.verification_tab
    assert tab.run_model.data(tab.run_model.index(0, 4)) == "inconclusive"
    summary = tab.result_view.result_view.summary
    assert "inconclusive" in summary.classification_label.text()
    assert summary.scale.band == (0.0, 1.0)


def test_a_run_stored_before_the_gate_shows_as_not_assessed(qtbot, tmp_path):
    """A version-1 store (runs without a conclusion) opens, migrates and shows its run."""
    import shutil
    from pathlib import Path

    from .conftest import open_window

    fixture = Path(__file__).resolve().parents[1] / "store" / "fixtures" / "store_v1.taveer"
    project = tmp_path / "old.taveer"
    shutil.copyfile(fixture, project)
    window = open_window(qtbot, project)
    assert window.case_list.select_case_number("FIXTURE-1")
    tab = window.verification_tab
    assert tab.run_model.rowCount() == 1
    assert tab.run_model.data(tab.run_model.index(0, 2)) == "For investigation only"
    tip = tab.run_model.data(tab.run_model.index(0, 2), 3)  # ToolTipRole
    assert "earlier version" in tip
    summary = tab.result_view.result_view.summary
    assert "For investigation only" in summary.kind_label.text()
    assert summary.headline.text().startswith("No evaluative conclusion: ")
    assert "Hd:" in summary.propositions_label.text()


@pytest.mark.slow
def test_a_newly_shown_run_starts_at_the_top(qtbot, window, evidence):
    model_id = _import_default(window)
    case = _case_with_evidence(window, evidence)
    store = window.session.store
    store.cases.choose_model(case.id, model_id)
    first, second = (
        verify_case(store, case.id, stability_resamples=None)[0],
        verify_case(store, case.id, stability_resamples=None)[0],
    )
    window.session.changed(RUNS)
    window.resize(900, 500)  # small enough for the result to scroll
    panel = window.verification_tab.result_view
    assert window.verification_tab.select_run(first.id)
    qtbot.wait(50)
    bar = panel.result_scroll.verticalScrollBar()
    details = panel.result_view.details_scroll.verticalScrollBar()
    assert bar.maximum() > 0 and details.maximum() > 0  # both really scroll
    bar.setValue(bar.maximum())
    details.setValue(details.maximum())
    assert window.verification_tab.select_run(second.id)
    assert bar.value() == 0 and details.value() == 0


def test_the_conclusion_is_above_the_fold_on_a_1366_by_768_screen(qtbot, demo_window):
    """The statement (with the likelihood ratio), the classification and the stability are
    visible without scrolling in a window of 1366 × 768, and each run opens at its top."""
    window = demo_window
    window.resize(1366, 768)
    window.case_list.select_case_number("DEMO-001")
    for _ in range(2):  # the second run must open at its top too
        with qtbot.waitSignal(window.verification_finished, timeout=120_000):
            window.window_actions.verify.trigger()
        panel = window.verification_tab.result_view
        qtbot.wait(50)
        viewport = panel.result_scroll.viewport()
        assert panel.result_scroll.verticalScrollBar().value() == 0
        summary = panel.result_view.summary
        for label in (summary.headline, summary.classification_label, summary.stability_label):
            assert label.isVisible() and label.text()
            bottom = label.mapTo(viewport, label.rect().bottomLeft()).y()
            assert 0 <= bottom <= viewport.height(), label.objectName() or label.text()[:40]
        panel.result_scroll.verticalScrollBar().setValue(
            panel.result_scroll.verticalScrollBar().maximum()
        )


@pytest.mark.parametrize(
    "size",
    [(1366, 698), (910, 465)],
    ids=["1366x768 maximised at 100 %", "1366x768 maximised at 150 % (910x465 logical)"],
)
def test_the_conclusion_is_whole_and_in_view_on_a_laptop_at_100_and_150_percent(
    qtbot, demo_window, size
):
    """The kind and the statement with its likelihood ratio lie wholly inside the window, not
    clipped by any scroll area or splitter and not cut short by their own height, in a window
    maximised on a 1366 × 768 screen (less a title bar and a task bar) at 100 % and at 150 %
    (the same logical pixels as ``QT_SCALE_FACTOR=1.5``, which the screenshot script
    ``take_verification_screenshots.py`` checks under Xvfb); on every tab of the result."""
    window = demo_window
    window.resize(*size)
    window.case_list.select_case_number("DEMO-002")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000):
        window.window_actions.verify.trigger()
    qtbot.waitUntil(lambda: window.size().width() == size[0], timeout=5_000)
    assert window.height() == size[1]  # the window did not grow past the screen
    result = window.verification_tab.result_view.result_view
    summary = result.summary
    # DEMO-002's model has no validation on a population declared relevant to the case: the
    # conclusion is investigative, its ratio shown beside it for investigation only
    assert summary.headline.text().startswith(
        "No evaluative conclusion: the method has not been tested on a population relevant"
    )  # plain words; the reasons under it carry the technical detail
    assert summary.investigative_label.isVisibleTo(summary)
    assert "0.714" in summary.investigative_label.text()
    for tab in range(result.tabs.count()):
        if not result.tabs.isTabVisible(tab):
            continue
        result.tabs.setCurrentIndex(tab)
        qtbot.wait(50)
        assert conclusion_hidden(window, on_screen=False) == {}, result.tabs.tabText(tab)
        kind = summary.kind_label
        top = kind.mapTo(window, kind.rect().topLeft()).y()
        last = summary.investigative_label
        bottom = last.mapTo(window, last.rect().bottomLeft()).y()
        assert 0 <= top < bottom <= window.height()
    # the runs table keeps a row or more in view, the result the rest
    runs = window.verification_tab.runs_view
    assert runs.height() >= runs.minimumHeight() > 0


@pytest.mark.parametrize(
    "size",
    [(1366, 698), (910, 465)],
    ids=["1366x768 maximised at 100 %", "1366x768 maximised at 150 % (910x465 logical)"],
)
def test_every_reason_of_a_limited_conclusion_is_reachable_and_the_first_in_view(
    qtbot, demo_window, size
):
    """Issue 23: at 150 % only the statement's own reason was in view, the others in a second
    scrolled pane beside the chart. Now every reason is listed first under the conclusion, in
    the result that scrolls: its heading and first reasons are in view without scrolling, and
    scrolling the result brings the end of the list into view, no line of it cut."""
    import html

    from PySide6.QtCore import QPoint

    from taveer_desktop.ui.project_session import CASES

    window = demo_window
    if size[1] < 500:  # a first start hides the toolbar on a screen this short (no room)
        window.window_actions.toolbar.setVisible(False)
    window.resize(*size)
    store = window.session.store
    federalist = paths.resource("demo") / "federalist"
    case = store.cases.create("2026-023-I", title="No. 51 against Hamilton, Stack Exchange model")
    hamilton = [federalist / f"federalist_{n}.txt" for n in ("01", "06", "15", "23")]
    store.documents.add(case.id, KNOWN, hamilton)
    store.documents.add(case.id, QUESTIONED, [federalist / "federalist_51_questioned.txt"])
    store.cases.choose_model(case.id, store.models.find("TAVeer default (Stack Exchange)").id)
    window.session.changed(CASES)
    assert window.case_list.select_case_number("2026-023-I")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000) as done:
        window.window_actions.verify.trigger()
    qtbot.waitUntil(lambda: window.size().width() == size[0], timeout=5_000)
    assert window.height() == size[1]  # the window did not grow past the screen
    reasons = store.runs.verification(done.args[0].run.id).conclusion.reasons
    assert len(reasons) >= 3
    panel = window.verification_tab.result_view
    summary = panel.result_view.summary
    label = summary.reasons_label
    listed = html.unescape(label.text())
    assert all(reason in listed for reason in reasons)  # each detail, after its plain words
    grouped = conclusion_reasons(store.runs.verification(done.args[0].run.id).conclusion)
    assert f"({len(grouped)} reasons)" in listed  # one per rule of the gate
    qtbot.wait(50)
    bar, viewport = panel.result_scroll.verticalScrollBar(), panel.result_scroll.viewport()
    assert bar.value() == 0
    top = label.mapTo(viewport, QPoint(0, 0)).y()
    lines = label.fontMetrics().lineSpacing()
    # the heading and the first listed reason in view, without scrolling
    assert top >= 0 and top + 2 * lines <= viewport.height(), (top, viewport.height())
    assert conclusion_hidden(window, on_screen=False) == {}
    # no line cut by the label's own height, and the end of the list within scrolling reach
    assert label.height() >= label.heightForWidth(label.width())
    panel.result_scroll.ensureWidgetVisible(label, 0, 0)
    qtbot.wait(50)
    bottom = label.mapTo(viewport, QPoint(0, label.height())).y()
    if label.height() <= viewport.height():
        assert 0 <= bottom <= viewport.height()
    else:  # a list taller than the view: its end is reached by scrolling further
        bar.setValue(bar.value() + bottom - viewport.height())
        qtbot.wait(50)
        assert label.mapTo(viewport, QPoint(0, label.height())).y() <= viewport.height()
