"""The stability of a comparison system's stated ratio
(``core/methods/systems/comparison_stability.py``, ``core/stability/stated_stability.py``): each
resample's texts rebuilt from the sentences TAVeer's resample kept, scored by the model's
comparison part and calibrated; a method that draws at random draws each resample with its own
seed; a resample the method cannot compare has no ratio; a TAVeer model's check is unchanged; the
sentence a reader sees names the method.

Two small test methods make the figures hand-checkable: ``AlphaShare`` (registered as COAV's
id, deterministic) scores the share of the questioned text's sentences that contain "alpha"
and cannot compare a case whose known texts lack "omega"; ``NoisyShare`` (registered as IM's
id, which draws at random) adds a uniform draw from its generator to the same share.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.features.text import sentence_spans
from taveer_desktop.core.ground.registry import MethodInfo, method_info
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)
from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart, encode_impostors
from taveer_desktop.core.methods.systems.comparison_stability import (
    SentenceSegments,
    resampled_comparison,
)
from taveer_desktop.core.methods.systems.comparison_verify import ComparisonScorer
from taveer_desktop.core.methods.taveer.model import parse_model
from taveer_desktop.core.methods.taveer.stability import (
    RatioStability,
    ResampledScores,
    decision_stability,
    resample_weights,
    resampled_scores,
)
from taveer_desktop.core.stability.stated_stability import (
    component_log10_lrs,
    run_stability,
    stated_components,
)
from taveer_desktop.core.verification.method_verify import verify_with_method
from taveer_desktop.presentation.ratio_stability_text import (
    FUSED_STABILITY_METHOD,
    RATIO_STABILITY_METHOD,
    ratio_stability_method,
    ratio_stability_sentence,
    stability_owner,
)
from tests.core.methods.systems.trigram_methods import installed as install_methods

LN10 = math.log(10)
THRESHOLD = 0.58  # the calibration: log10 LR = share − 0.58


def _share(case: CaseTexts) -> float:
    spans = sentence_spans(case.questioned)
    hits = sum("alpha" in case.questioned[a:b] for a, b in spans)
    return hits / len(spans)


class AlphaShare(ComparisonMethod):
    """The share of questioned sentences with "alpha"; cannot compare without "omega" known."""

    info: ClassVar[MethodInfo] = method_info("coav")
    DEFAULTS: ClassVar[dict[str, Any]] = {}

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        if "omega" not in case.known_joined:
            raise CannotCompare("the known texts have no omega")
        return np.array([_share(case)])


class NoisyShare(AlphaShare):
    """The same share plus a uniform draw in [-0.05, 0.05) from the method's generator."""

    info: ClassVar[MethodInfo] = method_info("im")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        return super().features(case, impostors, rng) + rng.uniform(-0.05, 0.05)


def installed() -> AbstractContextManager[None]:
    """The two test methods where the catalogue finds ``coav`` and ``im``."""
    return install_methods((("coav", AlphaShare), ("im", NoisyShare)))


@pytest.fixture(scope="module", autouse=True)
def catalogue():
    with installed():
        yield


WORDS = ("river", "stone", "cloud", "maple", "harbor", "lantern", "meadow", "copper", "violet")
WORDS += ("thunder",)
ALPHA = (0, 2, 3, 5, 7, 8)  # six of the ten questioned sentences say "alpha"


def _sentence(i: int, word: str) -> str:
    return f"The {WORDS[i % 10]} {word} moved past the {WORDS[(i + 3) % 10]} again."


QUESTIONED = "\n\n".join(
    " ".join(_sentence(i, "alpha" if i in ALPHA else "beta") for i in range(j, j + 5))
    for j in (0, 5)
)  # two paragraphs of five sentences
# two known documents of ten sentences; "omega" only in the second one's fourth sentence
KNOWN = [
    " ".join(_sentence(i, "gamma") for i in range(10)),
    " ".join(_sentence(i, "omega" if i == 3 else "delta") for i in range(10)),
]
OMEGA = 10 + 3  # its index among the known sentences


