"""OCCAV: the known text's own dissimilarity (its two halves) as the case's threshold."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.occav import METHOD, Occav, halves
from tests.core.methods.systems.corpus_pairs import population_auc
from tests.core.methods.systems.test_ppmd_compression import library_length

KNOWN = (
    "Well, I think the point is this: you measure first, and only then you decide.",
    "Frankly, nobody measures anything here; they decide, and then they measure.",
)
QUESTIONED = "I think you measure first. Only then, frankly, you decide what the point is."
RNG = np.random.default_rng(0)


def library_cbc(x: str, y: str) -> float:
    cx, cy, cxy = library_length(x), library_length(y), library_length(x + y)
    return 1 - (cx + cy - cxy) / math.sqrt(cx * cy)


def test_module_names_its_method():
    assert METHOD is Occav and Occav.info.id == "occav"


def test_halves_cut_at_the_white_space_nearest_the_middle():
    assert halves("aaaa bb cccc") == ("aaaa bb", "cccc")  # middle 6: the space at 7 (1 away)
    assert halves("ab cd") == ("ab", "cd")
    assert halves("one-word") == ("", "one-word")


def test_threshold_distance_and_decision_value_by_brute_force():
    known = "\n\n".join(KNOWN)
    first, second = halves(known)
    threshold = library_cbc(first, second)
    distance = (library_cbc(first, QUESTIONED) + library_cbc(second, QUESTIONED)) / 2
    features = Occav().features(CaseTexts(KNOWN, QUESTIONED), (), RNG)
    assert features == pytest.approx([threshold, distance])
    assert Occav().score(features[None, :], {}) == pytest.approx([threshold - distance])
    assert Occav().learn(features[None, :], np.array([True])) == {}


def test_same_input_same_score_also_after_pickling():
    case = CaseTexts(KNOWN, QUESTIONED)
    assert np.array_equal(
        Occav().features(case, (), np.random.default_rng(1)),
        pickle.loads(pickle.dumps(Occav())).features(case, (), np.random.default_rng(7)),
    )


@pytest.mark.parametrize(
    ("known", "questioned", "reason"),
    [
        (("Unsplittable",), QUESTIONED, "too short to cut"),
        (KNOWN, "", "questioned text is empty"),
        (("",), QUESTIONED, "known text is empty"),
    ],
)
def test_cases_it_cannot_work_on_are_refused(known, questioned, reason):
    with pytest.raises(CannotCompare, match=reason):
        Occav().features(CaseTexts(known, questioned), (), RNG)


@pytest.mark.parametrize("params", [{"order": 0}, {"order": 3.5}, {"halves": 3}])
def test_bad_params_are_refused(params):
    with pytest.raises(ValueError):
        Occav(params)


@pytest.mark.corpus
def test_raw_scores_separate_same_from_different_authors():
    auc, refused = population_auc(Occav())
    # measured when written: 0.673 on the 136 train cases (0.698 on the 204 test cases)
    assert refused == 0
    assert auc > 0.6
