"""Checks of hyperparameters read back from a model file (``ComparisonMethod.check_params``):
each refuses a malformed value with a ``ValueError`` naming the parameter and the range."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np


def whole_number(params: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """A whole number in [low, high] (a bool, a float or a string is refused)."""
    value = params[name]
    whole = isinstance(value, int | np.integer) and not isinstance(value, bool)
    if not whole or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")
    return int(value)


def real_number(params: Mapping[str, Any], name: str, low: float, high: float) -> float:
    """A finite number in [low, high] (a bool or a string is refused)."""
    value = params[name]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not np.isfinite(value)
        or not low <= value <= high
    ):
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def one_of(params: Mapping[str, Any], name: str, allowed: Collection[str]) -> str:
    """One of a few named choices."""
    value = params[name]
    if not isinstance(value, str) or value not in allowed:
        choices = ", ".join(repr(a) for a in sorted(allowed))
        raise ValueError(f"{name} must be one of {choices}, not {value!r}")
    return value
