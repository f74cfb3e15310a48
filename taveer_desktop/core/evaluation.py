"""Evaluation of a model on a corpus with truth: the paper's measures and PAN's.

- accuracy and the confusion matrix (TP, FN, FP, TN) with the paper's rule: Y iff score > 0.5;
- AUC (ROC area, ties counted half);
- PAN's c@1 and F0.5u, where a score of exactly 0.5 (and every "insufficient" case, scored 0.5)
  is an unanswered case;
- PAN's ``brier``: the complement of the Brier score, 1 − mean((score − truth)²), so that higher
  is better like every other measure here.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from taveer_desktop.core.corpus import Corpus
from taveer_desktop.core.ensemble import ensemble_similarities
from taveer_desktop.core.errors import CancelToken
from taveer_desktop.core.features import CATEGORY_IDS
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import Model
from taveer_desktop.core.scoring import similarity_array
from taveer_desktop.core.training import Progress, corpus_distances


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

    def to_dict(self) -> dict:
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


@dataclass(frozen=True)
class Evaluation:
    """Metrics plus the per-case scores and per-category similarities behind them."""

    metrics: Metrics
    case_ids: list[str]
    scores: np.ndarray
    truth: np.ndarray
    category_similarities: np.ndarray  # cases × 11, NaN where a category abstains
    seconds: float


def model_scores(model: Model, distances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-category similarities (cases × 11) and the ensemble score of every case."""
    thetas = np.array([model.thresholds[c] for c in CATEGORY_IDS])
    similarities = similarity_array(distances, thetas)
    members = np.array([[CATEGORY_IDS.index(c) for c in model.ensemble]])
    return similarities, ensemble_similarities(similarities, members)[:, 0]


def evaluate(
    model: Model,
    corpus: Corpus,
    lexicon: Lexicon | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Evaluation:
    """Verify every case of a corpus with ``model`` and score the answers against the truth."""
    started = time.perf_counter()
    corpus.require_truth()
    data = corpus_distances(corpus, lexicon or default_lexicon(), workers, progress, cancel)
    similarities, scores = model_scores(model, data.distances)
    assert data.truth is not None
    return Evaluation(
        metrics=compute_metrics(scores, data.truth),
        case_ids=data.case_ids,
        scores=scores,
        truth=data.truth,
        category_similarities=similarities,
        seconds=time.perf_counter() - started,
    )
