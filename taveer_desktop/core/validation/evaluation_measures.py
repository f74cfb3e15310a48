"""The measures of an evaluation: the paper's and PAN's, and the weight-of-evidence measures.

``Metrics`` holds them; ``compute_metrics`` gives the paper's and PAN's from scores in [0, 1]
(accuracy and the confusion matrix with Y iff score > 0.5, AUC, c@1, F0.5u, the complement of
the Brier score), ``weight_of_evidence_metrics`` adds Cllr, Cllr_min, the rates of misleading
evidence and the ECE (``posterior_scores``, LR / (1 + LR), and the ROC area are
``core/calibration/score_measures.py``'s). Every method's figures are measured with them
(``core/validation/evaluation.py`` and ``evaluation_methods.py``, which both read this module).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    cllr,
    cllr_min,
    misleading_rates,
    reliability_bins,
)
from taveer_desktop.core.calibration.score_measures import curve_area as curve_area
from taveer_desktop.core.calibration.score_measures import posterior_scores as posterior_scores
from taveer_desktop.core.calibration.score_measures import roc_auc as roc_auc
from taveer_desktop.core.calibration.score_measures import roc_curve as roc_curve


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
