"""Every method of a validation record side by side, in words (plain text, no Qt).

A validation that compared methods keeps, per method id, its figures on the same held-out trials
and what its run cost (``record["methods"][id]``: every figure of ``validation_figures.FIGURES``,
``trials`` scored, ``cannot_compare`` — trials the method refused, giving no ratio —,
``seconds_per_trial``, ``deterministic``, and for a seeded method ``seed_spread`` {"auc": [lo,
hi], "cllr": [lo, hi]} across seeds), and ``record["comparison"]`` says which methods were
compared, which one is stated and the rule registered before the run that chose it, if any.
A LambdaG or fused record made before comparisons keeps only the figures; what it lacks is
read from its trials (``log10_lr_by_method``) or shown as not recorded.

The record view's table model and the validation report both show ``comparison_table``; names,
short names and determinism come from the registry (``core/ground/registry.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.core.trials.validation_settings import LOWEST_PESSIMISTIC_CLLR
from taveer_desktop.core.validation.method_figures import MethodFigures
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.face_registry import face, fuses
from taveer_desktop.presentation.fusion_text import (
    record_fusion,
    record_method_label,
    record_method_name,
)
from taveer_desktop.presentation.method_agreement import (
    compared_methods,
    method_label,
    record_method,
)
from taveer_desktop.presentation.method_costs import per_trial_text
from taveer_desktop.presentation.method_names import and_joined, names_text, verb
from taveer_desktop.presentation.validation_figures_text import figure_value

RULE_WORDS = {LOWEST_PESSIMISTIC_CLLR: "state the method with the lowest pessimistic Cllr"}

# (key, heading, what it is): the comparison table's columns after the method's name
COLUMNS = (
    ("accuracy", "Accuracy", "share of trials on the right side of the score threshold"),
    ("auc", "AUC", "area under the ROC curve: 1 separates every trial, 0.5 is chance"),
    ("cllr", "Cllr", "cost of the likelihood ratios: 0 perfect, 1 no better than no evidence"),
    ("cllr_min", "Cllr_min", "the cost left after perfect calibration: discrimination alone"),
    ("eer", "EER", "equal error rate of the score"),
    ("trials", "Scored", "trials the method gave a likelihood ratio for"),
    ("cannot_compare", "Not compared", "trials the method could not compare (no ratio given)"),
    ("seconds_per_trial", "Per trial", "wall-clock time per trial in this validation"),
    ("seed_spread", "Seed spread", "AUC and Cllr across seeds (seeded methods only)"),
)
HEADINGS = ("Method", *(heading for _, heading, _ in COLUMNS))
NOT_RECORDED = "not recorded"
STATED_MARK = " (stated)"


@dataclass(frozen=True)
class ComparedMethod:
    """One row of the comparison: the method, whether it is stated, its cells (one per
    ``COLUMNS`` entry, as shown), and whether it draws at random."""

    method: str
    name: str
    stated: bool
    cells: tuple[str, ...]
    deterministic: bool

    @property
    def label(self) -> str:
        """The name as the table's first column shows it, the stated method marked."""
        return self.name + (STATED_MARK if self.stated else "")


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _scored_from_trials(record: ValidationRecord, method: str) -> tuple[int, int] | None:
    """(scored, not scored) counted from the trials' ``log10_lr_by_method`` (None: the record
    keeps no trials with ratios by method)."""
    by_trial = [t.log10_lr_by_method for t in record.trials]
    if not any(by_trial):
        return None
    scored = sum(1 for b in by_trial if _number(b.get(method)) is not None)
    return scored, len(by_trial) - scored


def _count(value: Any) -> str:
    number = _number(value)
    return NOT_RECORDED if number is None else numbers.integer(int(number))


def _seconds(record: ValidationRecord, method: str, block: MethodFigures | None) -> str:
    seconds = block.seconds_per_trial if block is not None else None
    settings_key = face(method).settings_key  # a record from before comparisons kept it there
    if seconds is None and settings_key is not None:
        settings = getattr(record, settings_key, None)
        seconds = _number(getattr(settings, "seconds_per_trial", None))
    return NOT_RECORDED if seconds is None else per_trial_text(seconds).removesuffix(" per trial")


