"""LambdaG's validation gives the same figures however its n-gram keys are kept in memory.

``data/lambdag_demo_validation_pin.json`` was written by the validation as it was before the
keys stopped being made for the whole population at once (commit 6bb6fc4): λG of every trial at
every order, and the record's figures, on the demo project's shipped public-domain population.
A change to how the keys are built, kept or released must leave every one of them unchanged.

Issue 21 added ``repeats`` (default 3); the pin's settings say ``repeats: 1``, which is exactly
the validation the pin was written with (one seed, the same trials, folds and LRs). Its
``intervals`` were re-pinned then, and only they: the intervals became bias-corrected
percentile intervals (``core/validation/validation_figures.py``) so that each contains its figure;
every figure, LR, λG, order and bound stayed bit for bit what it was. Since TAVeer's distances add
their terms smallest first (2026-12) and the tests run on other processors, floats are compared
within ``golden_compare``'s tolerance (a relative 1e-9); counts, orders and choices exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from golden_compare import same_record

from taveer_desktop.core.methods.lambdag.lambdag_trial_scores import lambdag_trial_scores
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials, validate
from taveer_desktop.store.population_folder import read_population_folder
from tests.core.validation_fixtures import SHIPPED_POPULATION

PIN = Path(__file__).resolve().parents[2] / "data" / "lambdag_demo_validation_pin.json"


@pytest.fixture(scope="module")
def pinned():
    return json.loads(PIN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def population():
    files = read_population_folder(SHIPPED_POPULATION)
    return population_from_texts(files.texts(), "demo", str(SHIPPED_POPULATION), "demo")


def _settings(pinned) -> ValidationSettings:
    return ValidationSettings(**pinned["settings"])


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_lambda_g_of_every_trial_at_every_order_is_unchanged(pinned, population, workers):
    """In one process and with the folds in two worker processes alike."""
    settings = _settings(pinned)
    trials = build_trials(population, settings)
    scored = lambdag_trial_scores(
        population,
        trials,
        settings.lambdag_order,
        settings.lambdag_samples,
        settings.seed,
        workers=workers,
    )
    expected = np.array(pinned["raw_lambdag_by_order"])
    assert scored.raw.shape == expected.shape == (len(trials), settings.lambdag_order)
    # bit for bit on the machine that wrote the pin; within 1e-12 wherever NumPy's vectorised
    # log10 differs in the last place between processors
    np.testing.assert_allclose(scored.raw, expected, rtol=1e-12, atol=1e-12)
    assert scored.reference_models == pinned["reference_models"]


@pytest.mark.slow
def test_the_fused_validation_record_is_unchanged(pinned, population):
    record = validate(population, _settings(pinned)).record
    # the pin holds each method's figures; the record now adds counts and cost beside them
    figures = {m: {k: b[k] for k in pinned["methods"][m]} for m, b in record["methods"].items()}
    # every count and choice exactly, every float within golden_compare's tolerance (the last
    # digit of a distance or a fit may follow the processor)
    assert same_record(figures, pinned["methods"]) is None
    assert same_record(record["figures"], pinned["figures"]) is None
    assert same_record(record["intervals"], pinned["intervals"]) is None
    for name, (low, high) in record["intervals"].items():
        assert low <= record["figures"][name] <= high
    assert same_record({k: record["bound"][k] for k in pinned["bound"]}, pinned["bound"]) is None
    lambdag = {k: record["lambdag"][k] for k in pinned["lambdag"]}
    assert same_record(lambdag, pinned["lambdag"]) is None
    trials = [
        {"lambdag_raw": t["lambdag_raw"], "log10_lr_by_method": t["log10_lr_by_method"]}
        for t in record["trials"]
    ]
    assert same_record(trials, pinned["trials"]) is None
    assert len(trials) == 120 and set(trials[0]["log10_lr_by_method"]) == {
        "taveer",
        "lambdag",
        "fusion",
    }
