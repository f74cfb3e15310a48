"""The faster paths of IM, Unmasking and Generalised Unmasking give the same numbers as before.

Issue 34 made these methods faster without changing a score: the features of one small real
case (a Stack Exchange test case, seed 34) are pinned to the values the code gave before the
change (rooms 433d2cb), and each fast path is checked, digit for digit, against the plain
computation it replaced. Generalised Unmasking's rounds now start from the last round's active
sets (issue 34, second round): the same optimum by another path, whose last digits can, rarely,
put a held-out chunk lying on the hyperplane on its other side (1 trial of 120 in the demo
population, docs/performance.md); checked here against cold starts every round on a real case."""

from __future__ import annotations

import numpy as np
import pytest

from taveer_desktop.core.methods.systems import linear_svm, svm_newton
from taveer_desktop.core.methods.systems.char_ngrams import population, text_ngrams
from taveer_desktop.core.methods.systems.chunks import chunk_counts, encode_pair, most_frequent
from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking
from taveer_desktop.core.methods.systems.im import ImpostorsMethod, random_halves
from taveer_desktop.core.methods.systems.unmasking import Unmasking
from tests.core.methods.systems.unmasking_trials import stackexchange_cases

PINNED = {  # features of Stack Exchange test case 1 (seed 34) before the speed-up
    "im": [0.59, 0.58, 0.6],
    "unmasking": [
        0.6090909090909091,
        0.4636363636363636,
        0.44545454545454544,
        0.42727272727272725,
        0.4,
        0.1454545454545455,
        0.018181818181818188,
        0.018181818181818188,
        0.027272727272727226,
    ],
    "genunmasking": [
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        0.9966666666666667,
        0.9766666666666668,
        0.9666666666666666,
        0.9666666666666666,
        0.9633333333333333,
        0.9666666666666666,
        0.9566666666666667,
        0.9633333333333333,
        0.9666666666666666,
        0.9666666666666666,
        0.9666666666666666,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -0.0016666666666666496,
        -0.011666666666666603,
        -0.015000000000000069,
        -0.0050000000000001155,
        -0.0016666666666666496,
        0.0,
        -0.0033333333333332993,
        -0.0016666666666666496,
        0.004999999999999949,
        0.0016666666666666496,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -0.0008333333333333248,
        -0.0058333333333333015,
        -0.00666666666666671,
        0.0033333333333332438,
        0.00666666666666671,
        0.0025000000000000577,
        -0.0008333333333333248,
        -0.0008333333333333248,
        0.004166666666666624,
        0.0016666666666666496,
        -0.0024999999999999745,
        -0.0008333333333333248,
        0.0,
        -0.015000000000000069,
        -0.011666666666666603,
        -0.0050000000000001155,
        -0.0033333333333332993,
        -0.0016666666666666496,
        -0.0016666666666666496,
        -0.0016666666666666496,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0016666666666666496,
        0.004999999999999949,
        -0.00666666666666671,
        -0.0058333333333333015,
        -0.0024999999999999745,
        -0.0008333333333333248,
        -0.0008333333333333248,
        -0.0008333333333333248,
        -0.0008333333333333248,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0016666666666666496,
        0.0025000000000000577,
        0.0033333333333332438,
        0.004166666666666624,
        0.00666666666666671,
    ],
}


@pytest.fixture(scope="module")
def real_case():
    cases = stackexchange_cases(14)  # skips where the shared corpus is absent
    return cases[0][0], [text for case, _ in cases[1:] for text in case.known]


@pytest.mark.slow
@pytest.mark.parametrize("method", [ImpostorsMethod, Unmasking, GeneralisedUnmasking])
def test_features_of_a_real_case_are_those_before_the_speed_up(real_case, method) -> None:
    case, impostors = real_case
    found = method().features(case, impostors, np.random.default_rng(34))
    np.testing.assert_array_equal(found, PINNED[method.info.id.value])


