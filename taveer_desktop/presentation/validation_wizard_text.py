"""The words of the desktop's validation steps: the wizard's pages, the one-line summary of a
model's validation in the case view and the model manager (plain text, no Qt).

What a validation record's figures, acceptance, protocol and limits mean is worded once, in
``presentation/validation_figures_text.py`` and ``validation_text.py``; this module only words
the steps around them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from taveer_desktop.core.trials.validation_settings import DEFAULT_FUSE
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.face_registry import face, fuses
from taveer_desktop.presentation.method_agreement import record_method
from taveer_desktop.presentation.method_names import record_fused, stated_name, with_method_words
from taveer_desktop.presentation.numbers import count
from taveer_desktop.presentation.validation_figures_text import (
    acceptance_verdict,
    figure_value,
    interval_text,
)
from taveer_desktop.presentation.validation_range_text import RANGE_MEANING
from taveer_desktop.presentation.validation_text import casework_shortfalls

CRITERIA_NOTE = (
    "Leave a box unticked to set no criterion of that kind; with none, the record says that no "
    "pass or fail decision was made in advance. There is no universal good Cllr: decide from "
    "what the case needs, not from the result. The misleading-evidence criterion applies to "
    "both rates: same-author trials that supported Hd and different-author trials that "
    "supported Hp."
)


def method_plan_words(
    method: str, lambdag_order: int, lambdag_samples: int, fuse: Sequence[str] = DEFAULT_FUSE
) -> str:
    """The method as the run page's plan states it (a fusion by the methods it combines)."""
    words = f"Method: {stated_name(method, fuse)}"
    ran = (method, *fuse) if fuses(method) else (method,)
    settings = [face(m).plan_settings for m in ran if face(m).plan_settings]
    if not settings:
        return words + "."
    samples = count(lambdag_samples, "reference sample")
    return f"{words}, {settings[0].format(order=lambdag_order, samples=samples)}."


def population_imported_text(population: Any, warnings: Sequence[str]) -> str:
    """What an import stored, and what it left out (one line per warning)."""
    text = (
        f"Stored the population “{population.name}”: "
        f"{count(population.author_count, 'author')}, "
        f"{count(population.document_count, 'document')}, each hashed; the import is in the "
        "audit log."
    )
    if warnings:
        shown = list(warnings[:5])
        more = len(warnings) - len(shown)
        text += "\nLeft out: " + "; ".join(shown) + (f"; and {more:,} more" if more > 0 else "")
    return text


def case_conditions_text(case_number: str, questioned: Sequence[Any], known: Sequence[Any]) -> str:
    """The case's documents in use and the lengths the trials will be cut to."""
    if not questioned or not known:
        return (
            f"Case {case_number} needs known and questioned documents in use before its "
            "conditions can be taken from them; give the lengths by hand."
        )
    longest = max(d.char_count for d in questioned)
    together = sum(d.char_count for d in known)
    return (
        f"Case {case_number}: {count(len(questioned), 'questioned document')} in use (the "
        f"longest has {longest:,} characters) and {count(len(known), 'known document')} in use "
        f"({together:,} characters together). The range below must hold both lengths."
    )


def lengths_note(case_lengths: tuple[int, int] | None, lengths: tuple[int, int]) -> str:
    """Whether the lengths are the case's own; a warning when they are not."""
    if case_lengths is None:
        return "Lengths given by hand."
    if tuple(lengths) == tuple(case_lengths):
        return "These are the case's own lengths."
    return (
        f"Not the case's lengths ({case_lengths[0]:,} questioned, {case_lengths[1]:,} known "
        "characters): the validation will describe texts of the lengths given here, and the "
        "record says so."
    )


def _criteria_words(criteria: dict[str, Any]) -> str:
    parts = []
    if criteria.get("max_cllr") is not None:
        parts.append(f"Cllr at most {criteria['max_cllr']:g}")
    if criteria.get("max_misleading") is not None:
        parts.append(
            "both rates of misleading evidence at most "
            f"{figure_value('misleading_y', criteria['max_misleading'])}"
        )
    if not parts:
        return "no acceptance criteria (the record will say that none was set)"
    when = recorded_time(str(criteria.get("set_utc") or "")) or "an unrecorded time"
    return "; ".join(parts) + f" (set at {when})"


