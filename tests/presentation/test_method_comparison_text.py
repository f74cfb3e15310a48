"""The comparison of methods in words (``presentation/method_comparison_text.py``), in the
validation report (``report/validation_methods.py``) and in a result's method lines
(``presentation/method_agreement.py``): on a real fused record of the demo population and on
the same record widened to six methods in the shape of a comparison record
(``tests/comparison_fixtures.py``)."""

from __future__ import annotations

import copy

import pytest

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation import method_comparison_text as ct
from taveer_desktop.presentation.method_agreement import (
    method_lines,
    method_order,
    no_text_evidence_sentence,
    result_method_lines,
)
from taveer_desktop.presentation.validation_figures_text import figure_value
from taveer_desktop.report.blocks import KeepTogether, Table
from taveer_desktop.report.validation_methods import comparison_section
from taveer_desktop.store import ProjectStore
from tests.comparison_fixtures import REFUSED_EVERY, widened
from tests.method_fixtures import method_project_copy

KEYS = [key for key, _heading, _meaning in ct.COLUMNS]


@pytest.fixture(scope="module")
def fused_project(tmp_path_factory, built_once):
    return method_project_copy(built_once, tmp_path_factory.mktemp("fused-comparison"), "fusion")


@pytest.fixture(scope="module")
def fused(fused_project):
    """The record of a real fused validation of the demo case."""
    with ProjectStore.open(fused_project) as store:
        (stored,) = store.validations.list_all()
        return store.validations.record(stored.id)


def _cell(row: ct.ComparedMethod, key: str) -> str:
    return row.cells[KEYS.index(key)]


def test_a_fused_record_compares_its_three_methods_the_stated_one_first(fused):
    rows = ct.comparison_table(R(fused))
    assert [r.method for r in rows] == ["fusion", "taveer", "lambdag"]
    assert [r.label for r in rows] == ["TAVeer + LambdaG (stated)", "TAVeer", "LambdaG"]
    assert [r.stated for r in rows] == [True, False, False]
    for row in rows:
        for key in ("accuracy", "auc", "cllr", "cllr_min", "eer"):
            assert _cell(row, key) == figure_value(key, fused["methods"][row.method][key])
        assert _cell(row, "trials") == f"{len(fused['trials']):,}"
        assert _cell(row, "seed_spread") == "deterministic"
    assert ct.rule_sentence(R(fused)) == (
        "TAVeer + LambdaG was chosen as the stated method before the run; no rule was registered."
    )
    assert "the same cross-validated trials" in ct.comparison_note(R(fused))
    assert "draw at random" not in ct.comparison_note(R(fused))


def test_a_wider_comparison_shows_every_method_with_its_costs_refusals_and_seed_spread(fused):
    wide = widened(fused)
    rows = ct.comparison_table(R(wide))
    # the stated method first, then the order the comparison listed
    assert [r.method for r in rows] == ["fusion", "taveer", "lambdag", "coav", "im", "unmasking"]
    assert [r.name for r in rows][3:] == ["COAV", "Impostors Method (IM)", "Unmasking"]
    by_id = {r.method: r for r in rows}
    n = len(wide["trials"])
    refused = len(range(0, n, REFUSED_EVERY))
    assert _cell(by_id["unmasking"], "trials") == f"{n - refused:,}"
    assert _cell(by_id["unmasking"], "cannot_compare") == f"{refused:,}"
    assert _cell(by_id["coav"], "cannot_compare") == "0"
    assert _cell(by_id["coav"], "seconds_per_trial") == "41 ms"
    assert _cell(by_id["unmasking"], "seconds_per_trial") == "1.9 s"
    assert _cell(by_id["coav"], "seed_spread") == "deterministic"
    spread = wide["methods"]["im"]["seed_spread"]
    assert _cell(by_id["im"], "seed_spread") == (
        f"AUC {spread['auc'][0]:.2f}–{spread['auc'][1]:.2f}; "
        f"Cllr {spread['cllr'][0]:.2f}–{spread['cllr'][1]:.2f}"
    )
    for method in ("coav", "im", "unmasking"):
        assert _cell(by_id[method], "cllr") == figure_value("cllr", wide["methods"][method]["cllr"])
    assert ct.rule_sentence(R(wide)) == (
        "Rule (registered 2026-11-28 22:30:00 UTC, before the run): state the method with the "
        "lowest pessimistic Cllr. By this rule the stated method is TAVeer + LambdaG."
    )
    note = ct.comparison_note(R(wide))
    assert "Impostors Method (IM) and Unmasking draw at random" in note
    one_seeded = copy.deepcopy(wide)
    one_seeded["methods"]["im"]["deterministic"] = True
    one_seeded["methods"]["im"].pop("seed_spread", None)
    assert " Unmasking draws at random: the seed spread" in ct.comparison_note(R(one_seeded))
    assert "could not compare a trial gives no ratio" in note
    unruled = widened(fused, rule=False)
    assert "no rule was registered to choose it from the results" in ct.rule_sentence(R(unruled))


