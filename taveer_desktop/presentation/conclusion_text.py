"""The words of a conclusion: one place for every sentence a person reads about an outcome.

The rule everywhere: the likelihood ratio comes first, as a number, then its verbal qualifier
from the lab's scale (chosen from the unrounded value), then the two propositions; the TAVeer
classification follows as "the method's classification", with its score and margin. No sentence
here states as a fact that someone wrote a document: "same author" and "different authors" only
label the classification or the propositions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from taveer_desktop.core.calibration.outcome import (
    Classification,
    Conclusion,
    ConclusionKind,
    GateRule,
)
from taveer_desktop.core.calibration.verbal_scales import SCALES, describe
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.refusal_text import decisive_reason_texts

if TYPE_CHECKING:  # evaluation pulls in training and its process pool: not at start-up
    from taveer_desktop.core.methods.taveer.model import Model
    from taveer_desktop.core.methods.taveer.verify import VerificationResult
    from taveer_desktop.core.validation.corpus_gate import GateSummary

HP = "the author of the known documents wrote the questioned document"
HD_PREFIX = "someone else wrote the questioned document"

CLASSIFICATION_LABELS = {
    Classification.SAME: "same author (score above 0.5)",
    Classification.DIFFERENT: "different authors (score at or below 0.5)",
    Classification.INCONCLUSIVE: "inconclusive (score inside the model's band around 0.5)",
    Classification.INSUFFICIENT: "no classification (every ensemble category abstains)",
}
CLASSIFICATION_SHORT = {
    Classification.SAME: "same-author side",
    Classification.DIFFERENT: "different-author side",
    Classification.INCONCLUSIVE: "inconclusive",
    Classification.INSUFFICIENT: "none",
}
KIND_LABELS = {
    ConclusionKind.EVALUATIVE: "Evaluative conclusion",
    ConclusionKind.INVESTIGATIVE: "For investigation only",
    ConclusionKind.NONE: "No conclusion",
}
KIND_EXPLANATIONS = {
    ConclusionKind.EVALUATIVE: (
        "The case lies within the conditions the model was validated under, so its likelihood "
        "ratio may be reported as the evaluation of the findings."
    ),
    ConclusionKind.INVESTIGATIVE: (
        "The likelihood ratio is not validated for this case and must not be reported as an "
        "evaluative conclusion; it is shown only to guide an investigation."
    ),
    ConclusionKind.NONE: "The texts do not allow a conclusion with this method and model.",
}
WEAK_EVIDENCE_NOTE = (
    "Weak support is still support for the stated proposition, never support for the other one."
)


def propositions(population: str) -> tuple[str, str]:
    """(Hp, Hd) in words, Hd naming its relevant population."""
    hd = f"{HD_PREFIX}, a person from the relevant population: {population}"
    return HP, hd


def format_lr(log10_lr: float) -> str:
    """The likelihood ratio as a number, with 3 significant digits (1/x shown below 1)."""
    lr = 10.0 ** max(min(log10_lr, 300.0), -300.0)
    if lr >= 1.0:
        return numbers.significant(lr)
    return f"{numbers.significant(lr)} (= 1/{numbers.significant(1.0 / lr)})"


def lr_sentence(log10_lr: float, scale_id: str) -> str:
    """'Likelihood ratio 2.18: the findings are 2.18 times more probable if Hp … — weak support
    for Hp (ENFSI 2015).' The qualifier comes from the unrounded value."""
    statement = describe(log10_lr, scale_id)
    scale = SCALES[scale_id].name
    lr = 10.0 ** max(min(log10_lr, 300.0), -300.0)
    if statement.direction == "neither":
        return (
            f"Likelihood ratio {format_lr(log10_lr)}: the findings are about as probable if Hp "
            f"is true as if Hd is true, which gives {statement.qualifier} ({scale})."
        )
    if log10_lr > 0:
        times, first, second = numbers.significant(lr), "Hp", "Hd"
    else:
        times, first, second = numbers.significant(1.0 / lr), "Hd", "Hp"
    sentence = (
        f"Likelihood ratio {format_lr(log10_lr)}: the findings are {times} times more probable "
        f"if {first} is true than if {second} is true, which gives {statement.qualifier} "
        f"for {first} ({scale})."
    )
    if statement.qualifier.startswith("weak"):
        sentence += " " + WEAK_EVIDENCE_NOTE
    return sentence


