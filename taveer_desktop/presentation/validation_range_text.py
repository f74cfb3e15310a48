"""The words for what one validation covers and how firmly: the lab's declared casework range,
the repeats of the cross-validation and their spread, the figures per length band and whether
the validation is large enough for casework (plain text, no Qt, no HTML).

Shared by the wizard (its conditions and record pages), the model view's record and the
validation report. Every reader is defensive: records made before the range, the repeats, the
bands and the casework verdict existed (``conditions``, ``repeats``, ``bands``, ``casework``
absent) are worded from what they hold — a single length is the range (N, N), and the
casework verdict falls back to ``validation_text.casework_shortfalls``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeGuard

from taveer_desktop.core.trials.trial_topics import COUNTED_MATCHED
from taveer_desktop.core.trials.validation_settings import AUTHOR_REPEATS
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.trial_construction_text import dates_of
from taveer_desktop.presentation.validation_figures_text import figure_value, interval_text
from taveer_desktop.presentation.validation_text import casework_shortfalls, ratio_text

CharRange = tuple[int, int] | None  # (LO, HI) characters; None: whole documents

RANGE_MEANING = (
    "The validation, and every conclusion resting on it, holds only for cases inside this "
    "range: a case whose questioned or known text is shorter or longer gets no evaluative "
    "conclusion from it."
)
RANGE_HELP = (
    "Declare the range of lengths your casework has, not only this case's: trials are built "
    "across it and the record states it. This case's own lengths must lie inside."
)
REPEATS_HELP = (
    "The cross-validation is repeated, each repeat with the next seed from the one below "
    "(0, 1, 2, …), and the repeats are pooled: no single seed decides the result, and the "
    "spread across them is recorded."
)


def repeats_note(asked: int, used: int, authors: int | None) -> str:
    """What the Repeats box will give for the chosen population: the record states the repeats
    used, which a population of casework size raises to ``AUTHOR_REPEATS`` author-repeats."""
    if authors is None:
        return ""
    population = f"This population ({numbers.count(authors, 'author')})"
    if used == asked:
        return f"{population} is validated with {numbers.count(asked, 'repeat')}, as set."
    return (
        f"{population} will be validated with {used} repeats, not {asked}: a population of "
        f"casework size gets at least {AUTHOR_REPEATS} author-repeats (authors × repeats) so "
        "that no seed decides the result; the record states the repeats used."
    )


TOO_SMALL_CONSEQUENCE = "no evaluative conclusion can rest on it"


def _finite(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _pair(value: Any) -> CharRange:
    """A stored range ``[LO, HI]`` or a single length N as (LO, HI); None when absent."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return (value, value)
    if isinstance(value, list | tuple) and len(value) == 2 and all(_finite(v) for v in value):
        low, high = int(value[0]), int(value[1])
        return (low, high) if 0 < low <= high else None
    return None


def declared_ranges(record: ValidationRecord) -> tuple[CharRange, CharRange]:
    """(questioned, known) ranges the record declares: ``conditions`` when it has them, else the
    single lengths of its ``protocol`` (older records)."""
    conditions = record.conditions
    if conditions is not None:
        return _pair(conditions.questioned_chars), _pair(conditions.known_chars)
    protocol = record.protocol
    return _pair(protocol.questioned_chars), _pair(protocol.known_chars)


def range_text(chars: CharRange) -> str:
    """ "1,500–3,000 characters", "about 1,800 characters" (one length) or "whole documents"."""
    if chars is None:
        return "whole documents"
    low, high = chars
    if low == high:
        return f"about {numbers.integer(low)} characters"
    return f"{numbers.integer(low)}–{numbers.integer(high)} characters"


def conditions_sentence(record: ValidationRecord) -> str:
    """The declared casework range and what it means, in one paragraph."""
    questioned, known = declared_ranges(record)
    declared = "declared casework range" if record.conditions is not None else "conditions"
    return (
        f"The {declared}: questioned texts of {range_text(questioned)}, known texts of "
        f"{range_text(known)}. {RANGE_MEANING}"
    )


def inside(chars: int, declared: CharRange) -> bool:
    """Whether a case's length lies inside a declared range (whole documents: always)."""
    return declared is None or declared[0] <= chars <= declared[1]


def range_problem(case_lengths: tuple[int, int] | None, ranges: tuple[CharRange, CharRange]) -> str:
    """Why the ranges cannot be used: one runs backwards, or the case's own lengths lie outside
    them ("" when neither)."""
    problems = []
    for index, name in enumerate(("questioned", "known")):
        declared = ranges[index]
        if declared is not None and declared[0] > declared[1]:
            problems.append(f"the {name} range runs backwards (its low end is above its high end)")
        elif case_lengths is not None and not inside(case_lengths[index], declared):
            problems.append(
                f"this case's {name} length, {numbers.integer(case_lengths[index])} characters, "
                f"is outside {range_text(declared)}"
            )
    return "; ".join(problems)


