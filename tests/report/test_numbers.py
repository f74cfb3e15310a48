"""Counts and measured values are written one way for a person (desktop and report)."""

from taveer_desktop.presentation.numbers import count, decimal, plural


def test_counts_agree_with_their_noun_and_are_grouped():
    assert count(1, "run") == "1 run"
    assert count(0, "run") == "0 runs"
    assert count(2, "sentence") == "2 sentences"
    assert count(1204, "document") == "1,204 documents"
    assert count(3, "dropped file") == "3 dropped files"
    assert plural("stability check") == "stability checks"
    assert count(2, "match") == "2 matches"


def test_measured_values_have_fixed_decimals():
    assert decimal(0.5389709414624158) == "0.539"
    assert decimal(1234.5678, 2) == "1,234.57"
