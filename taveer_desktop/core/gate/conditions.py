"""The conditions a model was trained and validated under, as recorded in its model file.

A model's thresholds and calibration hold for cases like those it learned them from. The record
keeps, from the model's own training cases:

- the questioned and known text lengths (characters of the text as read): the shortest, and the
  range validated — for ``taveer train`` the central range of its training cases (``coverage``,
  95 % by default: the 2.5th to the 97.5th percentile), for a validation the range the lab
  declared (``taveer validate --questioned-chars LO:HI``); ``lengths_basis`` says which
  (``LENGTHS_FROM_TRAINING`` or ``LENGTHS_DECLARED``);
- for every category, the range of distances the model saw;
- a description of the genre and of the population (the authors of the training corpus), which
  names Hd in every conclusion the model gives.

The gate (``core/gate/gate.py``) compares a case with this record. A model file without it (written
before format 3) loads with ``conditions = None``: its conditions are unknown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.errors import InputError

DEFAULT_COVERAGE = 0.95
# where a model's length ranges come from: the central range of its training cases, or the
# range a validation declared (its trials were built across it)
LENGTHS_FROM_TRAINING = "training_cases"
LENGTHS_DECLARED = "declared_range"
LENGTHS_BASES = (LENGTHS_FROM_TRAINING, LENGTHS_DECLARED)


@dataclass(frozen=True)
class LengthRange:
    """Shortest length seen, and the central range of lengths (in characters)."""

    shortest: int
    low: int
    high: int

    def to_dict(self) -> dict[str, int]:
        return {"shortest": self.shortest, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class ValidatedConditions:
    """What a model's cases looked like; cases unlike them are outside its validation."""

    cases: int
    coverage: float
    questioned_chars: LengthRange
    known_chars: LengthRange
    distances: dict[
        str, tuple[float, float]
    ]  # category → (min, max); absent if it always abstained
    genre: str
    population: str
    lengths_basis: str = LENGTHS_FROM_TRAINING

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "coverage": self.coverage,
            "questioned_chars": self.questioned_chars.to_dict(),
            "known_chars": self.known_chars.to_dict(),
            "distances": {c: list(r) for c, r in self.distances.items()},
            "genre": self.genre,
            "population": self.population,
            "lengths_basis": self.lengths_basis,
        }


def _length_range(lengths: np.ndarray, coverage: float) -> LengthRange:
    tail = 100.0 * (1.0 - coverage) / 2.0
    low, high = np.percentile(lengths, [tail, 100.0 - tail])
    return LengthRange(int(lengths.min()), math.floor(low), math.ceil(high))


def describe_population(corpus_name: str, genre: str) -> str:
    """The default description of Hd's population: the authors of the training corpus."""
    return f"the authors of the training corpus {corpus_name!r} ({genre})"


def measure_conditions(
    questioned_chars: np.ndarray,
    known_chars: np.ndarray,
    distances: np.ndarray,
    genre: str,
    population: str,
    coverage: float = DEFAULT_COVERAGE,
) -> ValidatedConditions:
    """The conditions record of a model trained on cases with these lengths and distances."""
    if len(questioned_chars) == 0:
        raise ValueError("conditions need at least one case")
    ranges = {}
    for j, category in enumerate(CATEGORY_IDS):
        column = distances[:, j]
        column = column[~np.isnan(column)]
        if len(column):
            ranges[category] = (float(column.min()), float(column.max()))
    return ValidatedConditions(
        cases=len(questioned_chars),
        coverage=coverage,
        questioned_chars=_length_range(np.asarray(questioned_chars), coverage),
        known_chars=_length_range(np.asarray(known_chars), coverage),
        distances=ranges,
        genre=genre,
        population=population,
    )


def _fail(message: str, source: str) -> None:
    raise InputError(f"not a valid TAVeer model: conditions.{message}", source)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**12


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parse_lengths(data: Any, name: str, source: str) -> LengthRange:
    if not isinstance(data, dict) or not all(
        _whole(data.get(k)) for k in ("shortest", "low", "high")
    ):
        _fail(f"{name} must give whole numbers 'shortest', 'low' and 'high'", source)
    if not data["shortest"] <= data["low"] <= data["high"]:
        _fail(f"{name} must satisfy shortest ≤ low ≤ high", source)
    return LengthRange(data["shortest"], data["low"], data["high"])


def conditions_from_dict(data: Any, source: str) -> ValidatedConditions | None:
    """Validate the ``conditions`` object of a model file (None stays None)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        _fail("must be an object", source)
    if not _whole(data.get("cases")) or data["cases"] < 1:
        _fail("cases must be a whole number ≥ 1", source)
    coverage = data.get("coverage")
    if not _finite(coverage) or not 0.5 <= coverage <= 1.0:
        _fail("coverage must be a number in [0.5, 1]", source)
    distances = data.get("distances")
    if not isinstance(distances, dict) or not set(distances) <= set(CATEGORY_IDS):
        _fail("distances must map categories F1..F11 to [min, max]", source)
    ranges = {}
    for category in CATEGORY_IDS:
        if category not in distances:
            continue
        pair = distances[category]
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(_finite(v) and 0.0 <= v <= 2.0 for v in pair)
            and pair[0] <= pair[1]
        ):
            _fail(f"distances.{category} must be [min, max] within [0, 2]", source)
        ranges[category] = (float(pair[0]), float(pair[1]))
    for key in ("genre", "population"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            _fail(f"{key} must be text", source)
    basis = data.get("lengths_basis", LENGTHS_FROM_TRAINING)
    if basis not in LENGTHS_BASES:
        _fail(f"lengths_basis must be one of {LENGTHS_BASES}", source)
    return ValidatedConditions(
        lengths_basis=basis,
        cases=data["cases"],
        coverage=float(coverage),
        questioned_chars=_parse_lengths(data.get("questioned_chars"), "questioned_chars", source),
        known_chars=_parse_lengths(data.get("known_chars"), "known_chars", source),
        distances=ranges,
        genre=data["genre"].strip(),
        population=data["population"].strip(),
    )
