"""A stated ratio no seed can flip: each repeat's own fit kept in the model file (read strictly),
the case's ratio under each, and no direction where they disagree (issue 30, item 4)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.outcome import GateRule, ResultFormatError
from taveer_desktop.core.calibration.repeat_agreement import (
    NotPossible,
    RepeatStatus,
    agreement_from_dict,
    agreement_of,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import load_model, parse_model
from taveer_desktop.core.methods.taveer.repeat_models import (
    REPEAT_MODELS_KEY,
    RepeatFit,
    repeat_fits,
    repeat_models_block,
)
from taveer_desktop.core.verification.method_verify import taveer_log10_lr, verify_with_method
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence

POPULATION = Path(__file__).resolve().parents[3] / "resources" / "demo" / "population"
LN10 = math.log(10.0)


def unbounded_default_model():
    """The shipped default model with its calibration unbounded, so that a repeat fit whose
    intercept is shifted by ``shift`` shifts every ratio by exactly shift / ln 10."""
    loaded = load_model(paths.resource("models", "default.json"))
    assert loaded.calibration is not None
    return replace(
        loaded, calibration=replace(loaded.calibration, min_log10_lr=None, max_log10_lr=None)
    )


@pytest.fixture(scope="module")
def model():
    return unbounded_default_model()


@pytest.fixture(scope="module")
def texts():
    files = sorted((POPULATION / "Hamilton").glob("*.txt"))
    if len(files) < 3:
        pytest.skip(f"the shipped demo population is missing ({POPULATION})")
    read = [f.read_text(encoding="utf-8") for f in files[:3]]
    return read[:2], read[2]


def _fit(model, seed: int, shift: float = 0.0) -> RepeatFit:
    calibration = replace(model.calibration, intercept=model.calibration.intercept + shift)
    return RepeatFit(seed, dict(model.thresholds), model.ensemble, calibration)


def _with_fits(model, fits):
    return parse_model(
        replace(model, extra={**model.extra, **repeat_models_block(fits)}).to_json(), "m.json"
    )


def test_a_repeat_fit_equal_to_the_final_model_gives_its_ratio_and_agrees(model, texts):
    known, unknown = texts
    plain = verify_with_method(model, known, unknown)
    assert plain.repeats is not None and plain.repeats.status is RepeatStatus.NOT_POSSIBLE
    assert plain.repeats.reason is NotPossible.NO_REPEAT_FITS  # a model from before
    final = taveer_log10_lr(model, plain)
    assert final is not None and final != 0
    kept = _with_fits(model, [_fit(model, 3), _fit(model, 4)])
    result = verify_with_method(kept, known, unknown)
    assert result.repeats.status is RepeatStatus.AGREE
    assert result.repeats.seeds == (3, 4)
    assert result.repeats.log10_lrs == pytest.approx((final, final))
    assert result.log10_lr == pytest.approx(final)  # the stated ratio stays the final model's
    assert GateRule.REPEATS_DISAGREE not in {f.rule for f in result.conclusion.findings}


def test_a_validation_drawn_once_cannot_show_the_direction_is_independent_of_the_draw(model, texts):
    """One repeat's fit agreeing with the final model says nothing of another draw: the check
    is "not possible", and the stated ratio is left as it is."""
    known, unknown = texts
    plain = verify_with_method(model, known, unknown)
    final = taveer_log10_lr(model, plain)
    result = verify_with_method(_with_fits(model, [_fit(model, 2)]), known, unknown)
    assert result.repeats.status is RepeatStatus.NOT_POSSIBLE
    assert result.repeats.reason is NotPossible.ONE_REPEAT
    assert result.log10_lr == pytest.approx(final)
    assert repeat_sentence(result.repeats).endswith(
        "the validation drew them only once (validate with at least two repeats to have it "
        "checked)."
    )


def test_repeats_pointing_different_ways_state_no_direction(model, texts):
    known, unknown = texts
    plain = verify_with_method(model, known, unknown)
    final = taveer_log10_lr(model, plain)
    # one repeat's intercept moved so that its ratio lies on the other side of 1
    shift = -2.0 * final * LN10
    kept = _with_fits(model, [_fit(model, 0), _fit(model, 1, shift), _fit(model, 2)])
    result = verify_with_method(kept, known, unknown)
    agreement = result.repeats
    assert agreement.status is RepeatStatus.DISAGREE
    assert agreement.log10_lrs[1] == pytest.approx(-final)
    assert agreement.final_log10_lr == pytest.approx(final)
    assert result.log10_lr == 0.0 and result.conclusion.log10_lr == 0.0
    findings = {f.rule: f for f in result.conclusion.findings}
    assert GateRule.REPEATS_DISAGREE in findings
    assert findings[GateRule.REPEATS_DISAGREE].measured == pytest.approx(2 * abs(final))
    assert result.conclusion.kind is plain.conclusion.kind  # the other rules set the kind
    data = result.to_dict()
    assert data["repeats"]["status"] == "disagree" and data["log10_lr"] == 0.0
    again = read_result(json.loads(json.dumps(data)))
    assert again.repeats == agreement
    assert again.conclusion == result.conclusion


def test_agreement_is_unanimous_and_strict():
    assert agreement_of(0.3, (0.1, 0.2), (0, 1)).status is RepeatStatus.AGREE
    assert agreement_of(-0.3, (-0.1, -0.2), (0, 1)).status is RepeatStatus.AGREE
    assert agreement_of(0.3, (0.1, -0.01), (0, 1)).status is RepeatStatus.DISAGREE
    assert agreement_of(0.3, (0.1, 0.0), (0, 1)).status is RepeatStatus.DISAGREE
    assert agreement_of(0.3, (0.1, None), (0, 1)).status is RepeatStatus.DISAGREE
    assert agreement_of(-0.3, (0.1, 0.2), (0, 1)).status is RepeatStatus.DISAGREE
    found = agreement_of(0.3, (0.1, -0.2, None), (5, 6, 7))
    assert (found.lowest, found.highest, found.towards_hp, found.towards_hd) == (-0.2, 0.1, 1, 1)
    assert agreement_from_dict(found.to_dict()) == found
    assert agreement_from_dict(None) is None
    for bad in ({"status": "maybe"}, {"status": "agree", "log10_lr": [1.0], "seeds": []}, []):
        with pytest.raises(ResultFormatError):
            agreement_from_dict(bad)


def _block(model, **changes):
    block = repeat_models_block([_fit(model, 0), _fit(model, 1)])[REPEAT_MODELS_KEY]
    fit = dict(block["fits"][0])
    for key, value in changes.items():
        if key.startswith("fit_"):
            fit[key[4:]] = value
        else:
            block[key] = value
    block["fits"] = [fit, *block["fits"][1:]] if "fits" not in changes else block["fits"]
    return block


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format_version": 3}, "newer than this program"),
        ({"format_version": "1"}, "format_version"),
        ({"extra": 1}, "unknown keys"),
        ({"fits": []}, "1 to 20 fits"),
        ({"fits": [{}] * 21}, "1 to 20 fits"),
        ({"fit_seed": 5}, "seeds must rise"),
        ({"fit_seed": -1}, "seed"),
        ({"fit_thresholds": {"F1": 0.5}}, "thresholds"),
        ({"fit_ensemble": ["F12"]}, "ensemble"),
        ({"fit_calibration": None}, "calibration"),
        ({"fit_calibration": {"method": "isotonic"}}, "calibration"),
        ({"fit_other": 1}, "unknown keys"),
    ],
)
def test_malformed_repeat_fits_refuse_the_model_file(model, changes, message):
    data = model.to_dict()
    data[REPEAT_MODELS_KEY] = _block(model, **changes)
    with pytest.raises(InputError) as caught:
        parse_model(json.dumps(data), "bad.json")
    assert message in str(caught.value) and "bad.json" in str(caught.value)


def test_repeat_fits_round_trip_and_old_files_read_unchanged(model):
    fits = [_fit(model, 4), _fit(model, 5, 0.25)]
    kept = _with_fits(model, fits)
    assert repeat_fits(kept, "m") == tuple(fits)
    assert parse_model(kept.to_json(), "m") == kept
    assert repeat_fits(model, "m") is None  # no block: the check is not possible, no refusal
    assert parse_model(model.to_json(), "m") == model