AT_UPPER_BOUND = (
    "It is the validation's upper bound (ELUB): no larger ratio is supported, though the texts "
    "may point more strongly."
)
AT_LOWER_BOUND = (
    "It is the validation's lower bound (ELUB): no smaller ratio is supported, though the texts "
    "may point more strongly towards Hd."
)


def lr_bound(result: VerificationResult, model: Model | None) -> str | None:
    """ "upper" or "lower" when the stated likelihood ratio sits at its validation's bound (the
    ELUB), else None: a LambdaG or fused model's findings say so; a TAVeer model's ratio is
    compared with its calibration's bounds."""
    log10_lr = result.conclusion.log10_lr
    if log10_lr is None or not math.isfinite(log10_lr) or log10_lr == 0:
        return None
    if result.methods is not None:
        at = result.methods.stated in result.methods.at_bound
    else:
        calibration = model.calibration if model is not None else None
        bounds = (
            (calibration.min_log10_lr, calibration.max_log10_lr) if calibration else (None, None)
        )
        at = any(b is not None and math.isclose(log10_lr, b, abs_tol=5e-7) for b in bounds)
    if not at:
        return None
    return "upper" if log10_lr > 0 else "lower"


def bound_sentence(bound: str | None) -> str:
    """The ELUB sentence after a ratio at its validation's bound ("" when it is not)."""
    return {"upper": AT_UPPER_BOUND, "lower": AT_LOWER_BOUND}.get(bound or "", "")


def decisive_reasons(conclusion: Conclusion, detail: bool = True) -> list[str]:
    """The reasons that set the conclusion's kind (e.g. the text rules for "no conclusion"),
    in plain words first, then (``detail``) the technical detail (``refusal_text``)."""
    return decisive_reason_texts(conclusion, detail)


def headline(
    conclusion: Conclusion,
    scale_id: str,
    most: int = 2,
    bound: str | None = None,
    detail: bool = True,
) -> str:
    """The first sentence of every output: the evaluative statement, or why there is none
    (at most ``most`` decisive reasons; every reason is listed by ``conclusion.reasons``).
    ``bound`` ("upper", "lower", from ``lr_bound``) adds that the ratio is its validation's
    bound."""
    if conclusion.kind is ConclusionKind.EVALUATIVE and conclusion.log10_lr is not None:
        sentence = lr_sentence(conclusion.log10_lr, scale_id)
        return f"{sentence} {bound_sentence(bound)}" if bound else sentence
    decisive = decisive_reasons(conclusion, detail) or ["the model gives no likelihood ratio"]
    reasons = "; ".join(decisive[:most])
    if len(decisive) > most:
        more = len(decisive) - most
        reasons += f" (and {more} further reason{'s' if more > 1 else ''})"
    if conclusion.kind is ConclusionKind.NONE:
        return f"No conclusion: {reasons}."
    return f"No evaluative conclusion: {reasons}."


def lead_sentence(
    conclusion: Conclusion,
    scale_id: str,
    most: int = 2,
    bound: str | None = None,
    detail: bool = True,
) -> str:
    """The headline for a view that already labels the kind (a banner, a bold label): as
    ``headline``, but the reasons for no conclusion without a repeated "No conclusion:"."""
    text = headline(conclusion, scale_id, most, bound, detail)
    prefix = "No conclusion: "
    if text.startswith(prefix):
        rest = text[len(prefix) :]
        return rest[:1].upper() + rest[1:]
    return text


def investigative_lr_sentence(conclusion: Conclusion, bound: str | None = None) -> str | None:
    """The likelihood ratio of an investigative conclusion, marked as not validated (and as
    its validation's bound, when it is)."""
    if conclusion.kind is not ConclusionKind.INVESTIGATIVE or conclusion.log10_lr is None:
        return None
    at = " (at its validation's bound, the ELUB)" if bound else ""
    return (
        f"For investigation only: the model's likelihood ratio is "
        f"{format_lr(conclusion.log10_lr)}{at}, not validated for a case like this one and not "
        "to be reported as evidence."
    )


