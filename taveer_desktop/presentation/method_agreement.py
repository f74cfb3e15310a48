"""Each method's likelihood ratio beside the stated one, whether the methods agree, and what
LambdaG's evidence in the text means, in words.

Used wherever a conclusion from a LambdaG or fused model is shown (``taveer verify``, ``case
verify``, the report, the desktop): the fused ratio is what the conclusion states, and TAVeer's
and LambdaG's own ratios are always shown beside it, with their agreement or disagreement stated
rather than left for the reader to notice. The sentences explaining LambdaG, its shares and the
sentences where both methods point the same way are here too, so that the desktop and the
report say the same thing.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.method_findings import MethodFindings
from taveer_desktop.core.outcome import ConclusionKind
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr

METHOD_NAMES = {
    "taveer": "TAVeer",
    "lambdag": "LambdaG",
    "fusion": "the fusion of TAVeer and LambdaG",
}


METHOD_ORDER = ("taveer", "lambdag", "fusion")
# the figures of a validation compared side by side: the costs, discrimination and both
# misleading rates
COMPARED_FIGURES = ("cllr", "cllr_min", "eer", "auc", "misleading_y", "misleading_n")


def record_method(record: dict[str, Any]) -> str:
    """The method a validation record (or a model's validation summary) states: its
    protocol's, or TAVeer for a record made before there was a choice."""
    method = (record.get("protocol") or {}).get("method") or "taveer"
    return str(method) if method in METHOD_NAMES else "taveer"


def compared_methods(record: dict[str, Any]) -> list[str]:
    """The methods whose figures the record keeps, the stated one first (empty: TAVeer's
    record, which keeps only its own)."""
    kept = record.get("methods")
    if not isinstance(kept, dict) or not kept:
        return []
    stated = record_method(record)
    return [stated] + [m for m in METHOD_ORDER if m != stated and isinstance(kept.get(m), dict)]


# a few words naming the method beside a number in a table ("18 (fused)")
METHOD_TAGS = {"taveer": "TAVeer", "lambdag": "LambdaG", "fusion": "fused"}


def method_label(method: str) -> str:
    """A method's name at the start of a line."""
    name = METHOD_NAMES[method]
    return name[0].upper() + name[1:]


def lr_direction(log10_lr: float) -> str:
    """Which proposition a log10 likelihood ratio supports, in words."""
    if log10_lr > 0:
        return "supports Hp (same author)"
    if log10_lr < 0:
        return "supports Hd (another author)"
    return "supports neither proposition"


def method_order(by_method: dict[str, float | None], stated: str) -> list[str]:
    """The methods to show: the stated one first, then each method alone."""
    return [stated] + [m for m in ("taveer", "lambdag") if m != stated and m in by_method]


AT_BOUND = "at its validation's limit, the ELUB"


def method_lines(findings: MethodFindings) -> list[str]:
    """One line per method (the stated one first), then the agreement sentence. A ratio cut
    to its validation's bound says so: the evidence is at least that strong, no stronger is
    supported."""
    by_method, stated = findings.by_method, findings.stated
    lines = []
    for method in method_order(by_method, stated):
        value = by_method.get(method)
        label = method_label(method)
        role = " (stated)" if method == stated else " alone"
        if value is None:
            lines.append(f"  {label}{role}: no likelihood ratio")
        else:
            bound = f" ({AT_BOUND})" if method in findings.at_bound else ""
            lines.append(f"  {label}{role}: LR {format_lr(value)}{bound}, {lr_direction(value)}")
    agreement = agreement_sentence(by_method.get("taveer"), by_method.get("lambdag"), stated)
    if agreement:
        lines.append(f"  {agreement}")
    return lines


def methods_agree(taveer: float | None, lambdag: float | None) -> bool | None:
    """Whether TAVeer's and LambdaG's log10 LRs point the same way (None: one gives none)."""
    if taveer is None or lambdag is None:
        return None
    return (taveer > 0) == (lambdag > 0) and taveer != 0 and lambdag != 0


NO_CONCLUSION_METHODS = (
    "This model states the likelihood ratio of {method}. With no conclusion, no method's "
    "likelihood ratio is reported."
)
INVESTIGATIVE_METHODS = "Like the conclusion, these ratios are for investigation only."


def result_method_lines(findings: MethodFindings, kind: ConclusionKind) -> list[str]:
    """What a verification's method lines say under its conclusion: nothing but that no ratio
    is reported when there is no conclusion, and for investigation only when the conclusion
    is — as the report says it."""
    if kind is ConclusionKind.NONE:
        return ["  " + NO_CONCLUSION_METHODS.format(method=METHOD_NAMES[findings.stated])]
    lines = method_lines(findings)
    if kind is ConclusionKind.INVESTIGATIVE:
        lines.append(f"  {INVESTIGATIVE_METHODS}")
    return lines


def agreement_sentence(
    taveer: float | None, lambdag: float | None, stated: str = "fusion"
) -> str | None:
    """Whether TAVeer and LambdaG point the same way (None when one of them gives no ratio)."""
    agree = methods_agree(taveer, lambdag)
    if taveer is None or lambdag is None or agree is None:
        return None
    if agree:
        return (
            "The two methods agree: both "
            + lr_direction(taveer).replace("supports", "support", 1)
            + "."
        )
    weighed = (
        "The fused ratio weighs them as learned on the validation trials"
        if stated == "fusion"
        else f"The stated ratio is {METHOD_NAMES[stated]}'s alone"
    )
    return (
        f"The two methods disagree: TAVeer {lr_direction(taveer)} (LR {format_lr(taveer)}), "
        f"LambdaG {lr_direction(lambdag)} (LR {format_lr(lambdag)}). {weighed}; the "
        "disagreement is part of the finding and lowers confidence in either method alone."
    )


LAMBDAG_METHOD = (
    "LambdaG (Nini, Halvani, Graner, Gherardi and Ishihara) compares how well two grammar models "
    "predict the questioned text: a model of the known author's texts, and models of samples of "
    "the same size from other authors of the relevant population. Here the texts are first "
    "reduced to their topic-free skeleton — function words and phrases of the lexicon and "
    "punctuation kept, every other word replaced by one placeholder — which is a variant of the "
    "published method (that masks with a part-of-speech tagger). Its score, λG, is the sum over "
    "the questioned text of how much better the known author's model predicted each token, and "
    "is calibrated to a likelihood ratio on the validation trials."
)

SHARE_MEANING = (
    "A token's share is how much better (positive) or worse (negative) the model of the known "
    "author's texts predicted it than models of other authors of the population did, on "
    "LambdaG's raw scale (log10 units, averaged over the reference samples). The shares add up "
    "to λG; only that sum is calibrated to a likelihood ratio, so a share shows where the score "
    "comes from, not a likelihood ratio of its own."
)

AGREEMENT_MEANING = (
    "A sentence is marked where both methods point the same way: its LambdaG share and its "
    "TAVeer lean are both positive (towards Hp) or both negative (towards Hd). TAVeer decides on "
    "the whole text; a sentence's lean is how much farther the questioned text would lie from "
    "the known texts in TAVeer's ensemble categories if the sentence were left out (each "
    "category's change of distance divided by its threshold, added up): positive where the "
    "sentence brings the questioned text closer to the known author's style."
)


def fusion_sentence(weights: tuple[float, float], stated: str) -> str | None:
    """How the fused ratio weighs the two methods (None unless the fusion is stated)."""
    if stated != "fusion":
        return None
    taveer, lambdag = weights
    return (
        "The fused likelihood ratio is a logistic-regression combination of the two methods' "
        "calibrated ratios learned on the validation trials: ln LR = a + "
        f"{numbers.decimal(taveer)} × ln LR(TAVeer) + {numbers.decimal(lambdag)} × ln LR(LambdaG), "
        "bounded by the validation's empirical lower and upper bound."
    )
