"""``evaluate`` of a model of any method the validation produces
(``core/validation/evaluation_methods.py``): a fusion without LambdaG (TAVeer + COAV) measured
method by method, its fused figures the fusion of its components' figures by hand, each case's
ratios those ``verify`` states; the corpus gate holding every scored method's raw score to its
validated range with verify's words; and the numbers of models of the older kinds unchanged."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
from taveer_desktop.core.gate.gate import raw_range_finding
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.lambdag.lambdag_model import fusion_of
from taveer_desktop.core.methods.systems.comparison_model import comparison_part
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.methods.taveer.repeat_models import REPEAT_MODELS_KEY as KEPT
from taveer_desktop.core.methods.taveer.training import CorpusDistances
from taveer_desktop.core.validation.corpus_gate import gate_corpus
from taveer_desktop.core.validation.evaluation import compute_metrics, evaluate, posterior_scores
from taveer_desktop.core.validation.validation import validate
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.cli.test_cli import write_folder_corpus
from tests.core.methods.systems.comparison_fixtures import demo_population, small_settings
from tests.core.validation_fixtures import make_demo_population

OLD_FUSED = Path(__file__).resolve().parents[1] / "data" / "fused_taveer_lambdag_model.json"
LN10 = math.log(10)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """18 cases from the demo population: two known texts of 5,000 characters, a questioned
    one of 1,500 to 4,900, by the same author (even cases) or the next one."""
    folder = make_demo_population(tmp_path_factory.mktemp("texts"))
    authors = sorted(p.name for p in folder.iterdir() if p.is_dir())
    documents = {a: sorted((folder / a).glob("*.txt")) for a in authors}
    rows = []
    for i in range(18):
        author = authors[i % len(authors)]
        known = [p.read_text(encoding="utf-8")[:5000] for p in documents[author][:2]]
        if i % 2 == 0:
            source = documents[author][2 + (i // len(authors)) % 3]
        else:
            source = documents[authors[(i + 1) % len(authors)]][-1 - (i // len(authors)) % 3]
        unknown = source.read_text(encoding="utf-8")[: 1500 + 200 * i]
        rows.append((f"EN{i + 1:03d}", known, unknown, i % 2 == 0))
    return open_corpus(write_folder_corpus(tmp_path_factory.mktemp("corpus") / "c", rows))


@pytest.fixture(scope="module")
def taveer_coav(tmp_path_factory):
    population = demo_population(tmp_path_factory.mktemp("demo"))
    return validate(population, small_settings("fusion", fuse=("taveer", "coav"))).model


@pytest.fixture(scope="module")
def evaluated(taveer_coav, corpus):
    return evaluate(taveer_coav, corpus, workers=1)


def test_a_fusion_without_lambdag_is_measured_method_by_method(taveer_coav, corpus, evaluated):
    assert evaluated.method == "fusion"
    assert list(evaluated.methods) == ["taveer", "coav", "fusion"]
    assert list(evaluated.raw) == ["coav"] and evaluated.lambdag_raw is None
    data = evaluated.report_dict()
    for key in ("accuracy", "auc", "c_at_1", "f05u", "brier", "cllr", "cllr_min", "ece"):
        assert data[key] == data["methods"]["fusion"][key], key  # the stated method's
    # COAV's ratios: its part's calibration of its raw scores, as a model stating it would
    part = comparison_part(taveer_coav, "coav", "m")
    q, k = lengths(corpus)
    raw = evaluated.raw["coav"]
    assert np.isfinite(raw).all()
    np.testing.assert_allclose(
        evaluated.methods["coav"].log10_lr, part.calibration.log10_lr(raw, q, k), atol=1e-12
    )


def lengths(corpus) -> tuple[np.ndarray, np.ndarray]:
    """Characters of every case's questioned text and of its known texts together."""
    cases = list(corpus.iter_cases())
    return (
        np.array([len(c.unknown_text) for c in cases]),
        np.array([sum(len(t) for t in c.known_texts) for c in cases]),
    )