def test_random_halves_cut_where_a_full_partition_cuts() -> None:
    for size in (1, 2, 3, 255, 256, 1000, 4001, 20000):
        masks = random_halves(np.random.default_rng(size), 20, size)
        keys = np.random.default_rng(size).random((20, size))  # the same draws
        half = max(1, size // 2)
        cut = np.partition(keys, half - 1, axis=1)[:, half - 1 : half]
        np.testing.assert_array_equal(masks, keys <= cut)
        assert (masks.sum(axis=1) == half).all()


def test_minmax_and_locate_on_a_real_pool_match_the_plain_sums(real_case) -> None:
    case, impostors = real_case
    pool = population(impostors, 4, space_free=True)
    frequencies = pool.frequencies
    grams = text_ngrams(case.questioned, 4, space_free=True)
    ids = pool.locate(grams.grams)
    plain = {row.tobytes(): i for i, row in enumerate(frequencies.vocabulary)}
    expected = [plain.get(row.tobytes(), -1) for row in grams.grams]
    assert ids.tolist() == expected and (ids >= 0).any() and (ids < 0).any()
    vector = np.zeros(frequencies.size)
    vector[ids[ids >= 0]] = grams.counts[ids >= 0] / grams.total
    mins = np.minimum(frequencies.values, vector[frequencies.ids])
    sum_min = np.bincount(frequencies.row_of, weights=mins, minlength=frequencies.rows)
    sum_max = frequencies.totals + 1.0 - sum_min
    np.testing.assert_array_equal(frequencies.minmax_to(vector, 1.0), sum_min / sum_max)


def _plain_primal_point(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The primal Newton point summed over every active sample (the computation replaced)."""
    masked = self.x[self.group[rows]] * active[:, :, None]
    hessian = 2.0 * self.c * (masked.transpose(0, 2, 1) @ masked)
    hessian += np.eye(self.x.shape[2])[None]
    rhs = 2.0 * self.c * (masked.transpose(0, 2, 1) @ self.y[rows][:, :, None])
    return np.linalg.solve(hessian, rhs)[:, :, 0]


def _plain_outputs(self, theta: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return np.asarray((self.x[self.group[rows]] @ theta[:, :, None])[:, :, 0])


@pytest.mark.parametrize("chunk_words", [5, 12])
def test_primal_fast_path_equals_the_plain_sums_on_real_chunks(
    real_case, monkeypatch, chunk_words
) -> None:
    case, _ = real_case
    pair = encode_pair(case.known_joined, case.questioned)
    chunks = [
        ids[: len(ids) // chunk_words * chunk_words].reshape(-1, chunk_words)
        for ids in (pair.first, pair.second)
    ]
    n = min(len(c) for c in chunks)
    x = chunk_counts(
        np.concatenate([c[:n] for c in chunks]), most_frequent(pair, 20), len(pair.vocabulary)
    )
    y = np.concatenate([np.ones(n), -np.ones(n)])
    assert x.shape[0] > x.shape[1] + 1  # the primal parametrisation
    folds = linear_svm.stratified_folds(y, 4, np.random.default_rng(1))
    fast = linear_svm.cross_validate(x[None], y[None], folds[None], 4)
    monkeypatch.setattr(svm_newton.Primal, "newton_point", _plain_primal_point)
    monkeypatch.setattr(svm_newton.Primal, "outputs", _plain_outputs)
    plain = linear_svm.cross_validate(x[None], y[None], folds[None], 4)
    np.testing.assert_array_equal(fast.weights, plain.weights)
    np.testing.assert_array_equal(fast.accuracy, plain.accuracy)


@pytest.mark.slow
@pytest.mark.parametrize("method", [Unmasking, GeneralisedUnmasking])
def test_rounds_started_from_the_last_active_sets_give_the_curves_of_cold_starts(
    real_case, monkeypatch, method
) -> None:
    """Each unmasking round's SVMs start at the Newton point of the previous round's active
    sets; solved from w = 0 every round instead (the plain path), the same curves."""
    case, impostors = real_case
    found = [method().features(case, impostors, np.random.default_rng(seed)) for seed in (34, 5)]
    warm = linear_svm.cross_validate

    def cold(*args, start=None, **kwargs):
        return warm(*args, **kwargs)

    monkeypatch.setattr(linear_svm, "cross_validate", cold)
    plain = [method().features(case, impostors, np.random.default_rng(seed)) for seed in (34, 5)]
    np.testing.assert_array_equal(found, plain)


def test_a_round_started_from_the_last_active_sets_ends_at_the_cold_optimum(real_case) -> None:
    """GenUnmasking's shapes (features outnumber chunks): a round started from the last
    round's active sets ends at the optimum a cold start finds, with the same predictions."""
    case, _ = real_case
    pair = encode_pair(case.known_joined, case.questioned, keep_case=True)
    rng = np.random.default_rng(3)
    chunks = [ids[rng.integers(0, len(ids), size=(20, 60))] for ids in (pair.first, pair.second)]
    x = chunk_counts(np.concatenate(chunks), most_frequent(pair, 80), len(pair.vocabulary))
    y = np.concatenate([np.ones(20), -np.ones(20)])
    folds = linear_svm.stratified_folds(y, 5, rng)
    first = linear_svm.cross_validate(x[None], y[None], folds[None], 5)
    strongest = np.argsort(first.weights.mean(axis=1)[0])[[0, 1, -2, -1]]
    x[:, strongest] = 0.0
    assert x.shape[0] < x.shape[1] + 1  # the representer parametrisation
    cold = linear_svm.cross_validate(x[None], y[None], folds[None], 5)
    warm = linear_svm.cross_validate(x[None], y[None], folds[None], 5, start=first.fit)
    np.testing.assert_allclose(warm.weights, cold.weights, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(warm.accuracy, cold.accuracy)
    assert not np.array_equal(first.fit.active, cold.fit.active)  # the active sets changed
