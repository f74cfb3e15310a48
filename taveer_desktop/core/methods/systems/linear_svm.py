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
held-out predictions and each fold's weights (Unmasking removes the strongest of them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.methods.systems.whole_number_systems import (
    WholeNumberSystems,
    whole_numbers,
)

C_DEFAULT = 1.0  # liblinear's default cost
_MAX_NEWTON_STEPS = 200
_STEP_TOLERANCE = 1e-10  # a Newton step this small (relative to the parameters) means converged


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
) -> Fit:
    """Fit P linear SVMs on G data sets: ``x`` (G, N, d) samples, ``y`` (P, N) labels in
    {−1, +1}, ``train`` (P, N) bool marking the samples each problem learns from (the others
    are only predicted), ``group`` (P,) the data set of each problem (default: problem p on
    data set p, G = P). Problems sharing a data set (the folds of a cross-validation) share
    its Gram matrix.

    ``start``, optional: the ``Fit`` of a similar problem of the same shapes (the same samples,
    features zeroed, as in Unmasking's rounds) to start from instead of w = 0: its parameters
    (primal), or the Newton point of its active sets on these data (representer: Generalised
    Unmasking's rounds need half the solves so). The optimum is the same either way."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    train = np.asarray(train, dtype=bool)
    group = np.arange(len(y)) if group is None else np.asarray(group, dtype=np.intp)
    if x.ndim != 3 or y.ndim != 2 or train.shape != y.shape or group.shape != (len(y),):
        raise ValueError("fit_many needs x (G, N, d), y and train (P, N) and group (P,)")
    if y.shape[1] != x.shape[1] or (len(group) and not 0 <= group.min() <= group.max() < len(x)):
        raise ValueError("fit_many: y, train and group must match x's data sets and samples")
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("labels must be −1 or +1")
    if not c > 0 or not np.isfinite(c):
        raise ValueError("the cost C must be a positive number")
    if not np.all(np.isfinite(x)):
        raise ValueError("samples must be finite")
    n_sets, n_samples, n_features = x.shape
    augmented = np.concatenate([x, np.ones((n_sets, n_samples, 1))], axis=2)
    if n_samples <= n_features + 1:
        problem: _Problem = _Representer(augmented, y, c, group)
    else:
        problem = _Primal(augmented, y, c, group)
    if start is not None and (
        start.active.shape != y.shape or start.state.shape != problem.start.shape
    ):
        raise ValueError("a start must come from a problem of the same shapes")
    theta, steps = _newton(problem, y, train, c, start)
    w_aug = problem.weights(theta)
    outputs = _all_outputs(augmented, w_aug, group)
    active = train & (y * outputs < 1.0)
    return Fit(w_aug[:, :-1], w_aug[:, -1], outputs, active, steps, theta)


def _all_outputs(x: np.ndarray, w: np.ndarray, group: np.ndarray) -> np.ndarray:
    """(P, N): every sample's decision value under each problem's weights ``w`` (P, d), each
    problem on its data set ``x[group]``, without copying a data set per problem."""
    outputs = np.empty((len(w), x.shape[1]))
    for g in np.unique(group):
        mine = group == g
        outputs[mine] = w[mine] @ x[g].T
    return outputs


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
) -> CrossValidation:
    """k-fold cross-validation of R data sets at once: ``x`` (R, N, d), ``y`` and ``folds``
    (R, N) (``start``: see ``fit_many``). A sample is predicted +1 where its decision value is
    positive, −1 otherwise."""
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
    )
    outputs = result.outputs.reshape(n_sets, k, n_samples)
    predicted = np.where(outputs > 0, 1.0, -1.0)  # as liblinear: 0 goes to the negative class
    correct = (predicted == batch_y) & held_out
    accuracy = correct.sum(axis=(1, 2)) / n_samples
    return CrossValidation(accuracy, result.weights.reshape(n_sets, k, n_features), result)


# --- the solver ---------------------------------------------------------------------------


class _Problem:
    """One parametrisation θ of the weights: outputs o = A θ and ‖w‖² = θᵀ G θ. ``rows``
    selects the problems of the batch still being solved."""

    start: np.ndarray
    FROM_ACTIVE = False  # a start from a similar problem's active sets, not its parameters

    def newton_point(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def outputs(self, theta: np.ndarray, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def inner(self, theta: np.ndarray, direction: np.ndarray, change: np.ndarray) -> np.ndarray:
        """θᵀ G d, given the change of outputs A d."""
        raise NotImplementedError

    def weights(self, theta: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class _Primal(_Problem):
    """θ = w (augmented): the Newton point solves (I + 2C X_Aᵀ X_A) w = 2C X_Aᵀ y_A.

    Samples that are whole numbers (word counts, as in Unmasking) give systems that are exact
    in any order of summation: they are kept from step to step and updated by the samples that
    entered or left the active set (``whole_number_systems``) instead of summed again."""

    def __init__(self, x: np.ndarray, y: np.ndarray, c: float, group: np.ndarray) -> None:
        self.x, self.y, self.c, self.group = x, y, c, group
        self.start = np.zeros((len(y), x.shape[2]))
        self._systems = WholeNumberSystems(x, c, group) if whole_numbers(x, c) else None

    def newton_point(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if self._systems is None:
            masked = self.x[self.group[rows]] * active[:, :, None]
            hessian = 2.0 * self.c * (masked.transpose(0, 2, 1) @ masked)
            hessian += np.eye(self.x.shape[2])[None]
            rhs = 2.0 * self.c * (masked.transpose(0, 2, 1) @ self.y[rows][:, :, None])
            return np.linalg.solve(hessian, rhs)[:, :, 0]
        hessian = self._systems.of(active, rows)
        rhs = np.empty((len(rows), self.x.shape[2], 1))  # whole numbers: any order of sums
        for index, (row, target) in enumerate(zip(rows, self.y[rows] * active, strict=True)):
            rhs[index, :, 0] = self.x[self.group[row]].T @ target
        rhs *= 2.0 * self.c
        return np.linalg.solve(hessian, rhs)[:, :, 0]

    def outputs(self, theta: np.ndarray, rows: np.ndarray) -> np.ndarray:
        # one product per problem on its data set, not a copy of it per problem (same numbers)
        out = np.empty((len(rows), self.x.shape[1]))
        for index, (row, weights) in enumerate(zip(rows, theta, strict=True)):
            np.matmul(self.x[self.group[row]], weights, out=out[index])
        return out

    def inner(self, theta: np.ndarray, direction: np.ndarray, change: np.ndarray) -> np.ndarray:
        return np.asarray(np.einsum("pd,pd->p", theta, direction))

    def weights(self, theta: np.ndarray) -> np.ndarray:
        return theta


class _Representer(_Problem):
    """θ = a with w = Σ a_i x̃_i: the Newton point solves (K_AA + I/2C) a_A = y_A, a = 0 off
    the active set A (K = X̃ X̃ᵀ, the Gram matrix of the augmented samples).

    Only the active rows and columns are solved for: each problem's active samples are moved
    to the front and the batch solves systems of the largest active count, a problem with
    fewer active samples padded with identity rows (their a is 0, as it is off A). Active sets
    are mostly far smaller than the samples, and a solve costs the cube of its size. (Each
    problem at its own size: tried, no faster, and LAPACK's factors depend on the padding.)"""

    FROM_ACTIVE = True

    def __init__(self, x: np.ndarray, y: np.ndarray, c: float, group: np.ndarray) -> None:
        self.x, self.y, self.c, self.group = x, y, c, group
        self.gram = x @ x.transpose(0, 2, 1)  # one per data set
        # the Gram matrices with a row and column of zeros (index N) for the padding, flat
        n = x.shape[1]
        padded = np.zeros((len(x), n + 1, n + 1))
        padded[:, :n, :n] = self.gram
        self._padded = padded.reshape(-1)
        self.start = np.zeros(y.shape)
        # problems in runs of equal length (a data set's folds): products need no copies
        per_set = len(y) // max(len(x), 1)
        self.blocked = per_set * len(x) == len(y) and bool(
            np.array_equal(group, np.repeat(np.arange(len(x)), per_set))
        )

    def newton_point(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
        n_problems, n = active.shape
        counts = active.sum(axis=1)
        size = max(int(counts.max()), 1)
        order = np.argsort(~active, axis=1, kind="stable")[:, :size]  # active samples first
        used = np.arange(size)[None, :] < counts[:, None]  # (P, size): a real active sample
        side = n + 1
        index = np.where(used, order, n)  # a padding place reads the zero row / column
        base = (self.group[rows] * (side * side))[:, None, None]
        system = self._padded.take(base + index[:, :, None] * side + index[:, None, :])
        diagonal = np.arange(size)
        system[:, diagonal, diagonal] += np.where(used, 1.0 / (2.0 * self.c), 1.0)
        rhs = np.where(used, np.take_along_axis(self.y[rows], order, axis=1), 0.0)
        solved = np.linalg.solve(system, rhs[:, :, None])[:, :, 0]
        theta = np.zeros((n_problems, n))
        np.put_along_axis(theta, order, np.where(used, solved, 0.0), axis=1)
        return theta

    def outputs(self, theta: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return np.asarray((self.gram[self.group[rows]] @ theta[:, :, None])[:, :, 0])

    def inner(self, theta: np.ndarray, direction: np.ndarray, change: np.ndarray) -> np.ndarray:
        return np.asarray(np.einsum("pn,pn->p", theta, change))  # θᵀ K d = θ · (K d)

    def weights(self, theta: np.ndarray) -> np.ndarray:
        if self.blocked:
            per_set = len(theta) // len(self.x)
            blocks = theta.reshape(len(self.x), per_set, -1)  # (G, k, N)
            return np.asarray((blocks @ self.x).reshape(len(theta), -1))
        return np.asarray((self.x[self.group].transpose(0, 2, 1) @ theta[:, :, None])[:, :, 0])


def _newton(
    problem: _Problem, y: np.ndarray, train: np.ndarray, c: float, start: Fit | None
) -> tuple[np.ndarray, int]:
    """Newton steps from the start (see ``fit_many``) until each problem's active set settles
    (see the module); a problem that has settled leaves the batch — at the start already if
    it started at the Newton point of active sets it keeps (the optimum: the point minimises
    the objective of that active set)."""
    live = np.arange(len(y))
    begun = None  # the active sets the problems started from, if they did
    if start is None:
        theta = np.array(problem.start, dtype=float)
    elif problem.FROM_ACTIVE:
        begun = train & start.active
        theta = problem.newton_point(begun, live)
    else:
        theta = np.array(start.state, dtype=float)
    outputs = problem.outputs(theta, live)
    active = train & (y * outputs < 1.0)
    if begun is not None:
        live = live[~np.all(active == begun, axis=1)]
        if len(live) == 0:
            return theta, 0
    for step in range(1, _MAX_NEWTON_STEPS + 1):
        th, act, ys, tr = theta[live], active[live], y[live], train[live]
        direction = problem.newton_point(act, live) - th
        change = problem.outputs(direction, live)
        length = _exact_step(
            outputs[live],
            change,
            ys,
            tr,
            c,
            problem.inner(th, direction, change),
            problem.inner(direction, direction, change),
        )
        th = th + length[:, None] * direction
        out = outputs[live] + length[:, None] * change
        now_active = tr & (ys * out < 1.0)
        small = np.abs(direction).max(axis=1) <= _STEP_TOLERANCE * (1.0 + np.abs(th).max(axis=1))
        settled = ((length >= 1.0 - 1e-12) & np.all(now_active == act, axis=1)) | small
        theta[live], outputs[live], active[live] = th, out, now_active
        live = live[~settled]
        if len(live) == 0:
            return theta, step
    return theta, _MAX_NEWTON_STEPS


def _exact_step(
    outputs: np.ndarray,
    change: np.ndarray,
    y: np.ndarray,
    train: np.ndarray,
    c: float,
    w_dot_d: np.ndarray,
    d_dot_d: np.ndarray,
) -> np.ndarray:
    """The step t ≥ 0 minimising the objective along the direction, for every problem.

    Along the line, φ'(t) = w·d + t d·d − 2C Σ_{i active at t} s_i (m_i − t s_i) with slack
    m = 1 − y o and s = y Δo: piecewise linear and non-decreasing. Samples leave or enter the
    active set at the breakpoints t = m_i / s_i; sorted, cumulative sums give φ' at each, and
    the root lies on the linear piece where φ' turns positive."""
    slack = 1.0 - y * outputs
    rate = y * change
    leaving = train & (rate > 0) & (slack > 0)
    entering = train & (rate < 0) & (slack <= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        breaks = np.where(leaving | entering, slack / rate, np.inf)
    toggle = np.where(leaving, -1.0, np.where(entering, 1.0, 0.0))
    initially = train & (slack > 0)
    sum_sm = np.sum(np.where(initially, rate * slack, 0.0), axis=1)
    sum_ss = np.sum(np.where(initially, rate * rate, 0.0), axis=1)

    # only the breakpoints matter: they sort before the infinities, so the sorted columns are
    # cut after the most breakpoints any problem has (the sums up to there are unchanged)
    width = max(int(np.count_nonzero(leaving | entering, axis=1).max(initial=0)), 1)
    order = np.argsort(breaks, axis=1, kind="stable")[:, :width]
    order += (np.arange(len(breaks)) * breaks.shape[1])[:, None]  # flat positions
    t_sorted = breaks.take(order)
    tog = toggle.take(order)
    rate_sorted = rate.take(order)
    sm = sum_sm[:, None] + np.cumsum(tog * (rate_sorted * slack.take(order)), axis=1)
    ss = sum_ss[:, None] + np.cumsum(tog * (rate_sorted * rate_sorted), axis=1)
    finite = np.isfinite(t_sorted)
    t_safe = np.where(finite, t_sorted, 0.0)
    derivative = w_dot_d[:, None] + t_safe * d_dot_d[:, None] - 2.0 * c * (sm - t_safe * ss)
    crossing = finite & (derivative > 0)
    first = np.where(crossing.any(axis=1), crossing.argmax(axis=1), finite.sum(axis=1))
    # the sums on the piece before breakpoint `first` are those after breakpoint first − 1
    rows = np.arange(len(first))
    before = np.maximum(first - 1, 0)
    piece_sm = np.where(first > 0, sm[rows, before], sum_sm)
    piece_ss = np.where(first > 0, ss[rows, before], sum_ss)
    denominator = d_dot_d + 2.0 * c * piece_ss
    with np.errstate(divide="ignore", invalid="ignore"):
        root = (2.0 * c * piece_sm - w_dot_d) / denominator
    return np.where(denominator > 0, np.maximum(root, 0.0), 0.0)