def test_the_fused_figures_are_the_fusion_of_the_components_by_hand(taveer_coav, corpus, evaluated):
    fusion = fusion_of(taveer_coav, "m")
    assert fusion.methods == ("taveer", "coav")
    (w_t, w_c), truth = fusion.weights, evaluated.truth
    taveer, coav = evaluated.methods["taveer"].log10_lr, evaluated.methods["coav"].log10_lr
    q, _ = lengths(corpus)
    members = [i for i, c in enumerate(_categories()) if c in taveer_coav.ensemble]
    abstains = np.isnan(evaluated.category_similarities[:, members]).all(axis=1)
    by_hand = []
    for i in range(len(truth)):
        value = (
            fusion.intercept + w_t * taveer[i] * LN10 + w_c * coav[i] * LN10
        ) - fusion.prior_log_odds
        low, high = bound_at(fusion.bands, int(q[i]), fusion.min_log10_lr, fusion.max_log10_lr)
        value = value / LN10
        value = value if low is None else max(value, low)
        value = value if high is None else min(value, high)
        by_hand.append(0.0 if abstains[i] else value)
    fused = evaluated.methods["fusion"]
    np.testing.assert_allclose(fused.log10_lr, by_hand, atol=1e-9)
    scores = np.where(abstains, 0.5, posterior_scores(np.array(by_hand)))
    expected = compute_metrics(scores, truth)
    for key in ("accuracy", "auc", "tp", "fn", "fp", "tn", "c_at_1", "f05u", "brier"):
        assert getattr(fused.metrics, key) == pytest.approx(getattr(expected, key)), key


def _categories():
    from taveer_desktop.core.features.features import CATEGORY_IDS

    return CATEGORY_IDS


def test_each_case_gets_the_ratios_verify_states_and_two_processes_agree(
    taveer_coav, corpus, evaluated
):
    for index, case in enumerate(list(corpus.iter_cases())[:4]):
        found = verify_with_method(taveer_coav, case.known_texts, case.unknown_text).methods
        assert found is not None
        for method in ("taveer", "coav", "fusion"):
            expected = found.by_method[method]
            assert expected is not None
            got = evaluated.methods[method].log10_lr[index]
            assert got == pytest.approx(expected, abs=1e-9), (case.case_id, method)
    two = evaluate(taveer_coav, corpus, workers=2)
    np.testing.assert_array_equal(two.raw["coav"], evaluated.raw["coav"])
    assert two.report_dict() == evaluated.report_dict()


def test_the_corpus_gate_holds_each_scored_method_to_its_range_with_verify_words(
    taveer_coav, corpus, evaluated, monkeypatch
):
    """With no other rule broken (``assess`` stubbed), a case whose COAV score lies outside
    the range given is investigative with verify's finding; a case COAV could not compare gets
    no conclusion; the rest stay evaluative."""
    from taveer_desktop.core.validation import corpus_gate

    monkeypatch.setattr(corpus_gate, "assess", lambda *args, **kwargs: ())
    n = len(evaluated.truth)
    raw = evaluated.raw["coav"].copy()
    raw[2] = np.nan
    middle = float(np.median(raw[np.isfinite(raw)]))
    narrow = (middle - 1e-9, float(np.nanmax(raw)))
    data = CorpusDistances(
        evaluated.case_ids,
        np.zeros((n, 11)),
        evaluated.truth,
        *lengths(corpus),
        measures=[None] * n,  # type: ignore[list-item]  # read only by the stubbed ``assess``
        scored=raw[:, None],
        scored_methods=("coav",),
    )
    lr = evaluated.methods["fusion"].log10_lr
    # without its repeat fits, so that no case's repeats can withdraw its direction here
    model = replace(taveer_coav, extra={k: v for k, v in taveer_coav.extra.items() if k != KEPT})
    verdict = gate_corpus(model, data, lr, evaluated.truth, "x", {"coav": narrow})
    below = np.isfinite(raw) & (raw < narrow[0])
    assert below.any() and (np.isfinite(raw) & ~below).any()
    for index, kind in enumerate(verdict.kinds):
        if index == 2:
            assert kind is ConclusionKind.NONE
            assert verdict.rules[index] == (GateRule.ENOUGH_TEXT.value,)
        elif below[index]:
            assert kind is ConclusionKind.INVESTIGATIVE
            assert verdict.rules[index] == (GateRule.VALIDATED_CONDITIONS.value,)
        else:
            assert kind is ConclusionKind.EVALUATIVE and verdict.rules[index] == ()
    assert verdict.summary.evaluative == int((np.isfinite(raw) & ~below).sum())
    # the words verify uses for the same score
    finding = raw_range_finding("coav", float(raw[below][0]), narrow)
    assert finding is not None and finding.message.startswith("COAV: its score ")
    assert "lies outside the range its validation trials gave" in finding.message


