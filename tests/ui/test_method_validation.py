"""The desktop's validation wizard and record views with LambdaG and the fusion, on real windows
and project files built from the shipped demo population (``tests/method_fixtures.py``).

The wizard's method page runs a fused validation through the writer pool; Cancel stores nothing
for a fusion run either; the record view names the stated method, shows every method's figures
side by side as the record holds them, LambdaG's order per fold and samples, and draws the stated
method's charts from the trials' ``log10_lr`` and the comparison chart from each trial's
``log10_lr_by_method``; the records dialog and the model manager name each record's and model's
method.
"""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from PySide6.QtWidgets import QWizard

from taveer_desktop import paths
from taveer_desktop.core.ground.errors import Cancelled
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.ground.registry import METHOD_IDS, method_info
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation.method_comparison_text import COLUMNS
from taveer_desktop.presentation.validation_figures_text import figure_value
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.ui import model_table_model as mtm
from taveer_desktop.ui import validation_wizard as vw
from taveer_desktop.ui.task_worker import Job
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from taveer_desktop.ui.validation_table_models import V_METHOD
from tests.method_fixtures import (
    POPULATION,
    POPULATION_DESCRIPTION,
    method_project_copy,
    quick_settings,
)
from tests.ui.conftest import open_window
from tests.ui.test_validation_wizard import _mnemonics_visible, _open_wizard


@pytest.fixture(scope="module")
def fused_project(tmp_path_factory, built_once):
    return method_project_copy(built_once, tmp_path_factory.mktemp("fused-ui"), "fusion")


@pytest.fixture(scope="module")
def fused_record(fused_project):
    with ProjectStore.open(fused_project) as store:
        (stored,) = store.validations.list_all()
        return stored, store.validations.record(stored.id)


def _demo_case_project(path):
    """Demo case DEMO-001's documents as case M-2 and the shipped population, not validated."""
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    with ProjectStore.create(path) as store:
        case = store.cases.create("M-2", entry["title"])
        store.documents.add(case.id, KNOWN, [demo / name for name in entry["known"]])
        store.documents.add(case.id, QUESTIONED, [demo / entry["questioned"]])
        store.populations.add_folder("demo", POPULATION, POPULATION_DESCRIPTION)
    return path


@pytest.fixture
def demo_case_window(qtbot, tmp_path):
    window = open_window(qtbot, _demo_case_project(tmp_path / "m.taveer"))
    assert window.case_list.select_case_number("M-2")
    return window


def _to_method_page(wizard) -> vw.MethodPage:
    wizard.next()  # the stored population is chosen
    wizard.conditions_page.folds.setValue(3)
    wizard.next()
    assert wizard.currentId() == vw.METHOD
    return wizard.method_page


def _check_comparison(view: ValidationRecordView, record: dict) -> None:
    """The methods tab shows the record's numbers: every figure of every method, LambdaG's
    orders and samples, and each method's trials in the comparison chart."""
    methods = view.methods
    stated = record["protocol"]["method"]
    kept = record["methods"]
    order = [stated] + [m for m in ("taveer", "lambdag", "fusion") if m != stated and m in kept]
    model = methods.model
    assert model.columnCount() == 1 + len(COLUMNS)
    assert [model.record(r).method for r in range(model.rowCount())] == order
    assert model.index(0, 0).data().endswith("(stated)")
    keys = [key for key, _heading, _meaning in COLUMNS]
    for row, method in enumerate(order):
        for key in ("accuracy", "auc", "cllr", "cllr_min", "eer"):
            column = 1 + keys.index(key)
            assert model.index(row, column).data() == figure_value(key, kept[method][key])
    text = methods.lambdag_text.text()
    lam = record["lambdag"]
    for fold, chosen in enumerate(lam["fold_orders"], 1):
        assert f"fold {fold} chose {chosen}" in text
    assert f"<td>{lam['samples']} per comparison" in text
    assert f"<td>{lam['max_order']}</td>" in text
    by_method = {m: [t["log10_lr_by_method"][m] for t in record["trials"]] for m in kept}
    assert set(methods.chart.drawn) == set(kept)
    for method, values in by_method.items():
        np.testing.assert_allclose(methods.chart.drawn[method], values)
    # the three charts are the stated method's: the trials' log10_lr, which is its ratio
    drawn = view.charts.curves.trials.log10_lr
    np.testing.assert_allclose(drawn, [t["log10_lr"] for t in record["trials"]])
    np.testing.assert_allclose(drawn, by_method[stated])
    assert "LR/(1+LR)" in view.charts.score_plot.getAxis("bottom").labelText


