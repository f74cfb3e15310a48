"""One reader of a validation record: the basis a conclusion rests on is built from the typed
record (``core/validation/record_basis.py`` over ``record_reader``), with the strict checks
kept — every malformed shape refused in one line that names the record, with the same words.

The stored records (record formats 1 and 2) read as the dictionary says, field by field (the
reference below reads the dictionary directly, as the reader this one replaced did)."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

from taveer_desktop import paths
from taveer_desktop.core.gate.validation_basis import BasisSource
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.validation.record_basis import basis_from_record, read_record_file
from tests.basis_fixtures import STAND_IN_SOURCE, stand_in_record
from tests.core.validation.test_record_reader import _stored_records

PROJECT = STAND_IN_SOURCE


def _float(value: Any) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None


def _range(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    return (value, value) if isinstance(value, int) else (value[0], value[1])


def test_every_stored_record_reads_as_its_dictionary_says():
    records = list(_stored_records())
    assert {raw["format_version"] for _, raw in records} == {1, 2}
    for name, raw in records:
        basis = basis_from_record(raw, PROJECT)
        protocol, acceptance, population = raw["protocol"], raw["acceptance"], raw["population"]
        conditions = raw.get("conditions") or protocol
        assert basis.method == protocol.get("method", "taveer"), name
        assert (basis.model_name, basis.model_sha256) == (
            raw["model"]["name"],
            raw["model"]["sha256"],
        )
        assert basis.population.name == population["name"]
        assert basis.population.documents == population["documents"]
        assert basis.population.sha256 == population["sha256"]
        assert basis.population.authors == population["authors"]
        assert (basis.trials_same, basis.trials_different) == (
            protocol["trials_same"],
            protocol["trials_different"],
        )
        assert basis.criteria == acceptance.get("criteria", {})
        assert list(basis.criteria) == list(acceptance.get("criteria", {}))
        assert basis.results == acceptance.get("results", {}) and basis.met == acceptance["met"]
        assert basis.judged_on == acceptance.get("judged_on", "point")
        assert basis.figures == {k: _float(v) for k, v in raw["figures"].items()}
        assert list(basis.figures) == list(raw["figures"])
        assert basis.intervals == {
            k: (_float(lo), _float(hi)) for k, (lo, hi) in raw["intervals"].items()
        }
        assert basis.questioned_chars == _range(conditions["questioned_chars"])
        assert basis.known_chars == _range(conditions["known_chars"])
        assert basis.seed == protocol["seed"] and basis.created_utc == raw["created_utc"]
        assert basis.warnings == tuple(raw.get("warnings", ()))
        assert (basis.fit_profile is None) == (raw.get("population_fit") is None)
        casework = raw.get("casework")
        if casework is not None:
            assert basis.casework.reasons == tuple(casework["reasons"])
            assert basis.casework.authors == min(population["authors"], casework["authors"])


@pytest.fixture(scope="module")
def demo_model():
    return load_model(paths.resource("models", "demo-formal-prose.json"))


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda r: r["population"].update(name=5), "population.name is not text"),
        (lambda r: r["protocol"].update(method=3), "protocol.method is not text"),
        (lambda r: r.update(figures=[]), "figures is not an object"),
        (
            lambda r: r["acceptance"].update(criteria=[1]),
            "acceptance.criteria or acceptance.results is not an object",
        ),
        (
            lambda r: r["acceptance"]["results"].update(cllr=1),
            "acceptance.results holds something other than true or false",
        ),
        (lambda r: r["population"].update(authors=3.0), "population.authors is 3.0, not a whole"),
        (
            lambda r: r.update(conditions={"questioned_chars": [None, 100]}),
            "conditions.questioned_chars is not a length or a range",
        ),
        (
            lambda r: r.update(conditions={"questioned_chars": [1, 2, 3]}),
            r"conditions.questioned_chars is \[1, 2, 3\], not a length or a range",
        ),
        (
            lambda r: r.update(
                casework={"authors": 3, "trials_same": 1, "trials_different": 1, "reasons": [1]}
            ),
            "casework.reasons is not a list of text",
        ),
        (
            lambda r: r.update(casework={"authors": -2, "trials_same": 1, "trials_different": 1}),
            "casework.authors is -2, not a whole number ≥ 0",
        ),
        (lambda r: r.update(population_fit=[1]), "population_fit"),
        # found by the soak's probes: an internal error ('int' object is not iterable)
        (lambda r: r.update(bands=5), "bands is a number, not a list of length bands"),
        (lambda r: r.update(bands=1e308), "bands is a number, not a list of length bands"),
        (lambda r: r.update(bands="x"), "bands is text, not a list of length bands"),
        (lambda r: r.update(bands={}), "bands is an object, not a list of length bands"),
    ],
)
def test_a_malformed_record_is_refused_in_one_line_naming_it(demo_model, damage, words):
    record = stand_in_record(demo_model)
    damage(record)
    with pytest.raises(InputError, match=words) as refused:
        basis_from_record(record, PROJECT)
    assert "\n" not in str(refused.value) and PROJECT.describe() in str(refused.value)


def test_a_single_declared_length_reads_as_that_length_to_itself(demo_model):
    record = stand_in_record(demo_model, conditions={"questioned_chars": 3000, "known_chars": None})
    basis = basis_from_record(record, PROJECT)
    assert basis.questioned_chars == (3000, 3000) and basis.known_chars is None


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda r: r["trials"][0].pop("same"), "trial 1 has no same/different truth"),
        (lambda r: r["trials"][1].update(log10_lr=None), "trial 2 has no finite log10_lr"),
        (lambda r: [t.update(same=True) for t in r["trials"]], "its trials lack one class"),
        (lambda r: r["figures"].update(cllr="0.5"), 'figures.cllr is "0.5", not a number'),
    ],
)
def test_a_record_file_is_held_to_its_own_trials(tmp_path, damage, words):
    raw = copy.deepcopy(next(raw for _, raw in _stored_records() if raw["format_version"] == 2))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    basis = read_record_file(path)
    assert basis.source.kind == "file" and basis.trials_same + basis.trials_different > 0
    damage(raw)
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError, match=words):
        read_record_file(path)
    file_source = BasisSource("file", "b" * 64, str(path))
    with pytest.raises(InputError, match=words):
        basis_from_record(raw, file_source)
