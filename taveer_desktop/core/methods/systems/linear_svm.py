"""A deterministic linear support vector machine in numpy, solving many small problems at once.

Unmasking fits thousands of small linear SVMs per case (folds × elimination rounds × runs), so
this module solves a whole batch of problems in one go, each with its own training samples.

**The model** is liblinear's default linear SVM (the one scikit-learn's ``LinearSVC`` wraps and
the Generalised-Unmasking reference code uses): the L2-regularised squared hinge loss, with the
bias as an extra constant feature regularised like the weights::

    minimise  ½ (‖w‖² + b²) + C · Σ_{training i} max(0, 1 − y_i (w·x_i + b))²

with labels ``y_i`` in {−1, +1}. Its optimum is unique.

**The solver** is the finite Newton method of Keerthi and DeCoste (2005, JMLR 6, "A modified
finite Newton method for fast solution of large scale linear SVMs"): take the samples inside the
margin (the *active* set), solve the least-squares problem they define exactly, then move towards
that point with an exact line search on the piecewise-quadratic objective; stop when the active
set no longer changes. It converges in a finite number of steps and visits samples in no random
order, so the same data always give the same weights. Every step is a batched linear solve;
a batch can start where a similar batch ended (``fit_many``'s ``start``).

Two parametrisations of the same problem share the line search: the *primal* one (w itself;
a (d+1)² system) when samples outnumber features, and the *representer* one (w = Σ a_i x̃_i over
the augmented samples; an N² system in the Gram matrix) when features outnumber samples, as in
Generalised Unmasking's 60 chunks × 250 words.

``cross_validate`` runs k-fold cross-validation of many problems at once: accuracy of the
held-out predictions and each fold's weights (Unmasking removes the strongest of them). Several
independent batches — the problems of many cases — can be solved in one call (``batch``),
each problem's numbers exactly those of its batch solved alone (``svm_newton``, the solver).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.methods.systems.svm_newton import Primal, Problem, Representer, newton

C_DEFAULT = 1.0  # liblinear's default cost


@dataclass(frozen=True)
class Fit:
    """The solutions of a batch of P problems on N samples with d features."""

    weights: np.ndarray  # (P, d)
    bias: np.ndarray  # (P,)
    outputs: np.ndarray  # (P, N): w·x_i + b for every sample, held-out ones included
    active: np.ndarray  # (P, N) bool: training samples strictly inside the margin
    newton_steps: int  # steps the slowest problem of the batch needed
    state: np.ndarray  # the solver's parameters: a start for a problem of the same shapes

    def support(self, y: np.ndarray, train: np.ndarray) -> np.ndarray:
        """(P, N) bool: the support vectors, training samples on or inside the margin."""
        inside = np.asarray(y) * self.outputs < 1.0 + 1e-9
        return np.asarray(np.asarray(train, dtype=bool) & inside)


def fit_many(
    x: np.ndarray,
    y: np.ndarray,
    train: np.ndarray,
    c: float = C_DEFAULT,
    start: Fit | None = None,
    group: np.ndarray | None = None,
    batch: np.ndarray | None = None,
    gram: np.ndarray | None = None,
) -> Fit:
    """Fit P linear SVMs on G data sets: ``x`` (G, N, d) samples, ``y`` (P, N) labels in
    {−1, +1}, ``train`` (P, N) bool marking the samples each problem learns from (the others
    are only predicted), ``group`` (P,) the data set of each problem (default: problem p on
    data set p, G = P). Problems sharing a data set (the folds of a cross-validation) share
    its Gram matrix.

    ``start``, optional: the ``Fit`` of a similar problem of the same shapes (the same samples,
    features zeroed, as in Unmasking's rounds) to start from instead of w = 0: its parameters
    (primal), or the Newton point of its active sets on these data (representer: Generalised
    Unmasking's rounds need half the solves so). The optimum is the same either way.

    ``batch``, optional (P,): labels of independent batches stacked in this call (the problems
    of several cases); each problem's numbers are exactly those of its batch fitted alone, so
    a call per batch and one call for all give the same fits (default: one batch).

    ``gram``, optional (G, N, N): the Gram matrices of the augmented samples exactly as
    x̃ x̃ᵀ gives them (``exact_gram``), kept by a caller that fits the same data sets again."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    train = np.asarray(train, dtype=bool)
    group = np.arange(len(y)) if group is None else np.asarray(group, dtype=np.intp)
    batch = np.zeros(len(y), dtype=np.intp) if batch is None else np.asarray(batch)
    if x.ndim != 3 or y.ndim != 2 or train.shape != y.shape or group.shape != (len(y),):
        raise ValueError("fit_many needs x (G, N, d), y and train (P, N) and group (P,)")
    if batch.shape != (len(y),):
        raise ValueError("fit_many: batch must give one label per problem")
    if y.shape[1] != x.shape[1] or (len(group) and not 0 <= group.min() <= group.max() < len(x)):
        raise ValueError("fit_many: y, train and group must match x's data sets and samples")
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("labels must be −1 or +1")
    if not c > 0 or not np.isfinite(c):
        raise ValueError("the cost C must be a positive number")
    if not np.all(np.isfinite(x)):
        raise ValueError("samples must be finite")
    n_sets, n_samples, n_features = x.shape
    if gram is not None and np.shape(gram) != (n_sets, n_samples, n_samples):
        raise ValueError("fit_many: gram must hold one N × N matrix per data set")
    augmented = np.concatenate([x, np.ones((n_sets, n_samples, 1))], axis=2)
    if n_samples <= n_features + 1:
        problem: Problem = Representer(augmented, y, c, group, batch, gram)
    else:
        problem = Primal(augmented, y, c, group)  # row by row: any batches are apart already
    if start is not None and (
        start.active.shape != y.shape or start.state.shape != problem.start.shape
    ):
        raise ValueError("a start must come from a problem of the same shapes")
    theta, steps = newton(
        problem, y, train, c, None if start is None else (start.active, start.state)
    )
    w_aug = problem.weights(theta)
    outputs = _all_outputs(augmented, w_aug, group)
    active = train & (y * outputs < 1.0)
    return Fit(w_aug[:, :-1], w_aug[:, -1], outputs, active, steps, theta)


def _all_outputs(x: np.ndarray, w: np.ndarray, group: np.ndarray) -> np.ndarray:
    """(P, N): every sample's decision value under each problem's weights ``w`` (P, d), each
    problem on its data set ``x[group]``, without copying a data set per problem."""
    per_set = len(w) // max(len(x), 1)
    if per_set * len(x) == len(w) and np.array_equal(group, np.repeat(np.arange(len(x)), per_set)):
        # problems in runs of equal length (a data set's folds): one product per data set
        blocks = w.reshape(len(x), per_set, w.shape[1])
        return np.asarray((blocks @ x.transpose(0, 2, 1)).reshape(len(w), x.shape[1]))
    outputs = np.empty((len(w), x.shape[1]))
    for g in np.unique(group):
        mine = group == g
        outputs[mine] = w[mine] @ x[g].T
    return outputs


def exact_gram(x: np.ndarray) -> np.ndarray | None:
    """The Gram matrices x̃ x̃ᵀ (G, N, N) of data sets ``x`` (G, N, d) with the constant
    feature, where the representer solves them (N ≤ d + 1) and every sum is exact: whole-number
    samples whose products sum below 2⁵² (word counts), so that the matrices are the same in any
    order of summation and can be kept, column by column, as ``without_columns`` does; else
    None (``fit_many`` sums them afresh)."""
    x = np.asarray(x, dtype=float)
    if not gram_is_exact(x):
        return None
    return np.asarray(x @ x.transpose(0, 2, 1) + 1.0)


def gram_is_exact(x: np.ndarray) -> bool:
    """Whether data sets ``x`` (G, N, d) are solved through their Gram matrices (N ≤ d + 1)
    and those sums are exact (whole numbers whose products sum below 2⁵²): ``exact_gram``."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 3 or x.shape[1] > x.shape[2] + 1:
        return False
    largest = float(np.abs(x).max(initial=1.0))
    return (x.shape[2] + 1) * largest * largest < 2.0**52 and bool(np.all(x == np.rint(x)))


def without_columns(gram: np.ndarray, columns: np.ndarray) -> None:
    """Take from ``exact_gram``'s matrices, in place, the part of feature columns about to be
    zeroed: ``columns`` (G, N, m), each column's values (whole numbers: exact, see there)."""
    gram -= columns @ columns.transpose(0, 2, 1)


def fit(x: np.ndarray, y: np.ndarray, c: float = C_DEFAULT) -> tuple[np.ndarray, float]:
    """One linear SVM on all of ``x`` (N, d) with labels ``y``: (weights, bias)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    result = fit_many(x[None], y[None], np.ones((1, len(y)), dtype=bool), c)
    return result.weights[0], float(result.bias[0])


def stratified_folds(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """A fold (0..k−1) for each sample: each class shuffled by ``rng`` and dealt round the
    folds, so every fold holds both classes when each class has at least k samples."""
    y = np.asarray(y)
    folds = np.empty(len(y), dtype=np.intp)
    for label in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == label))
        folds[members] = np.arange(len(members)) % k
    return folds


@dataclass(frozen=True)
class CrossValidation:
    """k-fold cross-validation of R data sets."""

    accuracy: np.ndarray  # (R,): share of samples predicted right when held out
    weights: np.ndarray  # (R, k, d): each fold model's weights
    fit: Fit  # the fold models' fit (a start for the next round)


def cross_validate(
    x: np.ndarray,
    y: np.ndarray,
    folds: np.ndarray,
    k: int,
    c: float = C_DEFAULT,
    start: Fit | None = None,
    batch: np.ndarray | None = None,
    gram: np.ndarray | None = None,
) -> CrossValidation:
    """k-fold cross-validation of R data sets at once: ``x`` (R, N, d), ``y`` and ``folds``
    (R, N) (``start``, ``gram``: see ``fit_many``; ``batch`` (R,): the independent batch of
    each data set, its folds' problems with it). A sample is predicted +1 where its decision
    value is positive, −1 otherwise."""
    x, y, folds = np.asarray(x, dtype=float), np.asarray(y, dtype=float), np.asarray(folds)
    n_sets, n_samples, n_features = x.shape
    held_out = folds[:, None, :] == np.arange(k)[None, :, None]  # (R, k, N)
    batch_y = np.broadcast_to(y[:, None], (n_sets, k, n_samples))
    result = fit_many(
        x,
        batch_y.reshape(n_sets * k, n_samples),
        ~held_out.reshape(n_sets * k, n_samples),
        c,
        start,
        np.repeat(np.arange(n_sets), k),
        None if batch is None else np.repeat(np.asarray(batch), k),
        gram,
    )
    outputs = result.outputs.reshape(n_sets, k, n_samples)
    predicted = np.where(outputs > 0, 1.0, -1.0)  # as liblinear: 0 goes to the negative class
    correct = (predicted == batch_y) & held_out
    accuracy = correct.sum(axis=(1, 2)) / n_samples
    return CrossValidation(accuracy, result.weights.reshape(n_sets, k, n_features), result)
