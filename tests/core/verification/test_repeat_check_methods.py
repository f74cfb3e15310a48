"""A stated ratio no seed can flip, for every method (issue 30, item 4): a validated model of
LambdaG, of a comparison system (COAV) and of a fusion (TAVeer + COAV) keeps each repeat's own
fits of the methods its ratio is made of, reads them back strictly, gives the case's ratio under
each, states LR 1 with ``repeats_disagree`` where they point different ways (in ``verify`` and
``evaluate`` alike), and an older model without them still reads, saying why it cannot check."""

from __future__ import annotations

import copy
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from taveer_desktop.core.calibration.outcome import GateRule
from taveer_desktop.core.calibration.raw_repeat_fit import RawRepeatFit
from taveer_desktop.core.calibration.repeat_agreement import NotPossible, RepeatStatus
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.fusion.fusion_model import RepeatFusion
from taveer_desktop.core.methods.method_registry import repeat_fits_of
from taveer_desktop.core.methods.taveer.model import parse_model
from taveer_desktop.core.methods.taveer.repeat_models import REPEAT_MODELS_KEY, repeat_models_block
from taveer_desktop.core.validation.evaluation import evaluate
from taveer_desktop.core.validation.validation import validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings
from tests.core.validation.test_evaluate_any_method import corpus  # noqa: F401 (a fixture)

LN10 = math.log(10.0)
KINDS = {"coav": {}, "lambdag": {}, "fusion": {"fuse": ("taveer", "coav")}}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """One validated model of each kind, read back as a file is."""
    population = demo_population(tmp_path_factory.mktemp("demo"))
    found = {}
    for method, more in KINDS.items():
        model = validate(population, small_settings(method, **more)).model
        found[method] = parse_model(model.to_json(), f"{method}.json")
    return found


@pytest.fixture(scope="module")
def cases(corpus):  # noqa: F811 (the fixture imported above)
    return list(corpus.iter_cases())[:6]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("method", "parts"),
    [("coav", {"coav"}), ("lambdag", {"lambdag"}), ("fusion", {"coav", "fusion"})],
)
def test_each_method_keeps_and_round_trips_its_own_repeat_fits(models, method, parts):
    model = models[method]
    fits = repeat_fits_of(model, "m.json")
    assert fits is not None and len(fits) == 2  # the small settings' two repeats
    assert model.extra[REPEAT_MODELS_KEY]["format_version"] == 2
    for fit in fits:
        assert set(fit.parts) == parts
        for m, part in fit.parts.items():
            assert isinstance(part, RepeatFusion if m == "fusion" else RawRepeatFit)
    again = parse_model(model.to_json(), "again.json")
    assert again == model and repeat_fits_of(again, "again.json") == fits
    assert repeat_models_block(fits)[REPEAT_MODELS_KEY] == model.extra[REPEAT_MODELS_KEY]


@pytest.mark.slow
@pytest.mark.parametrize("method", ["coav", "lambdag", "fusion"])
def test_every_method_checks_the_case_under_each_repeat(models, cases, method):
    model = models[method]
    fits = repeat_fits_of(model, "m.json")
    for case in cases:
        result = verify_with_method(model, case.known_texts, case.unknown_text)
        agreement = result.repeats
        assert agreement is not None
        if agreement.status is RepeatStatus.NOT_POSSIBLE:  # only where no ratio is stated
            assert agreement.reason is NotPossible.NO_RATIO
            continue
        assert agreement.seeds == tuple(f.seed for f in fits)
        assert all(v is not None for v in agreement.log10_lrs)
        if method == "coav":  # by hand: the case's raw score through each repeat's map
            raw = result.methods.raw
            for fit, value in zip(fits, agreement.log10_lrs, strict=True):
                part = fit.parts["coav"]
                lengths = (len(case.unknown_text), sum(len(t) for t in case.known_texts))
                assert value == pytest.approx(part.log10_lr(raw, lengths))


def _shifted(model, method: str, final: float, repeat: int = 1):
    """The model with one repeat's own part moved so that its ratio of a case whose final
    log10 LR is ``final`` lies on the other side of 1 (its bound widened so it is not clipped)."""
    data = copy.deepcopy(model.to_dict())  # never the shared model's own objects
    part = data[REPEAT_MODELS_KEY]["fits"][repeat]["parts"][method]
    inner = part["fusion"] if method == "fusion" else part["calibration"]
    inner["intercept"] -= 2.0 * final * LN10 + math.copysign(LN10, final)
    for key in ("min_log10_lr", "max_log10_lr"):
        inner.pop(key, None)
    inner.pop("bands", None)
    return parse_model(json.dumps(data), "shifted.json")


def _a_case_with_a_ratio(model, cases):
    """The first of the cases whose repeats all point the final ratio's way."""
    for case in cases:
        result = verify_with_method(model, case.known_texts, case.unknown_text)
        if result.repeats.status is RepeatStatus.AGREE and abs(result.log10_lr) > 1e-3:
            return case, result
    raise AssertionError("no case of the corpus has repeats agreeing on a direction")


