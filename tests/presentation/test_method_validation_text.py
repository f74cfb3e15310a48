"""The words of a validation record's method (``presentation/method_validation_text.py``) and of
a model's method (``presentation/model_text.py``), on a real LambdaG record of the shipped demo
population and on edited copies of it."""

from __future__ import annotations

import copy

import pytest

from taveer_desktop import paths
from taveer_desktop.core.ground.registry import METHOD_IDS, method_info
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation import method_choice_text as choice_text
from taveer_desktop.presentation import method_validation_text as mt
from taveer_desktop.presentation.method_agreement import compared_methods, record_method
from taveer_desktop.presentation.method_comparison_text import COLUMNS, comparison_table
from taveer_desktop.presentation.method_costs import SECONDS_PER_TRIAL, cost_text
from taveer_desktop.presentation.model_text import model_method_line, model_summary_lines
from taveer_desktop.presentation.validation_figures_text import figure_value
from taveer_desktop.presentation.validation_text import limits_sentences
from taveer_desktop.presentation.validation_wizard_text import (
    model_validation_line,
    record_subtitle,
)
from taveer_desktop.store import ProjectStore
from tests.method_fixtures import method_project_copy


@pytest.fixture(scope="module")
def lambdag(tmp_path_factory, built_once):
    """(record, model) of a LambdaG validation of the demo case on the shipped population."""
    project = method_project_copy(built_once, tmp_path_factory.mktemp("lambdag-words"), "lambdag")
    with ProjectStore.open(project) as store:
        (stored,) = store.validations.list_all()
        return store.validations.record(stored.id), store.models.load(stored.model_id)


def test_a_lambdag_record_names_its_method_and_keeps_taveers_figures_beside(lambdag):
    record, _model = lambdag
    assert record_method(R(record)) == "lambdag"
    assert compared_methods(R(record)) == ["lambdag", "taveer"]
    assert mt.stated_method_sentence(R(record)).startswith(
        "Method: LambdaG. The figures, intervals, acceptance and charts are LambdaG's; "
        "the figures of TAVeer on the same held-out trials"
    )
    rows = comparison_table(R(record))
    assert [(r.method, r.label) for r in rows] == [
        ("lambdag", "LambdaG (stated)"),
        ("taveer", "TAVeer"),
    ]
    keys = [key for key, _heading, _meaning in COLUMNS]
    for row in rows:
        for key in ("accuracy", "auc", "cllr", "cllr_min", "eer"):
            value = figure_value(key, record["methods"][row.method][key])
            assert row.cells[keys.index(key)] == value
        # every trial scored by both methods
        assert row.cells[keys.index("trials")] == f"{len(record['trials']):,}"
        assert row.cells[keys.index("cannot_compare")] == "0"
        assert row.cells[keys.index("seed_spread")] == "deterministic"
    lambdag_seconds = rows[0].cells[keys.index("seconds_per_trial")]
    assert lambdag_seconds.endswith(("ms", " s"))  # LambdaG's own timing of the run
    # TAVeer's own time per trial is recorded too (the engine times every method it validates)
    assert rows[1].cells[keys.index("seconds_per_trial")].endswith(("ms", " s"))
    # the stated method's figures are the record's own
    assert record["methods"]["lambdag"]["cllr"] == record["figures"]["cllr"]
    pairs = dict(mt.lambdag_pairs(R(record)))
    assert pairs["Highest order tried"] == str(record["lambdag"]["max_order"])
    assert pairs["Order of the model"] == str(record["lambdag"]["order"])
    assert pairs["Reference samples"].startswith(f"{record['lambdag']['samples']} per comparison")
    assert "LR/(1+LR)" in mt.score_plot_text(R(record)).x_axis
    assert "LambdaG's likelihood ratios" in mt.charts_method_note(R(record))
    assert "with LambdaG on" in record_subtitle(R(record), "M-1")
    assert model_validation_line(R(record)).startswith(
        "Validated with LambdaG: cross-validated Cllr"
    )
    assert "; population “demo”." in model_validation_line(R(record))
    assert any(s.startswith("Methods. The figures describe LambdaG") for s in
               limits_sentences(R(record)))  # fmt: skip


