"""The fusion of any validated methods (``ValidationSettings.fuse``, ``--fuse``): its settings
and command-line contract, its cross-validation on the trials every fused method scored, the
fused model's parts (written, read back, malformed ones refused) and its verification."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.cli.main import build_parser, main
from taveer_desktop.cli.validate_command import settings_from_args
from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.fusion.fusion import bounded_fusion
from taveer_desktop.core.methods.fusion.fusion_validation import validate_fusion
from taveer_desktop.core.methods.lambdag.lambdag_model import fusion_of
from taveer_desktop.core.methods.systems.comparison_model import comparison_part, fused_parts
from taveer_desktop.core.methods.systems.comparison_verify import compare_case
from taveer_desktop.core.methods.taveer.model import load_model, parse_model, save_model
from taveer_desktop.core.trials.validation_settings import DEFAULT_FUSE
from taveer_desktop.core.validation.validation import ValidationSettings, validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings

OLD_FUSED = Path(__file__).resolve().parents[2] / "data" / "fused_taveer_lambdag_model.json"
LN10 = math.log(10)


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _args(*options: str):
    return build_parser().parse_args(["validate", "--population", "p", "-o", "m", *options])


# --- settings and the command line ----------------------------------------------------------


def test_the_default_fusion_is_taveer_and_lambdag():
    assert ValidationSettings().fuse == DEFAULT_FUSE == ("taveer", "lambdag")
    assert settings_from_args(_args("--method", "fusion")).fuse == DEFAULT_FUSE
    fused = ValidationSettings(method="fusion")
    assert fused.validated == ("fusion", "taveer", "lambdag")
    assert ValidationSettings(method="coav").validated == ("coav",)  # no fusion, no more


def test_fuse_implies_the_fusion_and_is_the_same_for_case_validate():
    alone = settings_from_args(_args("--fuse", "TAVeer, coav"))
    assert (alone.method, alone.compare, alone.fuse) == ("fusion", (), ("taveer", "coav"))
    beside = settings_from_args(_args("--method", "coav", "--fuse", "taveer,coav,nncd"))
    assert (beside.method, beside.compare) == ("coav", ("fusion",))
    assert beside.validated == ("coav", "fusion", "taveer", "nncd")
    case = settings_from_args(
        build_parser().parse_args(
            ["case", "validate", "C-1", "--population", "p", "--fuse", "taveer,coav"]
        )
    )
    assert (case.method, case.fuse) == (alone.method, alone.fuse)


@pytest.mark.parametrize(
    ("fuse", "message"),
    [
        ("taveer", "at least two methods, not 1"),
        ("taveer,fusion", "cannot combine itself"),
        ("coav,coav", "coav named more than once"),
        ("taveer,bogus", "unknown method 'bogus'"),
        ("taveer,,coav", "unknown method ''"),
    ],
)
def test_a_bad_fuse_list_is_one_plain_line_exit_2_nothing_written(capsys, tmp_path, fuse, message):
    model = tmp_path / "m.json"
    code, out, err = run(capsys, "validate", "--population", tmp_path, "-o", model, "--fuse", fuse)
    assert code == 2 and out == "" and not model.exists()
    assert err.count("\n") == 1 and message in err
    with pytest.raises(InputError, match="--fuse"):
        ValidationSettings(method="fusion", fuse=tuple(fuse.split(","))).check()


# --- the fusion cross-validated -------------------------------------------------------------


class _Trials(SimpleNamespace):
    """What the fusion's cross-validation reads of a ``TrialSet``."""

    def __len__(self) -> int:
        return len(self.truth)


def test_trials_a_fused_method_could_not_compare_are_left_out_and_counted():
    rng = np.random.default_rng(0)
    n = 60
    truth = np.arange(n) % 2 == 0
    a = np.where(truth, 1.0, -1.0) + rng.normal(0, 1, n)
    b = np.where(truth, 0.5, -0.5) + rng.normal(0, 1, n)
    b_missing = b.copy()
    b_missing[[3, 10, 11]] = np.nan
    trials = _Trials(
        truth=truth,
        questioned_chars=np.full(n, 2000),
        fold=np.arange(n) % 3,
        repeat=np.zeros(n, dtype=int),
        folds=3,
    )
    settings = ValidationSettings(method="fusion", fuse=("coav", "profav"))
    found = validate_fusion(("coav", "profav"), {"coav": a, "profav": b_missing}, trials, settings)
    assert found.left_out == {"coav": 0, "profav": 3}
    assert np.isnan(found.cv_log10_lr[[3, 10, 11]]).all()
    assert int(found.compared.sum()) == n - 3
    block = found.summary()["fusion"]
    assert block["methods"] == ["coav", "profav"] and block["left_out"] == 3
    assert "a weight of 0 means the method carried no weight" in block["weights_meaning"]
    # every trial compared: each fold is bounded_fusion on the other folds, as before ``fuse``
    whole = validate_fusion(("coav", "profav"), {"coav": a, "profav": b}, trials, settings)
    both = np.column_stack([a, b])
    train, held = trials.fold != 0, trials.fold == 0
    fold = bounded_fusion(("coav", "profav"), both[train], truth[train])
    np.testing.assert_allclose(whole.cv_log10_lr[held], fold.log10_lr(both[held]))


