"""Which way each method's own likelihood ratio points, and which of them count in the stated
ratio (pure, no Qt): the order methods are shown in (the stated one first, then the registry's
order), whether a method's own ratio carries weight in a fused one, and the sentences saying
which methods point which way — beside a stated comparison system, or among the methods of a
fusion other than TAVeer and LambdaG's. ``method_agreement`` builds the lines of a result on
these, and states TAVeer's and LambdaG's agreement itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.ground.registry import METHOD_IDS, method_name
from taveer_desktop.presentation.face_registry import fuses
from taveer_desktop.presentation.method_names import names_text, verb

# a fusion weight smaller than this (it shows as 0.00) gives its method no weight in the
# fused ratio: the method's own ratio is shown beside the stated one, but counts for nothing
NO_WEIGHT = 0.01


def registry_order(methods: Iterable[str]) -> list[str]:
    """``methods`` in the registry's order, any id the registry does not know after them."""
    given = list(dict.fromkeys(str(m) for m in methods))
    known = [m for m in METHOD_IDS if m in given]
    return known + sorted(m for m in given if m not in METHOD_IDS)


def lr_direction(log10_lr: float) -> str:
    """Which proposition a log10 likelihood ratio supports, in words."""
    if log10_lr > 0:
        return "supports Hp (same author)"
    if log10_lr < 0:
        return "supports Hd (another author)"
    return "supports neither proposition"


def method_order(by_method: dict[str, float | None], stated: str) -> list[str]:
    """The methods to show: the stated one first, then every other method of the result in
    the registry's order (the fusion only where it is stated: otherwise it is not a method
    of the result but a combination of two of them)."""
    others = [m for m in by_method if m != stated and (not fuses(m) or fuses(stated))]
    return [stated, *registry_order(others)]


def carries_weight(method: str, stated: str, weights: Mapping[str, float] | None) -> bool | None:
    """Whether ``method``'s own ratio counts in the stated one: the stated method's does; with
    the fusion stated, a method whose fusion weight is not (next to) zero; LambdaG's ratio
    alone counts nothing of TAVeer's. None: a fused model whose weights are not known here."""
    if method == stated:
        return True
    if not fuses(stated):
        return False
    if weights is None:
        return None
    return abs(weights.get(method, 0.0)) >= NO_WEIGHT


def directions_sentence(findings: MethodFindings) -> str | None:
    """Beside a stated method other than TAVeer's and LambdaG's: which methods' own ratios
    support which proposition (None with fewer than two ratios). Only the stated method's
    ratio is the conclusion; the others are shown for comparison."""
    shown = method_order(findings.by_method, findings.stated)
    values = {m: findings.by_method.get(m) for m in shown}
    given = {m: v for m, v in values.items() if v is not None}
    if len(given) < 2:
        return None
    groups: dict[str, list[str]] = {}
    for method, value in given.items():
        groups.setdefault(lr_direction(value), []).append(method_name(method))
    if len(groups) == 1:
        ((direction, names),) = groups.items()
        return (
            f"Every method shown {direction} "
            f"({', '.join(names)}); only {method_name(findings.stated)}'s ratio is the "
            "conclusion, the others are for comparison."
        )
    parts = "; ".join(f"{', '.join(names)} {verb(len(names), d)}" for d, names in groups.items())
    return (
        f"The methods point different ways: {parts}. Only {method_name(findings.stated)}'s "
        "ratio is the conclusion; the disagreement is stated because it is part of the finding."
    )


def fused_directions_sentence(
    findings: MethodFindings, weights: Mapping[str, float] | None
) -> str | None:
    """Beside a fusion of methods other than TAVeer and LambdaG: which fused methods' own
    ratios support which proposition, and which carry no weight in the fused ratio (None with
    fewer than two fused ratios)."""
    fused = list(weights) if weights else [m for m in findings.by_method if not fuses(m)]
    given = {m: v for m in fused if (v := findings.by_method.get(m)) is not None}
    if len(given) < 2:
        return None
    groups: dict[str, list[str]] = {}
    for method, value in given.items():
        groups.setdefault(lr_direction(value), []).append(method)
    unweighted = [m for m in fused if carries_weight(m, findings.stated, weights) is False]
    zero = f" The fusion gives {names_text(unweighted)} no weight." if unweighted else ""
    if len(groups) == 1:
        ((direction, methods),) = groups.items()
        return f"Every fused method {direction} ({names_text(methods)}).{zero}"
    parts = "; ".join(f"{names_text(ms)} {verb(len(ms), d)}" for d, ms in groups.items())
    return (
        f"The fused methods point different ways: {parts}. The fused ratio weighs them as "
        f"learned on the validation trials; the disagreement is part of the finding.{zero}"
    )