def test_a_record_without_a_method_is_taveers_and_compares_nothing(lambdag):
    record, _model = lambdag
    old = copy.deepcopy(record)
    del old["protocol"]["method"], old["methods"], old["lambdag"]
    assert record_method(R(old)) == "taveer"
    assert comparison_table(R(old)) == [] and mt.lambdag_pairs(R(old)) == []
    assert mt.stated_method_sentence(R(old)) == "Method: TAVeer."
    assert mt.charts_method_note(R(old)) == ""
    assert model_validation_line(R(old)).startswith("Validated: cross-validated Cllr")
    assert "; population “demo”." in model_validation_line(R(old))
    assert any(s.startswith("One method. The figures describe the TAVeer method") for s in
               limits_sentences(R(old)))  # fmt: skip


def test_a_models_method_line_names_lambdags_order_and_samples(lambdag):
    _record, model = lambdag
    order, samples = model.extra["lambdag"]["order"], model.extra["lambdag"]["samples"]
    assert model_method_line(model) == (
        f"method: LambdaG (LambdaG of order {order}, {samples} reference samples)"
    )
    assert model_summary_lines(model)[0] == model_method_line(model)
    taveer = load_model(paths.resource("models", "default.json"))  # the shipped model
    assert model_method_line(taveer) == "method: TAVeer"


def test_the_wizard_lists_every_registered_method_with_its_measured_cost():
    choices = choice_text.method_choices()
    assert [c.method for c in choices] == list(METHOD_IDS)
    for choice in choices:
        info = method_info(choice.method)
        assert (choice.name, choice.family, choice.reference) == (
            info.name,
            info.family.value,
            info.reference,
        )
        assert choice.randomness == ("deterministic" if info.deterministic else "seeded")
        if choice.method in SECONDS_PER_TRIAL:
            assert choice.cost.endswith(" per trial") and choice.cost == cost_text(choice.method)
        else:  # never guessed
            assert choice.cost == "cost not measured"
        explanation = choice.explanation
        assert info.reference in explanation and info.family.value in explanation
    assert cost_text("taveer") == "5.2 ms per trial"  # benchmarks/method_cost.py, 122 trials
    fusion = choice_text.method_explanation("fusion")
    assert "about 50 times TAVeer's" in fusion  # 0.244 s / 0.0052 s = 47, one significant figure
    coav = choice_text.method_explanation("coav")
    assert "no evidence in the text" in coav and "Cost: 7.6 ms per trial" in coav
    assert "impostors" in choice_text.method_explanation("im")


def test_the_plan_names_the_compared_methods_and_the_rule():
    assert choice_text.comparison_plan_words("taveer", (), None) == ""
    plain = choice_text.comparison_plan_words("taveer", ("coav", "im"), None)
    assert plain == " Compared on the same trials, not stated: COAV, Impostors Method (IM)."
    ruled = choice_text.comparison_plan_words("taveer", ("coav",), "lowest_pessimistic_cllr")
    assert "TAVeer, COAV" in ruled and "lowest pessimistic Cllr will be stated" in ruled


def test_the_wizard_never_says_agreeing_methods_are_a_stronger_basis():
    """Issue 23: the fusion's fitted weights decide what each method adds; a method at weight 0
    adds nothing, and agreement is not evidence by itself."""
    every = " ".join(c.explanation for c in choice_text.method_choices()).lower()
    assert "stronger basis" not in every
    fusion = choice_text.method_explanation("fusion")
    assert "a method at weight 0 adds nothing" in fusion
    assert "no evidence at all" in fusion
    assert "Agreement is not evidence by itself" in fusion
    assert "fitted weights decide how much each method counts" in fusion