@pytest.mark.slow
@pytest.mark.parametrize("method", ["coav", "fusion"])
def test_repeats_pointing_different_ways_state_lr_1_with_the_reason(models, corpus, method):  # noqa: F811
    model = models[method]
    case, agreed = _a_case_with_a_ratio(model, corpus.iter_cases())  # all 18
    final = agreed.log10_lr
    moved = _shifted(model, method, final)
    result = verify_with_method(moved, case.known_texts, case.unknown_text)
    agreement = result.repeats
    assert agreement.status is RepeatStatus.DISAGREE
    assert agreement.final_log10_lr == pytest.approx(final)
    assert agreement.log10_lrs[0] == pytest.approx(agreed.repeats.log10_lrs[0])
    assert math.copysign(1, agreement.log10_lrs[1]) != math.copysign(1, final)
    assert result.log10_lr == 0.0 and result.conclusion.log10_lr == 0.0
    rules = {f.rule for f in result.conclusion.findings}
    assert GateRule.REPEATS_DISAGREE in rules
    assert result.to_dict()["repeats"]["status"] == "disagree"


@pytest.mark.slow
def test_evaluate_states_what_verify_states_for_a_comparison_system(models, corpus):  # noqa: F811
    model = models["coav"]
    cases = list(corpus.iter_cases())
    case, agreed = _a_case_with_a_ratio(model, cases)
    moved = _shifted(model, "coav", agreed.log10_lr)
    found = evaluate(moved, corpus, workers=1)
    assert found.stated_log10_lr is not None
    for index, each in enumerate(cases):
        verified = verify_with_method(moved, each.known_texts, each.unknown_text)
        disagree = verified.repeats.status is RepeatStatus.DISAGREE
        listed = GateRule.REPEATS_DISAGREE.value in found.case_rules[index]
        assert listed == disagree, each.case_id
        if disagree:
            assert found.stated_log10_lr[index] == 0.0
    assert GateRule.REPEATS_DISAGREE.value in found.case_rules[cases.index(case)]


def _damaged(model, change) -> str:
    data = copy.deepcopy(model.to_dict())  # never the shared model's own objects
    change(data[REPEAT_MODELS_KEY])
    return json.dumps(data)


def _set(path: tuple, value):
    def change(block):
        target = block
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _parts(fit: int, value):
    return _set(("fits", fit, "parts"), value)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("method", "change", "message"),
    [
        ("coav", _set(("format_version",), 3), "newer than this program"),
        ("coav", _set(("format_version",), 1), "unknown keys"),  # parts need version 2
        ("coav", _parts(0, {}), "naming 1 to 12 methods"),
        ("coav", _parts(0, [1]), "naming 1 to 12 methods"),
        ("coav", _parts(0, {"nosuch": {}}), "names no method with a repeat fit"),
        ("coav", _parts(0, {"taveer": {}}), "names no method with a repeat fit"),
        ("coav", _set(("fits", 0, "parts", "coav", "extra"), 1), "unknown keys"),
        ("coav", _set(("fits", 0, "parts", "coav", "calibration"), None), "calibration"),
        ("coav", _set(("fits", 0, "parts", "coav", "calibration", "slope"), -1.0), "slope"),
        ("lambdag", _set(("fits", 1, "parts", "lambdag"), "x"), "must be an object"),
        ("fusion", _set(("fits", 0, "parts", "fusion"), {"weights": []}), "giving only 'fusion'"),
        ("fusion", _set(("fits", 0, "parts", "fusion", "fusion", "weights"), [1.0]), "weights"),
        ("fusion", _set(("fits", 0, "parts", "fusion", "fusion", "methods"), ["a"]), "methods"),
        ("fusion", lambda b: b["fits"][0]["parts"].pop("coav"), "same methods' parts"),
    ],
)
def test_damaged_repeat_fits_refuse_the_model_in_one_line(models, method, change, message):
    with pytest.raises(InputError) as caught:
        parse_model(_damaged(models[method], change), "bad.json")
    text = str(caught.value)
    assert message in text and "bad.json" in text and "\n" not in text


@pytest.mark.slow
def test_models_without_a_methods_repeat_fits_still_read_and_say_why(models, cases):
    model = models["coav"]
    case = cases[0]
    data = copy.deepcopy(model.to_dict())
    del data[REPEAT_MODELS_KEY]
    older = parse_model(json.dumps(data), "older.json")  # from before repeat fits were kept
    result = verify_with_method(older, case.known_texts, case.unknown_text)
    if result.repeats.reason is not NotPossible.NO_RATIO:
        assert result.repeats.reason is NotPossible.NO_REPEAT_FITS
    fits = repeat_fits_of(model, "m.json")
    taveer_only = replace(  # from before every method kept its own: TAVeer's fits alone
        model,
        extra={
            **model.extra,
            **repeat_models_block([replace(f, parts={}) for f in fits]),
        },
    )
    assert taveer_only.extra[REPEAT_MODELS_KEY]["format_version"] == 1
    read = parse_model(taveer_only.to_json(), "taveer-only.json")
    result = verify_with_method(read, case.known_texts, case.unknown_text)
    if result.repeats.reason is not NotPossible.NO_RATIO:
        assert result.repeats.reason is NotPossible.METHOD_KEEPS_NONE
        assert "validate it again" in repeat_sentence(result.repeats)
        assert result.log10_lr is not None and np.isfinite(result.log10_lr)