def validation_plan_text(
    case_number: str,
    population_name: str,
    lengths: tuple[int, int] | None,
    folds: int,
    max_trials: int,
    seed: int,
    criteria: dict[str, Any],
    method: str = "",
    ranges: tuple[tuple[int, int], tuple[int, int]] | None = None,
    repeats: int = 1,
) -> str:
    """What the run will do, in the order it does it (``method``: ``method_plan_words``;
    ``ranges``: the declared casework range, else the case's own ``lengths``)."""
    q, k = lengths or (None, None)
    if ranges:
        (q_low, q_high), (k_low, k_high) = ranges
        shown = (
            f"the declared casework range, questioned texts of {q_low:,}–{q_high:,} and known "
            f"texts of {k_low:,}–{k_high:,} characters"
        )
        repeated = (
            f"cross-validation repeated {count(repeats, 'time')} (seeds {seed}–"
            f"{seed + repeats - 1}) and pooled"
            if repeats > 1
            else f"cross-validation run once (seed {seed})"
        )
    else:
        shown = (
            f"questioned texts of about {q:,} and known texts of about {k:,} characters"
            if q and k
            else "whole documents"
        )
        repeated = f"seed {seed}"
    plan = (
        f"Population: “{population_name}”. Conditions of case {case_number}: {shown}. "
        f"{folds} folds by author, at most {max_trials:,} trials, {repeated}.\n"
    )
    return (
        plan
        + (f"{method}\n" if method else "")
        + f"Acceptance criteria: {_criteria_words(criteria)}.\n"
        "When it has finished, the model it produces, the validation record (linked to the "
        "case, the population and the model) and the choice of that model for the case are "
        "stored, each audited; earlier validations of the case are kept."
    )


def validation_stored_text(
    model_name: str, chosen: bool = True, case_model: str | None = None, met: bool | None = None
) -> str:
    """After the run: stored, and whether its model became the case's (a failed attempt does
    not replace a model whose validation met its criteria)."""
    if chosen:
        return f"Stored. The model “{model_name}” is now this case's model."
    from taveer_desktop.presentation.validation_basis_text import model_choice_sentence

    sentence = model_choice_sentence(False, model_name, case_model, met)
    return f"Stored as one more attempt of this case. The {sentence[0].lower()}{sentence[1:]}."


def record_subtitle(record: ValidationRecord, case_number: str) -> str:
    """The record page's one line: population, trials, Cllr and the verdict."""
    protocol = record.protocol
    method = record_method(record)
    with_method = f" {with_method_words(method, record_fused(record))}".rstrip()
    return (
        f"Case {case_number}{with_method} on “{record.population.name}”: "
        f"{protocol.trials_same or 0:,} same-author and "
        f"{protocol.trials_different or 0:,} different-author trials, cross-validated "
        f"Cllr {figure_value('cllr', record.figures.cllr)} — "
        f"{acceptance_verdict(record.acceptance.met)}."
    )


def acceptance_headline(met: bool | None, pessimistic: bool = False) -> str:
    """The acceptance outcome as the record view's headline, in plain words (``pessimistic``:
    judged on the pessimistic end of each figure's interval)."""
    if met is None:
        return "No acceptance criteria were set before this validation."
    judged = " (judged on the pessimistic end of each interval)" if pessimistic else ""
    if met:
        return f"Acceptance criteria met{judged}: every criterion set before the run was satisfied."
    return f"Acceptance criteria NOT met{judged}: at least one criterion set before the run failed."