def suggested_range(chars: int) -> tuple[int, int]:
    """A range around one case length to start from: half to twice it, in round hundreds."""
    low = max(100, (chars // 2) // 100 * 100)
    high = max(low, -(-(chars * 2) // 100) * 100)
    return min(low, chars), max(high, chars)


# --- repeats ---------------------------------------------------------------------------------


def _numbers_of(values: Any) -> list[float]:
    return [float(v) for v in values if _finite(v)] if isinstance(values, tuple) else []


def repeats_sentence(record: ValidationRecord) -> str:
    """How many times the cross-validation ran, with which seeds, and the spread of Cllr and AUC
    across the repeats (older records: once, with its seed)."""
    repeats = record.repeats
    protocol = record.protocol
    if repeats is None:
        seed = "?" if protocol.seed is None else protocol.seed
        return (
            f"The cross-validation ran once, with seed {seed} (the record "
            "was made before validations were repeated over several seeds)."
        )
    n = int(repeats.count or 0)
    seeds = [str(s) for s in repeats.seeds or ()]
    text = (
        f"The cross-validation was repeated {numbers.count(n, 'time')}"
        + (f" (seeds {', '.join(seeds)})" if seeds else "")
        + " and the repeats pooled: every figure above is over all of them."
    )
    for key, name in (("cllr", "Cllr"), ("auc", "AUC")):
        values = _numbers_of(repeats.values(key))
        if len(values) >= 2:
            shown = ", ".join(figure_value(key, v) for v in values)
            spread = figure_value(key, max(values) - min(values))
            text += f" {name} per repeat: {shown} (spread {spread})."
        elif len(values) == 1:
            text += f" {name}: {figure_value(key, values[0])}."
    return text


def repeat_rows(record: ValidationRecord) -> list[tuple[str, str, str]]:
    """(seed, Cllr, AUC) of every repeat, for a table ([] for an older record)."""
    repeats = record.repeats
    if repeats is None:
        return []
    seeds = repeats.seeds or ()
    cllrs, aucs = repeats.cllr or (), repeats.auc or ()
    n = max(len(seeds), len(cllrs), len(aucs))

    def at(values: tuple[Any, ...], i: int) -> Any:
        return values[i] if i < len(values) else None

    return [
        (
            str(at(seeds, i)) if at(seeds, i) is not None else "–",
            figure_value("cllr", at(cllrs, i)),
            figure_value("auc", at(aucs, i)),
        )
        for i in range(n)
    ]


# --- bands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BandLine:
    """One questioned-length band: its range, trials, Cllr with interval, misleading rates and
    the bound on the LR inside it."""

    questioned: str
    trials: str
    cllr: str
    misleading: str
    bound: str


BAND_COLUMNS = (
    "Questioned length",
    "Trials (same + different)",
    "Cllr (95 %)",
    "Misleading",
    "LR bound",
)


def band_lines(record: ValidationRecord) -> list[BandLine]:
    """Every band of the record, in its order ([] for a record without bands)."""
    lines = []
    for band in record.bands:
        figures = band.figures
        cllr = figure_value("cllr", figures.cllr)
        interval = interval_text("cllr", band.intervals.cllr)
        low, high = band.bound.min_log10_lr, band.bound.max_log10_lr
        lines.append(
            BandLine(
                range_text(_pair(band.questioned_chars)),
                f"{numbers.integer(int(band.trials_same or 0))} + "
                f"{numbers.integer(int(band.trials_different or 0))}",
                cllr if interval == "not measured" else f"{cllr} ({interval})",
                f"{figure_value('misleading_y', figures.misleading_y)} / "
                f"{figure_value('misleading_n', figures.misleading_n)}",
                f"{ratio_text(low)} to {ratio_text(high)}"
                if _finite(low) and _finite(high)
                else "–",
            )
        )
    return lines


BANDS_NOTE = (
    "Figures per band of questioned length, each from the trials whose questioned text fell in "
    "it; misleading: same-author trials supporting Hd / different-author trials supporting Hp. "
    "A band with few trials has a wide interval and a narrow bound."
)
NO_BANDS = "The record holds no figures per length band (it was made before bands existed)."


# --- casework size ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseworkVerdict:
    too_small: bool
    headline: str
    reasons: tuple[str, ...]


def casework_verdict(record: ValidationRecord) -> CaseworkVerdict:
    """Whether the validation is large enough for casework, from its ``casework`` verdict (or,
    for an older record, from its authors and trials by the same rule)."""
    casework = record.casework
    if casework is not None and casework.too_small is not None:
        too_small = casework.too_small
        reasons = casework.reasons
        size = (
            f"{numbers.count(int(casework.authors or 0), 'author')}, "
            f"{numbers.integer(int(casework.trials_same or 0))} distinct same-author "
            + ("trials apart in time and " if dates_of(record) is not None else "and ")
            + f"{numbers.integer(int(casework.trials_different or 0))} distinct "
            "different-author trials"
            + (" in the declared topic relation" if casework.counted == COUNTED_MATCHED else "")
        )
    else:
        reasons = tuple(casework_shortfalls(record))
        too_small = bool(reasons)
        size = (
            f"{numbers.count(int(record.population.authors or 0), 'author')}, "
            f"{numbers.integer(int(record.protocol.trials_same or 0))} same-author and "
            f"{numbers.integer(int(record.protocol.trials_different or 0))} different-author "
            "trials"
        )
    if too_small:
        headline = f"Too small for casework ({size}): {TOO_SMALL_CONSEQUENCE}."
    else:
        headline = f"Large enough for casework by the program's rule ({size})."
    return CaseworkVerdict(too_small, headline, reasons)
