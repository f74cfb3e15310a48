"""The finite Newton solver behind ``linear_svm``: batched Newton steps with an exact line search.

``linear_svm`` states the model (liblinear's L2-regularised squared-hinge SVM, C, the bias as a
regularised constant feature) and the method (Keerthi and DeCoste 2005); this module is the
solver's arithmetic — the two parametrisations of the problem (``Primal``: w itself;
``Representer``: w = Σ a_i x̃_i through the Gram matrix), the Newton steps until every
problem's active set settles (``newton``), and the exact step along each direction
(``exact_step``).

**Independent batches solved together.** A batch of problems may hold several *batches*, each
labelled (``batch``): the problems of many cases stacked so that each Newton step costs numpy's
per-call overhead once for all of them. Every computation is row by row except the size of the
representer's padded systems, which is each batch's own largest active set — exactly the size
the batch would have had fitted alone — so a problem's numbers do not depend on what it was
stacked with (LAPACK's factors of a system depend on its padding, so a problem padded to
another case's larger size could move in its last digits).
"""

from __future__ import annotations

import numpy as np

from taveer_desktop.core.methods.systems.whole_number_systems import (
    WholeNumberSystems,
    whole_numbers,
)

MAX_NEWTON_STEPS = 200
STEP_TOLERANCE = 1e-10  # a Newton step this small (relative to the parameters) means converged


class Problem:
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


class Primal(Problem):
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


