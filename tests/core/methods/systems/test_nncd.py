"""NNCD: CDM nearest neighbour among the known documents and the impostors."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.nncd import METHOD, Nncd, nearest_in_length
from tests.core.methods.systems.corpus_pairs import population_auc
from tests.core.methods.systems.test_ppmd_compression import library_length

KNOWN = (
    "Right, so here's the thing: always back up first. Always.",
    "Right, here's the thing again: back up, then upgrade, then test.",
)
QUESTIONED = "Here's the thing: back up first, always, then upgrade."
IMPOSTORS = (
    "The committee shall convene quarterly to review the budget allocations.",
    "Mix the flour with butter until crumbly; add sugar and bake for twenty minutes.",
    "x" * 400,  # far from the questioned text's length: left out when only two are used
)
RNG = np.random.default_rng(0)


def library_cdm(x: str, y: str) -> float:
    return library_length(x + y) / (library_length(x) + library_length(y))


def test_module_names_its_method():
    assert METHOD is Nncd and Nncd.info.id == "nncd" and Nncd.info.needs_impostors


def test_nearest_known_and_nearest_impostor_by_brute_force():
    d_known = min(library_cdm(k, QUESTIONED) for k in KNOWN)
    d_impostor = min(library_cdm(i, QUESTIONED) for i in IMPOSTORS[:2])
    method = Nncd({"impostors": 2})
    features = method.features(CaseTexts(KNOWN, QUESTIONED), IMPOSTORS, RNG)
    assert features == pytest.approx([d_known, d_impostor])
    assert method.score(features[None, :], {}) == pytest.approx([d_impostor - d_known])
    assert d_impostor > d_known  # the author's own documents are the nearer neighbours here


def test_impostors_are_the_length_nearest_and_never_the_case_s_own_texts():
    assert nearest_in_length(["aaaa", "a", "aaa", "aa"], 3, 2) == ["aaa", "aaaa"]  # tie: earlier
    with_own = Nncd({"impostors": 1}).features(
        CaseTexts(KNOWN, QUESTIONED), (QUESTIONED, *IMPOSTORS), RNG
    )
    without = Nncd({"impostors": 1}).features(CaseTexts(KNOWN, QUESTIONED), IMPOSTORS, RNG)
    assert np.array_equal(with_own, without)


def test_same_input_same_score_also_after_pickling():
    case = CaseTexts(KNOWN, QUESTIONED)
    assert np.array_equal(
        Nncd().features(case, IMPOSTORS, np.random.default_rng(1)),
        pickle.loads(pickle.dumps(Nncd())).features(case, IMPOSTORS, np.random.default_rng(99)),
    )


@pytest.mark.parametrize(
    ("known", "questioned", "impostors", "reason"),
    [
        (KNOWN, QUESTIONED, (), "none was given"),
        (KNOWN, QUESTIONED, ("", "  "), "none was given"),
        (("", ""), QUESTIONED, IMPOSTORS, "known text is empty"),
        (KNOWN, "\n", IMPOSTORS, "questioned text is empty"),
    ],
)
def test_cases_it_cannot_work_on_are_refused(known, questioned, impostors, reason):
    with pytest.raises(CannotCompare, match=reason):
        Nncd().features(CaseTexts(known, questioned), impostors, RNG)


@pytest.mark.parametrize("params", [{"impostors": 0}, {"impostors": "30"}, {"order": 99}])
def test_bad_params_are_refused(params):
    with pytest.raises(ValueError):
        Nncd(params)


@pytest.mark.corpus
@pytest.mark.slow
def test_raw_scores_separate_same_from_different_authors():
    auc, refused = population_auc(Nncd())
    # measured when written: 0.706 on the 136 train cases (0.807 on the 204 test cases)
    assert refused == 0
    assert auc > 0.65
