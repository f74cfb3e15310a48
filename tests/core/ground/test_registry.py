"""The registry of methods and the catalogue of comparison systems
(``core/ground/registry.py``, ``catalogue.py``)."""

from __future__ import annotations

import pytest

from taveer_desktop.core.ground.registry import (
    COMPARISON_IDS,
    METHOD_IDS,
    REGISTRY,
    listing,
    method_info,
    method_name,
)
from taveer_desktop.core.methods.systems.catalogue import (
    UnknownMethod,
    comparison_class,
    comparison_method,
)
from taveer_desktop.core.trials.validation_settings import METHOD_TITLES, METHODS
from tests.core.methods.systems.trigram_methods import TrigramCosine, installed


def test_every_method_is_listed_once_with_the_contracts_keys():
    entries = listing()
    assert [e["id"] for e in entries] == list(METHOD_IDS) == [m.value for m in REGISTRY]
    assert len(set(METHOD_IDS)) == len(METHOD_IDS)  # no count pinned: a new method adds one
    assert tuple(m.value for m, info in REGISTRY.items() if info.comparison) == COMPARISON_IDS
    for entry in entries:
        assert set(entry) == {"id", "name", "family", "reference", "deterministic"}
        assert entry["id"] == entry["id"].lower() and entry["name"] and entry["reference"]
        assert isinstance(entry["deterministic"], bool)


def test_validation_takes_every_registered_id_and_names_it_from_the_registry():
    assert METHODS == METHOD_IDS
    assert {m: method_info(m).name for m in METHOD_IDS} == METHOD_TITLES
    assert method_name("nope") == "nope"
    with pytest.raises(KeyError, match="unknown method"):
        method_info("nope")


def test_the_catalogue_refuses_unknown_ids_and_missing_modules_plainly(monkeypatch):
    for bad in ("taveer", "lambdag", "nope"):
        with pytest.raises(UnknownMethod, match="is not a comparison system"):
            comparison_method(bad)
    monkeypatch.setattr(
        "importlib.import_module",
        lambda name: (_ for _ in ()).throw(ModuleNotFoundError(f"No module named {name!r}")),
    )
    with pytest.raises(UnknownMethod, match="not available in this build"):
        comparison_class("coav")


def test_the_catalogue_gives_the_methods_object_with_its_parameters():
    with installed():
        method = comparison_method("profav", {"min_chars": 5})
        assert isinstance(method, TrigramCosine) and method.params == {"min_chars": 5}
        with pytest.raises(UnknownMethod, match="no hyperparameter"):
            comparison_method("profav", {"bogus": 1})
        with pytest.raises(UnknownMethod, match="min_chars"):
            comparison_method("profav", {"min_chars": -1})
