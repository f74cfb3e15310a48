"""The empirical lower and upper bound (ELUB) on likelihood ratios.

Vergeer, van Es, de Jongh, Alberink and Stoel (2016, "Numerical likelihood ratios outputted by
LR systems are often based on extrapolation: When to stop extrapolating?", *Science & Justice*
56(6):482–491) bound a system's likelihood ratios by how far its validation trials show it to
be useful. The reasoning, in the terms used here:

- A threshold θ = 10^t stands for a decision maker who, at prior odds 1/θ, decides for Hp when
  LR > θ. Measured on validation trials, the system's normalised Bayes error at θ is

      E(θ) = P(LR ≤ θ | Hp) + θ · P(LR > θ | Hd)

  and that of a neutral system, which always says LR = 1, is min(1, θ).
- Before measuring, **one misleading trial of each class is added** — a same-source trial whose
  LR is below every threshold and a different-source trial whose LR is above every threshold —
  because the next trial could be one: with n_s and n_d trials,
  P(LR ≤ θ | Hp) = (misses + 1) / (n_s + 1) and P(LR > θ | Hd) = (false alarms + 1) / (n_d + 1).
- The **upper bound** is the largest t ≥ 0 such that, at every threshold from 1 to 10^t, the
  system does no worse than the neutral one (E(θ) ≤ 1); the **lower bound** is the smallest
  t ≤ 0 such that, at every threshold from 10^t to 1, E(θ) ≤ θ. An LR beyond a bound claims more
  than the trials have shown the system can deliver, so it is clipped to the bound.

Computed exactly, not on a grid: between two consecutive log10 LR values of the trials the
counts are constant and E(θ) grows linearly in θ, so each stretch either stays within the
neutral line, crosses it at a point solved for directly, or starts above it. At a tie, a trial
whose LR equals the threshold counts as not supporting the side being bounded (a same-source LR
equal to θ is a miss for the upper bound; a different-source LR equal to θ an error for the
lower bound, by the mirror argument: the lower bound is the upper bound of the trials with
classes swapped and log10 LR negated).

Consequences (``tests/core/calibration/test_elub.py`` checks them):

- lower ≤ 0 ≤ upper always; both are 0 for a system no better than neutral at θ = 1.
- upper ≤ log10(n_d + 1) + log10(n_s / (n_s + 1)) and lower ≥ −log10(n_s + 1) −
  log10(n_d / (n_d + 1)): with balanced classes (n_s = n_d = n) never wider than ±log10 n, the
  count rule this program used before; with unbalanced classes one side can exceed that rule
  by at most log10((n + 1) / n) of the smaller class (e.g. n_s = 30, n_d = 20, perfectly
  separated: upper = log10 20.32, not log10 20).
- upper ≤ max(0, the largest same-source log10 LR) and lower ≥ min(0, the smallest
  different-source one): no bound lies beyond what the trials themselves showed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

ELUB_REFERENCE = (
    "Vergeer, van Es, de Jongh, Alberink and Stoel (2016), Science & Justice 56(6):482-491"
)


@dataclass(frozen=True)
class Elub:
    """The bounds (log10 LR) and the trial counts they were computed from."""

    lower: float
    upper: float
    n_same: int
    n_different: int


def _upper(same: np.ndarray, different: np.ndarray) -> float:
    """The upper bound (log10) of trials with these same- and different-source log10 LRs."""
    n_same, n_different = len(same), len(different)
    same, different = np.sort(same), np.sort(different)
    values = np.unique(np.concatenate([same, different]))
    starts = np.concatenate(([0.0], values[values > 0.0]))
    ends = np.append(starts[1:], np.inf)
    misses = np.searchsorted(same, starts, side="right")  # same-source log10 LR ≤ t
    false_alarms = n_different - np.searchsorted(different, starts, side="right")  # > t
    a = (misses + 1.0) / (n_same + 1.0)
    b = (false_alarms + 1.0) / (n_different + 1.0)
    # within a stretch, E(10^t) = a + 10^t · b ≤ 1 exactly while t ≤ log10((1 − a) / b)
    with np.errstate(divide="ignore"):
        limit = np.where(a < 1.0, np.log10(np.maximum(1.0 - a, 0.0) / b), -np.inf)
    first = int(np.argmax(limit < ends))  # the last stretch always ends the search (end = ∞)
    return float(max(starts[first], limit[first]))


def elub(log10_lr: ArrayLike, truth: ArrayLike) -> Elub:
    """The empirical lower and upper bound of trials with these log10 LRs and this truth
    (True: same source). Needs at least one trial of each class; NaN is refused."""
    log10_lr = np.asarray(log10_lr, dtype=float)
    truth = np.asarray(truth, dtype=bool)
    if log10_lr.shape != truth.shape or log10_lr.ndim != 1:
        raise ValueError("log10 LRs and truth must be two arrays of the same length")
    if np.isnan(log10_lr).any():
        raise ValueError("the ELUB needs a log10 LR for every trial (NaN given)")
    same, different = log10_lr[truth], log10_lr[~truth]
    if len(same) == 0 or len(different) == 0:
        raise ValueError("the ELUB needs trials of both classes")
    upper = _upper(same, different)
    lower = -_upper(-different, -same)
    return Elub(lower + 0.0, upper + 0.0, len(same), len(different))