def _spread(block: MethodFigures | None, deterministic: bool) -> str:
    if deterministic:
        return "deterministic"
    spread = (block.seed_spread if block is not None else None) or {}
    parts = []
    for key, name in (("auc", "AUC"), ("cllr", "Cllr")):
        if key in spread:
            low, high = spread[key]
            parts.append(f"{name} {numbers.decimal(low, 2)}–{numbers.decimal(high, 2)}")
    return "; ".join(parts) if parts else NOT_RECORDED


def _deterministic(method: str, block: MethodFigures | None) -> bool:
    if block is not None:
        return block.deterministic
    try:
        return method_info(method).deterministic
    except KeyError:
        return True


def compared_row(record: ValidationRecord, method: str, stated: str) -> ComparedMethod:
    """One method's row of the comparison."""
    block = record.methods.get(method)
    deterministic = _deterministic(method, block)
    counted = _scored_from_trials(record, method)
    cells = []
    for key, _, _ in COLUMNS:
        if key == "trials":
            value = block.trials if block is not None else None
            cells.append(_count(counted[0] if value is None and counted else value))
        elif key == "cannot_compare":
            value = block.cannot_compare if block is not None else None
            cells.append(_count(counted[1] if value is None and counted else value))
        elif key == "seconds_per_trial":
            cells.append(_seconds(record, method, block))
        elif key == "seed_spread":
            cells.append(_spread(block, deterministic))
        else:
            cells.append(figure_value(key, block.figures.get(key) if block else None))
    return ComparedMethod(
        method, record_method_label(record, method), method == stated, tuple(cells), deterministic
    )


def comparison_table(record: ValidationRecord) -> list[ComparedMethod]:
    """Every method of the record, the stated one first (empty: a one-method record)."""
    methods = compared_methods(record)
    stated = record_method(record)
    return [compared_row(record, m, stated) for m in methods]


def rule_sentence(record: ValidationRecord) -> str:
    """How the stated method was chosen: by a rule registered before the run, or by the
    examiner before the run."""
    comparison = record.comparison
    stated = record_method_name(record)
    if comparison is None:
        return f"{stated} was chosen as the stated method before the run; no rule was registered."
    rule = comparison.rule
    if not rule:
        return (
            f"{stated} was chosen as the stated method before the run; no rule was registered "
            "to choose it from the results."
        )
    when = comparison.rule_set_utc
    registered = (
        f"registered {recorded_time(str(when))}, before the run"
        if when
        else "registered before the run"
    )
    words = RULE_WORDS.get(str(rule), str(rule))
    return f"Rule ({registered}): {words}. By this rule the stated method is {stated}."


def fusion_record_sentence(record: ValidationRecord) -> str | None:
    """Which methods a record's fusion combines and each one's final weight (None: no
    fusion in the record)."""
    ran = (record_method(record), *record.methods)
    if not any(fuses(m) for m in ran):
        return None
    fused = record_fusion(record)
    weights = ", ".join(
        f"{method_label(m)} {'not recorded' if w is None else numbers.decimal(w)}"
        for m, w in fused.items()
    )
    left = record.fusion.left_out if record.fusion is not None else None
    left_text = (
        f" {numbers.count(int(left), 'trial')} that a fused method could not compare "
        "were left out of the fusion."
        if isinstance(left, int) and left
        else ""
    )
    return (
        f"The fusion combines {names_text(fused)} by logistic regression of their calibrated "
        f"log likelihood ratios, cross-validated on the same folds; its weights: {weights} (a "
        f"weight of 0 means the method carried no weight in the fused ratio).{left_text}"
    )


def comparison_note(record: ValidationRecord) -> str:
    """What the comparison table is, beneath it."""
    rows = comparison_table(record)
    seeded = [r.name for r in rows if not r.deterministic]
    text = (
        "Each row is one method's likelihood ratios on the same cross-validated trials (every "
        "trial scored by models that had not seen its authors). The intervals, the acceptance "
        "criteria and the charts of the other tabs are the stated method's only. A method that "
        "could not compare a trial gives no ratio for it; its figures are of the trials it "
        "scored."
    )
    if seeded:
        text += (
            f" {and_joined(seeded)} {verb(len(seeded), 'draws')} at random: the seed spread is "
            "the range of AUC and Cllr across the validation's seeds."
        )
    fused = fusion_record_sentence(record)
    return f"{text} {fused}" if fused else text
