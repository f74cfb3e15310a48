"""Each method's figures in an evaluation (``taveer evaluate``) of a model of another method.

A model states TAVeer's ratio, LambdaG's, one comparison system's, or the fusion of any two or
more of them (``core/methods/fusion/fusion_model.fusion_of``). Every method it states or fuses
other than TAVeer scores every case of the corpus (``MethodScorer``: one picklable object giving
one raw score per method, run in the same worker processes as TAVeer's features,
``core/training.corpus_distances``); a method that cannot compare a case gives NaN.

``other_methods`` then measures each of them alone with the measures of the headline
(``MethodFigures``): its raw score through its own part's calibration (LambdaG's
``LambdaGPart``, a comparison system's ``ComparisonPart``, stated or fused), bounded by its ELUB;
a case it could not compare is unanswered (score 0.5, log10 LR 0). For a fused model also the
fusion's: ``Fusion.log10_lr`` of the components' calibrated, bounded log10 LRs in
``fusion.methods`` order (TAVeer's is the model's own calibration), bounded like every ratio; a
case any fused method could not compare, or on which every category of TAVeer's ensemble
abstains where TAVeer is fused, has no fused ratio in a verification, so here its fused score
is 0.5 (unanswered) and its fused LR 1. The PAN measures score LR / (1 + LR)
(``evaluation.posterior_scores``); Cllr_min is computed from the raw score (for the fusion,
the unbounded fused ratio).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.core.methods.fusion.fusion_model import fusion_of
from taveer_desktop.core.methods.method_registry import method_seam
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.validation.corpus_gate import evaluative_cllr
from taveer_desktop.core.validation.evaluation_measures import (
    Metrics,
    compute_metrics,
    posterior_scores,
    weight_of_evidence_metrics,
)

if TYPE_CHECKING:  # LambdaG's and the comparison systems' modules load only when needed
    from taveer_desktop.core.calibration.calibration import Calibration
    from taveer_desktop.core.methods.fusion.fusion import Fusion


@dataclass(frozen=True)
class MethodFigures:
    """One method's log10 LR of every case and its measures (``evaluate --json``'s
    ``methods``): the same measures as the headline, and its Cllr over the evaluative cases."""

    method: str
    metrics: Metrics
    log10_lr: np.ndarray
    cllr_evaluative: float | None

    def to_dict(self) -> dict[str, Any]:
        return {**self.metrics.to_dict(), "cllr_evaluative": self.cllr_evaluative}


@dataclass(frozen=True)
class ScoredPart:
    """What the figures need of one scored method's part: its calibration and the range of
    raw scores its validation trials gave."""

    calibration: Calibration
    raw_range: tuple[float, float] | None


class MethodScorer:
    """Every scored method's raw score of one case (``core/training.CaseScorer``), in the
    order of ``methods``, NaN where a method cannot compare the case. Picklable: each method's
    scorer decodes its reference population or impostors itself in a worker process."""

    def __init__(
        self,
        scorers: dict[str, Callable[[Sequence[str], str], float]],
        parts: dict[str, ScoredPart],
    ):
        self.scorers = scorers
        self.parts = parts

    @property
    def methods(self) -> tuple[str, ...]:
        return tuple(self.scorers)

    def __call__(self, known_texts: tuple[str, ...], unknown_text: str) -> list[float]:
        return [float(score(known_texts, unknown_text)) for score in self.scorers.values()]

    def raw_ranges(self) -> dict[str, tuple[float, float] | None]:
        return {m: part.raw_range for m, part in self.parts.items()}


def scored_methods(model: Model, source: str) -> tuple[str, ...]:
    """The methods other than TAVeer that a model states or fuses, in its fusion's order
    (those whose seam scores cases: TAVeer's score is the model's own)."""
    components = method_seam(method_of(model)).components(model, source)
    return tuple(m for m in components if method_seam(m).scores_cases)


def method_scorer(model: Model, lexicon: Lexicon, source: str = "the model") -> MethodScorer | None:
    """The scorer of every method ``scored_methods`` names (None for a TAVeer model)."""
    scorers: dict[str, Callable[[Sequence[str], str], float]] = {}
    parts: dict[str, ScoredPart] = {}
    for method in scored_methods(model, source):
        found = method_seam(method).case_scorer(model, lexicon, source)
        scorers[method] = found.score
        parts[method] = ScoredPart(found.calibration, found.raw_range)
    return MethodScorer(scorers, parts) if scorers else None


def method_figures(
    method: str,
    log10_lr: np.ndarray,
    raw: np.ndarray,
    truth: np.ndarray,
    evaluative: np.ndarray,
    unanswered: np.ndarray | None = None,
) -> MethodFigures:
    """The measures of one method's log10 LRs (``raw``: the score before calibration, for
    Cllr_min); ``unanswered`` cases score 0.5."""
    scores = posterior_scores(log10_lr)
    if unanswered is not None:
        scores = np.where(unanswered, 0.5, scores)
    metrics = weight_of_evidence_metrics(compute_metrics(scores, truth), raw, log10_lr, truth)
    return MethodFigures(method, metrics, log10_lr, evaluative_cllr(log10_lr, truth, evaluative))


def scored_figures(
    method: str,
    part: ScoredPart,
    raw: np.ndarray,
    truth: np.ndarray,
    evaluative: np.ndarray,
    lengths: tuple[np.ndarray, np.ndarray],
) -> MethodFigures:
    """One scored method's figures: its calibrated, bounded ratio of every case (``lengths``:
    questioned and known characters, for length-aware calibrations); a case it cannot compare
    (raw NaN) is unanswered (score 0.5, log10 LR 0)."""
    refused = ~np.isfinite(raw)
    filled = np.where(refused, 0.0, raw)
    log10_lr = np.where(refused, 0.0, part.calibration.log10_lr(filled, *lengths))
    return method_figures(method, log10_lr, filled, truth, evaluative, unanswered=refused)


def fusion_figures(
    method: str,
    fusion: Fusion,
    figures: dict[str, MethodFigures],
    unanswered: np.ndarray,
    truth: np.ndarray,
    evaluative: np.ndarray,
    questioned_chars: np.ndarray,
) -> MethodFigures:
    """The figures of the fusion ``method`` from its components' (``figures``, TAVeer's among
    them where it is fused): their log10 LRs in ``fusion.methods`` order, fused and bounded;
    ``unanswered`` cases (see the module) score 0.5 with a fused log10 LR of 0."""
    columns = np.column_stack([figures[m].log10_lr for m in fusion.methods])
    fused = np.where(unanswered, 0.0, fusion.log10_lr(columns, questioned_chars))
    unbounded = fusion.unbounded().log10_lr(columns)
    return method_figures(method, fused, unbounded, truth, evaluative, unanswered=unanswered)


def other_methods(
    model: Model,
    scorer: MethodScorer,
    raw: dict[str, np.ndarray],
    taveer: MethodFigures,
    taveer_abstains: np.ndarray,
    truth: np.ndarray,
    evaluative: np.ndarray,
    lengths: tuple[np.ndarray, np.ndarray],
) -> dict[str, MethodFigures]:
    """Each scored method's figures (``raw``: its raw score of every case) and, for a fused
    model, the fusion's (see the module); ``taveer``: TAVeer's figures, ``taveer_abstains``:
    the cases on which every category of its ensemble abstains."""
    out = {
        m: scored_figures(m, part, raw[m], truth, evaluative, lengths)
        for m, part in scorer.parts.items()
    }
    stated = method_of(model)
    if method_info(stated).capabilities.fuses:
        fusion = fusion_of(model, "the model")
        unanswered = np.zeros(len(truth), dtype=bool)
        for m in fusion.methods:  # a fused method without a raw score of its own is TAVeer
            unanswered |= ~np.isfinite(raw[m]) if m in raw else taveer_abstains
        figures = {taveer.method: taveer, **out}
        out[stated] = fusion_figures(
            stated, fusion, figures, unanswered, truth, evaluative, lengths[0]
        )
    return out
