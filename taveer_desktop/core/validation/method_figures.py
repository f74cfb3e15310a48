"""The figures of every method a validation record holds, typed (``record["methods"]``).

A validation record lists, for every method validated on its trials (TAVeer always — its trials
are the trials — and the stated method and those compared beside it), one block:
every figure of ``validation_figures.FIGURES`` (None where it is not a finite number), the
number of trials the method scored (``trials``) and could not compare (``cannot_compare``), its
cost in seconds per trial, whether it is deterministic and, for a method that is not, the
lowest and highest AUC and Cllr over several method seeds (``seed_spread``, with the number of
seeds and trials it was measured on) and, for a method that could not compare some trials, how
many for each reason (``cannot_compare_reasons``).
``method_figures(record)`` reads them back strictly; the report, the wizard and the command
line use it instead of indexing the dictionary. Records written before methods were compared
hold figures only (and only for LambdaG and fusion validations): their counts read as None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from taveer_desktop.core.calibration.outcome import ResultFormatError
from taveer_desktop.core.ground.registry import METHOD_IDS, method_info
from taveer_desktop.core.validation.validation_figures import FIGURES

SPREAD_FIGURES = ("auc", "cllr")


@dataclass(frozen=True)
class MethodFigures:
    """One method's block of a validation record (see the module)."""

    method: str
    figures: dict[str, float | None]
    trials: int | None
    cannot_compare: int | None
    seconds_per_trial: float | None
    deterministic: bool
    seed_spread: dict[str, tuple[float, float]] | None = None
    spread_sizes: tuple[int, int] | None = None  # (seeds, trials) the seed spread was measured on
    cannot_compare_reasons: dict[str, int] | None = None  # trials it could not compare, by reason
    # the keys of the block as read, in its order (None: not read from a record); an older
    # block lacks some (``core/validation/record_json.py`` prints it as held)
    written: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The record's block (``record["methods"][id]``)."""
        data: dict[str, Any] = dict(self.figures)
        data.update(
            trials=self.trials,
            cannot_compare=self.cannot_compare,
            seconds_per_trial=self.seconds_per_trial,
            deterministic=self.deterministic,
        )
        if self.seed_spread is not None:
            data["seed_spread"] = {k: list(v) for k, v in self.seed_spread.items()}
            if self.spread_sizes is not None:
                data["seed_spread"].update(seeds=self.spread_sizes[0], trials=self.spread_sizes[1])
        if self.cannot_compare_reasons:
            data["cannot_compare_reasons"] = dict(self.cannot_compare_reasons)
        return data


def _fail(message: str) -> ResultFormatError:
    return ResultFormatError(f"validation record methods: {message}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _count(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        raise _fail(f"{name} must be a whole number ≥ 0")
    return value


def _spread(data: Any, method: str) -> dict[str, tuple[float, float]] | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise _fail(f"{method}.seed_spread must be an object")
    out = {}
    for name in SPREAD_FIGURES:
        pair = data.get(name)
        if pair is None:
            continue
        if not (isinstance(pair, list) and len(pair) == 2 and all(_number(v) for v in pair)):
            raise _fail(f"{method}.seed_spread.{name} must be [low, high]")
        if pair[0] > pair[1]:
            raise _fail(f"{method}.seed_spread.{name} must run low to high")
        out[name] = (float(pair[0]), float(pair[1]))
    return out


def _sizes(spread: Any, method: str) -> tuple[int, int] | None:
    """(seeds, trials) a seed spread was measured on (None: not recorded)."""
    if not isinstance(spread, dict) or spread.get("seeds") is None:
        return None
    seeds = _count(spread.get("seeds"), f"{method}.seed_spread.seeds")
    trials = _count(spread.get("trials"), f"{method}.seed_spread.trials")
    return (seeds or 0, trials or 0)


def read_block(method: str, data: Any) -> MethodFigures:
    """One method's block, checked."""
    if method not in METHOD_IDS:
        raise _fail(f"unknown method {method!r}")
    if not isinstance(data, dict):
        raise _fail(f"{method} is not an object")
    figures: dict[str, float | None] = {}
    for name in FIGURES:
        value = data.get(name)
        if value is not None and not _number(value):
            raise _fail(f"{method}.{name} must be a finite number or null")
        figures[name] = None if value is None else float(value)
    seconds = data.get("seconds_per_trial")
    if seconds is not None and not (_number(seconds) and seconds >= 0):
        raise _fail(f"{method}.seconds_per_trial must be a number ≥ 0")
    deterministic = data.get("deterministic", method_info(method).deterministic)
    if not isinstance(deterministic, bool):
        raise _fail(f"{method}.deterministic must be true or false")
    spread = data.get("seed_spread")
    reasons = data.get("cannot_compare_reasons")
    if reasons is not None and not (
        isinstance(reasons, dict)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in reasons.values())
    ):
        raise _fail(f"{method}.cannot_compare_reasons must count trials by reason")
    return MethodFigures(
        method=method,
        figures=figures,
        trials=_count(data.get("trials"), f"{method}.trials"),
        cannot_compare=_count(data.get("cannot_compare"), f"{method}.cannot_compare"),
        seconds_per_trial=None if seconds is None else float(seconds),
        deterministic=deterministic,
        seed_spread=_spread(spread, method),
        spread_sizes=_sizes(spread, method),
        cannot_compare_reasons={str(k): int(n) for k, n in reasons.items()} if reasons else None,
        written=tuple(str(key) for key in data),
    )


def method_figures(record: dict[str, Any]) -> dict[str, MethodFigures]:
    """Every method's block of a record, in the record's order (empty for a record of TAVeer
    alone written before methods were compared); ``ResultFormatError`` if malformed."""
    methods = record.get("methods")
    if methods is None:
        return {}
    if not isinstance(methods, dict):
        raise _fail("not an object")
    return {str(m): read_block(str(m), block) for m, block in methods.items()}