def test_the_validation_report_sets_every_method_side_by_side(fused):
    wide = widened(fused)
    blocks = comparison_section(R(wide))
    kept = blocks[0]
    assert isinstance(kept, KeepTogether)
    (table,) = [b for b in kept.blocks if isinstance(b, Table)]
    assert tuple(c.title for c in table.columns) == ct.HEADINGS
    assert len(table.rows) == 6 and table.rows[0].shade and not table.rows[1].shade
    assert table.rows[0].cells[0] == "<b>TAVeer + LambdaG (stated)</b>"
    assert table.rows[5].cells[0] == "Unmasking"
    record_without = dict(fused, methods={})
    assert comparison_section(R(record_without)) == []


def test_a_comparison_systems_result_names_every_method_and_says_it_shows_nothing_in_the_text():
    findings = MethodFindings("coav", {"coav": 0.8, "taveer": -0.4}, None, 0)
    assert method_order(findings.by_method, "coav") == ["coav", "taveer"]
    lines = [line.strip() for line in method_lines(findings)]
    assert lines[0].startswith("COAV (stated): LR ")
    assert lines[1].startswith("TAVeer alone (not part of the stated ratio): LR ")
    assert lines[2].startswith("The methods point different ways: COAV supports Hp")
    assert no_text_evidence_sentence(findings) == (
        "COAV gives no evidence in the text: it compares the texts as wholes, so no word or "
        "sentence can be shown as leading to its ratio."
    )
    shown = result_method_lines(findings, ConclusionKind.EVALUATIVE)
    assert any("COAV gives no evidence in the text" in line for line in shown)
    fused = MethodFindings("fusion", {"taveer": 0.5, "lambdag": 0.7, "fusion": 0.9}, 1.2, 4)
    assert no_text_evidence_sentence(fused) is None
    assert method_order(fused.by_method, "fusion") == ["fusion", "taveer", "lambdag"]


def test_the_case_report_describes_a_stated_comparison_system_and_its_missing_text_evidence(
    fused_project,
):
    """A run whose model states COAV (the result's methods replaced: E's engine is not on this
    branch): section 4 names COAV with its family, reference and the model's parameters, not
    LambdaG; section 5 gives its ratio and says it shows nothing in the text; the
    interpretation's evidence section says so plainly instead of LambdaG's tables."""
    from dataclasses import replace

    from taveer_desktop.core.ground.registry import method_info
    from taveer_desktop.report.blocks import Heading, Paragraph
    from taveer_desktop.report.content_lambdag_evidence import lambdag_evidence
    from taveer_desktop.report.content_methods import method_results, method_sections
    from taveer_desktop.report.inputs import gather_inputs

    with ProjectStore.open(fused_project) as store:
        inputs = gather_inputs(store, "M-1")
    result = inputs.verification
    findings = MethodFindings("coav", {"coav": 0.42, "taveer": 0.3}, None, 0)
    part = {"id": "coav", "params": {"order": 7}, "seed": 3}
    model = replace(inputs.model, extra={"method": "coav", "comparison": part})
    changed = replace(inputs, read=replace(result, methods=findings), model=model)

    def texts(blocks) -> str:
        found = []
        for block in blocks:
            if isinstance(block, KeepTogether):
                found.append(texts(block.blocks))
            elif isinstance(block, Heading):
                found.append(block.text)
            elif isinstance(block, Paragraph):
                found.append(block.html)
            elif isinstance(block, Table):
                found += [cell for row in block.rows for cell in row.cells]
        return " ".join(found)

    section = method_sections(changed)
    assert isinstance(section[0], Heading) and section[0].text == "COAV"
    words = texts(section)
    assert method_info("coav").reference in words and "order = 7" in words
    assert "LambdaG" not in words
    results = texts(method_results(changed))
    assert "<b>COAV</b>" in results and "it gives no evidence in the text" in results
    evidence = lambdag_evidence(changed)
    assert "Evidence in the questioned text" in texts(evidence)
    assert "COAV gives no evidence in the text" in texts(evidence)
    assert "λG" not in texts(evidence)


def test_a_record_stating_a_comparison_system_names_it_and_what_was_measured_beside(fused):
    from taveer_desktop.presentation.validation_report_text import validated_method
    from taveer_desktop.presentation.validation_text import limits_sentences

    wide = widened(fused)
    wide["protocol"] = dict(wide["protocol"], method="coav")
    assert validated_method(R(wide)) == (
        "the COAV authorship verification method, with TAVeer + LambdaG, TAVeer, LambdaG, "
        "Impostors Method (IM), Unmasking measured beside it"
    )
    (limit,) = [s for s in limits_sentences(R(wide)) if s.startswith("Methods.")]
    assert limit.startswith("Methods. The figures describe COAV with the settings stated here")
    assert "LambdaG in this program's variant" in limit  # LambdaG was among the compared
    alone = dict(wide, methods={"coav": wide["methods"]["coav"]}, comparison=None)
    (limit,) = [s for s in limits_sentences(R(alone)) if s.startswith("Methods.")]
    assert "LambdaG" not in limit
