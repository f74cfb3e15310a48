"""A case verified with a comparison system's model (``core/methods/systems/comparison_verify.py``,
``core/verification/method_verify.py``): its calibrated, bounded ratio stated under the gate,
TAVeer's beside it, a finding outside the validated range of raw scores, no ratio where the method
cannot compare, and the findings written and read back."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.method_findings import findings_from_dict
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
from taveer_desktop.core.validation.validation import validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings
from tests.core.methods.systems.trigram_methods import installed


@pytest.fixture(scope="module")
def catalogue():
    with installed():
        yield


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    return demo_population(tmp_path_factory.mktemp("population"))


@pytest.fixture(scope="module")
def im_model(catalogue, population):
    return validate(population, small_settings("im", repeats=1, max_trials=80)).model


@pytest.fixture(scope="module")
def case():
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    known = [(demo / name).read_text(encoding="utf-8") for name in entry["known"]]
    return known, (demo / entry["questioned"]).read_text(encoding="utf-8")


def test_the_stated_ratio_is_the_methods_calibrated_and_bounded_one(im_model, case):
    known, questioned = case
    result = verify_with_method(im_model, known, questioned)
    found = result.methods
    assert found is not None and found.stated == "im"
    assert set(found.by_method) == {"taveer", "im"}
    assert found.raw is not None and found.lambdag_order is None and found.evidence is None
    part = im_model.extra["comparison"]["calibration"]
    assert part["min_log10_lr"] <= found.by_method["im"] <= part["max_log10_lr"]
    assert result.conclusion.kind is not ConclusionKind.NONE
    assert result.log10_lr == found.by_method["im"]  # stated under the gate
    # no validation record given: investigative at most, as for every method
    assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert verify_with_method(im_model, known, questioned).methods == found  # seeded


def test_a_raw_score_outside_the_validated_range_is_a_finding(im_model, case):
    known, questioned = case
    data = dict(im_model.extra["comparison"], raw_range=[100.0, 101.0])
    model = replace(im_model, extra={**im_model.extra, "comparison": data})
    result = verify_with_method(model, known, questioned)
    rules = [f for f in result.conclusion.findings if f.rule is GateRule.VALIDATED_CONDITIONS]
    assert any("outside the range its validation trials gave" in f.message for f in rules)
    assert result.conclusion.kind is not ConclusionKind.EVALUATIVE


def test_a_case_the_method_cannot_compare_gets_no_ratio_and_says_why(catalogue, population, case):
    model = validate(population, small_settings("unmasking", repeats=1, max_trials=80)).model
    known, questioned = case
    result = verify_with_method(model, known, questioned[:2000])
    found = result.methods
    assert found is not None and found.by_method["unmasking"] is None
    assert found.cannot_compare == "the questioned text has fewer than 2600"
    assert result.conclusion.kind is ConclusionKind.NONE and result.log10_lr is None
    assert any("cannot compare this case" in f.message for f in result.conclusion.findings)
    assert found.by_method["taveer"] is not None  # TAVeer's own ratio kept beside


def test_findings_are_written_and_read_back_strictly(im_model, case):
    known, questioned = case
    found = verify_with_method(im_model, known, questioned).methods
    assert found is not None
    written = json.loads(json.dumps(found.to_dict()))
    assert findings_from_dict(written).to_dict() == written
    assert written["raw"] == round(found.raw, 6) and "lambdag_order" not in written
    for bad in ({"raw": "x"}, {"cannot_compare": ""}, {"method": "taveer"}, {"method": "nope"}):
        with pytest.raises(ValueError, match="methods"):
            findings_from_dict({**found.to_dict(), **bad})


def test_a_stored_lambdag_result_still_reads():
    stored = {
        "method": "fusion",
        "log10_lr_by_method": {"taveer": 0.4, "lambdag": 1.2, "fusion": 0.9},
        "lambdag_order": 3,
        "lambdag_raw": 5.5,
        "at_bound": ["fusion"],
    }
    found = findings_from_dict(stored)
    assert (found.stated, found.lambdag_order, found.lambdag_raw) == ("fusion", 3, 5.5)
    assert found.to_dict() == stored
    with pytest.raises(ValueError, match="lambdag_order is missing"):
        findings_from_dict({k: v for k, v in stored.items() if k != "lambdag_order"})
