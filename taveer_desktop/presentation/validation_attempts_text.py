"""The words for every validation attempt of a case: what was tried (when, method, population,
seed, criteria), what came of it (met or not, Cllr with its interval, the model) and which one
the case's conclusion rests on (plain text, no Qt, no HTML).

An attempt is read from its stored record defensively (records of every version). The case
report, the wizard's attempts list and the command line word the attempts with these functions,
so an examiner and a reader of the report see the same list: a validation that failed, or was
run again with another seed, method or criteria, is never hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.ground.registry import method_name
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.fusion_text import (
    record_method_name,
)
from taveer_desktop.presentation.validation_figures_text import figure_value, interval_text
from taveer_desktop.presentation.validation_range_text import (
    casework_verdict,
    declared_ranges,
    range_text,
)


@dataclass(frozen=True)
class Attempt:
    """One validation run for a case, as listed."""

    validation_id: int
    when: str  # "2025-01-31 09:15:02 UTC"
    method: str  # "TAVeer"
    population: str
    seed: str  # "0" or "0–2" over repeats
    criteria: str  # "Cllr ≤ 0.5; misleading ≤ 10.0 %" or "none set"
    met: bool | None
    cllr: str  # "0.849 (0.797 – 0.892)"
    model: str
    chosen: bool
    lengths: str  # "Q 1,500–3,000, K 3,000–8,000 characters"
    too_small: bool
    record_sha256: str = ""
    declared: str | None = None  # a record declared relevant to the case: the examiner's reason


ATTEMPT_COLUMNS = (
    "#",
    "When",
    "Method",
    "Population",
    "Seed",
    "Criteria",
    "Met",
    "Cllr (95 %)",
    "Model",
    "Chosen",
)


def _criteria(record: ValidationRecord) -> str:
    criteria = record.acceptance.criteria
    parts = []
    if criteria.max_cllr is not None:
        parts.append(f"Cllr ≤ {numbers.short(float(criteria.max_cllr))}")
    if criteria.max_misleading is not None:
        parts.append(f"misleading ≤ {figure_value('misleading_y', criteria.max_misleading)}")
    return "; ".join(parts) or "none set"


def _seed(record: ValidationRecord) -> str:
    seeds = record.repeats.seeds if record.repeats is not None else None
    if seeds is not None and len(seeds) > 1:
        return f"{seeds[0]}–{seeds[-1]}"
    seed = record.protocol.seed
    return "–" if seed is None else str(seed)


def attempt_of(
    validation_id: int,
    created_utc: str,
    record: ValidationRecord,
    model_name: str,
    chosen: bool,
    record_sha256: str = "",
    declared: str | None = None,
) -> Attempt:
    """One stored validation record as an attempt of its case (``declared``: the examiner's
    reason, for a record run for another case and declared relevant to this one)."""
    cllr = figure_value("cllr", record.figures.cllr)
    interval = interval_text("cllr", record.intervals.cllr)
    questioned, known = declared_ranges(record)
    return Attempt(
        validation_id=validation_id,
        when=recorded_time(created_utc or record.created_utc or ""),
        method=record_method_name(record),
        population=record.population.name or "–",
        seed=_seed(record),
        criteria=_criteria(record),
        met=record.acceptance.met,
        cllr=cllr if interval == "not measured" else f"{cllr} ({interval})",
        model=model_name,
        chosen=chosen,
        lengths=f"Q {range_text(questioned)}, K {range_text(known)}",
        too_small=casework_verdict(record).too_small,
        record_sha256=record_sha256,
        declared=declared,
    )


def met_word(met: bool | None) -> str:
    return "no criteria" if met is None else "met" if met else "NOT met"


def attempt_cells(attempt: Attempt) -> tuple[str, ...]:
    """The attempt's row, in ``ATTEMPT_COLUMNS`` order."""
    return (
        str(attempt.validation_id) + ("*" if attempt.declared else ""),
        attempt.when,
        attempt.method,
        attempt.population,
        attempt.seed,
        attempt.criteria,
        met_word(attempt.met) + (" · too small" if attempt.too_small else ""),
        attempt.cllr,
        attempt.model,
        "chosen" if attempt.chosen else "",
    )


def attempts_sentence(attempts: Sequence[Attempt], case_number: str) -> str:
    """How many validations were run for the case, how many met their criteria, and which one
    the case rests on."""
    if not attempts:
        return f"No validation has been run for case {case_number} in this project."
    met = sum(1 for a in attempts if a.met)
    failed = sum(1 for a in attempts if a.met is False)
    declared = sum(1 for a in attempts if a.declared)
    run_here = (
        f"{'was' if len(attempts) == 1 else 'were'} run for case {case_number}"
        if not declared
        else f"{'is' if len(attempts) == 1 else 'are'} linked to case {case_number} "
        f"({numbers.integer(len(attempts) - declared)} run for it, "
        f"{numbers.integer(declared)} run for another case and declared relevant to it, "
        "marked *)"
    )
    text = (
        f"{numbers.count(len(attempts), 'validation')} {run_here}: "
        f"{numbers.integer(met) if met else 'none'} met its criteria, "
        f"{numbers.integer(failed) if failed or not met else 'none'} did not"
    )
    unset = len(attempts) - met - failed
    if unset:
        text += f", {numbers.integer(unset)} had none set"
    text += ". Every one is listed, in the order it was run."
    chosen = [a for a in attempts if a.chosen]
    if chosen:
        a = chosen[-1]
        text += (
            f" The case's model comes from validation {a.validation_id} ({a.method} on "
            f"“{a.population}”, {met_word(a.met)})."
        )
    else:
        text += " None of them produced the case's current model."
    return text


def failed_attempt_line(when_utc: str, details: Mapping[str, Any]) -> str:
    """One validation of the case that gave no model (kept in the audit trail as
    ``validation_failed``): when, which method on which population with which seed, and why."""
    population = details.get("population")
    return (
        f"{recorded_time(when_utc)}: failed, no model — {method_name(str(details.get('method')))} "
        f"on population “{population}”, seed {details.get('seed')}: {details.get('reason')}"
    )


def failed_attempts_sentence(count: int) -> str:
    """The heading line over the failed attempts ("" when there were none)."""
    if not count:
        return ""
    return (
        f"{numbers.count(count, 'validation')} of this case failed and gave no model "
        f"({'it is' if count == 1 else 'they are'} kept in the audit trail with the reason):"
    )


def basis_sentence(
    validation_id: int | None, record_sha256: str, population: str, case_number: str
) -> str:
    """What the conclusion of a case rests on: a stored validation record (its id and SHA-256),
    or — without one — that the conclusion is investigative."""
    if validation_id is None:
        return (
            f"No validation of the stated method on a population relevant to case "
            f"{case_number} was recorded, so its conclusion is for investigation only: it rests "
            "on no measured performance under the case's conditions."
        )
    return (
        f"The conclusion rests on validation record {validation_id} of this project "
        f"(population “{population}”), SHA-256 {record_sha256}."
    )