def _model(method: str = "coav", seed: int = 5):
    base = parse_model(
        paths.resource("models", "demo-formal-prose.json").read_text(encoding="utf-8"), "demo"
    )
    part = ComparisonPart(
        id=method,
        params={},
        learned={},
        calibration=Calibration(intercept=-THRESHOLD * LN10, slope=LN10, prior_log_odds=0.0),
        seed=seed,
        raw_range=None,
        impostors=encode_impostors(["An impostor wrote this."]) if method == "im" else None,
    )
    return part.attach(base)


def _stability(model, resamples: int = 60, seed: int = 11, known: Sequence[str] = KNOWN):
    result = verify_with_method(model, known, QUESTIONED)
    assert result.methods is not None
    stated = result.methods.by_method[result.methods.stated]
    return stated, run_stability(
        model, known, QUESTIONED, result.prediction, stated, resamples=resamples, seed=seed
    )


def test_the_texts_are_cut_into_the_sentences_the_resamples_keep():
    segments = SentenceSegments.of(KNOWN, QUESTIONED)
    assert segments.counts == (10, 20)
    keep_u, keep_k = resample_weights(KNOWN, QUESTIONED, 3, 1)
    assert (keep_u.shape[1], keep_k.shape[1]) == segments.counts  # TAVeer's sentences
    every = segments.case(np.ones(10, bool), np.ones(20, bool))
    assert every == CaseTexts(tuple(prepare_text(t) for t in KNOWN), prepare_text(QUESTIONED))
    keep_q = np.ones(10, bool)
    keep_q[[1, 5]] = False  # a sentence of each paragraph left out
    keep_known = np.zeros(20, bool)
    keep_known[10:12] = True  # nothing of the first known document
    case = segments.case(keep_q, keep_known)
    assert len(case.known) == 1 and case.known[0].startswith(_sentence(0, "delta"))
    assert _sentence(1, "beta") not in case.questioned
    assert _sentence(5, "alpha") not in case.questioned and "\n\n" in case.questioned
    assert len(sentence_spans(case.questioned)) == 8


def test_a_deterministic_methods_side_follows_the_sentence_left_out():
    """The run: 6 of 10 sentences say alpha, 0.6 − 0.58 > 0. Each resample leaves one
    questioned sentence out: an alpha one gives 5/9 − 0.58 < 0 (the other side), another
    6/9 − 0.58 > 0 (the same side) — counted here from the very weights of the check."""
    model = _model()
    stated, stability = _stability(model)
    assert stated == pytest.approx(0.6 - THRESHOLD)
    keep_u, keep_k = resample_weights(KNOWN, QUESTIONED, 60, 11)
    left_out = np.argmin(keep_u, axis=1)  # the one questioned sentence each leaves out
    assert keep_u.sum(axis=1).tolist() == [9] * 60
    omega_kept = keep_k[:, OMEGA]
    same_side = ~np.isin(left_out, ALPHA) & omega_kept
    ratio = stability.ratio
    assert ratio is not None and ratio.method == "coav" and ratio.drawn_afresh == ()
    assert ratio.resamples == 60
    assert ratio.agreeing == int(same_side.sum())
    assert ratio.without_ratio == int((~omega_kept).sum())
    values = np.where(np.isin(left_out, ALPHA), 5 / 9, 6 / 9)[omega_kept] - THRESHOLD
    assert ratio.log10_lr_interval == pytest.approx(tuple(np.percentile(values, [2.5, 97.5])))
    assert ratio.log10_lr_interval[0] < 0 < ratio.log10_lr_interval[1]


def test_cannot_compare_resamples_have_no_ratio_and_are_counted():
    """Without "omega" in a known text the method cannot compare: every resample that left
    out the one omega sentence gives no ratio (2 of 20 known sentences are left out each
    time), and it is counted in ``without_ratio``, not in ``agreeing``."""
    stability = _stability(_model(), resamples=80, seed=4)[1]
    _, keep_k = resample_weights(KNOWN, QUESTIONED, 80, 4)
    dropped = int((~keep_k[:, OMEGA]).sum())
    assert 0 < dropped < 80
    assert stability.ratio is not None
    assert stability.ratio.without_ratio == dropped
    assert stability.ratio.agreeing <= 80 - dropped


