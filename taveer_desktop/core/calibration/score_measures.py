"""Measures of a score that every room uses: the ROC area of scores against the truth (with the
curve itself) and the posterior score of a log10 likelihood ratio, LR / (1 + LR).

``core/validation/evaluation_measures.py`` measures evaluations and validations with them; the
methods' own learning (``core/methods/systems``) and runs (``core/methods/method_run.py``) use
them too, so they sit in the calibration room below the methods.
"""

from __future__ import annotations

import numpy as np

from taveer_desktop.core.calibration.calibration import LN10


def roc_auc(scores: np.ndarray, truth: np.ndarray) -> float:
    """Area under the ROC curve (Mann–Whitney U with average ranks for ties)."""
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    n_pos, n_neg = int(truth.sum()), int((~truth).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    sorted_scores = scores[order]
    ranks = np.empty(len(scores))
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    rank_sum = ranks[truth].sum()
    return float((rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def roc_curve(scores: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """False- and true-positive rates at every distinct score threshold, from (0,0) to (1,1).

    Tied scores move both rates at once, so the trapezoidal area (``curve_area``) equals
    ``roc_auc`` (ties counted half).
    """
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    order = np.argsort(-scores, kind="mergesort")
    s, t = scores[order], truth[order]
    n_pos, n_neg = max(int(t.sum()), 1), max(int((~t).sum()), 1)
    last_of_tie = np.r_[np.diff(s) != 0, True]
    tps, fps = np.cumsum(t)[last_of_tie], np.cumsum(~t)[last_of_tie]
    return np.r_[0.0, fps / n_neg], np.r_[0.0, tps / n_pos]


def curve_area(x: np.ndarray, y: np.ndarray) -> float:
    """The area under a curve through the points (x, y), by the trapezoidal rule."""
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


def posterior_scores(log10_lr: np.ndarray) -> np.ndarray:
    """LR / (1 + LR): the score whose > 0.5 is the decision 'same author' (as in validation)."""
    return 0.5 * (1.0 + np.tanh(0.5 * LN10 * np.asarray(log10_lr, dtype=float)))
