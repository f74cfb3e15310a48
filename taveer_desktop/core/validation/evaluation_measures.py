"""The measures of an evaluation: the paper's and PAN's, and the weight-of-evidence measures.

``Metrics`` holds them; ``compute_metrics`` gives the paper's and PAN's from scores in [0, 1]
(accuracy and the confusion matrix with Y iff score > 0.5, AUC, c@1, F0.5u, the complement of
the Brier score), ``weight_of_evidence_metrics`` adds Cllr, Cllr_min, the rates of misleading
evidence and the ECE, ``posterior_scores`` turns log10 LRs into LR / (1 + LR). Every method's
figures are measured with them (``core/validation/evaluation.py`` and
``evaluation_methods.py``, which both read this module).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    LN10,
    cllr,
    cllr_min,
    misleading_rates,
    reliability_bins,
)


@dataclass(frozen=True)
class Metrics:
    n: int
    accuracy: float
    auc: float
    tp: int
    fn: int
    fp: int
    tn: int
    c_at_1: float
    f05u: float
    brier: float
    unanswered: int
    cllr: float | None = None
    cllr_min: float | None = None
    misleading_y: float | None = None
    misleading_n: float | None = None
    ece: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def compute_metrics(scores: np.ndarray, truth: np.ndarray) -> Metrics:
    """All measures from scores in [0, 1] (0.5 = unanswered) and the Y/N truth."""
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    n = len(scores)
    predicted_y = scores > 0.5
    tp = int(np.sum(predicted_y & truth))
    fn = int(np.sum(~predicted_y & truth))
    fp = int(np.sum(predicted_y & ~truth))
    tn = int(np.sum(~predicted_y & ~truth))
    answered = scores != 0.5
    n_unanswered = int(np.sum(~answered))
    n_correct = int(np.sum(answered & (predicted_y == truth)))
    c_at_1 = (n_correct + n_unanswered * n_correct / n) / n if n else 0.0
    tp_answered = int(np.sum(answered & predicted_y & truth))
    fn_answered = int(np.sum(answered & ~predicted_y & truth))
    fp_answered = int(np.sum(answered & predicted_y & ~truth))
    denominator = 1.25 * tp_answered + 0.25 * (fn_answered + n_unanswered) + fp_answered
    f05u = 1.25 * tp_answered / denominator if denominator else 0.0
    brier = 1.0 - float(np.mean((scores - truth.astype(float)) ** 2)) if n else 0.0
    return Metrics(
        n=n,
        accuracy=(tp + tn) / n if n else 0.0,
        auc=roc_auc(scores, truth),
        tp=tp,
        fn=fn,
        fp=fp,
        tn=tn,
        c_at_1=c_at_1,
        f05u=f05u,
        brier=brier,
        unanswered=n_unanswered,
    )


def weight_of_evidence_metrics(
    metrics: Metrics, raw_scores: np.ndarray, log10_lr: np.ndarray | None, truth: np.ndarray
) -> Metrics:
    """``metrics`` with Cllr, Cllr_min, the rates of misleading evidence and ECE (None without
    calibration, Cllr_min None too unless both kinds of case are present)."""
    both = bool(truth.any() and (~truth).any())
    discrimination = cllr_min(raw_scores, truth) if both else None
    if log10_lr is None or not both:
        return replace(
            metrics,
            cllr=None,
            cllr_min=discrimination,
            misleading_y=None,
            misleading_n=None,
            ece=None,
        )
    misleading_y, misleading_n = misleading_rates(log10_lr, truth)
    return replace(
        metrics,
        cllr=cllr(log10_lr, truth),
        cllr_min=discrimination,
        misleading_y=misleading_y,
        misleading_n=misleading_n,
        ece=reliability_bins(log10_lr, truth)[1],
    )


def posterior_scores(log10_lr: np.ndarray) -> np.ndarray:
    """LR / (1 + LR): the score whose > 0.5 is the decision 'same author' (as in validation)."""
    return 0.5 * (1.0 + np.tanh(0.5 * LN10 * np.asarray(log10_lr, dtype=float)))