def test_keeping_every_sentence_gives_the_runs_own_raw_score():
    model = _model()
    scorer = ComparisonScorer(ComparisonPart.of(model, "test"))
    everything = (np.ones((3, 10), bool), np.ones((3, 20), bool))
    raws = resampled_comparison(scorer, KNOWN, QUESTIONED, *everything, seed=9)
    result = verify_with_method(model, KNOWN, QUESTIONED)
    assert result.methods is not None and raws.tolist() == [result.methods.raw] * 3
    # and calibrated at the run's lengths: the run's own ratio
    kept = ResampledScores(np.full(3, 0.5), np.zeros(3, bool), *everything)
    columns = component_log10_lrs(model, kept, KNOWN, QUESTIONED, default_lexicon())
    assert columns["coav"].tolist() == [result.methods.by_method["coav"]] * 3


def test_a_seeded_method_draws_each_resample_with_its_own_seed():
    """With every sentence kept, what varies is the draw alone: resample b draws from the
    generator seeded by (the check's seed, b), never the model's own seed."""
    model = _model("im", seed=5)
    scorer = ComparisonScorer(ComparisonPart.of(model, "test"))
    everything = (np.ones((4, 10), bool), np.ones((4, 20), bool))
    raws = resampled_comparison(scorer, KNOWN, QUESTIONED, *everything, seed=9)
    expected = [0.6 + np.random.default_rng([9, b]).uniform(-0.05, 0.05) for b in range(4)]
    assert raws.tolist() == pytest.approx(expected, abs=1e-12)
    assert len(set(raws.tolist())) == 4
    own = verify_with_method(model, KNOWN, QUESTIONED).methods
    assert own is not None and own.raw == pytest.approx(
        0.6 + np.random.default_rng([5]).uniform(-0.05, 0.05)
    )
    stability = _stability(model, resamples=30, seed=3)[1]
    again = _stability(model, resamples=30, seed=3)[1]
    other = _stability(model, resamples=30, seed=4)[1]
    assert stability.ratio is not None and stability.ratio.drawn_afresh == ("im",)
    assert stability == again  # reproducible from the check's seed
    assert other.ratio is not None
    assert other.ratio.log10_lr_interval != stability.ratio.log10_lr_interval
    assert stated_components(model) == ("im",)


def test_worker_processes_give_the_same_scores():
    model = _model("im")
    scorer = ComparisonScorer(ComparisonPart.of(model, "test"))
    keep_u, keep_k = resample_weights(KNOWN, QUESTIONED, 12, 2)
    here = resampled_comparison(scorer, KNOWN, QUESTIONED, keep_u, keep_k, 8, workers=1)
    there = resampled_comparison(scorer, KNOWN, QUESTIONED, keep_u, keep_k, 8, workers=2)
    assert np.array_equal(here, there, equal_nan=True)


def test_weights_of_other_texts_are_refused():
    scorer = ComparisonScorer(ComparisonPart.of(_model(), "test"))
    with pytest.raises(ValueError, match="do not match the texts' sentences"):
        resampled_comparison(
            scorer, KNOWN, QUESTIONED, np.ones((2, 9), bool), np.ones((2, 20), bool), 1
        )


def test_component_columns_are_the_stated_methods():
    model = _model()
    resampled = resampled_scores(model, KNOWN, QUESTIONED, 10, 6)
    columns = component_log10_lrs(model, resampled, KNOWN, QUESTIONED, default_lexicon())
    assert list(columns) == ["coav"] and columns["coav"].shape == (10,)
    both = component_log10_lrs(
        model, resampled, KNOWN, QUESTIONED, default_lexicon(), methods=("taveer", "coav")
    )
    assert np.array_equal(both["coav"], columns["coav"], equal_nan=True)
    assert both["taveer"].shape == (10,)
    with pytest.raises(ValueError, match="no ratio of its own"):
        component_log10_lrs(
            model, resampled, KNOWN, QUESTIONED, default_lexicon(), methods=("fusion",)
        )


