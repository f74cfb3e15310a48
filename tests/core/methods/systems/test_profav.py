"""ProfAV: d0 and d1 by hand and by a plain-Python loop, refusals, and a real population."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.systems.profav import METHOD, ProfAV
from tests.core.methods.systems.ngram_population import corpus_cases, population_auc

RNG = np.random.default_rng(0)


def brute_force(known: list[str], unknown: str, lu: int, lk: int, n: int, d: str) -> float:
    def profile(texts: list[str], size: int) -> dict[str, float]:
        counts: Counter = Counter()
        for text in texts:
            counts.update(text[i : i + n] for i in range(len(text) - n + 1))
        total = sum(counts.values())
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]
        return {g: c / total for g, c in ranked}

    p_u, p_k = profile([unknown], lu), profile(known, lk)
    grams = set(p_u) if d == "d1" else set(p_u) | set(p_k)
    value = 0.0
    for g in grams:
        fu, fk = p_u.get(g, 0.0), p_k.get(g, 0.0)
        value += (2 * (fu - fk) / (fu + fk)) ** 2
    return value


def test_d1_and_d0_by_hand():
    # questioned "abab": ab 2/3, ba 1/3; known "abc": ab 1/2, bc 1/2
    # ab: (2 (2/3 - 1/2) / (2/3 + 1/2))^2 = (2/7)^2; ba: 4 (not in the known profile)
    case = CaseTexts(("abc",), "abab")
    d1 = ProfAV({"n": 2, "d": "d1"}).features(case, [], RNG)[0]
    d0 = ProfAV({"n": 2, "d": "d0"}).features(case, [], RNG)[0]
    assert d1 == pytest.approx(-(4 + 4 / 49))
    assert d0 == pytest.approx(-(8 + 4 / 49))  # bc: 4 as well
    per = ProfAV({"n": 2, "normalise": "per_ngram"}).features(case, [], RNG)[0]
    assert per == pytest.approx(-(4 + 4 / 49) / 2)


@pytest.mark.parametrize("d", ["d0", "d1"])
@pytest.mark.parametrize(("lu", "lk", "n"), [(5, 4, 2), (3, 30, 1), (40, 7, 3), (9000, 5000, 4)])
def test_against_a_plain_loop(d, lu, lk, n):
    rng = np.random.default_rng(lu + lk + n)
    alphabet = list("aabbcde  fg.,")
    known = ["".join(rng.choice(alphabet, 120)), "".join(rng.choice(alphabet, 60))]
    unknown = "".join(rng.choice(alphabet, 150))
    method = ProfAV({"Lu": lu, "Lk": lk, "n": n, "d": d})
    score = method.features(CaseTexts(tuple(known), unknown), [], RNG)[0]
    assert score == pytest.approx(-brute_force(known, unknown, lu, lk, n, d))


def test_identical_texts_have_no_dissimilarity():
    text = "the same words, the same order."
    assert METHOD().features(CaseTexts((text,), text), [], RNG)[0] == 0.0


def test_deterministic_and_impostors_unused():
    case = CaseTexts(("one known text here",), "a questioned text here")
    first = METHOD().features(case, [], np.random.default_rng(1))
    again = METHOD().features(case, ["an impostor"], np.random.default_rng(99))
    assert np.array_equal(first, again)


def test_cannot_compare_texts_shorter_than_n():
    with pytest.raises(CannotCompare, match="questioned text has none"):
        METHOD().features(CaseTexts(("long enough known text",), "abc"), [], RNG)
    with pytest.raises(CannotCompare, match="known documents have none"):
        METHOD().features(CaseTexts(("", "ab"), "long enough questioned text"), [], RNG)


@pytest.mark.parametrize(
    "params",
    [
        {"Lu": 0},
        {"Lk": 1.5},
        {"Lu": True},
        {"n": "4"},
        {"n": 0},
        {"d": "d2"},
        {"normalise": "yes"},
        {"L": 10},
    ],
)
def test_bad_hyperparameters_are_refused(params):
    with pytest.raises(ValueError):
        ProfAV(params)


def test_real_population_auc():
    """Stack Exchange test split (204 cases). Measured: the seed's setting (Lu 9,000, Lk 5,000,
    4-grams, d1) 0.49 — at chance on texts shorter than its profiles (module docstring);
    d1 per n-gram 0.59."""
    cases = corpus_cases("stackexchange", 204)
    assert population_auc(METHOD(), cases) > 0.40
    assert population_auc(ProfAV({"normalise": "per_ngram"}), cases) > 0.55
