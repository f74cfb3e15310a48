"""One name for what a fused model states, everywhere it can be rendered (issue 33, item 1).

A real project (``tests/method_fixtures``): the demo case validated with the fusion of TAVeer,
COAV and NNCD on the shipped demo population and verified once. Every place that names the
stated method — the command line's ``case attempts``, ``case show``, ``validation list`` and
``model list``, the desktop's tables and lines, the case report and the validation report —
must name it "TAVeer + COAV + NNCD": never "Fusion", never by parts it does not fuse ("TAVeer +
LambdaG"). The quick tests at the end hold the one naming function to the same rule on
hand-made records, models and results.
"""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QWidget

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation.fusion_text import listed_method_label
from taveer_desktop.presentation.method_agreement import method_lines
from taveer_desktop.presentation.method_choice_text import cost_cell, method_explanation
from taveer_desktop.presentation.method_costs import SECONDS_PER_TRIAL, seconds_per_trial
from taveer_desktop.presentation.method_directions import (
    directions_sentence,
    fused_directions_sentence,
)
from taveer_desktop.presentation.method_measures import method_measure_lines
from taveer_desktop.presentation.method_names import stated_name, verb, with_method_words
from taveer_desktop.presentation.validation_attempts_text import attempt_cells
from taveer_desktop.presentation.validation_wizard_text import (
    model_validation_line,
    record_subtitle,
)
from taveer_desktop.report.export import export_report
from taveer_desktop.report.validation_attempts import case_attempts
from taveer_desktop.report.validation_export import export_stored_validation_report
from taveer_desktop.store import ProjectStore
from taveer_desktop.ui.model_table_model import ModelTableModel
from taveer_desktop.ui.project_session import ProjectSession
from taveer_desktop.ui.run_table_model import RunTableModel
from taveer_desktop.ui.validation_table_models import ValidationTableModel, validation_rows
from tests.cli.test_cli import run
from tests.method_fixtures import method_project
from tests.report.conftest import normalised, read_report

FUSED = ("taveer", "coav", "nncd")
NAME = "TAVeer + COAV + NNCD"
CASE = "F-3"
# "Fusion" as a method's name (a capital F, a word of its own), and the default fusion's name
WRONG_NAMES = (re.compile(r"\bFusion\b"), re.compile(r"TAVeer \+ LambdaG"))


def wrong_names(text: str) -> list[str]:
    return [m.group(0) for pattern in WRONG_NAMES for m in pattern.finditer(text)]


def _table_text(model) -> str:
    cells = []
    for row in range(model.rowCount(QModelIndex())):
        for column in range(model.columnCount(QModelIndex())):
            index = model.index(row, column)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                cells.append(str(model.data(index, role)))
    return "\n".join(cells)


@pytest.fixture(scope="module")
def fused3(tmp_path_factory, qapp):
    folder = tmp_path_factory.mktemp("fused-names")
    return method_project(folder, "fusion", CASE, fuse=FUSED), folder


@pytest.mark.slow
def test_the_command_line_names_the_fusion_by_its_parts(fused3):
    project, _ = fused3
    shown = []
    for args in (
        ("case", "attempts", CASE),
        ("case", "show", CASE),
        ("validation", "list"),
        ("model", "list"),
    ):
        done = run("--project", project, *args)
        assert done.returncode == 0, done.stderr
        shown.append(done.stdout)
    text = "\n".join(shown)
    assert NAME in text
    assert wrong_names(text) == []


@pytest.mark.slow
def test_the_desktops_tables_and_lines_name_the_fusion_by_its_parts(fused3, qtbot):
    project, _ = fused3
    parent = QWidget()
    qtbot.addWidget(parent)
    session = ProjectSession(parent)
    store = session.open(project)
    case = store.cases.find(CASE)
    runs = RunTableModel()
    runs.set_records(session.runs(case.id))
    models = ModelTableModel()
    models.set_records(session.model_summaries())
    validations = ValidationTableModel()
    validations.set_records(validation_rows(store, session.validations()))
    stored = session.validations()[0]
    record = store.validations.record(stored.id)
    summary = store.models.load(stored.model_id).extra["validation"]
    lines = [
        record_subtitle(R(record), CASE),
        model_validation_line(R(record)),
        model_validation_line(R(summary)),
        *(" ".join(attempt_cells(a)) for a in case_attempts(store, case)),
    ]
    text = "\n".join([_table_text(runs), _table_text(models), _table_text(validations), *lines])
    assert NAME in _table_text(runs)  # the runs table's ratio says whose it is
    assert f"with {NAME}" in record_subtitle(R(record), CASE)
    assert wrong_names(text) == []
    session.close()


