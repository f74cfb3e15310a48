"""How a fusion of any methods is named and described (pure, no Qt): the methods it combines
by their registry names, each one's weight, and what a weight of 0 means — for a verification
(the model's weights, ``method_agreement.model_fusion_weights``) and for a validation record
(its ``"fusion"`` block; a record made before the block fused TAVeer and LambdaG).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from taveer_desktop.core.validation.record_reader import ValidationRecord, read_validation_record
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import fuses
from taveer_desktop.presentation.method_agreement import record_method, short_name
from taveer_desktop.presentation.method_directions import NO_WEIGHT
from taveer_desktop.presentation.method_names import (
    FUSED_PAIR,
    names_text,
    record_fused,
    stated_name,
)


def record_method_name(record: ValidationRecord) -> str:
    """The stated method's name in a record (``record_method_label``)."""
    return record_method_label(record, record_method(record))


def record_method_label(record: ValidationRecord, method: str) -> str:
    """A method of a record by name: the registry's, or for the fusion the methods it combines
    ("TAVeer + COAV"; "TAVeer + LambdaG" for a record made before the fusion's block)."""
    return stated_name(method, record_fused(record))


def listed_method_label(method: str, fused: str | None) -> str:
    """A stored record's method by name from the store's listing, which gives the methods of
    its fusion block as JSON text (``StoredValidation.fused``; None for a record before it)."""
    try:
        listed = json.loads(fused) if fused else None
    except ValueError:
        listed = None
    record = {"fusion": {"methods": listed}} if isinstance(listed, list) else {}
    try:
        return record_method_label(read_validation_record(record), method)
    except KeyError:  # a method this version does not know: named as stored
        return method


def record_fusion(record: ValidationRecord) -> dict[str, float | None]:
    """The methods a validation record's fusion combines, each with its final weight (None:
    a record made before the fusion's block, which fused TAVeer and LambdaG)."""
    block = record.fusion
    if block is not None and block.methods is not None:
        return {m: _weight(block.weights.get(m)) for m in block.methods}
    return dict.fromkeys(FUSED_PAIR)


def _weight(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def fusion_sentence(weights: Mapping[str, float], stated: str) -> str | None:
    """How the fused ratio weighs its methods (None unless the fusion is stated): the formula
    with each method's weight, the registry's names, and what a weight of 0 means."""
    if not fuses(stated) or not weights:
        return None
    terms = " + ".join(f"{numbers.decimal(w)} × ln LR({short_name(m)})" for m, w in weights.items())
    unweighted = [m for m, w in weights.items() if abs(w) < NO_WEIGHT]
    zero = (
        f" The fusion gives {names_text(unweighted)} no weight: "
        + ("its" if len(unweighted) == 1 else "their")
        + " own ratio is shown but counts for nothing in the fused one."
        if unweighted
        else ""
    )
    return (
        f"The fused likelihood ratio is a logistic-regression combination of the calibrated "
        f"ratios of {names_text(weights)}, learned on the validation trials: ln LR = a + "
        f"{terms}, bounded by the validation's empirical lower and upper bound.{zero}"
    )
