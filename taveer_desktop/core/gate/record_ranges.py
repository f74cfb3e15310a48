"""The physical range of every figure of a validation record, and how its counts add up: one
rule per figure, checked before a record can back a conclusion (``record_basis``) and held by
the tests to every record a validation writes.

A record is parsed by one limited JSON reader that refuses NaN and Infinity
(``core/ground/safe_json``); what is left are finite numbers that are impossible — a Cllr of
1e308, an AUC of 7, a negative count, a share of 3, a log10 LR bound of 1e300, an ELUB lower
bound above its upper, trial counts that do not add up, a record made in the year 99999. Each
is refused in one line naming the key and the value: ``figures.auc is 7, outside [0, 1]``.

The bounds, stated once here (``docs/reliability.md``, "Absurd figures in a validation
record"): a log10 likelihood ratio within ±``MAX_ABS_LOG10_LR`` (a ratio of 10^100 is beyond any
evidence); a Cllr from 0 to ``MAX_CLLR``, the largest a record whose ratios stay within that
bound can give (every trial's cost at most log2(1 + 10^100)); Cllr_min, a share (EER, AUC,
accuracy, rates of misleading evidence, ECE, matched shares) from 0 to 1; a raw score within
±``MAX_ABS_SCORE``; a length in characters from 1 to ``MAX_CHARS``; a time from 0 to a year;
counts whole and ≥ 0; a date a real one from 2000 to tomorrow (``time_text.date_problem``).
A part a record lacks (an older record) or holds as null (a figure that could not be
computed) is not checked here: its shape is ``record_basis``'s business.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

from taveer_desktop.core.gate.record_sums import ROUNDING, check_sums
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.time_text import date_problem

NEWEST_FORMAT = 2  # the newest record format read (validation.RECORD_FORMAT_VERSION, tested)
MAX_ABS_LOG10_LR = 100.0
MAX_CLLR = math.log2(1.0 + 10.0**MAX_ABS_LOG10_LR)  # ≈ 332.19
MAX_ABS_SCORE = 1e6
MAX_CHARS = 1_000_000_000
MAX_SECONDS = 366 * 24 * 3600.0

Rule = Callable[[Any], str | None]  # the problem with a present value, or None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _shown(value: Any) -> str:
    """A value as the record holds it, in JSON, cut at 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:40] + "…"


def _between(low: float, high: float, words: str) -> Rule:
    def rule(value: Any) -> str | None:
        if not _is_number(value):
            return "not a number"
        return None if low <= value <= high else f"outside {words}"

    return rule


def _whole(least: int = 0, most: int | None = None) -> Rule:
    def rule(value: Any) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            return f"not a whole number ≥ {least}"
        return f"outside {least} to {most}" if most is not None and value > most else None

    return rule


def _date(value: Any) -> str | None:
    return None if value == "" else date_problem(value)  # "": criteria never set (older)


def _lengths(value: Any) -> str | None:
    """A length in characters, or a range [LO, HI] of them (a null side: whole documents)."""
    if not isinstance(value, list):
        return CHARS(value)
    if len(value) != 2:
        return "not a length or a range [LO, HI]"
    for side in value:
        if side is not None and CHARS(side) is not None:
            return f"not a range of lengths from 1 to {MAX_CHARS:,} characters"
    low, high = value
    return "a range running high to low" if None not in value and low > high else None


SHARE = _between(0.0, 1.0, "[0, 1]")
COST = _between(0.0, MAX_CLLR, f"0 to {MAX_CLLR:.2f} (a Cllr)")
COST_MIN = _between(0.0, 1.0 + ROUNDING, "[0, 1] (a Cllr_min)")
COST_CAL = _between(-ROUNDING, MAX_CLLR, f"0 to {MAX_CLLR:.2f} (Cllr − Cllr_min)")
LOG10_LR = _between(-MAX_ABS_LOG10_LR, MAX_ABS_LOG10_LR, f"±{MAX_ABS_LOG10_LR:g} (a log10 LR)")
SCORE = _between(-MAX_ABS_SCORE, MAX_ABS_SCORE, f"±{MAX_ABS_SCORE:g} (a raw score)")
SECONDS = _between(0.0, MAX_SECONDS, "0 to a year in seconds")
WEIGHT = _between(0.0, 100.0, "0 to 100 (a fusion weight)")
LOG_ODDS = _between(-100.0, 100.0, "±100 (log odds)")
COUNT = _whole()
POSITIVE = _whole(1)
CHARS = _whole(1, MAX_CHARS)
ORDER = _whole(1, 16)

