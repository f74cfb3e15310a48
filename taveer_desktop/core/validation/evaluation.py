"""Evaluation of a model on a corpus with truth: the paper's measures and PAN's.

- accuracy and the confusion matrix (TP, FN, FP, TN) with the paper's rule: Y iff score > 0.5;
- AUC (ROC area, ties counted half) and the ROC curve itself (``roc_curve``), whose trapezoidal
  area (``curve_area``) is that AUC;
- PAN's c@1 and F0.5u, where a score of exactly 0.5 (and every "insufficient" case, scored 0.5)
  is an unanswered case;
- PAN's ``brier``: the complement of the Brier score, 1 − mean((score − truth)²), so that higher
  is better like every other measure here;
- for calibrated models, the weight-of-evidence measures: Cllr, Cllr_min, the rates of
  misleading evidence in both directions and the expected calibration error.

A model's inconclusive band (if it has one) turns the scores inside it into 0.5 (unanswered);
likelihood ratios are computed from the raw ensemble similarity.

Every case also goes through the fitness-for-purpose gate (``core/gate/gate.py``) as a verification
would, with the validation record given (``basis``; ``core/validation/corpus_gate.py``):
``GateSummary`` counts the cases outside the model's validated conditions, the cases that get no
conclusion, and the Cllr over the cases that keep an evaluative conclusion; ``Evaluation.cases``
lists each case's kind and broken rules.

**Models of another method** (LambdaG, one of the ten comparison systems, or the fusion of any
of them; ``core/verification/method_verify.py``): every case is also scored by each method the
model states or fuses other than TAVeer, in the same worker processes as TAVeer's features, and each
method's log10 LR is measured alone beside TAVeer's — and, for a fused model, the fusion's —
with the same measures (``MethodFigures``, ``core/validation/evaluation_methods.py``, which says
how a case a method cannot compare is counted). The headline measures are the stated method's; for
any method but TAVeer the score of the PAN measures is LR / (1 + LR) (> 0.5: same author; the
inconclusive band is TAVeer's and is not applied to them). The gate holds each scored method's
raw score to the range its validation gave, as ``verify`` does
(``core/validation/corpus_gate.py``); its verdict on a case is the same whichever ratio the model
states, so each method's Cllr over the evaluative cases uses the same cases.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    LN10,
    cllr,
    cllr_min,
    misleading_rates,
    reliability_bins,
)
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.validation_basis import BasisReference, ValidationBasis
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.intake.corpus import Corpus
from taveer_desktop.core.methods.taveer.ensemble import ensemble_similarities
from taveer_desktop.core.methods.taveer.model import Model, method_of
from taveer_desktop.core.methods.taveer.scoring import similarity_array
from taveer_desktop.core.methods.taveer.training import CorpusDistances, corpus_distances
from taveer_desktop.core.validation.corpus_gate import GateSummary, case_lines, gate_corpus

if TYPE_CHECKING:  # the other methods' modules load only when a model of one is evaluated
    from taveer_desktop.core.validation.evaluation_methods import MethodFigures, MethodScorer


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


@dataclass(frozen=True)
class Evaluation:
    """Metrics plus the per-case scores and per-category similarities behind them; for a
    model of another method also every method's figures side by side (see the module)."""

    metrics: Metrics
    case_ids: list[str]
    scores: np.ndarray  # ensemble similarity, 0.5 inside the inconclusive band
    truth: np.ndarray
    category_similarities: np.ndarray  # cases × 11, NaN where a category abstains
    seconds: float
    log10_lr: np.ndarray | None = None  # None for an uncalibrated model
    gate: GateSummary | None = None
    kinds: tuple[ConclusionKind, ...] = ()  # the conclusion kind of every case
    case_rules: tuple[tuple[str, ...], ...] = ()  # the gate rules every case broke
    validation: BasisReference | None = None  # the validation record the gate was given
    method: str = "taveer"  # whose ratio the headline measures are of (``method_of``)
    methods: dict[str, MethodFigures] = field(default_factory=dict)
    raw: dict[str, np.ndarray] = field(default_factory=dict)  # other methods' raw scores

    @property
    def lambdag_raw(self) -> np.ndarray | None:
        """λG of every case (a model stating or fusing LambdaG)."""
        return self.raw.get(MethodId.LAMBDAG.value)

    def report_dict(self) -> dict[str, Any]:
        """The metrics and the gate's counts in one flat dictionary (``evaluate --json``)."""
        data = self.metrics.to_dict()
        if self.gate is not None:
            data.update(
                outside_conditions=self.gate.outside_conditions,
                no_conclusion=self.gate.no_conclusion,
                evaluative=self.gate.evaluative,
                investigative=self.gate.investigative,
                cllr_evaluative=self.gate.cllr_evaluative,
                gate_rules=self.gate.rules,
            )
        data["method"] = self.method
        data["methods"] = {m: f.to_dict() for m, f in self.methods.items()}
        data["validation"] = None if self.validation is None else self.validation.to_dict()
        return data

    def cases(self) -> list[dict[str, Any]]:
        """Every case with its truth, kind, stated log10 LR and broken rules (``--cases``)."""
        return case_lines(self.case_ids, self.truth, self.kinds, self.case_rules, self.log10_lr)


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
    progress: Progress = NO_PROGRESS,
    basis: ValidationBasis | None = None,
) -> Evaluation:
    """Verify every case of a corpus with ``model`` and score the answers against the truth;
    ``basis`` is the validation record every case's conclusion rests on (None: none, so no
    case is evaluative)."""
    started = time.perf_counter()
    corpus.require_truth()
    lexicon = lexicon or default_lexicon()
    method = method_of(model)
    scorer = None
    if method != MethodId.TAVEER:
        from taveer_desktop.core.validation.evaluation_methods import method_scorer

        scorer = method_scorer(model, lexicon)
    data = corpus_distances(corpus, lexicon, workers, progress, measure=True, scorer=scorer)
    similarities, raw_scores = model_scores(model, data.distances)
    truth = data.truth
    assert truth is not None
    scores = model.inconclusive_band.apply(raw_scores) if model.inconclusive_band else raw_scores
    log10_lr = (
        model.calibration.log10_lr(raw_scores, data.questioned_chars, data.known_chars)
        if model.calibration
        else None
    )
    metrics = weight_of_evidence_metrics(
        compute_metrics(scores, truth), raw_scores, log10_lr, truth
    )
    ranges = None if scorer is None else scorer.raw_ranges()
    verdict = gate_corpus(model, data, log10_lr, truth, lexicon.sha256, ranges, basis)
    kinds, gate = verdict.kinds, verdict.summary
    evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in kinds], dtype=bool)
    taveer = (metrics, log10_lr, gate.cllr_evaluative)
    methods = _methods(model, scorer, data, taveer, similarities, evaluative)
    if method != MethodId.TAVEER:
        stated = methods[method]
        metrics = stated.metrics
        scores = posterior_scores(stated.log10_lr)
        log10_lr = stated.log10_lr
        gate = replace(gate, cllr_evaluative=stated.cllr_evaluative)
    return Evaluation(
        metrics=metrics,
        case_ids=data.case_ids,
        scores=scores,
        truth=truth,
        category_similarities=similarities,
        seconds=time.perf_counter() - started,
        log10_lr=log10_lr,
        gate=gate,
        kinds=kinds,
        case_rules=verdict.rules,
        validation=None if basis is None else basis.reference(),
        method=method,
        methods=methods,
        raw=data.raw_scores(),
    )


