"""The words of a validation record's figures and of its acceptance criteria (plain text, no
Qt, no HTML), one vocabulary for the validation report, the case report, the command line and the
desktop's validation views.

- ``FIGURE_ORDER``, ``FIGURE_NAMES[key]``, ``FIGURE_MEANINGS[key]``: the record's figures
  (``cllr`` … ``ece``), their names and what each measures, in one sentence.
- ``figure_value(key, value)``: a figure as it is shown (shares in %, costs with 3 decimals);
  ``interval_text(key, interval)`` its 95 % interval.
- ``figure_lines(record)`` → ``[FigureLine]``: name, value, interval, meaning and ``reading``
  (what this value says) of every figure the record holds.
- ``acceptance_verdict(met)``: "criteria met" / "criteria NOT met" / "no acceptance criteria set".
- ``acceptance_lines(record)`` → ``[AcceptanceLine]`` (criterion, measured, met) and
  ``acceptance_sentence(record)``: the criteria, when they were set, met or not.
- ``finite_number(value)`` and ``trial_counts(record)``: shared by the other validation wordings.

The record's figure ``ece`` is the *expected calibration error*; the *empirical cross-entropy*
plot (``validation_plot_text.ECE_PLOT``) is a different quantity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeGuard

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.core.validation.validation import FIGURES
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time

FIGURE_ORDER = FIGURES  # the record's figures, in the engine's order
SHARE_FIGURES = frozenset({"eer", "accuracy", "misleading_y", "misleading_n"})
FIGURE_NAMES = {
    "cllr": "Cllr (log-likelihood-ratio cost)",
    "cllr_min": "Cllr_min (discrimination cost)",
    "cllr_cal": "Cllr_cal (calibration cost)",
    "eer": "Equal error rate (EER)",
    "auc": "Area under the ROC curve (AUC)",
    "accuracy": "Accuracy of the score threshold",
    "misleading_y": "Misleading evidence, same-author trials",
    "misleading_n": "Misleading evidence, different-author trials",
    "ece": "Expected calibration error",
}
FIGURE_MEANINGS = {
    "cllr": "The average cost of the likelihood ratios, discrimination and calibration "
    "together: 0 is perfect, 1 is the cost of reporting LR = 1 every time, above 1 is worse "
    "than giving no evidence.",
    "cllr_min": "The cost that would remain after the best possible monotone recalibration of "
    "these same trials (pool-adjacent-violators): the part of Cllr due to how well the scores "
    "separate the two kinds of trial.",
    "cllr_cal": "Cllr minus Cllr_min: the part of the cost due to likelihood ratios that are "
    "too large, too small or off-centre. Near 0 means well calibrated.",
    "eer": "The error rate at the threshold where the share of same-author trials below it "
    "equals the share of different-author trials above it.",
    "auc": "The chance that a same-author trial gets a larger likelihood ratio than a "
    "different-author trial: 0.5 is chance, 1 is perfect separation.",
    "accuracy": "The share of trials on the right side of the method's score threshold of 0.5 "
    "(a secondary figure: the likelihood ratio is what is reported).",
    "misleading_y": "The share of same-author trials whose likelihood ratio was below 1, i.e. "
    "supported Hd (different authors) although Hp was true.",
    "misleading_n": "The share of different-author trials whose likelihood ratio was above 1, "
    "i.e. supported Hp (same author) although Hd was true.",
    "ece": "At even prior odds, how far the probabilities the likelihood ratios imply are from "
    "the observed shares, averaged over ten bins: 0 is perfectly calibrated.",
}


def finite_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def figure_value(key: str, value: Any) -> str:
    """A figure as shown: shares in % with one decimal, the others with three decimals."""
    if not finite_number(value):
        return "not measured"
    return f"{numbers.percent(value)}" if key in SHARE_FIGURES else f"{numbers.decimal(value)}"


def interval_text(key: str, interval: Any) -> str:
    """ "0.791–0.912" (or "not measured")."""
    if not isinstance(interval, list | tuple) or len(interval) < 2:
        return "not measured"
    low, high = interval[0], interval[1]
    if not (finite_number(low) and finite_number(high)):
        return "not measured"
    return f"{figure_value(key, low)} – {figure_value(key, high)}"


def _reading(key: str, value: float, n_same: int, n_different: int) -> str:
    share = figure_value(key, value)
    if key == "cllr":
        if value >= 1:
            return (
                "At or above 1: these likelihood ratios cost at least as much as giving no "
                "evidence under these conditions."
            )
        return f"Below 1: the likelihood ratios carry information ({share} of the cost of none)."
    if key == "cllr_min":
        return f"Even perfectly calibrated, the scores leave a cost of {share}."
    if key == "cllr_cal":
        return f"Calibration adds {share} to the cost."
    if key == "eer":
        return f"At the best single threshold about {share} of the trials of each kind are wrong."
    if key == "auc":
        return (
            "A same-author trial outranked a different-author trial in "
            f"{numbers.percent(value, 0)} "
            "of the pairs compared."
        )
    if key == "accuracy":
        return f"{share} of the trials fell on the right side of the threshold."
    if key == "misleading_y":
        return (
            f"{share} of the {numbers.integer(n_same)} same-author trials supported the wrong "
            "proposition."
        )
    if key == "misleading_n":
        return (
            f"{share} of the {numbers.integer(n_different)} different-author trials supported the "
            "wrong "
            "proposition."
        )
    return f"The implied probabilities are off by {share} on average."


@dataclass(frozen=True)
class FigureLine:
    key: str
    name: str
    value: str
    interval: str
    meaning: str
    reading: str


def trial_counts(record: ValidationRecord) -> tuple[int, int]:
    protocol = record.protocol
    return int(protocol.trials_same or 0), int(protocol.trials_different or 0)


def figure_lines(record: ValidationRecord) -> list[FigureLine]:
    """Every figure of the record with its 95 % interval, meaning and reading."""
    figures = record.figures
    intervals = record.intervals
    n_same, n_different = trial_counts(record)
    lines = []
    for key in FIGURE_ORDER:
        if key not in figures.names:
            continue
        value = figures.value(key)
        reading = _reading(key, value, n_same, n_different) if finite_number(value) else ""
        lines.append(
            FigureLine(
                key,
                FIGURE_NAMES[key],
                figure_value(key, value),
                interval_text(key, intervals.value(key)),
                FIGURE_MEANINGS[key],
                reading,
            )
        )
    return lines


# --- acceptance ------------------------------------------------------------------------------


def acceptance_verdict(met: bool | None) -> str:
    """The acceptance criteria's outcome in words (None: no criteria were set)."""
    if met is None:
        return "no acceptance criteria set"
    return "criteria met" if met else "criteria NOT met"