def test_the_raw_range_rule_keeps_lambdags_words():
    finding = raw_range_finding("lambdag", 12.34, (0.0, 5.0))
    assert finding is not None and finding.rule is GateRule.VALIDATED_CONDITIONS
    assert finding.message == (
        "LambdaG: its score λG +12.3 lies outside the range its validation trials gave "
        "(+0.0 to +5.0); its likelihood ratio is extrapolated"
    )
    assert (finding.measured, finding.limit) == (12.34, 5.0)
    assert raw_range_finding("coav", 0.5, (0.0, 1.0)) is None
    assert raw_range_finding("coav", math.nan, (0.0, 1.0)) is None  # not compared: not this rule
    assert raw_range_finding("coav", 1.5, None) is None


# what lead's program (before any method could be fused) gave on this corpus, one process
OLD_FIGURES = {
    # method: (AUC, Cllr, Cllr_min, c@1)
    "default": {"taveer": (0.7037037037037037, 1.0608113835633595, 0.6892428864759277, 0.5)},
    "fused": {
        "taveer": (0.7654320987654321, 1.236763223561328, 0.5772421958646217, 0.5555555555555556),
        "lambdag": (
            0.8024691358024691,
            0.7871779637747361,
            0.40107116382631247,
            0.7777777777777778,
        ),
        "fusion": (0.7777777777777778, 1.0425509565369209, 0.6666666666666667, 0.6666666666666666),
    },
}


@pytest.mark.parametrize("name", ["default", "fused"])
def test_models_of_the_older_kinds_give_the_same_numbers(corpus, name):
    path = paths.resource("models") / "default.json" if name == "default" else OLD_FUSED
    evaluated = evaluate(load_model(path), corpus, workers=1)
    assert list(evaluated.methods) == list(OLD_FIGURES[name])
    for method, figures in evaluated.methods.items():
        m = figures.metrics
        got = (m.auc, m.cllr, m.cllr_min, m.c_at_1)
        assert got == pytest.approx(OLD_FIGURES[name][method], abs=1e-12), method
    stated = OLD_FIGURES[name]["fusion" if name == "fused" else "taveer"]
    headline = evaluated.metrics
    assert (headline.auc, headline.cllr, headline.cllr_min, headline.c_at_1) == pytest.approx(
        stated, abs=1e-12
    )


def test_evaluate_text_names_the_fusion_by_the_methods_it_combines(
    taveer_coav, corpus, tmp_path, capsys
):
    from taveer_desktop.cli.main import main
    from taveer_desktop.core.methods.taveer.model import save_model

    save_model(taveer_coav, tmp_path / "fused.json")
    code = main(["evaluate", str(tmp_path / "fused.json"), str(corpus.path), "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    start = lines.index("By method (the same cases):")
    named = [line.split(":")[0].strip() for line in lines[start + 1 : start + 4]]
    assert named == ["TAVeer + COAV (stated)", "TAVeer alone", "COAV alone"]
