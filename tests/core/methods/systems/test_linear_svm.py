"""The numpy linear SVM against hand-computed solutions, a brute-force hard-margin solver and a
slow gradient-descent reference; batching, warm starts and cross-validation against loops."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from taveer_desktop.core.methods.systems import linear_svm


def reference_fit(x: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
    """Slow reference: plain gradient descent on the primal objective (smooth for the squared
    hinge), step 1/L, until the gradient vanishes. Returns (w, b) as one vector."""
    xa = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xa.shape[1])
    lipschitz = 1.0 + 2.0 * c * np.linalg.eigvalsh(xa.T @ xa).max()
    for _ in range(500_000):
        slack = np.maximum(0.0, 1.0 - y * (xa @ w))
        gradient = w - 2.0 * c * xa.T @ (slack * y)
        if np.abs(gradient).max() < 1e-12:
            break
        w -= gradient / lipschitz
    return w


def hard_margin_brute_force(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, set[int]]:
    """Hard-margin SVM with the bias regularised (a hyperplane through the origin of the
    augmented space), by trying every set of support vectors: for each set S, the w with
    y_i w·x̃_i = 1 on S and w in the span of S (non-negative multipliers), kept if it satisfies
    every constraint; the one of smallest norm wins."""
    xa = np.hstack([x, np.ones((len(x), 1))])
    best: tuple[float, np.ndarray, set[int]] | None = None
    for size in range(1, len(x) + 1):
        for subset in itertools.combinations(range(len(x)), size):
            s = list(subset)
            gram = (xa[s] @ xa[s].T) * np.outer(y[s], y[s])
            try:
                alpha = np.linalg.solve(gram, np.ones(len(s)))
            except np.linalg.LinAlgError:
                continue
            if np.any(alpha < -1e-12):
                continue
            w = (alpha * y[s]) @ xa[s]
            if np.all(y * (xa @ w) >= 1 - 1e-9) and (best is None or w @ w < best[0] - 1e-12):
                best = (float(w @ w), w, set(s))
    assert best is not None
    return best[1], best[2]


def test_two_points_by_hand() -> None:
    # x = ±1 with labels ±1: by symmetry b = 0, and ½w² + 2C(1 − w)² is least at w = 4C/(1+4C)
    for c in (0.1, 1.0, 10.0):
        w, b = linear_svm.fit(np.array([[1.0], [-1.0]]), np.array([1.0, -1.0]), c)
        assert w[0] == pytest.approx(4 * c / (1 + 4 * c), abs=1e-12)
        assert b == pytest.approx(0.0, abs=1e-12)


def test_bias_by_hand() -> None:
    # x = 2 (+1) and x = 0 (−1), C = 1: both samples inside the margin, so the optimum solves
    # w = 4(1 − 2w − b) and b = 2(1 − 2w − b) − 2(1 + b): w = 20/29, b = −16/29
    w, b = linear_svm.fit(np.array([[2.0], [0.0]]), np.array([1.0, -1.0]), 1.0)
    assert w[0] == pytest.approx(20 / 29, abs=1e-12)
    assert b == pytest.approx(-16 / 29, abs=1e-12)


def test_separable_example_margin_and_support_vectors() -> None:
    x = np.array([[2.0, 2.5], [4.0, 1.0], [4.0, 4.0], [0.0, 0.0], [-1.0, 2.0], [0.5, -2.0]])
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    w_hard, support = hard_margin_brute_force(x, y)
    assert support == {0, 3, 4}  # w̃ = (8/13, 4/13, −1): margin 1/‖w̃‖
    np.testing.assert_allclose(w_hard, [8 / 13, 4 / 13, -1.0], atol=1e-12)
    c = 1e7  # the squared hinge tends to the hard margin as C grows
    fit = linear_svm.fit_many(x[None], y[None], np.ones((1, 6), dtype=bool), c)
    w_aug = np.append(fit.weights[0], fit.bias[0])
    np.testing.assert_allclose(w_aug, w_hard, atol=1e-5)
    assert 1 / np.linalg.norm(w_aug) == pytest.approx(1 / np.linalg.norm(w_hard), rel=1e-5)
    assert set(np.flatnonzero(fit.support(y[None], np.ones((1, 6), dtype=bool))[0])) == support
    assert np.all(np.sign(fit.outputs[0]) == y)


@pytest.mark.parametrize(("n", "d"), [(40, 5), (12, 30), (60, 3), (9, 8)])
def test_matches_slow_reference(n: int, d: int) -> None:
    # both parametrisations (samples ≤ features + 1 or not), on noisy, non-separable data
    rng = np.random.default_rng(n + d)
    x = rng.normal(size=(n, d))
    y = np.where(x[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    for c in (0.05, 1.0):
        w, b = linear_svm.fit(x, y, c)
        np.testing.assert_allclose(np.append(w, b), reference_fit(x, y, c), atol=1e-8)


def test_batch_groups_masks_and_start_give_the_same_solutions() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 30, 6))
    y = np.where(rng.random((2, 30)) < 0.5, 1.0, -1.0)
    train = rng.random((4, 30)) < 0.7
    group = np.array([0, 0, 1, 1])
    batched = linear_svm.fit_many(x, y[group], train, 1.0, group=group)
    for p in range(4):
        g = group[p]
        w, b = linear_svm.fit(x[g][train[p]], y[g][train[p]], 1.0)
        np.testing.assert_allclose(batched.weights[p], w, atol=1e-10)
        assert batched.bias[p] == pytest.approx(b, abs=1e-10)
        np.testing.assert_allclose(batched.outputs[p], x[g] @ w + b, atol=1e-10)
    # a warm start from a nearby problem (a feature zeroed) reaches the same optimum
    zeroed = x.copy()
    zeroed[:, :, 0] = 0.0
    cold = linear_svm.fit_many(zeroed, y[group], train, 1.0, group=group)
    warm = linear_svm.fit_many(zeroed, y[group], train, 1.0, start=batched, group=group)
    np.testing.assert_allclose(warm.weights, cold.weights, atol=1e-10)
    np.testing.assert_allclose(warm.weights[:, 0], 0.0, atol=1e-12)
    # started at the optimum itself, each problem is solved in at most one step
    again = linear_svm.fit_many(zeroed, y[group], train, 1.0, start=cold, group=group)
    assert again.newton_steps <= 1
    np.testing.assert_allclose(again.weights, cold.weights, atol=1e-10)


def test_deterministic() -> None:
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(25, 40)), np.where(rng.random(25) < 0.5, 1.0, -1.0)
    first, second = linear_svm.fit(x, y), linear_svm.fit(x, y)
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]


def test_cross_validation_against_a_loop_over_folds() -> None:
    rng = np.random.default_rng(11)
    x = rng.normal(size=(3, 40, 8))
    y = np.tile(np.repeat([1.0, -1.0], 20), (3, 1))
    x[:, :20, 0] += 1.0
    folds = np.stack([linear_svm.stratified_folds(y[r], 5, rng) for r in range(3)])
    result = linear_svm.cross_validate(x, y, folds, 5)
    for r in range(3):
        right = 0
        for f in range(5):
            held = folds[r] == f
            w, b = linear_svm.fit(x[r][~held], y[r][~held])
            right += int(np.sum(np.where(x[r][held] @ w + b > 0, 1.0, -1.0) == y[r][held]))
            np.testing.assert_allclose(result.weights[r, f], w, atol=1e-10)
        assert result.accuracy[r] == pytest.approx(right / 40)


def test_stratified_folds() -> None:
    y = np.repeat([1, -1], [23, 17])
    folds = linear_svm.stratified_folds(y, 10, np.random.default_rng(0))
    for f in range(10):
        assert set(y[folds == f]) == {1, -1}
    assert np.bincount(folds[y == 1]).max() - np.bincount(folds[y == 1]).min() <= 1
    again = linear_svm.stratified_folds(y, 10, np.random.default_rng(0))
    assert np.array_equal(folds, again)


@pytest.mark.parametrize(
    ("y", "c", "x"),
    [
        (np.array([1.0, 0.0]), 1.0, np.zeros((2, 1))),
        (np.array([1.0, -1.0]), 0.0, np.zeros((2, 1))),
        (np.array([1.0, -1.0]), 1.0, np.array([[np.nan], [0.0]])),
    ],
)
def test_bad_input_refused(y: np.ndarray, c: float, x: np.ndarray) -> None:
    with pytest.raises(ValueError):
        linear_svm.fit(x, y, c)
