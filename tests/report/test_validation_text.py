"""Wording about a validation record (``presentation/validation_text.py``), no Qt: the bound as
ratios, and the plain warning for a population too small for casework."""

from __future__ import annotations

from taveer_desktop.presentation.validation_text import (
    SMALL_POPULATION_AUTHORS,
    bound_sentence,
    population_caveat,
)


def test_the_bound_is_given_as_ratios_not_rounded_to_whole_numbers():
    text = bound_sentence({"min_log10_lr": -0.20567576737357224, "max_log10_lr": 0.1532283760})
    assert "between 1/1.61 and 1.42" in text
    assert "empirical lower and upper bound" in text and "cross-validated" in text
    wide = bound_sentence({"min_log10_lr": -2.5065, "max_log10_lr": 2.5065})
    assert "between 1/321 and 321" in wide


def test_a_bound_of_zero_says_every_lr_is_one():
    assert "every likelihood ratio of this model is 1" in bound_sentence(
        {"min_log10_lr": 0.0, "max_log10_lr": 0.0}
    )
    # one side at zero reads as 1, not 1/1
    assert "between 1 and 2.5" in bound_sentence({"min_log10_lr": 0.0, "max_log10_lr": 0.39794})


def test_a_record_without_a_bound_says_so():
    assert "no bound" in bound_sentence({})


def test_small_populations_are_called_too_small_for_casework():
    caveat = population_caveat({"authors": 6})
    assert caveat is not None and "only 6 authors: far too small for casework" in caveat
    assert population_caveat({"authors": SMALL_POPULATION_AUTHORS - 1}) is not None
    assert population_caveat({"authors": SMALL_POPULATION_AUTHORS}) is None
    assert population_caveat({}) is None
