"""COAV: -CBC(known, questioned) with PPMd at order 7."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.coav import METHOD, Coav
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from tests.core.methods.systems.corpus_pairs import population_auc
from tests.core.methods.systems.test_ppmd_compression import library_length

KNOWN = ("I reckon the answer is simple, really. First, check the data.", "Then, plot it.")
QUESTIONED = "Honestly, I reckon the simplest answer is to check the data first, then plot it."
RNG = np.random.default_rng(0)


def test_module_names_its_method():
    assert METHOD is Coav and Coav.info.id == "coav"


def test_feature_is_cbc_of_the_joined_known_text_and_the_questioned_text():
    known = "\n\n".join(KNOWN)
    ck, cq, ckq = (library_length(t) for t in (known, QUESTIONED, known + QUESTIONED))
    expected = 1 - (ck + cq - ckq) / math.sqrt(ck * cq)
    features = Coav().features(CaseTexts(KNOWN, QUESTIONED), (), RNG)
    assert features == pytest.approx([expected])
    assert Coav().score(features[None, :], {}) == pytest.approx([-expected])


def test_same_input_same_score_also_after_pickling():
    case = CaseTexts(KNOWN, QUESTIONED)
    first = Coav().features(case, (), np.random.default_rng(1))
    again = pickle.loads(pickle.dumps(Coav())).features(case, (), np.random.default_rng(2))
    assert np.array_equal(first, again)


@pytest.mark.parametrize(
    ("known", "questioned", "what"),
    [(KNOWN, "  ", "questioned text"), (("", " \n"), QUESTIONED, "known text")],
)
def test_nothing_to_compress_is_refused(known, questioned, what):
    with pytest.raises(CannotCompare, match=what):
        Coav().features(CaseTexts(known, questioned), (), RNG)


@pytest.mark.parametrize("params", [{"order": 1}, {"order": "7"}, {"threshold": 0.5}])
def test_bad_params_are_refused(params):
    with pytest.raises(ValueError):
        Coav(params)


@pytest.mark.corpus
def test_raw_scores_separate_same_from_different_authors():
    auc, refused = population_auc(Coav())
    # measured when written: 0.704 on the 136 train cases (0.788 on the 204 test cases)
    assert refused == 0
    assert auc > 0.65
