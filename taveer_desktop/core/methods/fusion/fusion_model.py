"""The fusion's part of a validated model file (``"fusion"``), read and checked strictly.

For ``"method": "fusion"``: the logistic-regression fusion (``core/methods/fusion/fusion.py``)
of the fused methods' calibrated log10 LRs. ``"methods"`` names them in column order (two or
more registered ids, never a fusion; every model made before ``--fuse`` existed fuses TAVeer and
LambdaG) with one weight each (≥ 0; 0: the method carries no weight). Every fused method's part
is in the model, checked by that method's seam (``core/methods/method_registry.py``).
Each repeat of the validation keeps its own fusion, fitted on that repeat's trials alone
(``RepeatFusion``, ``{"fusion": {…}}`` in a repeat fit's parts, read by the same checks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.calibration.model_checks import (
    MAX_CALIBRATION_MAGNITUDE,
    is_number,
    refuse,
    require,
)
from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.methods.taveer.model_fields import STATED_METHODS, Model

MAX_FUSION_WEIGHT = 100.0


@dataclass(frozen=True)
class RepeatFusion:
    """The fusion fitted on one repeat's trials alone (its part of a repeat fit)."""

    fusion: Fusion

    def to_dict(self) -> dict[str, Any]:
        return {"fusion": self.fusion.to_dict()}


def fusion_of(model: Model, source: str) -> Fusion:
    """The fusion part of a model, every value checked: two or more distinct registered
    methods (not the fusion) in column order, one finite weight from 0 to
    ``MAX_FUSION_WEIGHT`` each, bounds like a calibration's."""
    data = model.extra.get("fusion")
    if not isinstance(data, dict):
        refuse("its fusion part is missing ('fusion')", source)
    return fusion_from(data, source)


def read_repeat_fusion(data: Any, source: str, where: str) -> RepeatFusion:
    """A repeat fit's fusion part, checked as the final model's is."""
    require(
        isinstance(data, dict) and set(data) == {"fusion"} and isinstance(data["fusion"], dict),
        f"'{where}' must be an object giving only 'fusion'",
        source,
    )
    return RepeatFusion(fusion_from(data["fusion"], source, f"{where}.fusion"))


def fusion_from(data: dict[str, Any], source: str, where: str = "fusion") -> Fusion:
    """A fusion object's values checked (see ``fusion_of``; ``where`` names it in messages)."""
    methods = data.get("methods")
    require(
        isinstance(methods, list)
        and len(methods) >= 2
        and len(set(methods)) == len(methods)
        and all(m in STATED_METHODS and not method_info(m).capabilities.fuses for m in methods),
        f"{where}.methods must be two or more distinct method ids (not 'fusion')",
        source,
    )
    assert isinstance(methods, list)
    weights = data.get("weights")
    require(
        isinstance(weights, list)
        and len(weights) == len(methods)
        and all(is_number(w) and 0 <= w <= MAX_FUSION_WEIGHT for w in weights),
        f"{where}.weights must be {len(methods)} numbers from 0 to {MAX_FUSION_WEIGHT:g}",
        source,
    )
    for key in ("intercept", "prior_log_odds"):
        require(
            is_number(data.get(key)) and abs(data[key]) <= MAX_CALIBRATION_MAGNITUDE,
            f"{where}.{key} must be a number within ±{MAX_CALIBRATION_MAGNITUDE:g}",
            source,
        )
    low, high = data.get("min_log10_lr"), data.get("max_log10_lr")
    require(
        all(
            v is None or (is_number(v) and abs(v) <= MAX_CALIBRATION_MAGNITUDE) for v in (low, high)
        )
        and (low is None or high is None or low <= 0 <= high),
        f"{where} bounds must be numbers within ±{MAX_CALIBRATION_MAGNITUDE:g}, "
        "min_log10_lr ≤ 0 ≤ max_log10_lr",
        source,
    )
    cllr = data.get("training_cllr")
    require(
        cllr is None or (is_number(cllr) and 0 <= cllr <= MAX_CALIBRATION_MAGNITUDE),
        f"{where}.training_cllr must be a number from 0 to {MAX_CALIBRATION_MAGNITUDE:g}",
        source,
    )
    try:
        return Fusion.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:  # the bands (``length_bands``)
        refuse(f"its fusion part ({error})", source)
