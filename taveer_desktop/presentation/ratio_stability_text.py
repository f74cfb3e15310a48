"""Whose stability a run quotes, in the same words in the desktop, the report and the CLI.

A TAVeer model's ratio is a function of TAVeer's score, so the stability of its classification
is that of its ratio. Any other model states another ratio; its stability check recomputes that
ratio in every resample (``core/stability/stated_stability.py``) and quotes the stated ratio's
stability first, naming the method, then TAVeer's classification's. For a method that draws at
random (IM, SPATIUM, Unmasking, Generalised Unmasking) the sentence says that its random choices
were made afresh in each resample, so the range reflects them as well as the sentences left out. A
check stored before the stated ratio was resampled says plainly that it is TAVeer's alone.
"""

from __future__ import annotations

import html

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.core.methods.taveer.stability import RatioStability
from taveer_desktop.presentation.conclusion_text import format_lr, share_text
from taveer_desktop.presentation.explanation_data import (
    StabilityFigures,
    stability_method,
    stability_sentence,
)
from taveer_desktop.presentation.face_registry import face, quotes_classification
from taveer_desktop.presentation.method_face import short_name
from taveer_desktop.presentation.method_names import and_joined

STABILITY_OF_TAVEER_ONLY = (
    "This check resampled TAVeer only (it was stored before the stated ratio was resampled), "
    "so it is the stability of TAVeer's classification, not of the stated ratio ({method}): "
    "compute the stability again for the stated ratio's."
)

DRAWN_AFRESH_METHOD = (
    "{methods} {verb} at random, so each resample draws with its own seed (from the check's seed "
    "and the resample's number): the spread of the resampled ratios covers those random draws "
    "as well as the sentences left out."
)


def _names(methods: tuple[str, ...]) -> str:
    return and_joined([short_name(m) for m in methods])


def ratio_stability_method(ratio: RatioStability) -> str:
    """How the stated ratio was resampled (a tooltip, the report's method sentence)."""
    text = face(ratio.method).stability_method
    if ratio.drawn_afresh:
        verb = "draws" if len(ratio.drawn_afresh) == 1 else "draw"
        text += " " + DRAWN_AFRESH_METHOD.format(methods=_names(ratio.drawn_afresh), verb=verb)
    return text


def stability_owner(stated: str | None, ratio_resampled: bool = True) -> str:
    """Whose stability is quoted first: "the classification" for a TAVeer model, the stated
    ratio's ("the stated ratio (the fused ratio)") where it is resampled, else "TAVeer's
    classification"."""
    if stated is None or quotes_classification(stated):
        return "the classification"
    if ratio_resampled:
        return f"the stated ratio ({_whose_ratio(stated)})"
    return "TAVeer's classification"


def taveer_only_note(stated: str) -> str:
    """That a stored check resampled TAVeer only, not the stated ratio."""
    return STABILITY_OF_TAVEER_ONLY.format(method=_whose_ratio(stated))


def _whose_ratio(stated: str) -> str:
    return face(stated).ratio_phrase


def _side(log10_lr: float | None) -> str:
    if log10_lr is None or log10_lr == 0:
        return "exactly 1"
    return "above 1, towards Hp" if log10_lr > 0 else "below 1, towards Hd"


def ratio_stability_sentence(ratio: RatioStability, stated_log10_lr: float | None) -> str:
    """'187 of 200 (93.5 %) resamples give a ratio on the same side of 1 as the stated one
    (above 1, towards Hp) when COAV's ratio is recomputed from the sentences each kept; 95 % of
    the resampled ratios lie between 3.21 and 41.0.' For a method that draws at random it adds
    that its random choices were made afresh each time and that the range reflects them too.
    (Equal ends: every resample's ratio was the same, e.g. its validation's bound.)"""
    low, high = ratio.log10_lr_interval
    sentence = (
        f"{share_text(ratio.agreeing, ratio.resamples)} resamples give a ratio on the same side "
        f"of 1 as the stated one ({_side(stated_log10_lr)}) when {_whose_ratio(ratio.method)} "
        "is recomputed from the sentences each kept"
    )
    if ratio.drawn_afresh:
        sentence += f", with {_names(ratio.drawn_afresh)}'s random choices made afresh each time"
    if low == low and high == high:  # not NaN
        sentence += (
            f"; 95 % of the resampled ratios lie between {format_lr(low)} and {format_lr(high)}"
        )
        if ratio.drawn_afresh:
            sentence += ", a range that reflects both the sentences left out and those choices"
    sentence += "."
    if ratio.without_ratio:
        sentence += f" {share_text(ratio.without_ratio, ratio.resamples)} gave no ratio at all."
    return sentence


def stability_html(
    figures: StabilityFigures, prediction: Classification, findings: MethodFindings | None
) -> tuple[str, str]:
    """The stability line of the Decision tab (HTML) and its tooltip: the stated ratio's
    first where it was resampled, then TAVeer's classification's, each labelled."""
    stated = findings.stated if findings else None
    classification = html.escape(stability_sentence(figures, prediction))
    tip = stability_method(figures)
    if stated is None or quotes_classification(stated):
        return f"<b>Stability of the classification:</b> {classification}", tip
    assert findings is not None
    ratio = figures.ratio
    if ratio is None:
        tip += " " + taveer_only_note(stated)
        return f"<b>Stability of TAVeer's classification:</b> {classification}", tip
    owner = html.escape(stability_owner(ratio.method))
    stated_value = findings.by_method.get(stated)
    text = html.escape(ratio_stability_sentence(ratio, stated_value))
    return (
        f"<b>Stability of {owner}:</b> {text}<br>"
        f"<b>Stability of TAVeer's classification:</b> {classification}",
        f"{tip} {ratio_stability_method(ratio)}",
    )