@pytest.fixture(scope="module")
def population(tmp_path_factory):
    return demo_population(tmp_path_factory.mktemp("demo"))


def test_two_comparison_systems_fused_on_a_small_real_population(population, tmp_path):
    settings = small_settings("fusion", fuse=("coav", "profav"))
    done = validate(population, settings)
    record, model = done.record, done.model
    assert list(record["methods"]) == ["taveer", "fusion", "coav", "profav"]
    block = record["fusion"]
    assert block["methods"] == ["coav", "profav"]
    assert set(block["weights"]) == {"coav", "profav"}
    assert all(w >= 0 for w in block["weights"].values())
    assert block["trials"] == record["methods"]["fusion"]["trials"]
    assert record["protocol"]["method"] == "fusion"
    assert all(t["log10_lr_by_method"]["fusion"] is not None for t in record["trials"])
    assert model.extra["method"] == "fusion" and "comparison" not in model.extra
    assert "lambdag" not in model.extra  # LambdaG is not fused: its part is not carried
    assert [p["id"] for p in model.extra["comparisons"]["parts"]] == ["coav", "profav"]
    path = tmp_path / "fused.json"
    save_model(model, path)
    again = load_model(path)
    assert fusion_of(again, "x").methods == ("coav", "profav")
    assert set(fused_parts(again, "x")) == {"coav", "profav"}
    # one reader of any comparison part a model carries, stated or fused
    assert comparison_part(again, "profav", "x") == fused_parts(again, "x")["profav"]
    with pytest.raises(InputError, match="carries no part of im"):
        comparison_part(again, "im", "x")


# --- the fused model's parts and its verification ------------------------------------------


@pytest.fixture(scope="module")
def taveer_coav(population):
    return validate(population, small_settings("fusion", fuse=("taveer", "coav"))).model


def _broken(model, change) -> str:
    data = json.loads(model.to_json())
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["comparisons"].update(version=2), "comparisons.version must be 1"),
        (lambda d: d.pop("comparisons"), "combines coav without its part"),
        (lambda d: d["comparisons"]["parts"].append(d["comparisons"]["parts"][0]), "twice"),
        (lambda d: d["comparisons"]["parts"][0].update(seed=-1), "seed must be ≥ 0"),
        (lambda d: d["comparisons"]["parts"][0].update(id="im"), "part is not usable"),
        (lambda d: d["fusion"].update(methods=["taveer", "profav"]), "does not combine"),
        (lambda d: d["comparisons"].update(extra=1), "'version' and 'parts'"),
        (lambda d: d["fusion"].update(methods=["taveer", "taveer"]), "two or more distinct"),
        (lambda d: d["fusion"].update(methods=["taveer", "fusion"]), "two or more distinct"),
        (lambda d: d["fusion"].update(weights=[1.0]), "fusion.weights must be 2 numbers"),
    ],
)
def test_a_malformed_fused_part_is_refused_in_one_line(taveer_coav, change, message):
    with pytest.raises(InputError, match=message) as refused:
        parse_model(_broken(taveer_coav, change), "fused.json")
    assert "\n" not in str(refused.value) and "fused.json" in str(refused.value)


def _demo_case(index: int = 0, questioned: int = 2500) -> tuple[list[str], str]:
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][index]
    known = [(demo / n).read_text(encoding="utf-8")[:2250] for n in entry["known"]]
    return known, (demo / entry["questioned"]).read_text(encoding="utf-8")[:questioned]


