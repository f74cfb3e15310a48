"""Plain data behind the views: Φ rows, CSV/TSV escaping, decision words."""

from __future__ import annotations

import csv
import io

import pytest

from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation.explanation_data import (
    CSV_HEADER,
    PhiRow,
    StabilityFigures,
    decision_basis,
    decision_texts,
    phi_rows,
    rows_to_csv,
    rows_to_tsv,
    safe_cell,
)
from taveer_desktop.presentation.refusal_text import conclusion_reasons

from .builders import typed


def test_phi_rows_carry_the_engines_importance_and_side(federalist):
    for category, interpretation in federalist.result["interpretation"].items():
        rows = phi_rows(typed(interpretation))
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


def test_decision_basis(federalist):
    basis = decision_basis(read_result(federalist.result))
    assert f"{federalist.result['similarity']:.3f}" in basis and "0.5" in basis


FACT_STATEMENTS = ("was written by", "wrote the questioned document.", "Same author.")


def _texts(data, scale_id="enfsi2015"):
    from taveer_desktop.core.verification.result_reader import read_result

    result = read_result(data.result)
    population = data.model.conditions.population
    return result, decision_texts(result, scale_id, population)


def test_evaluative_texts_lead_with_the_likelihood_ratio(federalist):
    from taveer_desktop.core.calibration.outcome import ConclusionKind
    from taveer_desktop.presentation.conclusion_text import format_lr, lr_sentence

    result, texts = _texts(federalist)
    assert result.conclusion.kind is ConclusionKind.EVALUATIVE
    assert texts.kind_label == "Evaluative conclusion"
    assert texts.headline == lr_sentence(result.conclusion.log10_lr, "enfsi2015")
    assert texts.headline.startswith(f"Likelihood ratio {format_lr(result.log10_lr)}")
    assert texts.investigative is None
    assert texts.hp == "the author of the known documents wrote the questioned document"
    assert federalist.model.conditions.population in texts.hd
    assert texts.classification.startswith("The method's classification: ")
    assert f"{result.similarity:.3f}" in texts.classification
    assert texts.lr_number.startswith(f"LR = {format_lr(result.log10_lr)}")
    for text in (texts.headline, texts.classification):
        assert not any(fact in text for fact in FACT_STATEMENTS)


def test_investigative_texts_mark_the_likelihood_ratio(federalist_investigative):
    from taveer_desktop.core.calibration.outcome import ConclusionKind

    result, texts = _texts(federalist_investigative)
    assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert texts.kind_label == "For investigation only"
    assert texts.headline.startswith("No evaluative conclusion: ")
    # plain words in the headline; the measured value and limit in the reasons under it
    assert "technical detail" not in texts.headline
    assert result.conclusion.reasons[0] in " ".join(conclusion_reasons(result.conclusion))
    assert texts.investigative.startswith("For investigation only: ")
    assert texts.lr_number is not None
    assert not any(fact in texts.headline for fact in FACT_STATEMENTS)


def test_no_conclusion_texts_say_why(no_conclusion):
    from taveer_desktop.core.calibration.outcome import ConclusionKind

    result, texts = _texts(no_conclusion)
    assert result.conclusion.kind is ConclusionKind.NONE
    assert texts.kind_label == "No conclusion"
    assert texts.headline.startswith("A document is too short for the method to compare")
    assert any(
        "questioned document has 2 words" in r for r in conclusion_reasons(result.conclusion)
    )
    assert texts.investigative is None and texts.lr_number is None


def test_population_falls_back_to_the_model_and_then_to_plain_words(federalist):
    import dataclasses

    from taveer_desktop.core.verification.result_reader import read_result

    result = read_result(federalist.result)
    bare = dataclasses.replace(
        result, conclusion=dataclasses.replace(result.conclusion, population="")
    )
    assert "a person from the relevant population: X" in decision_texts(bare, "enfsi2015", "X").hd
    assert "not recorded with this result" in decision_texts(bare, "enfsi2015").hd


@pytest.mark.parametrize(
    ("agreeing", "shown"), [(199, "199 of 200 (99.5 %)"), (200, "200 of 200 (100 %)")]
)
def test_stability_sentence_is_exact(agreeing, shown):
    from taveer_desktop.core.calibration.outcome import Classification
    from taveer_desktop.presentation.explanation_data import stability_method, stability_sentence

    figures = StabilityFigures(
        agreeing, 200, 0.9, 7, (0.41, 0.52), {"N": agreeing, "Y": 200 - agreeing}
    )
    sentence = stability_sentence(figures, Classification.DIFFERENT)
    assert sentence.startswith(f"{shown} resamples give the same classification")
    assert "different-author side" in sentence and "0.410 and 0.520" in sentence
    if agreeing < 200:
        assert sentence.endswith("Other answers: same-author side 1.")
    assert "'Y'" not in sentence and "Y " not in sentence
    method = stability_method(figures)
    assert "seed 7" in method and "leaving out 10 % of the sentences" in method


def test_a_ratio_whose_repeats_disagree_is_stated_as_1_and_the_desktop_says_why(federalist):
    """Issue 30: the decision view's words when the validation's repeats point different ways."""
    import math
    from dataclasses import replace

    from taveer_desktop.core.calibration.outcome import ConclusionKind
    from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit, repeat_models_block
    from taveer_desktop.core.verification.method_verify import verify_with_method
    from taveer_desktop.core.verification.result_reader import read_result
    from tests.basis_fixtures import stand_in_basis

    model = federalist.model
    final = read_result(federalist.result).log10_lr
    assert final is not None and final != 0
    calibration = replace(model.calibration, min_log10_lr=None, max_log10_lr=None)
    flipped = replace(calibration, intercept=calibration.intercept - 2 * final * math.log(10))
    fits = [
        RepeatFit(s, dict(model.thresholds), model.ensemble, c)
        for s, c in ((0, calibration), (1, flipped))
    ]
    kept = replace(model, extra={**model.extra, **repeat_models_block(fits)})
    verified = verify_with_method(
        kept, federalist.known, federalist.unknown, basis=stand_in_basis(kept)
    )
    result = read_result(verified.to_dict())
    texts = decision_texts(result, "enfsi2015", model.conditions.population)
    assert result.conclusion.kind is ConclusionKind.EVALUATIVE  # the other rules set the kind
    assert "no support for either proposition" in texts.headline
    assert texts.lr_number is not None and texts.lr_number.startswith("LR = 1 ")
    assert texts.repeats is not None and "repeated 2 times" in texts.repeats
    assert "stated as one" in texts.repeats
    assert any("random draw" in r for r in conclusion_reasons(result.conclusion))
    # the same model without the disagreeing repeat: the final ratio stands
    same = [fits[0], replace(fits[0], seed=1)]  # two draws, both like the final model
    agreeing = replace(model, extra={**model.extra, **repeat_models_block(same)})
    kept_texts = decision_texts(
        verify_with_method(
            agreeing, federalist.known, federalist.unknown, basis=stand_in_basis(agreeing)
        ),
        "enfsi2015",
    )
    assert kept_texts.repeats is not None and "all pointing the same way" in kept_texts.repeats
