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
lists each case's kind and broken rules. Each case also passes the repeat check a verification
passes (``core/verification/repeat_check.py``): where the validation's repeats disagree on the
direction of its ratio, the case is stated as LR 1 (``stated_log10_lr``, the ``cases``' log10
LR, and the Cllr over the evaluative cases use it); the headline measures stay those of the
final model's ratio of every case, what the method gives before any case is withdrawn.

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
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.validation_basis import BasisReference, ValidationBasis
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.intake.corpus import Corpus
from taveer_desktop.core.methods.method_registry import BASE_METHOD
from taveer_desktop.core.methods.taveer.ensemble import ensemble_similarities
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.scoring import similarity_array
from taveer_desktop.core.methods.taveer.training import CorpusDistances, corpus_distances
from taveer_desktop.core.validation.corpus_gate import (
    GateSummary,
    case_lines,
    evaluative_cllr,
    gate_corpus,
)
from taveer_desktop.core.validation.evaluation_measures import Metrics as Metrics
from taveer_desktop.core.validation.evaluation_measures import compute_metrics as compute_metrics
from taveer_desktop.core.validation.evaluation_measures import curve_area as curve_area
from taveer_desktop.core.validation.evaluation_measures import posterior_scores as posterior_scores
from taveer_desktop.core.validation.evaluation_measures import roc_auc as roc_auc
from taveer_desktop.core.validation.evaluation_measures import roc_curve as roc_curve
from taveer_desktop.core.validation.evaluation_measures import (
    weight_of_evidence_metrics as weight_of_evidence_metrics,
)
from taveer_desktop.core.validation.evaluation_methods import (
    MethodFigures,
    MethodScorer,
    method_scorer,
    other_methods,
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
    stated_log10_lr: np.ndarray | None = None  # log10_lr, 0 where the repeats disagree
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
        stated = self.log10_lr if self.stated_log10_lr is None else self.stated_log10_lr
        return case_lines(self.case_ids, self.truth, self.kinds, self.case_rules, stated)


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
    scorer = method_scorer(model, lexicon)  # None: no method but TAVeer's ensemble is scored
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
    checked = None  # the stated method's ratio, which the repeat check holds its repeats to
    if not method_info(method).capabilities.classifies:
        unset = np.zeros(len(truth), dtype=bool)  # its ratios do not depend on the gate's kinds
        first = _methods(model, scorer, data, (metrics, log10_lr, None), similarities, unset)
        checked = first[method].log10_lr
    verdict = gate_corpus(model, data, log10_lr, truth, lexicon.sha256, ranges, basis, checked)
    kinds, gate = verdict.kinds, verdict.summary
    evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in kinds], dtype=bool)
    taveer = (metrics, log10_lr, gate.cllr_evaluative)
    methods = _methods(model, scorer, data, taveer, similarities, evaluative)
    if not method_info(method).capabilities.classifies:  # measured by its ratio's posterior
        stated = methods[method]
        metrics = stated.metrics
        scores = posterior_scores(stated.log10_lr)
        log10_lr = stated.log10_lr
        cllr_stated = evaluative_cllr(verdict.stated(log10_lr), truth, evaluative)
        gate = replace(gate, cllr_evaluative=cllr_stated)
    return Evaluation(
        metrics=metrics,
        case_ids=data.case_ids,
        scores=scores,
        truth=truth,
        category_similarities=similarities,
        seconds=time.perf_counter() - started,
        log10_lr=log10_lr,
        stated_log10_lr=None if log10_lr is None else verdict.stated(log10_lr),
        gate=gate,
        kinds=kinds,
        case_rules=verdict.rules,
        validation=None if basis is None else basis.reference(),
        method=method,
        methods=methods,
        raw=data.raw_scores(),
    )


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
    truth = data.truth
    assert truth is not None
    metrics, log10_lr, cllr_evaluative = taveer_measures
    taveer_lr = log10_lr if log10_lr is not None else np.full(len(truth), np.nan)
    taveer = MethodFigures(BASE_METHOD, metrics, taveer_lr, cllr_evaluative)
    methods = {BASE_METHOD: taveer}
    if scorer is not None:
        members = [CATEGORY_IDS.index(c) for c in model.ensemble]
        abstains = np.isnan(similarities[:, members]).all(axis=1)
        lengths = (data.questioned_chars, data.known_chars)
        raw = data.raw_scores()
        methods.update(
            other_methods(model, scorer, raw, taveer, abstains, truth, evaluative, lengths)
        )
    return methods
