"""The one way a person reads which method a model, a record, a result or a choice states.

Every view, table, line and page (the desktop, the command line, the case report and the
validation report) names a stated method through ``stated_name``: TAVeer, LambdaG or a
comparison system by its registry name (``core/ground/registry.py``), and a fusion by the
methods it fuses ("TAVeer + COAV + NNCD"), never as "Fusion" and never by parts it does not
fuse. The fused parts come from what is at hand — a model's ``"fusion"`` part, a record's
``"fusion"`` block, the wizard's ticks; a record or model made before the fusion named its
parts fused TAVeer and LambdaG (``FUSED_PAIR``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from taveer_desktop.core.ground.registry import MethodId, fusion_name, method_info, method_name
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation.face_registry import fuses, is_seed

FUSION = MethodId.FUSION
# the methods a fusion combines when its model or record does not say (made before #24)
FUSED_PAIR: tuple[str, ...] = (MethodId.TAVEER, MethodId.LAMBDAG)


def is_fusion(method: str) -> bool:
    """Whether ``method`` is the fusion (named by its parts, costed by them)."""
    return fuses(method)


def stated_name(method: str, fused: Iterable[str] | None = None) -> str:
    """The name of ``method`` as every place shows it; a fusion by ``fused`` (its parts, in
    column order; None: a fusion made before its parts were recorded, TAVeer and LambdaG); an
    id this version does not know, as it is."""
    if is_fusion(method):
        parts = [str(m) for m in fused] if fused is not None else list(FUSED_PAIR)
        if len(parts) < 2:
            parts = list(FUSED_PAIR)
        try:
            return fusion_name(parts)
        except KeyError:  # a part this version does not know: named as stored
            return str(method)
    try:
        return method_name(method)
    except KeyError:
        return str(method)


def short_stated_name(method: str, fused: Iterable[str] | None = None) -> str:
    """``stated_name`` in the registry's short names, for a table heading or a legend."""
    if is_fusion(method):
        return stated_name(method, fused)
    try:
        return method_info(method).short_name
    except KeyError:
        return str(method)


def with_method_words(method: str, fused: Iterable[str] | None) -> str:
    """ "with TAVeer + COAV" naming a method other than TAVeer beside a validation or a model
    ('' for TAVeer, the method a validation states unless told otherwise)."""
    return "" if is_seed(method) else f"with {stated_name(method, fused)}"


def record_fused(record: ValidationRecord) -> list[str] | None:
    """The methods a validation record's (or a model's validation summary's) fusion combines,
    from its ``"fusion"`` block (None: a record made before the block)."""
    methods = record.fusion.methods if record.fusion is not None else None
    return list(methods) if methods is not None else None


def model_fused(extra: Mapping[str, Any]) -> list[str] | None:
    """The methods a model's ``"fusion"`` part combines (None: none listed)."""
    part = extra.get(FUSION)
    listed = part.get("methods") if isinstance(part, dict) else None
    return [str(m) for m in listed] if isinstance(listed, list) and len(listed) >= 2 else None


def names_text(methods: Iterable[str]) -> str:
    """ "TAVeer and LambdaG", "TAVeer, COAV and NNCD": the registry's short names."""
    return and_joined([short_stated_name(m) for m in methods])


def and_joined(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C" (empty for none)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def verb(subject_count: int, singular: str) -> str:
    """ "supports" for one subject, "support" for several (the verb of ``lr_direction``)."""
    if subject_count == 1:
        return singular
    first, _, rest = singular.partition(" ")
    return (first[:-1] if first.endswith("s") else first) + (f" {rest}" if rest else "")