# each figure's own rule (validation_figures.FIGURES); a spread of a figure: 0 to its top
FIGURE_RULES: dict[str, Rule] = {
    "cllr": COST,
    "cllr_min": COST_MIN,
    "cllr_cal": COST_CAL,
    "eer": SHARE,
    "auc": SHARE,
    "accuracy": SHARE,
    "misleading_y": SHARE,
    "misleading_n": SHARE,
    "ece": SHARE,
}
_CONSTRUCTION = "protocol.trials.construction"

# (where, rule): ``a.b`` a key, ``a[]`` every element of a list, ``a.*`` every value of an object
RULES: tuple[tuple[str, Rule], ...] = (
    ("format_version", _whole(1, NEWEST_FORMAT)),
    ("created_utc", _date),
    ("conditions.questioned_chars", _lengths),
    ("conditions.known_chars", _lengths),
    ("population.authors", COUNT),
    ("population.documents", COUNT),
    ("protocol.questioned_chars", _lengths),
    ("protocol.known_chars", _lengths),
    ("protocol.min_length_share", SHARE),
    ("protocol.folds", POSITIVE),
    ("protocol.folds_asked", POSITIVE),
    ("protocol.max_trials", COUNT),
    ("protocol.seed", COUNT),
    ("protocol.seeds[]", COUNT),
    ("protocol.repeats", POSITIVE),
    ("protocol.repeats_asked", POSITIVE),
    ("protocol.bootstrap", COUNT),
    ("protocol.trials_same", COUNT),
    ("protocol.trials_different", COUNT),
    ("protocol.same_author_trials_possible", COUNT),
    ("protocol.min_trials_per_class", COUNT),
    (f"{_CONSTRUCTION}.matched_same", COUNT),
    (f"{_CONSTRUCTION}.matched_different", COUNT),
    (f"{_CONSTRUCTION}.matched_share", SHARE),
    (f"{_CONSTRUCTION}.matched_share_same", SHARE),
    (f"{_CONSTRUCTION}.matched_share_different", SHARE),
    (f"{_CONSTRUCTION}.groups.count", COUNT),
    (f"{_CONSTRUCTION}.dates.gap_days", COUNT),
    (f"{_CONSTRUCTION}.dates.documents", COUNT),
    (f"{_CONSTRUCTION}.dates.dated_documents", COUNT),
    (f"{_CONSTRUCTION}.dates.same_author_trials", COUNT),
    (f"{_CONSTRUCTION}.dates.apart_same", COUNT),
    (f"{_CONSTRUCTION}.dates.apart_share_same", SHARE),
    (f"{_CONSTRUCTION}.dates.questioned_later", COUNT),
    *((f"figures.{name}", rule) for name, rule in FIGURE_RULES.items()),
    *((f"intervals.{name}[]", rule) for name, rule in FIGURE_RULES.items()),
    ("acceptance.criteria.max_cllr", COST),
    ("acceptance.criteria.max_misleading", SHARE),
    ("acceptance.criteria.set_utc", _date),
    ("acceptance.judged_values.cllr", COST),
    ("acceptance.judged_values.misleading", SHARE),
    ("bound.min_log10_lr", LOG10_LR),
    ("bound.max_log10_lr", LOG10_LR),
    ("bound.trials_same", COUNT),
    ("bound.trials_different", COUNT),
    ("bands[].questioned_chars", _lengths),
    ("bands[].trials_same", COUNT),
    ("bands[].trials_different", COUNT),
    ("bands[].bound.min_log10_lr", LOG10_LR),
    ("bands[].bound.max_log10_lr", LOG10_LR),
    *((f"bands[].figures.{name}", rule) for name, rule in FIGURE_RULES.items()),
    *((f"bands[].intervals.{name}[]", rule) for name, rule in FIGURE_RULES.items()),
    ("repeats.count", POSITIVE),
    ("repeats.seeds[]", COUNT),
    ("repeats.trials[]", COUNT),
    *((f"repeats.{name}[]", FIGURE_RULES[name]) for name in ("cllr", "cllr_min", "auc", "eer")),
    ("repeats.misleading_y[]", SHARE),
    ("repeats.misleading_n[]", SHARE),
    *((f"repeats.spread.{name}", rule) for name, rule in FIGURE_RULES.items()),
    ("casework.authors", COUNT),
    ("casework.trials_same", COUNT),
    ("casework.trials_different", COUNT),
    ("casework.min_authors", COUNT),
    ("casework.min_trials", COUNT),
    *((f"methods.*.{name}", rule) for name, rule in FIGURE_RULES.items()),
    ("methods.*.trials", COUNT),
    ("methods.*.cannot_compare", COUNT),
    ("methods.*.cannot_compare_reasons.*", COUNT),
    ("methods.*.seconds_per_trial", SECONDS),
    ("methods.*.seed_spread.auc[]", SHARE),
    ("methods.*.seed_spread.cllr[]", COST),
    ("methods.*.seed_spread.seeds", COUNT),
    ("methods.*.seed_spread.trials", COUNT),
    ("comparison.rule_values.*", COST),
    ("fusion.weights.*", WEIGHT),
    ("fusion.intercept", LOG_ODDS),
    ("fusion.trials", COUNT),
    ("fusion.left_out", COUNT),
    ("fusion.left_out_by_method.*", COUNT),
    ("lambdag.max_order", ORDER),
    ("lambdag.order", ORDER),
    ("lambdag.fold_orders[]", ORDER),
    ("lambdag.samples", _whole(1, 1000)),
    ("lambdag.reference_sentences", COUNT),
    ("lambdag.reference_models", COUNT),
    ("lambdag.seconds", SECONDS),
    ("lambdag.seconds_per_trial", SECONDS),
    ("seconds", SECONDS),
    ("trials[].repeat", COUNT),
    ("trials[].fold", COUNT),
    ("trials[].questioned_chars", CHARS),
    ("trials[].known_chars", CHARS),
    ("trials[].known_documents", POSITIVE),
    ("trials[].score", SCORE),
    ("trials[].log10_lr", LOG10_LR),
    ("trials[].log10_lr_by_method.*", LOG10_LR),
)


