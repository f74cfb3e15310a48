"""The relative cost of a method is written to one significant figure, like the measured costs it
compares (``presentation/method_costs.relative_cost_text``): never "about 0 times TAVeer's"."""

from __future__ import annotations

from taveer_desktop.core.ground.registry import METHOD_IDS
from taveer_desktop.presentation import method_costs
from taveer_desktop.presentation.method_costs import relative_cost_text


def test_cheaper_methods_are_not_rounded_to_nothing(monkeypatch):
    monkeypatch.setitem(method_costs.SECONDS_PER_TRIAL, "profav", 0.0036)
    assert relative_cost_text("profav") == "about 0.7 times TAVeer's"  # 0.0036 / 0.0052 = 0.69
    monkeypatch.setitem(method_costs.SECONDS_PER_TRIAL, "profav", 0.00001)
    assert relative_cost_text("profav") == "about 0.002 times TAVeer's"


def test_a_cost_that_rounds_to_one_is_said_in_words():
    # COAV's 0.0076 s against TAVeer's 0.0052 s is 1.5, "1" to one figure: never "1 times"
    assert relative_cost_text("coav") == "about as much as TAVeer's"


def test_dearer_methods_are_shown_to_one_significant_figure(monkeypatch):
    monkeypatch.setitem(method_costs.SECONDS_PER_TRIAL, "nncd", 0.121)
    assert relative_cost_text("nncd") == "about 20 times TAVeer's"  # 0.121 / 0.0052 = 23.3
    monkeypatch.setitem(method_costs.SECONDS_PER_TRIAL, "nncd", 6.5)
    assert relative_cost_text("nncd") == "about 1,000 times TAVeer's"  # 1,250 → one figure


def test_every_measured_method_has_a_nonzero_relative_cost():
    for method in METHOD_IDS:
        text = relative_cost_text(method)
        assert text == "" or not text.startswith("about 0 ")
    assert relative_cost_text("taveer") == "" and relative_cost_text("nope") == ""