@pytest.mark.parametrize("bounded", [True, False])
def test_a_fused_taveer_and_coav_model_states_the_fusion_of_their_ratios(taveer_coav, bounded):
    """On six authors every ratio sits at its (per-band) bound; with the fusion's bounds taken
    out of the file, the fused ratio is the formula's own value."""
    unbounded = _broken(
        taveer_coav,
        lambda d: d["fusion"].update(min_log10_lr=None, max_log10_lr=None, bands=[]),
    )
    model = parse_model(taveer_coav.to_json() if bounded else unbounded, "fused.json")
    known, questioned = _demo_case()
    found = verify_with_method(model, known, questioned).methods
    assert found is not None and found.stated == "fusion"
    taveer, coav = found.by_method["taveer"], found.by_method["coav"]
    assert taveer is not None and coav is not None
    # COAV's ratio is the one a model stating COAV alone would give
    alone = dict(model.extra, method="coav", comparison=model.extra["comparisons"]["parts"][0])
    by_coav = compare_case(replace(model, extra=alone), known, questioned)
    assert by_coav.log10_lr == pytest.approx(coav, abs=1e-12)
    # by hand: log10 LR = (a + w_T ln LR_T + w_C ln LR_C - prior) / ln 10, clipped to the bound
    part = model.extra["fusion"]
    w_t, w_c = part["weights"]
    by_hand = (
        part["intercept"] + w_t * taveer * LN10 + w_c * coav * LN10 - part["prior_log_odds"]
    ) / LN10
    fusion = fusion_of(model, "fused.json")
    low, high = bound_at(fusion.bands, len(questioned), fusion.min_log10_lr, fusion.max_log10_lr)
    if bounded:
        assert low is not None and high is not None
        by_hand = min(max(by_hand, low), high)
    else:
        assert (low, high) == (None, None)
    assert found.by_method["fusion"] == pytest.approx(by_hand, abs=1e-9)


def test_a_fused_method_that_cannot_compare_leaves_the_fusion_without_a_ratio(
    taveer_coav, monkeypatch
):
    from taveer_desktop.core.methods.systems import comparison_verify
    from taveer_desktop.core.methods.systems.comparison import CannotCompare

    def refuse(self, case):  # the scorer's answer when ``features`` raises CannotCompare
        return str(CannotCompare("the questioned text is too short for it"))

    monkeypatch.setattr(comparison_verify.ComparisonScorer, "score", refuse)
    known, questioned = _demo_case()
    result = verify_with_method(taveer_coav, known, questioned)
    assert result.methods is not None
    assert result.methods.by_method["fusion"] is None and result.log10_lr is None
    assert result.methods.cannot_compare == "the questioned text is too short for it"
    assert any("COAV cannot compare this case" in f.message for f in result.conclusion.findings)


def test_an_old_taveer_and_lambdag_fused_model_verifies_to_the_same_number():
    """``data/fused_taveer_lambdag_model.json`` was written before ``fuse`` existed (the
    method fixtures' quick settings at 3,000 / 9,000 characters); the figures below are what
    that program stated for the Hamilton case cut to 1,500 / 12,000 characters."""
    model = load_model(OLD_FUSED)
    assert fusion_of(model, "old").methods == ("taveer", "lambdag")
    assert "comparisons" not in model.extra
    known, questioned = _demo_case(1, 1500)
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][1]
    known = [(demo / n).read_text(encoding="utf-8")[: 12000 // len(known)] for n in entry["known"]]
    found = verify_with_method(model, known, questioned).methods
    assert found is not None
    assert found.by_method == pytest.approx(
        {"taveer": 1.1138833808297026, "lambdag": 1.077092135526938, "fusion": 1.3617278360175928},
        abs=1e-12,
    )
    assert found.lambdag_raw == pytest.approx(16.148792756621273, abs=1e-9)
    unbounded = (
        fusion_of(model, "old")
        .unbounded()
        .log10_lr(np.array([[found.by_method["taveer"], found.by_method["lambdag"]]]))[0]
    )
    assert unbounded == pytest.approx(2.0560911883161985, abs=1e-12)


def test_a_fused_taveer_and_coav_model_has_the_stability_of_its_fused_ratio(taveer_coav):
    """The check recomputes the fused ratio in every resample from TAVeer's and COAV's own
    resampled ratios (COAV's part read from the fusion's parts), so the stability quoted is the
    stated ratio's (before, such a model's check refused: "its LambdaG part is missing")."""
    from taveer_desktop.core.stability.stated_stability import run_stability

    unbounded = _broken(
        taveer_coav,
        lambda d: d["fusion"].update(min_log10_lr=None, max_log10_lr=None, bands=[]),
    )
    model = parse_model(unbounded, "fused.json")
    known, questioned = _demo_case()
    found = verify_with_method(model, known, questioned)
    stated = found.methods.by_method["fusion"]
    stability = run_stability(
        model, known, questioned, found.prediction, stated, resamples=12, seed=5
    )
    ratio = stability.ratio
    assert ratio is not None and ratio.method == "fusion" and ratio.resamples == 12
    assert ratio.without_ratio == 0 and 0 <= ratio.agreeing <= 12
    low, high = ratio.log10_lr_interval
    assert low <= high and np.isfinite(low) and np.isfinite(high)
    assert not ratio.drawn_afresh  # neither TAVeer nor COAV draws at random
    assert (low <= stated <= high) or ratio.agreeing < 12  # the run's ratio among its resamples
