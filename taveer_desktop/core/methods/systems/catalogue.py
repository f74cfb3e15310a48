"""The comparison systems by id: ``comparison_method("coav")`` → a ``ComparisonMethod``.

Each comparison system lives in ``taveer_desktop/core/methods/systems/<id>.py`` and names its
class ``METHOD`` there (docs/architecture.md, "Adding a method"). Nothing imports those
modules eagerly: the engine asks the catalogue for the one method a validation, a model or a
benchmark needs, so a method whose module is absent or broken costs the others nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import COMPARISON_IDS
from taveer_desktop.core.methods.systems.comparison import ComparisonMethod

PACKAGE = "taveer_desktop.core.methods.systems"


class UnknownMethod(ValueError):
    """No comparison system has this id, or its module cannot be loaded (the message says)."""


def comparison_class(method_id: str) -> type[ComparisonMethod]:
    """The class of the comparison system ``method_id`` (``UnknownMethod`` otherwise)."""
    if method_id not in COMPARISON_IDS:
        raise UnknownMethod(
            f"{method_id!r} is not a comparison system (known: {', '.join(COMPARISON_IDS)})"
        )
    try:
        module = importlib.import_module(f"{PACKAGE}.{method_id}")
    except ImportError as error:
        raise UnknownMethod(
            f"the comparison system {method_id!r} is not available in this build ({error})"
        ) from None
    cls = getattr(module, "METHOD", None)
    if not (isinstance(cls, type) and issubclass(cls, ComparisonMethod)):
        raise UnknownMethod(f"{PACKAGE}.{method_id} does not define METHOD (a ComparisonMethod)")
    if cls.info.id.value != method_id:
        raise UnknownMethod(f"{PACKAGE}.{method_id} defines the method {cls.info.id.value!r}")
    return cls


def comparison_method(method_id: str, params: Mapping[str, Any] | None = None) -> ComparisonMethod:
    """The comparison system ``method_id`` with these hyperparameters (its ``DEFAULTS`` where
    none are given); ``UnknownMethod`` for an unknown id, a missing module or bad parameters."""
    cls = comparison_class(method_id)
    try:
        return cls(params)
    except ValueError as error:
        raise UnknownMethod(f"{cls.info.name}: {error}") from None


def available() -> dict[str, str | None]:
    """Every comparison id → None if its module loads, else why not (benchmarks list these)."""
    out: dict[str, str | None] = {}
    for method_id in COMPARISON_IDS:
        try:
            comparison_class(method_id)
            out[method_id] = None
        except UnknownMethod as error:
            out[method_id] = str(error)
    return out


def require_loadable(methods: Iterable[str]) -> None:
    """Refuse, in one plain line, a validation naming a comparison system whose module does not
    load in this build (``ValidationSettings.check`` has checked the ids are registered)."""
    for method in methods:
        if method in COMPARISON_IDS:
            try:
                comparison_class(method)
            except UnknownMethod as error:
                raise InputError(str(error)) from None