@pytest.mark.slow
def test_both_reports_name_the_fusion_by_its_parts(fused3, qapp):
    project, folder = fused3
    pdf = folder / "case.pdf"
    with ProjectStore.open(project) as store:
        exported = export_report(store, CASE, pdf)
        validation_id = store.validations.list_all()[0].id
        written = export_stored_validation_report(store, validation_id, folder / "validation.pdf")
    case_report = read_report(project, pdf, exported)
    assert NAME in case_report.text
    assert wrong_names(case_report.text) == []
    validation_text = normalised(" ".join(p.extract_text() for p in PdfReader(written.path).pages))
    assert NAME in validation_text
    assert wrong_names(validation_text) == []


# --- quick: the one naming function on hand-made records, models and results -----------------


def test_a_fusion_is_named_by_the_parts_it_fuses_and_only_an_old_one_by_taveer_and_lambdag():
    assert stated_name(MethodId.FUSION, FUSED) == NAME
    assert stated_name(MethodId.FUSION, None) == "TAVeer + LambdaG"  # made before the block
    assert stated_name(MethodId.COAV) == "COAV" and stated_name(MethodId.TAVEER) == "TAVeer"
    assert with_method_words(MethodId.FUSION, FUSED) == f"with {NAME}"
    assert with_method_words(MethodId.TAVEER, None) == ""
    assert listed_method_label("fusion", '["taveer", "coav", "nncd"]') == NAME
    record = {"protocol": {"method": "fusion"}, "fusion": {"methods": list(FUSED)}}
    assert f"with {NAME}" in record_subtitle(R(record), "C-1")
    assert f"with {NAME}" in model_validation_line(R(record))


def test_a_fused_rows_cost_is_its_parts_not_lambdags():
    parts = sum(SECONDS_PER_TRIAL[m] for m in FUSED)
    assert seconds_per_trial(MethodId.FUSION, FUSED) == pytest.approx(parts)
    assert cost_cell(MethodId.FUSION, FUSED) != cost_cell(MethodId.LAMBDAG)
    assert cost_cell(MethodId.FUSION, FUSED) == "130 ms"  # 5.2 + 7.6 + 121 ms
    assert NAME in method_explanation(MethodId.FUSION, FUSED)
    assert "the cost of its parts together" in method_explanation(MethodId.FUSION, FUSED)


def test_every_line_of_a_fused_result_names_it_by_its_parts_and_agrees_in_number():
    findings = MethodFindings(
        "fusion", {"taveer": -0.3, "coav": 0.7, "nncd": 0.2, "fusion": 0.4}, at_bound=()
    )
    weights = {"taveer": 0.9, "coav": 1.8, "nncd": 0.0}
    text = "\n".join(method_lines(findings, weights))
    assert NAME in text and wrong_names(text) == []
    sentence = fused_directions_sentence(findings, weights) or ""
    assert "COAV and NNCD support Hp" in sentence
    assert "TAVeer supports Hd" in sentence
    measures = "\n".join(
        method_measure_lines(
            {m: dict.fromkeys(_MEASURES, 0.5) for m in ("fusion", *FUSED)}, "fusion", FUSED
        )
    )
    assert f"{NAME} (stated)" in measures and wrong_names(measures) == []
    split = MethodFindings("coav", {"taveer": -0.3, "coav": 0.7, "nncd": 0.2})
    assert "COAV, NNCD support Hp" in (directions_sentence(split) or "")


_MEASURES = ("auc", "cllr", "cllr_min", "cllr_evaluative", "accuracy", "c_at_1", "f05u", "brier")


def test_the_verb_agrees_with_how_many_methods_it_speaks_of():
    assert verb(1, "supports Hp (same author)") == "supports Hp (same author)"
    assert verb(2, "supports Hp (same author)") == "support Hp (same author)"
    assert verb(3, "supports neither proposition") == "support neither proposition"