def test_a_taveer_models_check_is_the_classifications_alone():
    model = _model()
    taveer = parse_model(
        paths.resource("models", "demo-formal-prose.json").read_text(encoding="utf-8"), "demo"
    )
    result = verify_with_method(taveer, KNOWN, QUESTIONED)
    found = run_stability(taveer, KNOWN, QUESTIONED, result.prediction, 0.3, 20, 5)
    assert found == decision_stability(taveer, KNOWN, QUESTIONED, result.prediction, 20, 5)
    assert found.ratio is None
    # and a comparison model's check keeps TAVeer's classification's figures beside its own
    mine = run_stability(model, KNOWN, QUESTIONED, result.prediction, 0.02, 20, 5)
    assert mine.ratio is not None and mine.agreement == found.agreement
    assert mine.similarity_interval == found.similarity_interval


# --- stored and read back; the words -----------------------------------------------------


def test_the_figures_are_stored_and_read_back():
    ratio = RatioStability("im", 200, 150, (-0.4, 0.8), 3, ("im",))
    data = ratio.to_dict()
    assert data["drawn_afresh"] == ["im"] and RatioStability.from_dict(data) == ratio
    plain = RatioStability("coav", 200, 190, (0.1, 0.3))
    assert "drawn_afresh" not in plain.to_dict()  # a LambdaG or fused check's dict unchanged
    assert RatioStability.from_dict(plain.to_dict()) == plain
    assert RatioStability.from_dict({**data, "drawn_afresh": ["bogus"]}) is None
    assert RatioStability.from_dict({**data, "method": "taveer"}) is None


def test_the_sentence_names_the_method_and_says_when_draws_were_varied():
    coav = RatioStability("coav", 200, 187, (math.log10(3.21), math.log10(41.0)))
    sentence = ratio_stability_sentence(coav, 0.9)
    assert sentence.startswith(
        "187 of 200 (93.5 %) resamples give a ratio on the same side of 1 as the stated one "
        "(above 1, towards Hp) when COAV's ratio is recomputed from the sentences each kept; "
        "95 % of the resampled ratios lie between"
    )
    assert "random" not in sentence and "\n" not in sentence
    im = RatioStability("im", 200, 120, (-0.5, 0.7), 4, ("im",))
    seeded = ratio_stability_sentence(im, -0.2)
    assert "(below 1, towards Hd) when IM's ratio is recomputed" in seeded
    assert "with IM's random choices made afresh each time" in seeded
    assert "a range that reflects both the sentences left out and those choices" in seeded
    assert seeded.endswith("4 of 200 (2 %) gave no ratio at all.")
    assert "\n" not in seeded
    assert stability_owner("im") == "the stated ratio (IM's ratio)"
    assert stability_owner("fusion") == "the stated ratio (the fused ratio)"
    assert "COAV scores the questioned and known texts rebuilt" in ratio_stability_method(coav)
    assert "IM draws at random, so each resample draws with its own seed" in (
        ratio_stability_method(im)
    )
    fused = RatioStability("fusion", 200, 200, (1.0, 1.2))
    assert ratio_stability_method(fused) == FUSED_STABILITY_METHOD  # any methods it combines
    assert ratio_stability_method(RatioStability("lambdag", 200, 200, (1.0, 1.2))) == (
        RATIO_STABILITY_METHOD
    )
    assert "fused with TAVeer" not in RATIO_STABILITY_METHOD  # LambdaG alone is not fused
    assert "when the fused ratio is recomputed" in ratio_stability_sentence(fused, 1.1)


def test_progress_is_reported_per_resample_and_cancelling_stops_the_check():
    from taveer_desktop.core.ground.errors import Cancelled
    from taveer_desktop.core.ground.progress import Progress

    scorer = ComparisonScorer(ComparisonPart.of(_model(), "test"))
    keep_u, keep_k = resample_weights(KNOWN, QUESTIONED, 6, 2)
    steps: list[tuple[int, int, str]] = []
    resampled_comparison(
        scorer, KNOWN, QUESTIONED, keep_u, keep_k, 1, Progress(lambda *s: steps.append(s)), 1
    )
    assert steps[0] == (1, 6, "COAV's ratio in each resample") and steps[-1][:2] == (6, 6)

    def report(done: int, total: int, message: str) -> None:
        if done >= 2:
            progress.cancel()

    progress = Progress(report)
    with pytest.raises(Cancelled):
        resampled_comparison(scorer, KNOWN, QUESTIONED, keep_u, keep_k, 1, progress, 1)
