"""The checks every part of a model file shares, and its calibration and inconclusive band.

A model file is input like any other (``core/methods/taveer/model.py``): every number that feeds
arithmetic is checked to be finite and within a bound before the model is used, so that a nonsense
file is refused at the door with one line naming the file and the key (``not a valid TAVeer model:
calibration.slope is 1e+308, outside ±100``) instead of failing later inside a verification.
``require`` raises that ``InputError``; ``calibration_from_dict`` validates a logistic
calibration (TAVeer's, and LambdaG's in ``core/model_parts.py``).
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

from taveer_desktop.core.calibration.calibration import MAX_COEFFICIENT, Calibration
from taveer_desktop.core.calibration.inconclusive_band import InconclusiveBand
from taveer_desktop.core.calibration.length_bands import BandBound, bands_from_list
from taveer_desktop.core.calibration.quality_measures import QualityTerms, quality_from_dict
from taveer_desktop.core.ground.errors import InputError

MAX_CALIBRATION_MAGNITUDE = MAX_COEFFICIENT  # |log10 LR| stays below 131, inside a float


def require(condition: bool, message: str, source: str) -> None:
    """Refuse the model file (one ``InputError`` naming it) unless ``condition`` holds."""
    if not condition:
        refuse(message, source)


def is_number(value: Any) -> bool:
    """A finite number (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


CALIBRATION_KEYS = {
    "method",
    "intercept",
    "slope",
    "prior_log_odds",
    "penalty",
    "training_cllr",
    "training_cllr_min",
    "min_log10_lr",
    "max_log10_lr",
    "quality",
    "bands",
    "shrinkage",
}


def calibration_from_dict(
    data: Any, source: str, version: int = 3, where: str = "calibration"
) -> Calibration | None:
    """Validate a logistic calibration object (TAVeer's ``calibration``, or LambdaG's with
    ``where="lambdag.calibration"``); every number finite and bounded, the map monotone."""
    if data is None:
        return None
    require(isinstance(data, dict), f"'{where}' must be an object or null", source)
    unknown = sorted(set(data) - CALIBRATION_KEYS)
    require(not unknown, f"{where} has unknown keys {unknown}", source)
    require(data.get("method") == "logistic", f"{where}.method must be 'logistic'", source)
    for key in ("intercept", "slope", "prior_log_odds", "penalty"):
        require(is_number(data.get(key)), f"{where}.{key} must be a number", source)
    require(data["slope"] >= 0, f"{where}.slope must be ≥ 0 (monotone)", source)
    for key in (
        "intercept",
        "slope",
        "prior_log_odds",
        "penalty",
    ):  # beyond, 10**log10 LR overflows
        require(
            abs(data[key]) <= MAX_CALIBRATION_MAGNITUDE,
            f"{where}.{key} is {data[key]:.3g}, outside ±{MAX_CALIBRATION_MAGNITUDE:g}",
            source,
        )
    for key in ("training_cllr", "training_cllr_min", "shrinkage"):
        value = data.get(key)
        require(
            value is None or (is_number(value) and 0 <= value <= MAX_CALIBRATION_MAGNITUDE),
            f"{where}.{key} must be a number ≥ 0",
            source,
        )
    bounds: dict[str, float | None] = {}
    for key in ("min_log10_lr", "max_log10_lr"):
        value = data.get(key)
        require(
            value is None or (is_number(value) and abs(value) <= MAX_CALIBRATION_MAGNITUDE),
            f"{where}.{key} must be a number within ±{MAX_CALIBRATION_MAGNITUDE:g}",
            source,
        )
        bounds[key] = None if value is None else float(value)
    require(
        bounds["min_log10_lr"] is None
        or bounds["max_log10_lr"] is None
        or bounds["min_log10_lr"] <= 0.0 <= bounds["max_log10_lr"],
        f"{where} bounds must satisfy min_log10_lr ≤ 0 ≤ max_log10_lr",
        source,
    )

    def fail(message: str) -> NoReturn:
        raise InputError(f"not a valid TAVeer model: {where}.{message}", source)

    quality: QualityTerms | None = None
    bands: tuple[BandBound, ...] = ()
    if version >= 4:
        if data.get("quality") is not None:
            quality = quality_from_dict(data["quality"], float(data["slope"]), fail)
        if data.get("bands") is not None:
            bands = bands_from_list(data["bands"], fail)
    else:
        require(
            "quality" not in data and "bands" not in data,
            f"{where}.quality and {where}.bands need format version 4",
            source,
        )
    return Calibration(
        quality=quality,
        bands=bands,
        min_log10_lr=bounds["min_log10_lr"],
        max_log10_lr=bounds["max_log10_lr"],
        intercept=float(data["intercept"]),
        slope=float(data["slope"]),
        prior_log_odds=float(data["prior_log_odds"]),
        penalty=float(data["penalty"]),
        training_cllr=_optional_float(data.get("training_cllr")),
        training_cllr_min=_optional_float(data.get("training_cllr_min")),
        shrinkage=_optional_float(data.get("shrinkage")),
    )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def band_from_dict(data: Any, source: str) -> InconclusiveBand | None:
    if data is None:
        return None
    require(isinstance(data, dict), "'inconclusive_band' must be an object or null", source)
    for key in ("low", "high", "training_c_at_1"):
        require(is_number(data.get(key)), f"inconclusive_band.{key} must be a number", source)
    require(
        0.0 <= data["low"] <= 0.5 <= data["high"] <= 1.0,
        "inconclusive_band must satisfy 0 ≤ low ≤ 0.5 ≤ high ≤ 1",
        source,
    )
    return InconclusiveBand(float(data["low"]), float(data["high"]), float(data["training_c_at_1"]))


def is_whole(value: Any, low: int, high: int) -> bool:
    """A whole number (not a bool) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def refuse(message: str, source: str) -> NoReturn:
    raise InputError(f"not a valid TAVeer model: {message}", source)


def raw_range_from(value: Any, limit: float, name: str, source: str) -> tuple[float, float] | None:
    """A method part's ``raw_range`` (the raw scores its validation's trials gave, low to
    high, each within ±``limit``), or None where the part does not state one."""
    if value is None:
        return None
    require(
        isinstance(value, list)
        and len(value) == 2
        and all(is_number(x) and abs(x) <= limit for x in value)
        and value[0] <= value[1],
        f"{name} must be two numbers within ±{limit:g}, low to high",
        source,
    )
    return float(value[0]), float(value[1])