def posterior_scores(log10_lr: np.ndarray) -> np.ndarray:
    """LR / (1 + LR): the score whose > 0.5 is the decision 'same author' (as in validation)."""
    return 0.5 * (1.0 + np.tanh(0.5 * LN10 * np.asarray(log10_lr, dtype=float)))


def _methods(
    model: Model,
    scorer: MethodScorer | None,
    data: CorpusDistances,
    taveer_measures: tuple[Metrics, np.ndarray | None, float | None],
    similarities: np.ndarray,
    evaluative: np.ndarray,
) -> dict[str, MethodFigures]:
    """TAVeer's figures (its measures, log10 LRs and Cllr over the evaluative cases) and every
    other method's the model states or fuses (see the module)."""
    from taveer_desktop.core.validation.evaluation_methods import MethodFigures, other_methods

    truth = data.truth
    assert truth is not None
    metrics, log10_lr, cllr_evaluative = taveer_measures
    taveer_lr = log10_lr if log10_lr is not None else np.full(len(truth), np.nan)
    taveer = MethodFigures(MethodId.TAVEER.value, metrics, taveer_lr, cllr_evaluative)
    methods = {MethodId.TAVEER.value: taveer}
    if scorer is not None:
        members = [CATEGORY_IDS.index(c) for c in model.ensemble]
        abstains = np.isnan(similarities[:, members]).all(axis=1)
        lengths = (data.questioned_chars, data.known_chars)
        raw = data.raw_scores()
        methods.update(
            other_methods(model, scorer, raw, taveer, abstains, truth, evaluative, lengths)
        )
    return methods
