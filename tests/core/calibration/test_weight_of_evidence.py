"""Calibrated likelihood ratios, validation metrics, verbal scales, the inconclusive band and
the stability of a decision (issue: weight of evidence)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.calibration import (
    cllr,
    cllr_min,
    fit_logistic_calibration,
    misleading_rates,
    pav_log10_lr,
    reliability_bins,
    tippett_curves,
)
from taveer_desktop.core.calibration.inconclusive_band import fit_inconclusive_band
from taveer_desktop.core.calibration.verbal_scales import SCALES, describe
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model import load_model, parse_model
from taveer_desktop.core.methods.taveer.stability import decision_stability
from taveer_desktop.core.methods.taveer.verify import verify

LN10 = math.log(10)


@pytest.fixture(scope="module")
def gaussian_scores():
    """Scores from N(+1, 1) for Y and N(−1, 1) for N: the true LR is e^(2s)."""
    rng = np.random.default_rng(11)
    truth = rng.random(20_000) < 0.5
    scores = np.where(truth, rng.normal(1.0, 1.0, truth.size), rng.normal(-1.0, 1.0, truth.size))
    return scores, truth


def test_perfectly_calibrated_scores_have_cllr_close_to_cllr_min(gaussian_scores):
    scores, truth = gaussian_scores
    true_log10_lr = 2.0 * scores / LN10
    assert cllr(true_log10_lr, truth) == pytest.approx(cllr_min(scores, truth), abs=0.01)
    assert cllr(true_log10_lr, truth) < 0.6


def test_constant_score_gives_cllr_one_and_no_discrimination():
    truth = np.array([True, False] * 50)
    assert cllr(np.zeros(100), truth) == pytest.approx(1.0)
    assert cllr_min(np.full(100, 0.3), truth) == pytest.approx(1.0)


def test_monotone_transform_leaves_cllr_min_unchanged(gaussian_scores):
    scores, truth = gaussian_scores
    assert cllr_min(np.exp(scores), truth) == pytest.approx(cllr_min(scores, truth))
    assert cllr_min(3 * scores + 7, truth) == pytest.approx(cllr_min(scores, truth))


def test_overconfident_lrs_cost_more_than_calibrated_ones(gaussian_scores):
    scores, truth = gaussian_scores
    calibrated = cllr(2.0 * scores / LN10, truth)
    assert cllr(10.0 * scores / LN10, truth) > calibrated + 0.1


def test_pav_is_monotone_and_pools_ties():
    scores = np.array([0.1, 0.2, 0.2, 0.3, 0.4, 0.5])
    truth = np.array([False, True, False, False, True, True])
    lr = pav_log10_lr(scores, truth)
    assert np.all(lr[1:] >= lr[:-1])  # ±inf allowed at the ends
    assert lr[1] == lr[2]


def test_logistic_calibration_recovers_the_true_map(gaussian_scores):
    scores, truth = gaussian_scores
    calibration = fit_logistic_calibration(scores, truth)
    assert calibration.slope == pytest.approx(2.0, abs=0.1)
    assert calibration.log10_lr(0.0) == pytest.approx(0.0, abs=0.05)


def test_perfect_separation_gives_finite_ratios():
    scores = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    truth = np.array([False, False, False, True, True, True])
    calibration = fit_logistic_calibration(scores, truth)
    extremes = calibration.log10_lr(np.array([0.0, 1.0]))
    assert np.all(np.isfinite(extremes))
    assert abs(extremes).max() < 3  # six cases cannot justify more than a modest LR
    assert extremes[1] > 0 > extremes[0]


def test_reversed_scores_are_not_rewarded():
    scores = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    truth = np.array([False, False, False, True, True, True])
    calibration = fit_logistic_calibration(scores, truth)
    assert calibration.slope == 0.0


def test_misleading_rates_ece_and_tippett():
    log10_lr = np.array([1.0, -0.5, 2.0, -1.0, 0.3, -2.0])
    truth = np.array([True, True, True, False, False, False])
    assert misleading_rates(log10_lr, truth) == pytest.approx((1 / 3, 1 / 3))
    _, ece = reliability_bins(log10_lr, truth)
    assert 0.0 <= ece <= 1.0
    _, share_y, share_n = tippett_curves(log10_lr, truth)
    assert np.all(np.diff(share_y) <= 0) and np.all(np.diff(share_n) <= 0)
    assert share_y[0] == pytest.approx(1.0) and share_n[-1] == 0.0


@pytest.mark.parametrize("scale_id", sorted(SCALES))
def test_verbal_scales_in_both_directions(scale_id):
    strong_y = describe(6.5, scale_id)
    strong_n = describe(-6.5, scale_id)
    assert strong_y.direction == "same author" and strong_n.direction == "different authors"
    assert strong_y.qualifier == strong_n.qualifier
    assert describe(0.0, scale_id).direction == "neither"
    assert SCALES[scale_id].name in strong_y.sentence
    rows = SCALES[scale_id].table_rows()
    assert len(rows) == len(SCALES[scale_id].bands) and rows[-1][0].endswith("∞")


def test_enfsi_band_limits():
    assert describe(math.log10(50), "enfsi2015").qualifier == "moderate support"
    assert describe(math.log10(5_000), "enfsi2015").qualifier == "strong support"
    assert describe(-math.log10(5_000), "enfsi2015").direction == "different authors"


def test_inconclusive_band_maximises_training_c_at_1():
    scores = np.array([0.1, 0.2, 0.44, 0.47, 0.53, 0.6, 0.8, 0.9])
    truth = np.array([False, False, True, False, False, True, True, True])
    # errors at 0.44 and 0.53; leaving 0.44..0.56 open gives c@1 = (5 + 3·5/8)/8
    band = fit_inconclusive_band(scores, truth)
    assert band.low == pytest.approx(0.44) and band.high == pytest.approx(0.56)
    assert band.training_c_at_1 == pytest.approx((5 + 3 * 5 / 8) / 8)
    assert list(band.apply(scores)) == [0.1, 0.2, 0.5, 0.5, 0.5, 0.6, 0.8, 0.9]
    assert fit_inconclusive_band(np.array([0.2, 0.8]), np.array([False, True])).low == 0.5


@pytest.fixture(scope="module")
def demo_model():
    return load_model(paths.resource("models", "demo-formal-prose.json"))


def _demo_texts():
    folder = paths.resource("demo", "federalist")
    known = [(folder / f"federalist_{n}.txt").read_text(encoding="utf-8") for n in (10, 14, 39)]
    return known, (folder / "federalist_51_questioned.txt").read_text(encoding="utf-8")


def test_verification_reports_the_likelihood_ratio(demo_model):
    known, unknown = _demo_texts()
    result = verify(demo_model, known, unknown).to_dict()
    assert result["calibrated"] is True
    assert result["log10_lr"] == pytest.approx(
        demo_model.calibration.log10_lr(result["similarity"])
    )
    assert result["likelihood_ratio"] == pytest.approx(10 ** result["log10_lr"])


def test_version_1_models_still_load_and_are_uncalibrated(demo_model):
    data = demo_model.to_dict()
    data["format_version"] = 1
    del data["calibration"], data["inconclusive_band"]
    old = parse_model(json.dumps(data), "old.json")
    assert not old.calibrated
    known, unknown = _demo_texts()
    result = verify(old, known, unknown).to_dict()
    assert result["calibrated"] is False and result["log10_lr"] is None


def test_malformed_calibration_is_rejected(demo_model):
    data = demo_model.to_dict()
    data["calibration"]["slope"] = -1.0
    with pytest.raises(InputError, match="monotone"):
        parse_model(json.dumps(data), "m.json")


def test_stability_is_reproducible_and_in_range(demo_model):
    known, unknown = _demo_texts()
    answer = verify(demo_model, known, unknown).prediction
    first = decision_stability(demo_model, known, unknown, answer, resamples=50, seed=7)
    again = decision_stability(demo_model, known, unknown, answer, resamples=50, seed=7)
    assert first == again
    assert 0.0 <= first.agreement <= 1.0
    assert sum(first.answers.values()) == 50
    low, high = first.similarity_interval
    assert 0.0 <= low <= high <= 1.0


def test_stability_of_identical_documents_is_total(demo_model):
    _, unknown = _demo_texts()
    answer = verify(demo_model, [unknown], unknown).prediction
    assert answer == "Y"
    result = decision_stability(demo_model, [unknown], unknown, answer, resamples=40)
    assert result.agreement == 1.0


def _taveer(*args):
    import subprocess
    import sys
    from pathlib import Path

    command = [str(Path(sys.executable).with_name("taveer")), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_cli_verify_with_stability_and_scale():
    folder = paths.resource("demo", "federalist")
    done = _taveer(
        "verify",
        paths.resource("models", "demo-formal-prose.json"),
        "--known",
        folder / "federalist_10.txt",
        folder / "federalist_14.txt",
        "--unknown",
        folder / "federalist_51_questioned.txt",
        "--stability",
        30,
        "--scale",
        "nordgaard2012",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert 0.0 <= data["stability"] <= 1.0
    low, high = data["similarity_interval"]
    assert low <= high
    assert data["verbal"]["scale"] == "Nordgaard et al. 2012 (SKL)"
    assert len(data["verbal"]["table"]) == 5
    assert data["stability_detail"]["resamples"] == 30


@pytest.mark.slow
def test_cli_train_with_inconclusive_band_and_evaluate(tmp_path):
    from conftest import corpus_path

    corpus = corpus_path("reuters-c50")
    model_path = tmp_path / "banded.json"
    done = _taveer("train", corpus / "train", "-o", model_path, "--inconclusive-band")
    assert done.returncode == 0, done.stderr
    model = load_model(model_path)
    assert model.inconclusive_band is not None and model.calibrated
    done = _taveer("evaluate", model_path, corpus / "test", "--json")
    assert done.returncode == 0, done.stderr
    metrics = json.loads(done.stdout)
    assert metrics["cllr"] < 1.0
    assert metrics["cllr_min"] <= metrics["cllr"] + 1e-9
    assert 0.0 <= metrics["misleading_y"] <= 1.0 and 0.0 <= metrics["misleading_n"] <= 1.0


@pytest.mark.slow
def test_stability_is_the_same_however_the_texts_are_read(demo_model, monkeypatch):
    """Reading in paragraph pieces and resampling in blocks (bounded memory for huge
    documents) changes nothing: the same figures as one piece and one block."""
    from taveer_desktop.core.methods.taveer import stability

    known, unknown = _demo_texts()
    answer = verify(demo_model, known, unknown).prediction
    monkeypatch.setattr(stability, "PIECE_CHARS", 10**9)
    monkeypatch.setattr(stability, "RESAMPLE_BLOCK", 10**6)
    whole = decision_stability(demo_model, known, unknown, answer, resamples=60, seed=3)
    monkeypatch.setattr(stability, "PIECE_CHARS", 300)
    monkeypatch.setattr(stability, "RESAMPLE_BLOCK", 7)
    pieces = decision_stability(demo_model, known, unknown, answer, resamples=60, seed=3)
    assert pieces == whole
    parts = list(stability._pieces(unknown, 300))
    assert "".join(parts) == unknown and len(parts) > 3
    assert all(part.endswith("\n\n") for part in parts[:-1])


def test_stability_read_in_pieces_and_one_resample_at_a_time_is_the_same(demo_model, monkeypatch):
    """The paths a huge document takes (texts read in pieces at paragraph breaks, resamples
    counted one by one) give exactly what the short path gives."""
    from taveer_desktop.core.methods.taveer import stability as stability_module

    known, unknown = _demo_texts()
    answer = verify(demo_model, known, unknown).prediction
    usual = decision_stability(demo_model, known, unknown, answer, resamples=60, seed=3)
    monkeypatch.setattr(stability_module, "PIECE_CHARS", 2_000)
    monkeypatch.setattr(stability_module, "BLOCK_NONZEROS", 0)
    pieces = list(stability_module._pieces(unknown, stability_module.PIECE_CHARS))
    assert len(pieces) > 3 and "".join(pieces) == unknown
    slow = decision_stability(demo_model, known, unknown, answer, resamples=60, seed=3)
    assert slow == usual
