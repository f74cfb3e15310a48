"""Every registered method's seam, by id: the one place that says which seam is whose.

``core/ground/registry.py`` says what each method is and can do; this module maps each
``MethodId`` to the seam its own package brings (``core/methods/method_seam.py``), so that
generic code (``core/methods/taveer/model.py``, ``core/verification/method_verify.py``,
``core/stability/stated_stability.py``, ``core/validation/evaluation_methods.py``,
``core/validation/method_runs.py``) calls a method's own behaviour without asking which method it
is. A new method adds its seam here (one line) beside its ``MethodInfo``.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.calibration.model_checks import require
from taveer_desktop.core.ground.registry import (
    COMPARISON_IDS,
    METHOD_IDS,
    MethodId,
    capabilities_of,
)
from taveer_desktop.core.methods.fusion.fusion_seam import FusionSeam
from taveer_desktop.core.methods.lambdag.lambdag_seam import LambdaGSeam
from taveer_desktop.core.methods.method_seam import MethodSeam
from taveer_desktop.core.methods.systems.comparison_seam import ComparisonSeam
from taveer_desktop.core.methods.taveer.model_fields import STATED_METHODS, Model
from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit, repeat_fits
from taveer_desktop.core.methods.taveer.taveer_seam import TaveerSeam

# the method every model is built on: its thresholds, ensemble, calibration and gate; every
# verification starts from its result and keeps its ratio beside the stated one
BASE_METHOD = next(m for m in METHOD_IDS if capabilities_of(m).model_base)


def method_seam(method: str) -> MethodSeam:
    """The seam of a registered method (``KeyError`` naming it if it has none)."""
    try:
        return SEAMS[method]
    except KeyError:
        raise KeyError(f"no seam for method {method!r}; known: {', '.join(SEAMS)}") from None


SEAMS: dict[str, MethodSeam] = {
    MethodId.TAVEER.value: TaveerSeam(MethodId.TAVEER.value),
    MethodId.LAMBDAG.value: LambdaGSeam(MethodId.LAMBDAG.value),
    MethodId.FUSION.value: FusionSeam(MethodId.FUSION.value, method_seam),
    **{m: ComparisonSeam(m) for m in COMPARISON_IDS},
}
assert set(SEAMS) == set(METHOD_IDS), "every registered method brings its seam"
# one seam of each kind checks its kind's parts of a model file, in this order (the comparison
# systems' seam checks the parts of all ten)
_CHECK_ORDER = (
    COMPARISON_IDS[0],
    MethodId.TAVEER.value,
    MethodId.LAMBDAG.value,
    MethodId.FUSION.value,
)


def base_seam() -> MethodSeam:
    """The seam of the method every model is built on (``BASE_METHOD``)."""
    return SEAMS[BASE_METHOD]


def check_parts(model: Model, source: str) -> None:
    """Refuse a model whose stated method is unknown or whose part of any method is not sound
    (each checked by its method's seam; a part that is present is checked even when the stated
    method does not use it)."""
    stated = model.extra.get("method", BASE_METHOD)
    require(
        stated in STATED_METHODS, f"'method' must be one of {', '.join(STATED_METHODS)}", source
    )
    kinds = [SEAMS[m] for m in _CHECK_ORDER]
    fused = tuple(m for seam in kinds for m in seam.fused_methods(model, source, stated))
    for seam in kinds:
        seam.check_part(model, source, stated, fused)


def read_repeat_part(method: str, data: Any, source: str, where: str) -> Any:
    """One method's part of a repeat fit, read by its own seam; a method without a repeat fit of
    its own (TAVeer's part is the fit itself) or not registered refuses the model."""
    seam = SEAMS.get(method) if method != BASE_METHOD else None
    part = None if seam is None else seam.read_repeat_part(data, source, where)
    require(part is not None, f"'{where}' names no method with a repeat fit of its own", source)
    return part


def repeat_fits_of(model: Model, source: str) -> tuple[RepeatFit, ...] | None:
    """The model's repeat fits with every method's part, read strictly
    (``core/methods/taveer/repeat_models.py``; None: the model keeps none)."""
    return repeat_fits(model, source, lambda m, data, at: read_repeat_part(m, data, source, at))
