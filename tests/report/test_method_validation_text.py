"""The words of a validation record's method (``presentation/method_validation_text.py``) and of
a model's method (``presentation/model_text.py``), on a real LambdaG record of the shipped demo
population and on edited copies of it."""

from __future__ import annotations

import copy

import pytest

from taveer_desktop import paths
from taveer_desktop.core.model import load_model
from taveer_desktop.presentation import method_validation_text as mt
from taveer_desktop.presentation.method_agreement import (
    COMPARED_FIGURES,
    compared_methods,
    record_method,
)
from taveer_desktop.presentation.model_text import model_method_line, model_summary_lines
from taveer_desktop.presentation.validation_figures_text import figure_value
from taveer_desktop.presentation.validation_text import limits_sentences
from taveer_desktop.presentation.validation_wizard_text import (
    MEASURED_SECONDS,
    METHOD_CHOICES,
    model_validation_line,
    record_subtitle,
)
from taveer_desktop.store import ProjectStore
from tests.method_fixtures import method_project


@pytest.fixture(scope="module")
def lambdag(tmp_path_factory):
    """(record, model) of a LambdaG validation of the demo case on the shipped population."""
    project = method_project(tmp_path_factory.mktemp("lambdag-words"), "lambdag")
    with ProjectStore.open(project) as store:
        (stored,) = store.validations.list_all()
        return store.validations.record(stored.id), store.models.load(stored.model_id)


def test_a_lambdag_record_names_its_method_and_keeps_taveers_figures_beside(lambdag):
    record, _model = lambdag
    assert record_method(record) == "lambdag"
    assert compared_methods(record) == ["lambdag", "taveer"]
    assert mt.stated_method_sentence(record).startswith(
        "Method: LambdaG. The figures, intervals, acceptance and charts are LambdaG's; "
        "TAVeer's own figures"
    )
    table = mt.method_figure_table(record)
    assert table.headers == ["Figure", "LambdaG (stated)", "TAVeer alone"]
    assert [key for key, _name, _values in table.rows] == list(COMPARED_FIGURES)
    for key, _name, values in table.rows:
        assert values == [figure_value(key, record["methods"][m][key]) for m in table.methods]
    # the stated method's figures are the record's own
    assert record["methods"]["lambdag"]["cllr"] == record["figures"]["cllr"]
    pairs = dict(mt.lambdag_pairs(record))
    assert pairs["Highest order tried"] == str(record["lambdag"]["max_order"])
    assert pairs["Order of the model"] == str(record["lambdag"]["order"])
    assert pairs["Reference samples"].startswith(f"{record['lambdag']['samples']} per comparison")
    assert "LR/(1+LR)" in mt.score_plot_text(record).x_axis
    assert "LambdaG's likelihood ratios" in mt.charts_method_note(record)
    assert "with LambdaG on" in record_subtitle(record, "M-1")
    assert model_validation_line(record).startswith("Validated with LambdaG on “demo”")
    assert any(s.startswith("Methods. The figures describe LambdaG") for s in
               limits_sentences(record))  # fmt: skip


def test_a_record_without_a_method_is_taveers_and_compares_nothing(lambdag):
    record, _model = lambdag
    old = copy.deepcopy(record)
    del old["protocol"]["method"], old["methods"], old["lambdag"]
    assert record_method(old) == "taveer"
    assert mt.method_figure_table(old) is None and mt.lambdag_pairs(old) == []
    assert mt.stated_method_sentence(old) == "Method: TAVeer."
    assert mt.charts_method_note(old) == ""
    assert model_validation_line(old).startswith("Validated on “demo”")
    assert any(s.startswith("One method. The figures describe the TAVeer method") for s in
               limits_sentences(old))  # fmt: skip


def test_a_models_method_line_names_lambdags_order_and_samples(lambdag):
    _record, model = lambdag
    order, samples = model.extra["lambdag"]["order"], model.extra["lambdag"]["samples"]
    assert model_method_line(model) == (
        f"method: LambdaG (LambdaG of order {order}, {samples} reference samples)"
    )
    assert model_summary_lines(model)[0] == model_method_line(model)
    taveer = load_model(paths.resource("models", "default.json"))  # the shipped model
    assert model_method_line(taveer) == "method: TAVeer"


def test_the_wizards_costs_are_the_measured_medians():
    assert [c.method for c in METHOD_CHOICES] == ["taveer", "lambdag", "fusion"]
    taveer, lambdag_choice, fusion = (c.cost for c in METHOD_CHOICES)
    assert f"about {MEASURED_SECONDS['taveer']:.0f} s" in taveer
    ratio = MEASURED_SECONDS["fusion"] / MEASURED_SECONDS["taveer"]
    assert f"about {ratio:.0f} times TAVeer's" in fusion
    assert "times TAVeer's" in lambdag_choice


def test_the_wizard_never_says_agreeing_methods_are_a_stronger_basis():
    """Issue 23: the fusion's fitted weights decide what each method adds; a method at weight 0
    adds nothing, and agreement is not evidence by itself."""
    from taveer_desktop.presentation import validation_wizard_text as wizard_text

    every = " ".join(
        f"{c.button} {c.explanation} {c.cost}" for c in wizard_text.METHOD_CHOICES
    ).lower()
    assert "stronger basis" not in every
    fusion = next(c for c in wizard_text.METHOD_CHOICES if c.method == "fusion").explanation
    assert "a method at weight 0 adds nothing" in fusion
    assert "Agreement is not evidence by itself" in fusion
    assert "weights the regression fits decide" in fusion
