"""Whether the stated ratio's direction depends on the validation's seed, in words a lawyer reads.

A validation draws its test pairs at random, repeated with several seeds; the model keeps what
each repeat alone gave (``core/calibration/repeat_agreement.py``). One sentence says what the
case's ratio was under each: the same direction (the stated ratio stands), different directions
(the ratio is stated as 1, no support either way, and why), or that the check could not be made.
Used by the command line, the desktop's summary and the report; the gate's reason for a ratio
stated as 1 is ``refusal_text.PLAIN_REASONS`` (one rule, one set of words).
"""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import GateRule
from taveer_desktop.core.calibration.repeat_agreement import (
    NotPossible,
    RepeatAgreement,
    RepeatStatus,
)
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.refusal_text import PLAIN_REASONS

REPEATS_PLAIN = PLAIN_REASONS[GateRule.REPEATS_DISAGREE]
NOT_POSSIBLE = {
    NotPossible.NO_REPEAT_FITS: (
        "Whether the direction of the likelihood ratio depends on the random draw of the "
        "validation's test pairs could not be checked: the model keeps no repeat of a "
        "validation (it was trained without one, or validated before models kept each repeat; "
        "validate it to have this checked)."
    ),
    NotPossible.METHOD_KEEPS_NONE: (
        "Whether the direction of the likelihood ratio depends on the random draw of the "
        "validation's test pairs could not be checked: the model keeps each repeat of its "
        "validation for TAVeer's own ratio only, not for the method whose ratio it states (it "
        "was validated before every method kept its own; validate it again to have this "
        "checked)."
    ),
    NotPossible.ONE_REPEAT: (
        "Whether the direction of the likelihood ratio depends on the random draw of the "
        "validation's test pairs could not be checked: the validation drew them only once "
        "(validate with at least two repeats to have it checked)."
    ),
}


def _range(agreement: RepeatAgreement) -> str:
    low, high = agreement.lowest, agreement.highest
    if low is None or high is None:
        return "no likelihood ratio"
    return f"likelihood ratios from {format_lr(low)} to {format_lr(high)}"


def _seeds(agreement: RepeatAgreement) -> str:
    seeds = agreement.seeds
    if not seeds:
        return ""
    if len(seeds) == 1:
        return f" (seed {seeds[0]})"
    return f" (seeds {seeds[0]} to {seeds[-1]})"


def repeat_sentence(agreement: RepeatAgreement | None) -> str | None:
    """The sentence about the repeats (None: a result from before the check, or no ratio)."""
    if agreement is None:
        return None
    if agreement.status is RepeatStatus.NOT_POSSIBLE:
        return NOT_POSSIBLE.get(agreement.reason) if agreement.reason is not None else None
    n = len(agreement.log10_lrs)
    repeats = numbers.count(n, "time")
    drawn = (
        f"The validation drew its test pairs at random and was repeated {repeats} with "
        f"different draws{_seeds(agreement)}; fitted on each draw alone, the method gives this "
        f"case {_range(agreement)}"
    )
    if agreement.status is RepeatStatus.AGREE:
        return (
            f"{drawn}, all pointing the same way as the stated ratio, so its direction does not "
            "depend on the draw."
        )
    final = agreement.final_log10_lr
    hp, hd = agreement.towards_hp, agreement.towards_hd
    none = n - hp - hd
    split = f"{hp} towards Hp and {hd} towards Hd" + (
        f", {none} at or without a ratio" if none else ""
    )
    fitted = f" (fitted on all draws together: {format_lr(final)})" if final is not None else ""
    return (
        f"{drawn} — {split}{fitted}. That is, {REPEATS_PLAIN} (a ratio of 1 here says that "
        "the direction is uncertain, not that the texts were found to weigh equally)."
    )
