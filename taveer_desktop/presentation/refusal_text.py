"""Why a verification gives no conclusion, or no evaluative one, in words a lawyer reads.

Each rule of the fitness-for-purpose gate (``core/gate/gate.py``, ``core/outcome.GateRule``) that a
case broke is said first in plain words — what is wrong with the case or the model, and so what
cannot be concluded — and the gate's own technical sentence follows it in brackets (the figure
measured and the limit it broke), so that an examiner can check it and nothing is hidden.
Findings of one rule are said once, their details joined. The population-fit check words its
own findings (``presentation/population_fit_text.py``); they are shown as that module gives
them. Used wherever a conclusion's reasons are shown: the headline, the command line, the
desktop's summary and runs table, and the report.
"""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import Conclusion, GateFinding, GateRule

PLAIN_REASONS: dict[GateRule, str] = {
    GateRule.USABLE_TEXT: "a document is not ordinary written prose the method can compare",
    GateRule.ENOUGH_TEXT: "a document is too short for the method to compare reliably",
    GateRule.SAME_TEXT: (
        "the questioned document repeats a known document, so comparing them cannot show who "
        "wrote it"
    ),
    GateRule.VALIDATED_CONDITIONS: (
        "the case lies outside the conditions under which the method was tested (text lengths, "
        "or a way of writing unlike any text it was tested on)"
    ),
    GateRule.CONDITIONS_UNKNOWN: (
        "the model does not record the conditions it was tested under, so it cannot be shown "
        "to suit this case"
    ),
    GateRule.NOT_CALIBRATED: (
        "the model cannot turn its score into a likelihood ratio (it was not calibrated)"
    ),
    GateRule.LEXICON: "the word list used here differs from the one the method was tested with",
    GateRule.VALIDATION_NOT_MET: (
        "the method's test on the relevant population did not show, against a standard set "
        "before it was run, that it is good enough for casework"
    ),
    GateRule.NO_VALIDATION: (
        "the method has not been tested on a population relevant to this case"
    ),
    GateRule.VALIDATION_TOO_SMALL: (
        "the test of the method on the relevant population was too small to rely on"
    ),
    GateRule.NOT_ASSESSED: (
        "this result was stored before the program checked whether a conclusion is justified"
    ),
    GateRule.REPEATS_DISAGREE: (
        "which way the likelihood ratio points depends on the random draw of the validation's "
        "test pairs, so it is stated as one, which gives no support either way"
    ),
}


def reason_text(rule: GateRule, details: list[str], detail: bool = True) -> str:
    """One reason: the plain words, then (``detail``) the technical detail; a rule without
    plain words here — the population fit — as its own findings say it."""
    plain = PLAIN_REASONS.get(rule)
    if plain is None:
        return "; ".join(details)
    return f"{plain} (technical detail: {'; '.join(details)})" if detail else plain


def _grouped(findings: tuple[GateFinding, ...] | list[GateFinding], detail: bool) -> list[str]:
    by_rule: dict[GateRule, list[str]] = {}
    for finding in findings:
        by_rule.setdefault(finding.rule, []).append(finding.message)
    return [reason_text(rule, details, detail) for rule, details in by_rule.items()]


def conclusion_reasons(conclusion: Conclusion) -> list[str]:
    """Every reason that limits the conclusion, one per rule: plain words, then the detail."""
    return _grouped(conclusion.findings, detail=True)


def decisive_reason_texts(conclusion: Conclusion, detail: bool = True) -> list[str]:
    """The reasons that set the conclusion's kind (e.g. the text rules for "no conclusion"),
    plain words first, then (``detail``) the technical detail; without it, for a headline with
    little room (the desktop's), whose reasons list below gives ``conclusion_reasons``."""
    decisive = [f for f in conclusion.findings if f.ceiling is conclusion.kind]
    return _grouped(decisive, detail=detail)
