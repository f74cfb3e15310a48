"""The stability paragraph of the case report's Summary: in how many resamples,
with a share of each side's sentences left out, the run's stated finding stayed the same — the
classification's for a model whose ratio follows it, otherwise the stated ratio's (named by its
method's face, ``presentation/ratio_stability_text``) with the classification's beside it."""

from __future__ import annotations

from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import share_text
from taveer_desktop.presentation.face_registry import quotes_classification
from taveer_desktop.presentation.ratio_stability_text import (
    ratio_stability_method,
    ratio_stability_sentence,
    stability_owner,
    taveer_only_note,
)
from taveer_desktop.report.blocks import Block, Paragraph
from taveer_desktop.report.escape import html_text
from taveer_desktop.report.inputs import ReportInputs
from taveer_desktop.report.wording import stored_time


def stability(inputs: ReportInputs) -> list[Block]:
    """How stable the run's stated finding is when sentences are left out: the classification's
    where it is the finding, else the stated ratio's first and the classification's beside it
    (or, for a check stored before the stated ratio was resampled, the classification's with a
    note saying so); that it was not assessed where no check is stored."""
    check = inputs.stability
    methods = inputs.verification.methods
    stated = methods.stated if methods else None
    if check is None:
        head = f"Stability of {stability_owner(stated)}"
        return [Paragraph(f"<b>{head}.</b> Not assessed for this run.", "small")]
    how = (
        f"In {numbers.count(check.resamples, 'repetition')} in "
        f"which a random {100 - round(check.keep_fraction * 100)} % of the sentences of "
        f"each side was left out (seed {check.seed}, stored with the run on "
        f"{stored_time(check.computed_utc)}), "
    )
    classification = (
        f"{share_text(check.agreeing, check.resamples)} "
        f"gave the same classification; the middle 95 % of the scores lay between "
        f"{numbers.decimal(check.interval_low)} and {numbers.decimal(check.interval_high)}. "
        "This shows whether the "
        "classification hinges on a handful of sentences; it is not the probability that "
        "it is right."
    )
    if stated is None or quotes_classification(stated):  # no other ratio stated
        return [Paragraph(f"<b>Stability of the classification.</b> {how}{classification}")]
    assert methods is not None
    ratio = check.ratio
    if ratio is None:  # a check stored before the stated ratio was resampled
        whose = html_text(taveer_only_note(stated))
        return [
            Paragraph(f"<b>Stability of TAVeer's classification.</b> {how}{classification} {whose}")
        ]
    sentence = ratio_stability_sentence(ratio, methods.by_method.get(stated))
    return [
        Paragraph(
            f"<b>Stability of {html_text(stability_owner(stated))}.</b> {how}"
            f"{html_text(sentence[0].lower() + sentence[1:])} This shows whether the stated "
            "ratio hinges on a handful of sentences; it is not the probability that it is "
            f"right. {html_text(ratio_stability_method(ratio))}"
        ),
        Paragraph(
            f"<b>Stability of TAVeer's classification</b> (the same resamples): {classification}",
            "small",
        ),
    ]
