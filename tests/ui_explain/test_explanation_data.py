"""Plain data behind the views: Φ rows, CSV/TSV escaping, ROC, density, decision words."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from taveer_desktop.core.evaluation import roc_auc
from taveer_desktop.ui.explain.explanation_data import (
    CSV_HEADER,
    PhiRow,
    decision_basis,
    decision_words,
    density,
    phi_rows,
    roc_points,
    rows_to_csv,
    rows_to_tsv,
    safe_cell,
    trapezoid_area,
)


def test_phi_rows_carry_the_engines_importance_and_side(federalist):
    for category, interpretation in federalist.result["interpretation"].items():
        rows = phi_rows(interpretation)
        assert [r.feature for r in rows] == [e["feature"] for e in interpretation["phi"]]
        by_feature = {r.feature: r for r in rows}
        for side, key in (("Y", "l_y"), ("N", "l_n")):
            for feature, importance in interpretation[key]:
                assert by_feature[feature].importance == importance, category
                assert by_feature[feature].side == side
        assert len(rows) == len(interpretation["l_y"]) + len(interpretation["l_n"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+", "'+"),
        ("-,", "'-,"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        (", but", ", but"),
        ("'", "'"),
    ],
)
def test_formula_injection_is_escaped(text, expected):
    assert safe_cell(text) == expected


def _row(feature: str) -> PhiRow:
    return PhiRow(feature, 0.25, 0.125, 0.125, 0.01, "N", 2, 1)


def test_csv_has_header_full_precision_and_escaped_cells():
    rows = [_row("=cmd|' /C calc'!A0"), _row('say "hi", then'), _row("-")]
    parsed = list(csv.reader(io.StringIO(rows_to_csv(rows))))
    assert tuple(parsed[0]) == CSV_HEADER
    assert parsed[1][0] == "'=cmd|' /C calc'!A0"
    assert parsed[2][0] == 'say "hi", then'
    assert parsed[3][0] == "'-"
    assert float(parsed[1][1]) == 0.25 and parsed[1][5] == "N" and parsed[1][6] == "2"


def test_tsv_keeps_one_line_per_row():
    text = rows_to_tsv([_row("a\tb"), _row("c\nd")])
    lines = text.splitlines()
    assert len(lines) == 3 and lines[1].startswith("a\\tb\t") and lines[2].startswith("c\\nd\t")


def test_roc_area_equals_the_engines_auc_with_ties():
    rng = np.random.default_rng(7)
    for _ in range(20):
        scores = np.round(rng.random(60), 1)  # many ties
        truth = rng.random(60) < 0.5
        fpr, tpr = roc_points(scores, truth)
        assert fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1
        assert trapezoid_area(fpr, tpr) == pytest.approx(roc_auc(scores, truth), abs=1e-12)


def test_density_is_non_negative_and_reflects_at_the_bounds():
    grid = np.linspace(0, 1, 101)
    values = density([0.0, 0.01, 0.02, 0.5, np.nan], grid)
    assert (values >= 0).all() and values[0] > values[50]
    assert not density([], grid).any()


def test_decision_words_and_basis(federalist):
    assert decision_words("Y")[0] == "Same author"
    assert decision_words("N")[0] == "Different authors"
    assert decision_words("insufficient")[0] == "Insufficient evidence"
    assert decision_words("inconclusive")[0] == "Inconclusive"
    basis = decision_basis(federalist.result)
    assert f"{federalist.result['similarity']:.3f}" in basis and "0.5" in basis
