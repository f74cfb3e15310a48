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

from collections.abc import Mapping
from typing import Any

from taveer_desktop.core.errors import TaveerError
from taveer_desktop.core.method_findings import MethodFindings
from taveer_desktop.core.model import Model
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

# a fusion weight smaller than this (it shows as 0.00) gives its method no weight in the
# fused ratio: the method's own ratio is shown beside the stated one, but counts for nothing
NO_WEIGHT = 0.01


def model_fusion_weights(model: Model | None) -> dict[str, float] | None:
    """Each method's weight in a fused model's fusion (None: no readable fusion)."""
    if model is None or "fusion" not in model.extra:
        return None
    from taveer_desktop.core.lambdag_model import fusion_of  # only for a fused model

    try:
        fusion = fusion_of(model, "the model")
    except TaveerError:
        return None
    return {str(m): float(w) for m, w in zip(fusion.methods, fusion.weights, strict=True)}


def weights_text(weights: Mapping[str, float]) -> str:
    """ "weights TAVeer 0.000, LambdaG 1.181" """
    return "weights " + ", ".join(
        f"{METHOD_TAGS.get(m, m)} {numbers.decimal(w)}" for m, w in weights.items()
    )


def carries_weight(method: str, stated: str, weights: Mapping[str, float] | None) -> bool | None:
    """Whether ``method``'s own ratio counts in the stated one: the stated method's does; with
    the fusion stated, a method whose fusion weight is not (next to) zero; LambdaG's ratio
    alone counts nothing of TAVeer's. None: a fused model whose weights are not known here."""
    if method == stated:
        return True
    if stated != "fusion":
        return False
    if weights is None:
        return None
    return abs(weights.get(method, 0.0)) >= NO_WEIGHT


def weighted_methods(stated: str, weights: Mapping[str, float] | None) -> tuple[str, ...] | None:
    """TAVeer and LambdaG, those of them whose own ratio counts in the stated ratio (None: not
    known — a fused model whose weights could not be read)."""
    found = [carries_weight(m, stated, weights) for m in ("taveer", "lambdag")]
    if None in found:
        return None
    return tuple(m for m, c in zip(("taveer", "lambdag"), found, strict=True) if c)


def role_text(method: str, stated: str, weights: Mapping[str, float] | None) -> str:
    """A method's part in the stated ratio, in a few words: "(stated; weights TAVeer 0.000,
    LambdaG 1.181)", "alone (no weight in the stated ratio)"."""
    if method == stated:
        if stated == "fusion" and weights:
            return f"(stated; {weights_text(weights)})"
        return "(stated)"
    carried = carries_weight(method, stated, weights)
    if carried is None:
        return "alone"
    if stated != "fusion":
        return "alone (not part of the stated ratio)"
    if carried:
        weight = numbers.decimal((weights or {}).get(method, 0.0))
        return f"alone (weight {weight} in the stated ratio)"
    return "alone (no weight in the stated ratio)"


def method_lines(findings: MethodFindings, weights: Mapping[str, float] | None = None) -> list[str]:
    """One line per method (the stated one first, the fusion's weights beside it; each other
    method with its part in the stated ratio), then the agreement sentence. A ratio cut to its
    validation's bound says so: the evidence is at least that strong, no stronger is
    supported."""
    by_method, stated = findings.by_method, findings.stated
    lines = []
    for method in method_order(by_method, stated):
        value = by_method.get(method)
        label = method_label(method)
        role = role_text(method, stated, weights)
        if value is None:
            lines.append(f"  {label} {role}: no likelihood ratio")
        else:
            bound = f" ({AT_BOUND})" if method in findings.at_bound else ""
            lines.append(f"  {label} {role}: LR {format_lr(value)}{bound}, {lr_direction(value)}")
    agreement = agreement_sentence(findings, weights)
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


def result_method_lines(
    findings: MethodFindings, kind: ConclusionKind, weights: Mapping[str, float] | None = None
) -> list[str]:
    """What a verification's method lines say under its conclusion: nothing but that no ratio
    is reported when there is no conclusion, and for investigation only when the conclusion
    is — as the report says it."""
    if kind is ConclusionKind.NONE:
        return ["  " + NO_CONCLUSION_METHODS.format(method=METHOD_NAMES[findings.stated])]
    lines = method_lines(findings, weights)
    if kind is ConclusionKind.INVESTIGATIVE:
        lines.append(f"  {INVESTIGATIVE_METHODS}")
    return lines


def disagreement_stated(findings: MethodFindings) -> bool:
    """Whether TAVeer's and LambdaG's own ratios point different ways (stated as a warning)."""
    by_method = findings.by_method
    return methods_agree(by_method.get("taveer"), by_method.get("lambdag")) is False


def agreement_sentence(
    findings: MethodFindings, weights: Mapping[str, float] | None = None
) -> str | None:
    """Whether TAVeer and LambdaG point the same way, counting as agreeing only methods that
    carry weight in the stated ratio (None when one of them gives no ratio)."""
    taveer, lambdag = findings.by_method.get("taveer"), findings.by_method.get("lambdag")
    agree = methods_agree(taveer, lambdag)
    if taveer is None or lambdag is None or agree is None:
        return None
    stated = findings.stated
    carrying = weighted_methods(stated, weights)
    if carrying is None:  # a fused model whose weights are not known here
        if agree:
            return (
                "TAVeer and LambdaG both "
                + lr_direction(taveer).replace("supports", "support", 1)
                + "; how much each weighs in the fused ratio is not shown here."
            )
        carrying = ("taveer", "lambdag")
    if len(carrying) == 2:
        if agree:
            return (
                "The two methods agree, and both carry weight in the fused ratio: both "
                + lr_direction(taveer).replace("supports", "support", 1)
                + "."
            )
        return (
            f"The two methods disagree: TAVeer {lr_direction(taveer)} (LR {format_lr(taveer)}), "
            f"LambdaG {lr_direction(lambdag)} (LR {format_lr(lambdag)}). The fused ratio weighs "
            "them as learned on the validation trials; the disagreement is part of the finding "
            "and lowers confidence in either method alone."
        )
    if not carrying:
        return (
            "Neither method carries weight in the fused ratio"
            + (f" ({weights_text(weights)})" if weights else "")
            + ": it rests on the fusion's intercept alone, not on these texts."
        )
    (weighed,) = carrying
    other = "lambdag" if weighed == "taveer" else "taveer"
    other_value = lambdag if other == "lambdag" else taveer
    why = (
        f"the fusion gives {METHOD_TAGS[other]} no weight ({weights_text(weights)})"
        if stated == "fusion" and weights
        else f"the stated ratio is {METHOD_NAMES[weighed]}'s alone"
    )
    if agree:
        return (
            f"One method carries the stated ratio: {why}. {METHOD_TAGS[other]}'s own ratio "
            "points the same way but adds nothing to it, so this is one method's evidence, not "
            "two methods agreeing."
        )
    return (
        f"{METHOD_TAGS[other]} alone {lr_direction(other_value)} (LR {format_lr(other_value)}), "
        f"the other way from {METHOD_TAGS[weighed]}; {why}, so the stated ratio is "
        f"{METHOD_TAGS[weighed]}'s evidence alone. The disagreement is stated because it is "
        "part of the finding."
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
