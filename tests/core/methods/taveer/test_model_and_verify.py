"""Model files (validation, round trip) and verification results (abstention, warnings)."""

from __future__ import annotations

import json

import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.outcome import Classification
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import load_model, parse_model, save_model
from taveer_desktop.core.methods.taveer.verify import verify

INSUFFICIENT = Classification.INSUFFICIENT


@pytest.fixture(scope="module")
def model():
    return load_model(paths.resource("models", "default.json"))


def test_default_model_round_trips(model, tmp_path):
    target = tmp_path / "m.json"
    save_model(model, target)
    again = load_model(target)
    assert again == model
    assert again.sha256 == model.sha256
    assert set(again.thresholds) == set(CATEGORY_IDS)
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left behind


def _mutated(model, **changes):
    data = model.to_dict()
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "other"}, "'format'"),
        ({"format_version": 99}, "newer than this program"),
        ({"format_version": "1"}, "format_version"),
        ({"thresholds": {"F1": 0.5}}, "thresholds"),
        ({"ensemble": []}, "ensemble"),
        ({"ensemble": ["F1", "F1"]}, "ensemble"),
        ({"ensemble": ["F12"]}, "ensemble"),
        ({"name": KeyError}, "'name'"),
        ({"training": "x"}, "training"),
        ({"threshold_method": "mean"}, "threshold_method"),
    ],
)
def test_malformed_models_are_rejected_with_a_clear_message(model, changes, message):
    with pytest.raises(InputError) as caught:
        parse_model(_mutated(model, **changes), "bad.json")
    assert "bad.json" in str(caught.value)
    assert message in str(caught.value)


def test_out_of_range_threshold_and_nan_are_rejected(model):
    data = model.to_dict()
    data["thresholds"]["F3"] = 2.5
    with pytest.raises(InputError, match="threshold F3"):
        parse_model(json.dumps(data), "m.json")
    text = model.to_json().replace(str(model.thresholds["F1"]), "NaN", 1)
    with pytest.raises(InputError, match="threshold F1"):
        parse_model(text, "m.json")


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b"\x00\x01\x02", b"\xff\xfe{}"])
def test_unreadable_model_files(tmp_path, content):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        load_model(path)
    assert str(path) in str(caught.value)


def test_insufficient_evidence_when_every_ensemble_category_abstains(model):
    # Texts without any punctuation or lexicon word: every category abstains.
    result = verify(model, ["Zebra xylophone quartz"], "Kumquat nebula zephyr")
    assert result.prediction == INSUFFICIENT
    assert result.similarity == 0.5
    assert all(result.categories[c].abstained for c in model.ensemble)
    assert any("insufficient" in w for w in result.warnings)


def test_result_reports_every_category_and_short_document_warnings(model):
    known = ["So that's how it goes, of course. It is what it is."]
    result = verify(model, known, "So that's the way it goes.", explain=True)
    data = result.to_dict()
    assert list(data["categories"]) == list(CATEGORY_IDS)
    for category in CATEGORY_IDS:
        entry = data["categories"][category]
        assert {"distance", "threshold", "similarity", "abstained"} <= set(entry)
    assert any("questioned text is short" in w for w in result.warnings)
    assert set(data["interpretation"]) == set(model.ensemble)
    assert result.prediction in {"Y", "N"}
    assert (result.similarity > 0.5) == (result.prediction == "Y")