def classification_sentence(
    prediction: Classification, similarity: float, whose: str = "The method's"
) -> str:
    """The method's classification with its score and margin (``whose``: "TAVeer's" under a
    LambdaG or fused model's conclusion, whose stated ratio is another method's)."""
    if prediction is Classification.INSUFFICIENT:
        return f"{whose} classification: none (every category of its ensemble abstains)."
    margin = similarity - 0.5
    side = "above" if margin > 0 else "below" if margin < 0 else "at"
    return (
        f"{whose} classification: {CLASSIFICATION_LABELS[prediction]}; similarity "
        f"{numbers.decimal(similarity)}, {numbers.decimal(abs(margin))} {side} the 0.5 boundary."
    )


def gate_summary_text(gate: GateSummary) -> str:
    """What the fitness-for-purpose gate made of an evaluation corpus, in one sentence: the
    three kinds of conclusion (they add up to the cases), then how many lay outside the
    model's validated conditions (counted apart: such a case can also get no conclusion), and
    how many are stated as LR 1 because the validation's repeats disagree on their direction."""
    kept = f"{share_text(gate.evaluative, gate.cases)} cases keep an evaluative conclusion"
    if gate.cllr_evaluative is not None:
        kept += f" (Cllr over them {numbers.decimal(gate.cllr_evaluative)})"
    investigative = "is" if gate.investigative == 1 else "are"
    return (
        f"{kept}, {numbers.integer(gate.investigative)} {investigative} for investigation only "
        f"and {numbers.integer(gate.no_conclusion)} {'gets' if gate.no_conclusion == 1 else 'get'} "
        "no conclusion; "
        f"{numbers.integer(gate.outside_conditions)} of all the cases lie outside the model's "
        "validated conditions."
        + _withdrawn_text(gate.rules.get(GateRule.REPEATS_DISAGREE.value, 0))
    )


def _withdrawn_text(count: int) -> str:
    """The cases stated as LR 1 by the repeat check (nothing where there are none)."""
    if not count:
        return ""
    return (
        f" {numbers.integer(count)} {'case is' if count == 1 else 'cases are'} stated as "
        "likelihood ratio 1, no support either way, because the validation's repeats disagree "
        "on which way the ratio points."
    )


def share_text(count: int, total: int) -> str:
    """'199 of 200 (99.5 %)': exact, and never 100 % unless every one agrees."""
    if total <= 0:
        return "0 of 0"
    value = 100.0 * count / total
    decimals = 0 if value.is_integer() else 1
    text = f"{value:.{decimals}f}"
    while (count != total and float(text) >= 100.0) or (count and float(text) == 0.0):
        decimals += 1
        text = f"{value:.{decimals}f}"
    return f"{numbers.integer(count)} of {numbers.integer(total)} ({text} %)"


# The method's classification explained to a lay reader (safe HTML, used by the report).
CLASSIFICATION_ANSWERS = {
    Classification.SAME: (
        "The method classifies the questioned text as <b>stylistically consistent</b> with "
        "the known texts."
    ),
    Classification.DIFFERENT: (
        "The method classifies the questioned text as <b>not stylistically consistent</b> "
        "with the known texts."
    ),
    Classification.INSUFFICIENT: (
        "<b>No answer can be given</b>: the texts contain too few of the features the method "
        "measures."
    ),
    Classification.INCONCLUSIVE: (
        "The result is <b>inconclusive</b>: the score lies in the model's band around 0.5 "
        "where neither answer was reliable on its test texts."
    ),
}


def classification_answer(prediction: Classification, method: str = "The method") -> str:
    """``CLASSIFICATION_ANSWERS`` with the classifying method named ("TAVeer" where the
    conclusion states another method's ratio)."""
    return CLASSIFICATION_ANSWERS[prediction].replace("The method", method, 1)


CLASSIFICATION_CAVEATS = {
    Classification.SAME: (
        "This means that the way the questioned text uses punctuation, function words and "
        "sentence openings and endings resembles the known texts more than the model's "
        "threshold requires. It does not prove that the author of the known texts wrote it: "
        "other people can write in a similar way."
    ),
    Classification.DIFFERENT: (
        "This means that the way the questioned text uses punctuation, function words and "
        "sentence openings and endings differs from the known texts more than the model's "
        "threshold allows. It does not prove that someone else wrote it: the same person can "
        "write differently for another purpose, reader, medium or time."
    ),
    Classification.INSUFFICIENT: (
        "Every feature category the model relies on is missing from the questioned text or "
        "from the known texts. The method gives no answer rather than a guess."
    ),
    Classification.INCONCLUSIVE: (
        "The texts are neither clearly consistent nor clearly inconsistent in style. This is "
        "not evidence for either answer."
    ),
}