@dataclass(frozen=True)
class AcceptanceLine:
    criterion: str  # "Cllr at most 0.9"
    measured: str  # "Cllr 0.849"
    met: bool


def judged_pessimistically(record: ValidationRecord) -> bool:
    """Whether the record's criteria were judged on the pessimistic end of each interval."""
    return record.acceptance.judged_on == "pessimistic"


def _upper(record: ValidationRecord, key: str) -> Any:
    interval = record.intervals.value(key)
    return interval[1] if interval is not None else None


def acceptance_lines(record: ValidationRecord) -> list[AcceptanceLine]:
    """Each criterion set before the run, the figure it was judged on, met or not: the upper
    end of the 95 % interval where the record was judged on the pessimistic end, else the
    point figure (records made before that rule)."""
    acceptance = record.acceptance
    criteria = acceptance.criteria
    results = acceptance.results
    figures = record.figures
    pessimistic = judged_pessimistically(record)
    lines = []
    if finite_number(criteria.max_cllr) and "cllr" in results:
        measured = f"Cllr {figure_value('cllr', figures.cllr)}"
        if pessimistic:
            measured += f", upper end {figure_value('cllr', _upper(record, 'cllr'))}"
        lines.append(
            AcceptanceLine(
                f"Cllr at most {numbers.short(criteria.max_cllr)}",
                measured,
                bool(results["cllr"]),
            )
        )
    if finite_number(criteria.max_misleading) and "misleading" in results:
        keys = ("misleading_y", "misleading_n")
        rates = (figures.value(k) for k in keys)
        worst = max((rate for rate in rates if finite_number(rate)), default=None)
        measured = f"the larger rate {figure_value('misleading_y', worst)}"
        if pessimistic:
            uppers = (_upper(record, k) for k in keys)
            upper = max((u for u in uppers if finite_number(u)), default=None)
            measured += f", upper end {figure_value('misleading_y', upper)}"
        lines.append(
            AcceptanceLine(
                "both rates of misleading evidence at most "
                f"{figure_value('misleading_y', criteria.max_misleading)}",
                measured,
                bool(results["misleading"]),
            )
        )
    return lines


JUDGED_PESSIMISTICALLY = (
    "judged on the pessimistic end of each figure's 95 % interval (the upper end for Cllr and "
    "the rates of misleading evidence), so a small population cannot pass by luck"
)


def acceptance_sentence(record: ValidationRecord) -> str:
    """The criteria in one sentence: when they were set, what they were, met or not."""
    acceptance = record.acceptance
    met = acceptance.met
    lines = acceptance_lines(record)
    if met is None or not lines:
        return (
            "No acceptance criteria were set before this validation: its figures describe the "
            "method's performance, but no pass or fail decision was made in advance."
        )
    set_utc = (
        recorded_time(str(set_at))
        if (set_at := acceptance.criteria.set_utc)
        else "an unrecorded time"
    )
    stated = "; ".join(line.criterion for line in lines)
    judged = (
        JUDGED_PESSIMISTICALLY
        if judged_pessimistically(record)
        else "judged on the cross-validated point figures"
    )
    return (
        f"Acceptance criteria set at {set_utc}, before the trials were built: {stated}. "
        f"{judged[0].upper()}{judged[1:]}: {'met' if met else 'NOT met'}."
    )