class Representer(Problem):
    """θ = a with w = Σ a_i x̃_i: the Newton point solves (K_AA + I/2C) a_A = y_A, a = 0 off
    the active set A (K = X̃ X̃ᵀ, the Gram matrix of the augmented samples).

    Only the active rows and columns are solved for: each problem's active samples are moved
    to the front and a batch solves systems of its largest active count, a problem with fewer
    active samples padded with identity rows (their a is 0, as it is off A). Active sets are
    mostly far smaller than the samples, and a solve costs the cube of its size. (Each problem
    at its own size: tried, no faster, and LAPACK's factors depend on the padding.) ``batch``
    (P,) labels independent batches stacked together: each is padded to its own largest active
    count (see the module), the problems of one size solved in one call."""

    FROM_ACTIVE = True

    def __init__(
        self,
        x: np.ndarray,
        y: np.ndarray,
        c: float,
        group: np.ndarray,
        batch: np.ndarray,
        gram: np.ndarray | None = None,
    ) -> None:
        self.x, self.y, self.c, self.group = x, y, c, group
        self.batch = np.unique(batch, return_inverse=True)[1].ravel()  # labels 0..B−1
        # one per data set (given: the same numbers, kept by the caller, ``linear_svm``)
        self.gram = x @ x.transpose(0, 2, 1) if gram is None else gram
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
        batch = self.batch[rows]
        largest = np.zeros(int(batch.max(initial=0)) + 1, dtype=counts.dtype)
        np.maximum.at(largest, batch, counts)
        sizes = np.maximum(largest, 1)[batch]  # each problem's batch's largest active count
        # each problem's active samples in order, in the first places of its system
        problem, sample = np.nonzero(active)
        place = np.arange(len(problem)) - np.repeat(np.cumsum(counts) - counts, counts)
        width = int(sizes.max(initial=1))
        index = np.full((n_problems, width), n)  # a padding place reads the zero row / column
        index[problem, place] = sample
        target = np.zeros((n_problems, width))
        target[problem, place] = self.y[rows][problem, sample]
        solved = np.empty((n_problems, width))
        if sizes.min(initial=0) == width:  # one size (one batch): no copies
            solved[:] = self._solved(index, target, self.group[rows])
        else:
            for size in np.unique(sizes):
                mine = np.flatnonzero(sizes == size)
                found = self._solved(
                    index[mine, :size], target[mine, :size], self.group[rows[mine]]
                )
                solved[mine, :size] = found
        theta = np.zeros((n_problems, n))
        theta[problem, sample] = solved[problem, place]
        return theta

    def _solved(self, index: np.ndarray, target: np.ndarray, sets: np.ndarray) -> np.ndarray:
        """(P, size): the solutions of the padded systems of the samples ``index`` (P, size;
        N: a padding place) of data sets ``sets`` with right-hand sides ``target``."""
        side = self.x.shape[1] + 1
        size = index.shape[1]
        flat = (sets * (side * side))[:, None] + index * side  # each place's row
        system = self._padded.take(flat[:, :, None] + index[:, None, :])
        diagonal = np.arange(size)
        system[:, diagonal, diagonal] += np.where(index < side - 1, 1.0 / (2.0 * self.c), 1.0)
        return np.asarray(np.linalg.solve(system, target[:, :, None])[:, :, 0])

    def outputs(self, theta: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if not self.blocked:
            return np.asarray((self.gram[self.group[rows]] @ theta[:, :, None])[:, :, 0])
        # each problem's product with its own data set's Gram matrix, as above (the same
        # matrix-vector products), without a copy of the matrix per problem: the data sets
        # of the problems still solved, each product broadcast over its folds
        per_set = len(self.y) // len(self.x)
        sets, place = np.unique(rows // per_set, return_inverse=True)
        fold = rows % per_set
        blocks = np.zeros((len(sets), per_set, theta.shape[1]))
        blocks[place, fold] = theta
        gram = self.gram if len(sets) == len(self.x) else self.gram[sets]
        products = gram[:, None] @ blocks[:, :, :, None]  # (S, k, N, 1)
        return np.asarray(products[place, fold, :, 0])

    def inner(self, theta: np.ndarray, direction: np.ndarray, change: np.ndarray) -> np.ndarray:
        return np.asarray(np.einsum("pn,pn->p", theta, change))  # θᵀ K d = θ · (K d)

    def weights(self, theta: np.ndarray) -> np.ndarray:
        if self.blocked:
            per_set = len(theta) // len(self.x)
            blocks = theta.reshape(len(self.x), per_set, -1)  # (G, k, N)
            return np.asarray((blocks @ self.x).reshape(len(theta), -1))
        return np.asarray((self.x[self.group].transpose(0, 2, 1) @ theta[:, :, None])[:, :, 0])


def newton(
    problem: Problem,
    y: np.ndarray,
    train: np.ndarray,
    c: float,
    start: tuple[np.ndarray, np.ndarray] | None,
) -> tuple[np.ndarray, int]:
    """Newton steps from the start — None (θ = 0) or a similar problem's (active sets,
    parameters), see ``linear_svm.fit_many`` — until each problem's active set settles (see
    the module); a problem that has settled leaves the batch — at the start already if it
    started at the Newton point of active sets it keeps (the optimum: the point minimises the
    objective of that active set)."""
    live = np.arange(len(y))
    begun = None  # the active sets the problems started from, if they did
    if start is None:
        theta = np.array(problem.start, dtype=float)
    elif problem.FROM_ACTIVE:
        begun = train & start[0]
        theta = problem.newton_point(begun, live)
    else:
        theta = np.array(start[1], dtype=float)
    outputs = problem.outputs(theta, live)
    active = train & (y * outputs < 1.0)
    if begun is not None:
        live = live[~np.all(active == begun, axis=1)]
        if len(live) == 0:
            return theta, 0
    for step in range(1, MAX_NEWTON_STEPS + 1):
        th, act, ys, tr = theta[live], active[live], y[live], train[live]
        direction = problem.newton_point(act, live) - th
        change = problem.outputs(direction, live)
        length = exact_step(
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
        small = np.abs(direction).max(axis=1) <= STEP_TOLERANCE * (1.0 + np.abs(th).max(axis=1))
        settled = ((length >= 1.0 - 1e-12) & np.all(now_active == act, axis=1)) | small
        theta[live], outputs[live], active[live] = th, out, now_active
        live = live[~settled]
        if len(live) == 0:
            return theta, step
    return theta, MAX_NEWTON_STEPS


def exact_step(
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
