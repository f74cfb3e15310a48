"""The words about the validation's repeats: why a ratio is stated as 1, or that it stands."""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import GateRule
from taveer_desktop.core.calibration.repeat_agreement import (
    NotPossible,
    agreement_of,
    not_possible,
)
from taveer_desktop.core.validation.corpus_gate import GateSummary
from taveer_desktop.presentation.conclusion_text import gate_summary_text
from taveer_desktop.presentation.refusal_text import PLAIN_REASONS, reason_text
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence


def test_disagreement_says_why_with_the_spread_and_the_split():
    found = agreement_of(0.0224, (-0.2024, 0.1954, 0.3025, -0.3733), (0, 1, 2, 3))
    text = repeat_sentence(found)
    assert text is not None
    assert "repeated 4 times" in text and "seeds 0 to 3" in text
    assert "from 0.423 (= 1/2.36) to 2.01" in text  # the lowest and highest ratios as numbers
    assert "2 towards Hp and 2 towards Hd" in text
    assert "fitted on all draws together: 1.05" in text
    assert "stated as one" in text and "no support either way" in text
    assert "log10" not in text and "seed-" not in text


def test_agreement_and_the_checks_that_could_not_be_made():
    text = repeat_sentence(agreement_of(0.8, (0.5, 0.9), (7, 8)))
    assert text is not None and "all pointing the same way" in text and "1 to" not in text
    old = repeat_sentence(not_possible(NotPossible.NO_REPEAT_FITS, 0.5))
    assert old is not None and "could not be checked" in old and "validate it to have" in old
    other = repeat_sentence(not_possible(NotPossible.METHOD_KEEPS_NONE, 0.5))
    assert other is not None and "TAVeer's own ratio only" in other
    assert repeat_sentence(not_possible(NotPossible.NO_RATIO)) is None
    assert repeat_sentence(None) is None


def test_the_gate_reason_has_plain_words_then_the_detail():
    assert GateRule.REPEATS_DISAGREE in PLAIN_REASONS
    text = reason_text(GateRule.REPEATS_DISAGREE, ["log10 LR from -0.373 to +0.303"])
    assert text.startswith("which way the likelihood ratio points depends on the random draw")
    assert "technical detail: log10 LR from -0.373 to +0.303" in text


def test_an_evaluation_says_how_many_cases_the_repeat_check_stated_as_one():
    rules = {GateRule.REPEATS_DISAGREE.value: 7, GateRule.VALIDATED_CONDITIONS.value: 2}
    gate = GateSummary(20, 18, 2, 0, 2, 0.95, rules)
    text = gate_summary_text(gate)
    assert text.endswith(
        " 7 cases are stated as likelihood ratio 1, no support either way, because the "
        "validation's repeats disagree on which way the ratio points."
    )
    one = gate_summary_text(GateSummary(20, 18, 2, 0, 2, 0.95, {"repeats_disagree": 1}))
    assert " 1 case is stated as likelihood ratio 1" in one
    none = gate_summary_text(GateSummary(20, 18, 2, 0, 2, 0.95, {}))
    assert "likelihood ratio 1" not in none and none.endswith("validated conditions.")