def values_at(data: Any, where: str, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key path, value) of ``data`` that ``where`` names and that is present (not null)."""
    if not where:
        if data is not None:
            yield path, data
        return
    step, _, rest = where.partition(".")
    if step == "*":
        if isinstance(data, dict):
            for key, value in data.items():
                yield from values_at(value, rest, f"{path}.{key}")
        return
    every = step.endswith("[]")
    key = step.removesuffix("[]")
    if not isinstance(data, dict) or key not in data:
        return
    here = f"{path}.{key}" if path else key
    if not every:
        yield from values_at(data[key], rest, here)
    elif isinstance(data[key], list):
        for index, value in enumerate(data[key]):
            yield from values_at(value, rest, f"{here}[{index}]")


def range_problem(record: dict[str, Any]) -> str | None:
    """The first figure of ``record`` outside its range, worded (None: every one is in it)."""
    for where, rule in RULES:
        for path, value in values_at(record, where):
            problem = rule(value)
            if problem is not None:
                return f"{path} is {_shown(value)}, {problem}"
    for path, value in _raw_scores(record):
        problem = SCORE(value)
        if problem is not None:
            return f"{path} is {_shown(value)}, {problem}"
    return None


def _raw_scores(record: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """A trial's raw score of each method compared beside the first (``<method>_raw``)."""
    trials = record.get("trials")
    for index, trial in enumerate(trials if isinstance(trials, list) else []):
        if isinstance(trial, dict):
            for key, value in trial.items():
                if str(key).endswith("_raw") and value is not None:
                    yield f"trials[{index}].{key}", value


class _Found(Exception):
    """A problem ``check_sums`` found (its message)."""


def sums_problem(record: dict[str, Any]) -> str | None:
    """Where the record's figures do not hang together (``record_sums``), worded, or None."""
    try:
        check_sums(record, _Found)
    except _Found as found:
        return str(found)
    return None


def _refuse(message: str, label: str) -> InputError:
    return InputError(f"not a usable validation record: {message}", label)


def check_record_ranges(record: dict[str, Any], label: str) -> None:
    """Refuse (``InputError`` naming ``label``, the key and the value) a record holding a figure
    outside its physical range; see the module."""
    problem = range_problem(record)
    if problem is not None:
        raise _refuse(problem, label)


def check_record_sums(record: dict[str, Any], label: str) -> None:
    """Refuse a record whose figures do not hang together (``record_sums``): intervals, bounds,
    counts that do not add up, criteria set after the record was made."""
    problem = sums_problem(record)
    if problem is not None:
        raise _refuse(problem, label)
