"""Each method's likelihood ratio beside the stated one, whether the methods agree, and what
LambdaG's evidence in the text means, in words.

Used wherever a conclusion from a model stating another method than TAVeer is shown
(``taveer verify``, ``case verify``, the report, the desktop): the stated method's ratio is
what the conclusion states, and every other method's own ratio in the result is shown beside it by
its registry name (``core/ground/registry.py``), with their agreement or disagreement stated
rather than left for the reader to notice. For TAVeer's and LambdaG's fusion, agreement counts
only methods that carry weight in the fused ratio. The sentences explaining LambdaG, its shares
and the sentences where both methods point the same way are here too, so that the desktop and
the report say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.ground.registry import METHOD_IDS, MethodId, method_info, method_name
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.face_registry import fuses
from taveer_desktop.presentation.lambdag_face import LAMBDAG_METHOD as LAMBDAG_METHOD
from taveer_desktop.presentation.method_directions import (
    carries_weight,
    directions_sentence,
    fused_directions_sentence,
    lr_direction,
    method_order,
    registry_order,
)
from taveer_desktop.presentation.method_names import FUSED_PAIR, short_stated_name, stated_name

TAVEER = MethodId.TAVEER  # the method a record states that was made before there was a choice


def short_name(method: str, fused: Iterable[str] | None = None) -> str:
    """A method's short name for a table heading or a legend (a fusion by ``fused``, the
    methods it combines: ``method_names.stated_name``); an unknown id as is."""
    return short_stated_name(method, fused)


def record_method(record: ValidationRecord) -> str:
    """The method a validation record (or a model's validation summary) states: its
    protocol's, or TAVeer for a record made before there was a choice."""
    method = record.protocol.method or TAVEER
    return str(method) if method in METHOD_IDS else str(TAVEER)


def compared_methods(record: ValidationRecord) -> list[str]:
    """The methods whose figures the record keeps, the stated one first, then the others in
    the order the comparison listed them (the registry's order for a record without one);
    empty: a record that keeps only its stated method's figures."""
    kept = record.methods
    if not kept:
        return []
    stated = record_method(record)
    listed = record.comparison.methods if record.comparison is not None else None
    order = list(listed) if listed is not None else []
    order += registry_order(m for m in kept if m not in order)
    others = [m for m in order if m != stated and m in kept]
    return [stated, *others] if others else []


def method_label(method: str, fused: Iterable[str] | None = None) -> str:
    """A method's name at the start of a line (``method_names.stated_name``)."""
    return stated_name(method, fused)


def stated_label(method: str, weights: Mapping[str, float] | None) -> str:
    """A method's name at the start of a line; a fusion by the methods its weights name
    ("TAVeer + COAV")."""
    return stated_name(method, list(weights) if weights else None)


AT_BOUND = "at its validation's bound, the ELUB"


def model_fusion_weights(model: Model | None) -> dict[str, float] | None:
    """Each method's weight in a fused model's fusion (None: no readable fusion)."""
    if model is None:
        return None
    from taveer_desktop.core.methods.lambdag.lambdag_model import (
        fusion_of,  # only for a fused model
    )

    try:
        fusion = fusion_of(model, "the model")
    except TaveerError:
        return None
    return {str(m): float(w) for m, w in zip(fusion.methods, fusion.weights, strict=True)}


def weights_text(weights: Mapping[str, float]) -> str:
    """ "weights TAVeer 0.000, LambdaG 1.181" """
    return "weights " + ", ".join(
        f"{short_name(m)} {numbers.decimal(w)}" for m, w in weights.items()
    )


def weighted_methods(stated: str, weights: Mapping[str, float] | None) -> tuple[str, ...] | None:
    """The fused pair (TAVeer and LambdaG), those of them whose own ratio counts in the stated
    ratio (None: not known — a fused model whose weights could not be read)."""
    found = [carries_weight(m, stated, weights) for m in FUSED_PAIR]
    if None in found:
        return None
    return tuple(m for m, c in zip(FUSED_PAIR, found, strict=True) if c)


def role_text(method: str, stated: str, weights: Mapping[str, float] | None) -> str:
    """A method's part in the stated ratio, in a few words: "(stated; weights TAVeer 0.000,
    LambdaG 1.181)", "alone (no weight in the stated ratio)"."""
    if method == stated:
        if fuses(stated) and weights:
            return f"(stated; {weights_text(weights)})"
        return "(stated)"
    carried = carries_weight(method, stated, weights)
    if carried is None:
        return "alone"
    if not fuses(stated):
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
        label = stated_label(method, weights)  # a fusion by its parts, any other by its name
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
        name = stated_label(findings.stated, weights)
        return ["  " + NO_CONCLUSION_METHODS.format(method=name)]
    lines = method_lines(findings, weights)
    no_evidence = no_text_evidence_sentence(findings)
    if no_evidence:
        lines.append(f"  {no_evidence}")
    if kind is ConclusionKind.INVESTIGATIVE:
        lines.append(f"  {INVESTIGATIVE_METHODS}")
    return lines


def without_text_evidence(findings: MethodFindings) -> list[str]:
    """The result's methods that give no evidence in the text (the comparison systems)."""
    found = []
    for method in method_order(findings.by_method, findings.stated):
        try:
            if method_info(method).comparison:
                found.append(method)
        except KeyError:
            continue
    return found


def no_text_evidence_sentence(findings: MethodFindings) -> str | None:
    """That the comparison systems among the result's methods show nothing in the text (None:
    every method of the result has evidence views, or none is needed)."""
    methods = without_text_evidence(findings)
    if not methods:
        return None
    names = " and ".join(method_name(m) for m in methods)
    if len(methods) == 1:
        return (
            f"{names} gives no evidence in the text: it compares the texts as wholes, so no "
            "word or sentence can be shown as leading to its ratio."
        )
    return (
        f"{names} give no evidence in the text: they compare the texts as wholes, so no word "
        "or sentence can be shown as leading to their ratios."
    )


def disagreement_stated(findings: MethodFindings) -> bool:
    """Whether TAVeer's and LambdaG's own ratios point different ways (stated as a warning)."""
    values = [v for m, v in findings.by_method.items() if not fuses(m) and v is not None and v != 0]
    return len({v > 0 for v in values}) > 1


def agreement_sentence(
    findings: MethodFindings, weights: Mapping[str, float] | None = None
) -> str | None:
    """Whether the methods point the same way. For TAVeer's and LambdaG's models, only
    methods that carry weight in the stated ratio count as agreeing (None when one of them
    gives no ratio); beside any other stated method, which methods point which way."""
    stated = findings.stated
    if stated not in FUSED_PAIR and not fuses(stated):
        return directions_sentence(findings)
    if fuses(stated) and weights is not None and set(weights) != set(FUSED_PAIR):
        return fused_directions_sentence(findings, weights)
    taveer, lambdag = (findings.by_method.get(m) for m in FUSED_PAIR)
    agree = methods_agree(taveer, lambdag)
    if taveer is None or lambdag is None or agree is None:
        return None
    carrying = weighted_methods(stated, weights)
    if carrying is None:  # a fused model whose weights are not known here
        if agree:
            return (
                "TAVeer and LambdaG both "
                + lr_direction(taveer).replace("supports", "support", 1)
                + "; how much each weighs in the fused ratio is not shown here."
            )
        carrying = FUSED_PAIR
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
    (other,) = (m for m in FUSED_PAIR if m != weighed)
    other_value = findings.by_method.get(other)
    assert other_value is not None  # both ratios are given here
    why = (
        f"the fusion gives {short_name(other)} no weight ({weights_text(weights)})"
        if fuses(stated) and weights
        else f"the stated ratio is {method_name(weighed)}'s alone"
    )
    if agree:
        return (
            f"One method carries the stated ratio: {why}. {short_name(other)}'s own ratio "
            "points the same way but adds nothing to it, so this is one method's evidence, not "
            "two methods agreeing."
        )
    return (
        f"{short_name(other)} alone {lr_direction(other_value)} (LR {format_lr(other_value)}), "
        f"the other way from {short_name(weighed)}; {why}, so the stated ratio is "
        f"{short_name(weighed)}'s evidence alone. The disagreement is stated because it is "
        "part of the finding."
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
