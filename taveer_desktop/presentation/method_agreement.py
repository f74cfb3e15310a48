"""Each method's likelihood ratio beside the stated one, and whether the methods agree, in words.

Used wherever a conclusion from a LambdaG or fused model is shown (``taveer verify`` now; the
report and the desktop later): the fused ratio is what the conclusion states, and TAVeer's and
LambdaG's own ratios are always shown beside it, with their agreement or disagreement stated
rather than left for the reader to notice.
"""

from __future__ import annotations

from taveer_desktop.presentation.conclusion_text import format_lr

METHOD_NAMES = {
    "taveer": "TAVeer",
    "lambdag": "LambdaG",
    "fusion": "the fusion of TAVeer and LambdaG",
}


def method_label(method: str) -> str:
    """A method's name at the start of a line."""
    name = METHOD_NAMES[method]
    return name[0].upper() + name[1:]


def _direction(log10_lr: float) -> str:
    if log10_lr > 0:
        return "supports Hp (same author)"
    if log10_lr < 0:
        return "supports Hd (another author)"
    return "supports neither proposition"


def method_lines(by_method: dict[str, float | None], stated: str) -> list[str]:
    """One line per method (the stated one first), then the agreement sentence."""
    lines = []
    order = [stated] + [m for m in ("taveer", "lambdag") if m != stated and m in by_method]
    for method in order:
        value = by_method.get(method)
        label = method_label(method)
        role = " (stated)" if method == stated else " alone"
        if value is None:
            lines.append(f"  {label}{role}: no likelihood ratio")
        else:
            lines.append(f"  {label}{role}: LR {format_lr(value)}, {_direction(value)}")
    agreement = agreement_sentence(by_method.get("taveer"), by_method.get("lambdag"), stated)
    if agreement:
        lines.append(f"  {agreement}")
    return lines


def agreement_sentence(
    taveer: float | None, lambdag: float | None, stated: str = "fusion"
) -> str | None:
    """Whether TAVeer and LambdaG point the same way (None when one of them gives no ratio)."""
    if taveer is None or lambdag is None:
        return None
    if (taveer > 0) == (lambdag > 0) and taveer != 0 and lambdag != 0:
        return (
            "The two methods agree: both "
            + _direction(taveer).replace("supports", "support", 1)
            + "."
        )
    weighed = (
        "The fused ratio weighs them as learned on the validation trials"
        if stated == "fusion"
        else f"The stated ratio is {METHOD_NAMES[stated]}'s alone"
    )
    return (
        f"The two methods disagree: TAVeer {_direction(taveer)} (LR {format_lr(taveer)}), "
        f"LambdaG {_direction(lambdag)} (LR {format_lr(lambdag)}). {weighed}; the "
        "disagreement is part of the finding and lowers confidence in either method alone."
    )
