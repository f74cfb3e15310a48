"""Every method through one seam (``core/methods/method_registry.py``, ``method_seam.py``): each
registered method brings its seam, generic code asks what a method can do, and nothing in core/
outside the registries and a method's own modules compares with a method's id."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from taveer_desktop.core.ground.registry import (
    COMPARISON_IDS,
    METHOD_IDS,
    Capabilities,
    capabilities_of,
    method_info,
)
from taveer_desktop.core.methods.method_registry import BASE_METHOD, SEAMS, base_seam, method_seam
from taveer_desktop.core.methods.method_seam import MethodSeam

CORE = Path(__file__).resolve().parents[3] / "taveer_desktop" / "core"


def test_every_registered_method_brings_its_own_seam():
    assert set(SEAMS) == set(METHOD_IDS)
    for method in METHOD_IDS:
        seam = method_seam(method)
        assert isinstance(seam, MethodSeam) and seam.id == method
    assert {type(SEAMS[m]) for m in COMPARISON_IDS} == {type(SEAMS[COMPARISON_IDS[0]])}
    with pytest.raises(KeyError, match="no seam for method 'nonesuch'"):
        method_seam("nonesuch")


def test_the_base_method_is_the_one_that_declares_it():
    bases = [m for m in METHOD_IDS if method_info(m).capabilities.model_base]
    assert bases == [BASE_METHOD] == ["taveer"] and base_seam().id == BASE_METHOD
    assert not base_seam().scores_cases  # its score of a corpus is the model's own
    assert all(method_seam(m).scores_cases for m in METHOD_IDS if m != BASE_METHOD)


def test_an_unknown_id_can_do_nothing():
    assert capabilities_of("nonesuch") == Capabilities()
    assert (
        capabilities_of(None) == Capabilities() and capabilities_of(["lambdag"]) == Capabilities()
    )
    assert capabilities_of("fusion").fuses and capabilities_of("lambdag").evidence_in_text


def test_a_method_without_a_ratio_of_its_own_says_so():
    with pytest.raises(ValueError, match="'fusion' has no ratio of its own to resample"):
        method_seam("fusion").resampled_log10_lr(None, None, None, 0, None)
    with pytest.raises(ValueError, match="'taveer' scores no case of its own"):
        base_seam().case_scorer(None, None, "m")


def _branches(path: Path, ids: set[str]) -> list[str]:
    """Comparisons (==, !=, in, not in) or match cases naming a method id, as text or as a
    constant named after it, outside the registries and the method's own modules."""
    short = path.stem
    if "registry" in short:
        return []
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        named = []
        if isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                for leaf in ast.walk(part):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str):
                        named.append(leaf.value)
                    name = getattr(leaf, "id", None) or getattr(leaf, "attr", None) or ""
                    if name.isupper():
                        named.append(name.lower())
        elif isinstance(node, ast.MatchValue) and isinstance(node.value, ast.Constant):
            named.append(str(node.value.value))
        found += [
            f"{path.relative_to(CORE)}:{node.lineno} {s}"
            for s in named
            if s in ids and not short.startswith(s)
        ]
    return found


def test_no_module_of_core_asks_which_method_it_has():
    ids = set(METHOD_IDS)
    found = [b for path in sorted(CORE.rglob("*.py")) for b in _branches(path, ids)]
    assert not found, "ask the registry's capabilities or the method's seam instead: " + str(found)
