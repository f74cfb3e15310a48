"""The report explains itself (issue 33, item 2): every refusal reason in plain words first with
the gate's technical detail after it, TAVeer's classification introduced as a second method's
view where the conclusion states another method's ratio, and a fused ratio outside its parts
explained in one sentence."""

from __future__ import annotations

import math

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import (
    Classification,
    Conclusion,
    ConclusionKind,
    GateFinding,
    GateRule,
)
from taveer_desktop.presentation.conclusion_text import headline
from taveer_desktop.presentation.refusal_text import PLAIN_REASONS, conclusion_reasons
from taveer_desktop.presentation.second_view_text import (
    fused_outside_parts_sentence,
    second_view_intro,
)

F6 = "F6: distance 0.6000 lies outside the range the model saw in training (0.1000–0.4000)"
SMALL = (
    "the validation (validation record 1 of the project) is too small for casework: 6 authors, "
    "fewer than 20"
)


def _conclusion(*findings: GateFinding) -> Conclusion:
    return Conclusion(ConclusionKind.INVESTIGATIVE, findings, 0.5, "demo")


def test_every_gate_rule_but_the_population_fits_has_plain_words_without_codes_or_figures():
    for rule in GateRule:
        if rule is GateRule.POPULATION_FIT:  # worded by population_fit_text
            assert rule not in PLAIN_REASONS
            continue
        plain = PLAIN_REASONS[rule]
        assert not any(ch.isdigit() for ch in plain), plain
        assert "F6" not in plain and ":" not in plain


def test_a_refusal_reads_plainly_first_and_keeps_the_technical_detail_after_it():
    conclusion = _conclusion(
        GateFinding(GateRule.VALIDATED_CONDITIONS, F6),
        GateFinding(GateRule.VALIDATION_TOO_SMALL, SMALL),
        GateFinding(GateRule.VALIDATION_TOO_SMALL, SMALL + " (trials)"),
    )
    reasons = conclusion_reasons(conclusion)
    assert len(reasons) == 2  # one per rule, the details joined
    assert reasons[0].startswith("the case lies outside the conditions under which the method")
    assert reasons[0].endswith(f"(technical detail: {F6})")
    assert reasons[1].count("the test of the method") == 1 and "(trials)" in reasons[1]
    line = headline(conclusion, "enfsi", most=3)
    assert line.startswith("No evaluative conclusion: the case lies outside the conditions")
    assert line.index("the case lies") < line.index("F6")  # plain words, then the detail
    short = headline(conclusion, "enfsi", most=3, detail=False)  # the desktop's headline
    assert "F6" not in short and short.startswith("No evaluative conclusion: the case lies")


def test_a_population_fit_finding_is_shown_as_its_own_wording():
    own = "the questioned text is unlike the population's texts"
    reasons = conclusion_reasons(_conclusion(GateFinding(GateRule.POPULATION_FIT, own)))
    assert reasons == [own]


def _findings(stated: float, parts: dict[str, float], at_bound=()) -> MethodFindings:
    return MethodFindings("fusion", {**parts, "fusion": stated}, at_bound=tuple(at_bound))


def test_taveers_classification_is_a_second_view_and_a_contrary_one_is_explained():
    findings = _findings(math.log10(5.29), {"taveer": -0.2, "coav": 0.6})
    weights = {"taveer": 0.4, "coav": 1.2}
    same = second_view_intro(findings, Classification.SAME, weights)
    assert "TAVeer + COAV" in same and "not the conclusion" in same
    assert "other way" not in same
    contrary = second_view_intro(findings, Classification.DIFFERENT, weights)
    assert "points the other way from the stated ratio (LR 5.29)" in contrary
    assert "not a contradiction" in contrary


def test_a_fused_ratio_outside_its_parts_is_explained_with_its_weights_and_constant():
    weights = {"taveer": 0.5, "lambdag": 0.3}
    below = _findings(math.log10(1.24), {"taveer": math.log10(1.7), "lambdag": math.log10(3.18)})
    sentence = fused_outside_parts_sentence(below, weights) or ""
    assert sentence.startswith("The fused likelihood ratio (1.24) lies below every ratio")
    weighted = 10 ** (0.5 * math.log10(1.7) + 0.3 * math.log10(3.18))
    assert f"gives LR {weighted:.2f}" in sentence  # 1.7^0.5 · 3.18^0.3 = 1.84
    assert "weights TAVeer 0.500, LambdaG 0.300" in sentence
    assert "moves it to 1.24" in sentence
    inside = _findings(0.3, {"taveer": 0.2, "lambdag": 0.4})
    assert fused_outside_parts_sentence(inside, weights) is None
    bounded = _findings(1.255, {"taveer": 1.1, "lambdag": 0.7}, at_bound=["fusion"])
    assert "cut to the validation's bound" in (fused_outside_parts_sentence(bounded, weights) or "")
