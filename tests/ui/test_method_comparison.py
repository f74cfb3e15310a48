"""The compared methods in the desktop: the comparison's table model without a window, the
validation wizard's method page driven as an examiner would (every registered method, a stated
one, others to compare, the pre-registered rule, LambdaG's options, the run page's plan), and
the record view's comparison of a record widened to six methods
(``tests/comparison_fixtures.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from taveer_desktop.core.ground.registry import METHOD_IDS, method_info
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation.method_comparison_text import COLUMNS, comparison_table
from taveer_desktop.presentation.method_costs import cost_text
from taveer_desktop.store import ProjectStore
from taveer_desktop.ui import validation_wizard as vw
from taveer_desktop.ui.method_comparison_table_model import MethodComparisonTableModel
from taveer_desktop.ui.record_table_model import RECORD_ROLE
from taveer_desktop.ui.validation_method_page import MethodChoiceState
from taveer_desktop.ui.validation_record_view import ValidationRecordView
from tests.comparison_fixtures import REFUSED_EVERY, widened
from tests.method_fixtures import method_project_copy
from tests.ui.conftest import open_window
from tests.ui.test_method_validation import _demo_case_project, _to_method_page
from tests.ui.test_validation_wizard import _mnemonics_visible, _open_wizard

KEYS = [key for key, _heading, _meaning in COLUMNS]


def _record() -> dict:
    """A comparison record with no trials (a model's summary): COAV stated by the rule."""
    figures = {"accuracy": 0.8, "auc": 0.88, "cllr": 0.55, "cllr_min": 0.4, "eer": 0.2}
    return {
        "protocol": {"method": "coav"},
        "methods": {
            "taveer": dict(figures, trials=98, cannot_compare=0, deterministic=True),
            "coav": dict(figures, cllr=0.42, trials=98, cannot_compare=0, seconds_per_trial=0.04),
            "spatium": dict(
                figures,
                trials=90,
                cannot_compare=8,
                deterministic=False,
                seed_spread={"auc": [0.85, 0.9], "cllr": [0.5, 0.61]},
            ),
        },
        "comparison": {
            "methods": ["taveer", "coav", "spatium"],
            "stated": "coav",
            "rule": "lowest_pessimistic_cllr",
            "rule_set_utc": "2026-11-28T22:00:00+00:00",
        },
    }


def test_the_comparison_table_model_shows_each_method_the_stated_one_bold():
    model = MethodComparisonTableModel()
    model.set_records(comparison_table(R(_record())))
    assert model.rowCount() == 3 and model.columnCount() == 1 + len(COLUMNS)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers[0] == "Method"
    assert headers[1 + KEYS.index("cannot_compare")] == "Not compared"
    names = [model.index(r, 0).data() for r in range(3)]
    assert names == ["COAV (stated)", "TAVeer", "SPATIUM-L1"]
    assert model.index(0, 0).data(Qt.ItemDataRole.FontRole).bold()
    assert model.index(1, 0).data(Qt.ItemDataRole.FontRole) is None
    assert model.index(0, 0).data(RECORD_ROLE).method == "coav"
    assert method_info("coav").reference in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    cell = {key: model.index(2, 1 + i).data() for i, key in enumerate(KEYS)}
    assert (cell["trials"], cell["cannot_compare"]) == ("90", "8")
    assert cell["seed_spread"] == "AUC 0.85–0.90; Cllr 0.50–0.61"
    assert cell["seconds_per_trial"] == "not recorded"
    assert model.index(0, 1 + KEYS.index("seconds_per_trial")).data() == "40 ms"
    assert model.index(0, 1 + KEYS.index("cllr")).data() == "0.420"
    right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    assert model.index(0, 1 + KEYS.index("auc")).data(Qt.ItemDataRole.TextAlignmentRole) == right


def test_a_fused_rows_tooltip_names_what_it_fuses_not_the_registrys_fusion():
    record = _record()
    record["methods"]["fusion"] = dict(record["methods"]["coav"], cllr=0.40)
    record["comparison"]["methods"].append("fusion")
    record["fusion"] = {"methods": ["taveer", "coav"], "weights": [0.2, 0.8]}
    model = MethodComparisonTableModel()
    model.set_records(comparison_table(R(record)))
    rows = {model.index(r, 0).data(RECORD_ROLE).method: r for r in range(model.rowCount())}
    tip = model.index(rows["fusion"], 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("TAVeer + COAV (compared)") and "Fusion" not in tip


@pytest.fixture
def demo_case_window(qtbot, tmp_path):
    window = open_window(qtbot, _demo_case_project(tmp_path / "m.taveer"))
    assert window.case_list.select_case_number("M-2")
    return window


def test_the_method_page_states_one_method_compares_others_and_registers_the_rule(
    qtbot, demo_case_window
):
    wizard = _open_wizard(qtbot, demo_case_window)
    page = _to_method_page(wizard)
    assert list(page.buttons) == list(METHOD_IDS)  # every registered method, in its order
    assert page.choice() == MethodChoiceState("taveer", (), None, ("taveer", "lambdag"))
    assert not page.compare_boxes["taveer"].isEnabled()  # the stated one is validated anyway
    assert not page.rule_check.isEnabled()  # nothing compared: nothing to choose among
    assert "Halvani, Graner, Regev (2020)" in page.details.text()
    page.buttons["coav"].setChecked(True)
    details = page.details.text()
    assert method_info("coav").reference in details and "no evidence in the text" in details
    assert not page.compare_boxes["coav"].isEnabled() and page.compare_boxes["taveer"].isEnabled()
    page.compare_boxes["taveer"].setChecked(True)
    page.compare_boxes["im"].setChecked(True)
    assert page.rule_check.isEnabled()
    page.rule_check.setChecked(True)
    assert page.choice() == MethodChoiceState("coav", ("taveer", "im"), "lowest_pessimistic_cllr")
    page.advanced_check.setChecked(True)  # nothing of LambdaG chosen: its options are off
    assert not page.advanced.isEnabled() and "No method chosen uses" in page.advanced_note.text()
    page.compare_boxes["fusion"].setChecked(True)
    assert page.advanced.isEnabled() and page.advanced_note.text() == ""
    assert _mnemonics_visible(wizard) == {}
    # every method's measured cost per trial is on the page
    grid_texts = {label.text() for label in page.findChildren(type(page.details))}
    assert cost_text("coav") == "7.6 ms per trial" and "7.6 ms" in grid_texts
    assert cost_text("taveer") == "5.2 ms per trial" and "5.2 ms" in grid_texts
    # the run page's plan says what will be compared and that the rule chooses the stated one
    page.compare_boxes["fusion"].setChecked(False)
    page.buttons["taveer"].setChecked(True)  # the stated method leaves the compared ones
    assert page.choice() == MethodChoiceState("taveer", ("im",), "lowest_pessimistic_cllr")
    wizard.next()
    wizard.next()
    assert wizard.currentId() == vw.RUN
    plan = wizard.run_page.plan.text()
    assert "Compared on the same trials: TAVeer, Impostors Method (IM)" in plan
    assert "lowest pessimistic Cllr will be stated" in plan
    assert wizard.run_page.settings().method == "taveer"


def test_the_method_page_chooses_the_methods_the_fusion_combines(qtbot, demo_case_window):
    wizard = _open_wizard(qtbot, demo_case_window)
    page = _to_method_page(wizard)
    assert "fusion" not in page.fuse_boxes  # the fusion cannot fuse itself
    assert page.fused() == ("taveer", "lambdag")  # the default, as ``--fuse`` without it
    assert not page.fuse_boxes["coav"].isEnabled()  # no fusion asked for: the boxes wait
    assert "count only when the fusion" in page.fuse_note.text()
    page.buttons["fusion"].setChecked(True)
    assert page.fuse_boxes["coav"].isEnabled() and page.isComplete()
    page.fuse_boxes["lambdag"].setChecked(False)
    assert not page.isComplete() and "at least two" in page.fuse_note.text()
    page.fuse_boxes["coav"].setChecked(True)
    assert page.isComplete() and page.fuse_note.text().startswith(
        "The fusion will combine TAVeer and COAV"
    )
    assert page.choice() == MethodChoiceState("fusion", (), None, ("taveer", "coav"))
    assert page.buttons["fusion"].text() == "TAVeer + COAV"
    page.advanced_check.setChecked(True)  # LambdaG is not fused: its options are off
    assert not page.advanced.isEnabled()
    assert _mnemonics_visible(wizard) == {}
    wizard.next()
    wizard.next()
    assert wizard.currentId() == vw.RUN
    settings = wizard.run_page.settings()
    assert (settings.method, settings.fuse) == ("fusion", ("taveer", "coav"))
    assert "Method: TAVeer + COAV." in wizard.run_page.plan.text()
    assert "with TAVeer + COAV" in wizard.run_page.name_edit.text()


@pytest.fixture(scope="module")
def wide_record(tmp_path_factory, built_once):
    project = method_project_copy(built_once, tmp_path_factory.mktemp("wide-ui"), "fusion")
    with ProjectStore.open(project) as store:
        (stored,) = store.validations.list_all()
        return widened(store.validations.record(stored.id))


def test_the_record_view_compares_every_method_of_a_wide_record(qtbot, wide_record):
    view = ValidationRecordView()
    qtbot.addWidget(view)
    view.resize(1250, 700)
    view.show()
    view.show_record(R(wide_record), "wide")
    assert view.tabs.isTabVisible(view.tabs.indexOf(view.methods))
    view.tabs.setCurrentWidget(view.methods)
    qtbot.waitUntil(view.methods.chart.isVisible)
    methods = view.methods
    order = ["fusion", "taveer", "lambdag", "coav", "im", "unmasking"]
    assert [methods.model.record(r).method for r in range(methods.model.rowCount())] == order
    assert "By this rule the stated method is TAVeer + LambdaG" in methods.rule_line.text()
    assert "draw at random" in methods.table_note.text()
    # the whole table is shown: no scroll bar of its own, every row's height counted
    assert methods.table.height() >= sum(methods.table.rowHeight(r) for r in range(6))
    # each method's Tippett curves from the trials it scored (Unmasking refused some)
    assert set(methods.chart.drawn) == set(order)
    n = len(wide_record["trials"])
    assert len(methods.chart.drawn["unmasking"]) == n - len(range(0, n, REFUSED_EVERY))
    coav = [t["log10_lr_by_method"]["coav"] for t in wide_record["trials"]]
    np.testing.assert_allclose(methods.chart.drawn["coav"], coav)
    legend = [label.text for _, label in methods.chart.getPlotItem().legend.items]
    assert legend[0] == "TAVeer + LambdaG (stated)" and "Unmasking" in legend