@pytest.mark.slow
def test_the_wizard_runs_a_fused_validation_and_shows_every_method(qtbot, demo_case_window):
    window = demo_case_window
    store = window.session.store
    case = store.cases.find("M-2")
    wizard = _open_wizard(qtbot, window)
    page = _to_method_page(wizard)
    assert page.method() == "taveer" and not page.advanced.isVisible()
    assert (page.order.value(), page.samples.value()) == (10, 30)  # ValidationSettings' defaults
    assert list(page.buttons) == list(METHOD_IDS)  # every registered method, its reference
    for method, button in page.buttons.items():
        assert method_info(method).reference in button.toolTip()
    page.buttons["fusion"].setChecked(True)
    page.advanced_check.setChecked(True)
    assert page.advanced.isVisible() and page.advanced.isEnabled()
    page.order.setValue(4)  # quick: the demo population validates in seconds
    page.samples.setValue(5)
    assert _mnemonics_visible(wizard) == {}
    wizard.next()
    wizard.criteria_page.max_cllr.setValue(1.0)
    wizard.next()
    assert wizard.currentId() == vw.RUN
    plan = wizard.run_page.plan.text()
    assert "TAVeer + LambdaG" in plan and "up to 4, 5 reference samples" in plan
    settings = wizard.run_page.settings()
    assert (settings.method, settings.lambdag_order, settings.lambdag_samples) == ("fusion", 4, 5)
    with qtbot.waitSignal(window.cases.validation_stored, timeout=180_000):
        wizard.run_page.run_button.click()
    qtbot.waitUntil(lambda: wizard.currentId() == vw.RECORD, timeout=10_000)

    (stored,) = store.validations.for_case(case.id)
    record = store.validations.record(stored.id)
    assert stored.method == "fusion" and record["protocol"]["method"] == "fusion"
    assert record["lambdag"]["max_order"] == 4 and record["lambdag"]["samples"] == 5
    assert set(record["methods"]) == {"taveer", "lambdag", "fusion"}
    model_name = store.models.get(stored.model_id).name
    assert model_name.startswith("Validated with TAVeer + LambdaG for case M-2")
    assert "with TAVeer + LambdaG" in wizard.record_page.subTitle()

    view = wizard.record_page.view
    assert view.method_line.text().startswith("Method: TAVeer + LambdaG.")
    assert view.tabs.isTabVisible(view.tabs.indexOf(view.methods))
    view.tabs.setCurrentWidget(view.methods)
    qtbot.waitUntil(view.methods.chart.isVisible)
    _check_comparison(view, record)
    assert _mnemonics_visible(wizard) == {}

    # a TAVeer validation of the same case afterwards does not collide with the fused model
    wizard.button(QWizard.WizardButton.FinishButton).click()
    validate_case(store, case.id, "demo", quick_settings("taveer"))
    assert len(store.validations.for_case(case.id)) == 2


def test_cancelling_a_fused_run_stores_nothing(qtbot, demo_case_window):
    window = demo_case_window
    store = window.session.store
    models, audit = len(store.models.list_all()), len(store.audit.entries())
    wizard = _open_wizard(qtbot, window)
    page = _to_method_page(wizard)
    page.buttons["fusion"].setChecked(True)
    wizard.next()
    wizard.next()
    assert wizard.currentId() == vw.RUN
    release = threading.Event()  # the validation waits in the queue: Cancel comes first
    window.runner.start(Job("holding the writer pool", lambda p: release.wait(30)))
    assert wizard.run_page.start() is not None
    wizard.run_page.progress.cancel_button.click()
    release.set()
    qtbot.waitUntil(lambda: wizard.run_page.worker is None, timeout=60_000)
    assert wizard.run_page.status.text() == "The validation was cancelled; nothing was stored."
    assert store.validations.list_all() == []
    assert len(store.models.list_all()) == models and len(store.audit.entries()) == audit
    assert store.cases.find("M-2").model_id is None


