"""TAVeer's own classification beside a conclusion that states another method's ratio, and a
fused ratio that lies outside the ratios it fuses — each explained so that nothing reads as a
contradiction (issue 33, item 2).

Where a model states LambdaG's, a comparison system's or a fusion's likelihood ratio, the
verification still runs TAVeer (its gate and its classification come from it). Its
classification is then one method's yes-or-no reading of its own score against its threshold:
introduced as a second method's view, never as the conclusion, and where it points the other
way from the stated ratio that is said and explained. A fused ratio above (or below) every
ratio it combines is explained in one sentence: the fusion adds the weighted log ratios and an
intercept learned on the validation trials, so it is a recalibration, not an average.
Shared by the case report and the command line.
"""

from __future__ import annotations

from collections.abc import Mapping

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.method_agreement import weights_text
from taveer_desktop.presentation.method_names import is_fusion, stated_name

SECOND_VIEW_HEAD = "A second method's view, not the conclusion"
# after TAVeer's classification on a line of the command line
SECOND_VIEW_NOTE = "(a second method's view, not the conclusion: that is the stated ratio)"


def second_view_intro(
    findings: MethodFindings, prediction: Classification, weights: Mapping[str, float] | None
) -> str:
    """What TAVeer's classification is under a conclusion that states another method's ratio
    (and, where they point different ways, why that is no contradiction)."""
    name = stated_name(findings.stated, list(weights) if weights else None)
    text = (
        f"The conclusion above states the likelihood ratio of {name}. The program also runs "
        "TAVeer on every case (its checks of the texts come from it), and TAVeer gives a "
        "classification of its own: a yes-or-no reading of its similarity score against its "
        "threshold. What follows is that method's view alone, shown for completeness: it is "
        "not the conclusion, which is the stated likelihood ratio only."
    )
    stated = findings.by_method.get(findings.stated)
    if stated is None or prediction is Classification.INSUFFICIENT or stated == 0:
        return text
    towards_hp = stated > 0
    if towards_hp == (prediction is Classification.SAME):
        return text
    return text + (
        f" Here it points the other way from the stated ratio (LR {format_lr(stated)}). That "
        "is not a contradiction in the result: the stated ratio weighs the evidence as it was "
        "calibrated on the validation trials, while a classification only says on which side "
        "of one method's threshold its score fell; the difference is part of the finding."
    )


def fused_outside_parts_sentence(
    findings: MethodFindings, weights: Mapping[str, float] | None
) -> str | None:
    """One sentence when a fused ratio lies above or below every ratio it combines (None
    otherwise, or when it is not a fusion or a ratio is missing)."""
    if not is_fusion(findings.stated) or not weights:
        return None
    fused = findings.by_method.get(findings.stated)
    parts = [findings.by_method.get(m) for m in weights]
    if fused is None or any(p is None for p in parts):
        return None
    values = [p for p in parts if p is not None]
    if min(values) <= fused <= max(values):
        return None
    where = "above" if fused > max(values) else "below"
    weighted = sum(w * v for w, v in zip(weights.values(), values, strict=True))
    at_bound = findings.stated in findings.at_bound
    then = (
        "; the result is then cut to the validation's bound (the ELUB)"
        if at_bound
        else f", which moves it to {format_lr(fused)}"
    )
    return (
        f"The fused likelihood ratio ({format_lr(fused)}) lies {where} every ratio it combines "
        "because a fusion is not an average: as learned on the validation trials, it adds up "
        f"each method's log ratio times its weight ({weights_text(weights)}), which here gives "
        f"LR {format_lr(weighted)}, and a constant learned from the same trials{then}."
    )