def model_validation_line(record: ValidationRecord | None) -> str:
    """One line on the validation that produced a model (its summary or its stored record):
    its Cllr and verdict first, the population's name (often long) last, so that a line cut at
    the window's edge keeps the figures."""
    if record is None or not record.raw:
        return "Validation: none recorded for this model."
    interval = interval_text("cllr", record.intervals.cllr)
    shown = figure_value("cllr", record.figures.cllr)
    if interval != "not measured":
        shown += f" (95 % {interval})"
    met = record.acceptance.met
    small = " Too small for casework." if casework_shortfalls(record) else ""
    method = record_method(record)
    with_method = f" {with_method_words(method, record_fused(record))}".rstrip()
    return (
        f"Validated{with_method}: cross-validated Cllr {shown}; {acceptance_verdict(met)}; "
        f"population “{record.population.name}”.{small}"
    )


def validation_report_written_text(exported: Any) -> str:
    """What an exported validation report is, where it is and how it was recorded."""
    text = (
        f"Written: {exported.path} ({count(exported.page_count, 'page')}, SHA-256 "
        f"{exported.sha256[:12]}…), recorded in the audit log."
    )
    if exported.receipt_path is not None:
        text += f" Receipt beside it: {Path(exported.receipt_path).name}."
    elif exported.receipt_problem:
        text += f" No receipt was written ({exported.receipt_problem})."
    return text


# --- issue 21: the range, the model's name, the attempts --------------------------------------


def range_note(
    case_lengths: tuple[int, int] | None,
    ranges: tuple[tuple[int, int], tuple[int, int]],
    problem: str,
) -> str:
    """Under the range: why it cannot be used, or what it means and where the case lies."""
    if problem:
        return f"Cannot go on: {problem}. The case's own lengths must lie inside the range."
    where = (
        f"This case ({case_lengths[0]:,} questioned, {case_lengths[1]:,} known characters) lies "
        "inside it. "
        if case_lengths
        else ""
    )
    return where + RANGE_MEANING


def model_name_problem(name: str, used: Collection[str]) -> str:
    """Why a model name cannot be used ("" when it can): checked before any work starts."""
    name = " ".join(name.split())
    if not name:
        return "Give the model a name: the case, its report and the audit log will name it."
    if name in used:
        return (
            f"A model named “{name}” is already in this project; choose another name. Nothing "
            "has been run."
        )
    return ""


def suggested_model_name(
    case_number: str,
    population: str,
    method: str,
    ranges: tuple[tuple[int, int], tuple[int, int]] | None,
    seed: int,
    used: Collection[str],
    fuse: Sequence[str] = DEFAULT_FUSE,
) -> str:
    """A name for the model that says what it is and is not used in the project yet."""
    # as store/case_validation names a model it names itself
    with_method = f"{with_method_words(method, fuse)} ".lstrip()
    chars = (
        f"{ranges[0][0]:,}–{ranges[0][1]:,}/{ranges[1][0]:,}–{ranges[1][1]:,} chars, "
        if ranges
        else ""
    )
    base = f"Validated {with_method}for case {case_number} on {population} ({chars}seed {seed})"
    name, n = base, 2
    while name in used:
        name, n = f"{base} #{n}", n + 1
    return name


def earlier_attempts_line(attempts: Sequence[Any], case_number: str, failed: int = 0) -> str:
    """The population page's first line: what was tried before for this case (``failed``:
    the validations that gave no model, kept in the audit trail with their reasons)."""
    if not attempts and not failed:
        return f"Case {case_number} has not been validated in this project before."
    gave_none = f"{count(failed, 'attempt')} failed and gave no model" if failed else ""
    if not attempts:
        return (
            f"Case {case_number} has no validation record yet: {gave_none}. The last page lists "
            "every attempt with its reason."
        )
    met = sum(1 for a in attempts if a.met)
    also = f"; {gave_none}" if failed else ""
    return (
        f"Case {case_number} already has {count(len(attempts), 'validation')} ({met:,} met "
        f"its criteria{also}); a new one is kept beside them, never in their place, and the "
        "last page lists them all."
    )


CRITERIA_PESSIMISTIC = (
    "Each criterion is judged on the pessimistic end of its figure's 95 % interval over authors "
    "(the upper end for Cllr and the misleading rates), so a small population cannot pass by "
    "luck."
)