@pytest.mark.slow
def test_cancelling_a_fused_validation_while_lambdag_scores_stores_nothing(tmp_path):
    """Cancelled in the middle of LambdaG's trials (not in the queue): nothing is stored."""
    with ProjectStore.open(_demo_case_project(tmp_path / "c.taveer")) as store:
        case = store.cases.find("M-2")
        seen = []

        def report(done, total, message):
            seen.append(message)
            if message.startswith("LambdaG") and done >= 2:
                progress.cancel()

        progress = Progress(report)
        with pytest.raises(Cancelled):
            validate_case(store, case.id, "demo", quick_settings("fusion"), None, progress)
        assert any(m.startswith("LambdaG") for m in seen)
        assert store.validations.list_all() == [] and store.models.list_all() == []
        assert store.cases.get(case.id).model_id is None


def test_the_record_view_shows_a_fused_record_as_stored(qtbot, fused_record):
    stored, record = fused_record
    assert stored.method == "fusion"  # read from the stored record's protocol
    view = ValidationRecordView()
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    view.show_record(R(record), "fused")
    view.tabs.setCurrentWidget(view.methods)
    qtbot.waitUntil(view.methods.chart.isVisible)
    _check_comparison(view, record)
    legend = [label.text for _, label in view.methods.chart.getPlotItem().legend.items]
    assert legend == ["TAVeer + LambdaG (stated)", "TAVeer", "LambdaG"]  # one per method
    # the figures tab is the stated method's, as recorded
    cllr = view.figures.item(0, 1).text()
    assert cllr == figure_value("cllr", record["figures"]["cllr"])
    assert cllr == figure_value("cllr", record["methods"]["fusion"]["cllr"])
    limits = view.limits_text.toPlainText()
    assert "The figures describe TAVeer + LambdaG" in limits
    assert "describe the TAVeer method" not in limits


def test_a_models_summary_shows_the_methods_without_a_chart(qtbot, fused_project):
    with ProjectStore.open(fused_project) as store:
        summary = store.models.load(store.models.list_all()[0].id).extra["validation"]
    view = ValidationRecordView()
    qtbot.addWidget(view)
    view.show()
    view.show_record(R(summary), "a copied model")
    assert view.tabs.isTabVisible(view.tabs.indexOf(view.methods))
    cllr_column = 1 + [key for key, _h, _m in COLUMNS].index("cllr")
    shown = view.methods.model.index(0, cllr_column).data()
    assert shown == figure_value("cllr", summary["methods"]["fusion"]["cllr"])
    assert not view.methods.chart.drawn and "does not keep the trials" in (
        view.methods.chart_message.text()
    )
    # a TAVeer summary (no methods kept): no methods tab
    taveer = {k: v for k, v in summary.items() if k not in ("methods", "lambdag")}
    taveer["protocol"] = dict(summary["protocol"], method="taveer")
    view.show_record(R(taveer))
    assert not view.tabs.isTabVisible(view.tabs.indexOf(view.methods))
    assert view.method_line.text() == "Method: TAVeer."


def test_the_records_dialog_and_model_manager_name_the_method(qtbot, fused_project, tmp_path):
    project = tmp_path / "copy.taveer"
    project.write_bytes(fused_project.read_bytes())
    window = open_window(qtbot, project)
    store = window.session.store
    (stored,) = store.validations.list_all()
    manager = window.models.open_manager()
    qtbot.waitExposed(manager)
    name = store.models.get(stored.model_id).name
    assert manager.select(name)
    row = manager.model.find_row(lambda m: m.name == name)
    summary = manager.model.record(row)
    assert summary.method == "fusion"
    assert manager.model.index(row, mtm.METHOD).data() == "TAVeer + LambdaG"
    details = manager.details.text()
    assert "Method: TAVeer + LambdaG (LambdaG of order" in details
    assert "Validated with TAVeer + LambdaG: cross-validated Cllr" in details
    assert "population “demo”" in details
    manager.validation_button.click()
    dialog = window.models.validations_dialog
    qtbot.waitExposed(dialog)
    assert dialog.selected().stored.method == "fusion"
    source = dialog.proxy.mapToSource(dialog.table.currentIndex())
    assert dialog.model.index(source.row(), V_METHOD).data() == "TAVeer + LambdaG"
    assert dialog.view.tabs.isTabVisible(dialog.view.tabs.indexOf(dialog.view.methods))
    dialog.close()
    manager.close()
