"""Every comparison system of the registry through the real catalogue, the whole path: validated
on the demo population (figures, counts, cost, seed spread where it draws at random), its model
part written and read back, a case verified with it. This test fails for a method whose module
(``core/methods/systems/<id>.py``) is not in the build: the ten modules are part of the product."""

from __future__ import annotations

import json

import pytest

from taveer_desktop import paths
from taveer_desktop.core.ground.registry import COMPARISON_IDS, MethodId, method_info
from taveer_desktop.core.methods.method_registry import repeat_fits_of
from taveer_desktop.core.methods.systems.catalogue import comparison_method
from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart
from taveer_desktop.core.methods.taveer.model import load_model, save_model
from taveer_desktop.core.validation.method_figures import method_figures
from taveer_desktop.core.validation.validation import validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings

# The unmasking pair at their papers' settings (Generalised Unmasking: 10 runs of 24 rounds of
# 10-fold SVMs on 60 chunks of 700 words) take minutes here; the path is the same at a small
# configuration (test_unmasking.py and test_genunmasking.py check the settings and the methods).
# The Impostors Method's 50 iterations, drawn again for every seed of its seed spread, took 12 s:
# 10 iterations take the same path (test_im.py checks the method at its own settings). NNCD
# compresses every questioned text against 30 impostors (20 s in a loaded quick loop); 10 take
# the same path (test_nncd.py checks the method at its own settings)
QUICK = {
    MethodId.IM.value: {"M": 100, "N": 10, "k": 10},
    MethodId.NNCD.value: {**comparison_method(MethodId.NNCD.value).DEFAULTS, "impostors": 10},
    MethodId.UNMASKING.value: {
        "initial_features": 40,
        "eliminated_per_side": 2,
        "iterations": 4,
        "chunk_words": 25,
        "folds": 5,
    },
    MethodId.GENUNMASKING.value: {
        "chunks": 10,
        "chunk_words": 100,
        "initial_features": 40,
        "eliminated_per_side": 2,
        "iterations": 6,
        "folds": 5,
        "runs": 2,
    },
}


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    return demo_population(tmp_path_factory.mktemp("population"))


@pytest.mark.parametrize("method_id", COMPARISON_IDS)
def test_every_method_validates_and_verifies(method_id, population, tmp_path, monkeypatch):
    if method_id in QUICK:
        monkeypatch.setattr(type(comparison_method(method_id)), "DEFAULTS", QUICK[method_id])
    result = validate(population, small_settings(method_id, repeats=1, max_trials=40))
    blocks = method_figures(result.record)
    assert list(blocks) == ["taveer", method_id]
    block = blocks[method_id]
    assert block.trials is not None and block.trials + (block.cannot_compare or 0) == 40
    assert block.figures["auc"] is not None and block.seconds_per_trial is not None
    assert (block.seed_spread is not None) == (not method_info(method_id).deterministic)
    path = tmp_path / "model.json"
    save_model(result.model, path)
    model = load_model(path)
    assert ComparisonPart.of(model, "m") == ComparisonPart.of(result.model, "m")
    part = ComparisonPart.of(model, "m")
    assert part.params == QUICK.get(method_id, part.params)  # what was validated is recorded
    # its own fit of the validation's one repeat (issue 30): that repeat is all the trials, so
    # its calibration is the final part's
    (fit,) = repeat_fits_of(model, "m")
    assert fit.parts[method_id].calibration == part.calibration
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    known = [(demo / name).read_text(encoding="utf-8") for name in entry["known"]]
    questioned = (demo / entry["questioned"]).read_text(encoding="utf-8")
    found = verify_with_method(model, known, questioned).methods
    assert found is not None and found.stated == method_id
    assert (found.by_method[method_id] is None) == (found.cannot_compare is not None)
    assert verify_with_method(model, known, questioned).methods == found  # seeded
