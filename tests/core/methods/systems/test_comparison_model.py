"""A comparison system's part of a model file (``core/methods/systems/comparison_model.py``):
written by the validation, read back equal, and refused at the door when malformed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.systems import comparison_model
from taveer_desktop.core.methods.systems.comparison_model import (
    ComparisonPart,
    check_impostor_size,
    decode_impostors,
    encode_impostors,
)
from taveer_desktop.core.methods.taveer.model import load_model, parse_model, save_model
from taveer_desktop.core.validation.validation import validate
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings
from tests.core.methods.systems.trigram_methods import installed


@pytest.fixture(scope="module")
def catalogue():
    with installed():
        yield


@pytest.fixture(scope="module")
def model(catalogue, tmp_path_factory):
    population = demo_population(tmp_path_factory.mktemp("population"))
    return validate(population, small_settings("im", repeats=1, max_trials=80)).model


def test_the_part_reads_back_equal_from_the_file(model, tmp_path):
    path = tmp_path / "model.json"
    save_model(model, path)
    again = load_model(path)
    assert again.extra["method"] == "im"
    assert ComparisonPart.of(again, "m") == ComparisonPart.of(model, "m")
    part = ComparisonPart.of(again, "m")
    assert part.params == {"min_chars": 0, "k": 3} and set(part.learned) == {"offset"}
    texts = decode_impostors(part.impostors, "m")
    assert len(texts) == part.impostors["documents"] > 10


def _with(model, **changes):
    data = json.loads(model.to_json())
    data["comparison"].update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": "nope"}, "comparison.id must be one of"),
        ({"id": "profav"}, "is not the stated method"),
        ({"params": {"k": -1, "min_chars": 0}}, "hyperparameter|must|not usable"),
        ({"params": {"bogus": 1}}, "no hyperparameter bogus"),
        ({"learned": {"offset": "x"}}, "learned must be"),
        ({"learned": {"offset": 1e400}}, "finite numbers only"),
        ({"learned": {"offset": 0.5, "x": list(range(200_000))}}, "over"),
        ({"seed": -1}, "comparison.seed"),
        ({"raw_range": [2.0, 1.0]}, "raw_range"),
        ({"calibration": None}, "calibration"),
        ({"impostors": None}, "impostors must be an object"),
    ],
)
def test_a_malformed_part_is_refused_at_the_door(model, changes, message):
    with pytest.raises(InputError, match=message):
        parse_model(_with(model, **changes), "bad.json")


def test_impostors_that_do_not_match_what_they_state_are_refused(model):
    encoded = dict(model.extra["comparison"]["impostors"])
    for key, value in (("sha256", "0" * 64), ("documents", 3), ("bytes", 10), ("data", "!!")):
        with pytest.raises(InputError, match="impostors"):
            parse_model(_with(model, impostors={**encoded, key: value}), "bad.json")


def test_a_model_of_a_method_this_build_lacks_is_refused_plainly(model):
    data = json.loads(model.to_json())
    data["method"] = "coav"
    data["comparison"]["id"] = "coav"
    with pytest.raises(InputError, match=r"not usable|not available"):
        parse_model(json.dumps(data), "coav.json")


def test_a_population_too_large_to_carry_is_refused_before_the_run(monkeypatch):
    encoded = encode_impostors(["some text " * 50, "another text " * 50])
    monkeypatch.setattr(comparison_model, "MAX_IMPOSTOR_BYTES", 10)
    with pytest.raises(InputError, match="too large for a comparison model"):
        check_impostor_size(encoded, "population")


def test_a_taveer_model_with_a_stray_comparison_part_is_checked_too(model):
    stray = replace(model, extra={**model.extra, "method": "taveer"})
    data = json.loads(stray.to_json())
    data["comparison"]["learned"] = {"offset": "x"}
    with pytest.raises(InputError, match="learned must be"):
        parse_model(json.dumps(data), "stray.json")
