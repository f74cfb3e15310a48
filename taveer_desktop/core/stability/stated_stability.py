"""The stability check of a run: of TAVeer's classification and of the stated ratio.

``core/methods/taveer/stability.py`` resamples the sentences for TAVeer (its classification, and so
the ratio of a TAVeer model, which is a function of the same score). Any other model states
another method's ratio, and here that ratio is recomputed in every resample, with the same
sentences left out, so the stability quoted is the stated ratio's:

- ``component_log10_lrs``: each method the stated ratio is made of, its calibrated log10 ratio
  in every resample (``{method_id: array}``, NaN where it gives none) — TAVeer's from its
  resampled score, LambdaG's from λG resampled (``core/methods/lambdag/lambdag_stability.py``), a
  comparison system's from the resample's texts scored by the model's comparison part
  (``core/methods/systems/comparison_stability.py``; a method that draws at random draws each
  resample with its own seed, derived from the check's);
- ``stated_ratios``: the stated ratio in every resample — the stated method's column, or for
  a fused model ``Fusion.log10_lr`` of the columns in ``fusion.methods`` order (any fusion
  gets its stability from the same function).

Its figures (``RatioStability``): how many resamples give a ratio on the same side of 1 as the
run's (above, below, or exactly 1), the 95 % percentile interval of the resampled log10 ratios,
how many resamples gave no ratio, and which methods drew at random afresh in each resample.
Each ratio is computed at the lengths its run used and with the model's bounds, but without the
gate (the gate's reasons do not change when a tenth of the sentences is left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import COMPARISON_IDS, method_info
from taveer_desktop.core.methods.method_registry import SEAMS, method_seam
from taveer_desktop.core.methods.method_seam import Case
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.stability import (
    DEFAULT_KEEP_FRACTION,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    RatioStability,
    ResampledScores,
    Stability,
    resampled_scores,
    stability_of,
)

Lengths: TypeAlias = tuple[int, int]  # (questioned, known) characters


def _side(log10_lr: float) -> int:
    return 0 if log10_lr == 0 or np.isnan(log10_lr) else (1 if log10_lr > 0 else -1)


def _ratio_stability(
    method: str, stated: float, ratios: np.ndarray, afresh: tuple[str, ...] = ()
) -> RatioStability:
    finite = ratios[np.isfinite(ratios)]
    side = _side(stated)
    agreeing = int(sum(1 for r in ratios if np.isfinite(r) and _side(float(r)) == side))
    low, high = (
        (float(x) for x in np.percentile(finite, [2.5, 97.5])) if len(finite) else (np.nan, np.nan)
    )
    return RatioStability(
        method=method,
        resamples=len(ratios),
        agreeing=agreeing,
        log10_lr_interval=(low, high),
        without_ratio=int(len(ratios) - len(finite)),
        drawn_afresh=afresh,
    )


def stated_components(model: Model, source: str = "the model") -> tuple[str, ...]:
    """The methods a model's stated ratio is made of: the fusion's, in ``fusion.methods``
    order, or the stated method alone (its seam's ``components``)."""
    return method_seam(method_of(model)).components(model, source)


def drawn_afresh(methods: Sequence[str]) -> tuple[str, ...]:
    """Of these methods, those the stability check draws with another seed in each resample:
    the comparison systems that draw at random."""
    return tuple(m for m in methods if m in COMPARISON_IDS and not method_info(m).deterministic)


def component_log10_lrs(
    model: Model,
    resampled: ResampledScores,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str = "the model",
    seed: int = DEFAULT_SEED,
    progress: Progress = NO_PROGRESS,
    methods: Sequence[str] | None = None,
) -> dict[str, np.ndarray]:
    """Each method's calibrated log10 ratio in every resample (NaN: none), for ``methods`` —
    by default those the stated ratio is made of (``stated_components``). ``seed``: the
    check's, from which a comparison system that draws at random seeds each resample."""
    case = Case(known_texts, unknown_text, lexicon, source)
    columns: dict[str, np.ndarray] = {}
    for method in stated_components(model, source) if methods is None else methods:
        if method not in SEAMS:
            raise ValueError(f"{method!r} has no ratio of its own to resample")
        columns[method] = SEAMS[method].resampled_log10_lr(model, resampled, case, seed, progress)
    return columns


def stated_ratios(
    model: Model,
    resampled: ResampledScores,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str,
    progress: Progress = NO_PROGRESS,
    seed: int = DEFAULT_SEED,
) -> np.ndarray:
    """The stated ratio (log10) of a model in every resample (NaN: none): the stated method's
    column of ``component_log10_lrs``, or the fusion of its columns."""
    columns = component_log10_lrs(
        model, resampled, known_texts, unknown_text, lexicon, source, seed, progress
    )
    seam = method_seam(method_of(model))
    return seam.stated_resampled(model, columns, source, len(unknown_text))


def run_stability(
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    original_answer: str,
    stated_log10_lr: float | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    lexicon: Lexicon | None = None,
    keep_fraction: float = DEFAULT_KEEP_FRACTION,
    progress: Progress = NO_PROGRESS,
    source: str = "the model",
) -> Stability:
    """The stability check of a run: TAVeer's classification, and — for a model of any other
    method whose run states a ratio (``stated_log10_lr``) — the stated ratio's, from the same
    resamples (``seed`` also seeds the draws of a comparison system that draws at random)."""
    lexicon = lexicon or default_lexicon()
    resampled = resampled_scores(
        model, known_texts, unknown_text, resamples, seed, lexicon, keep_fraction, progress
    )
    stability = stability_of(model, resampled, original_answer, seed, keep_fraction)
    method = method_of(model)
    # TAVeer's ratio is its classification's score: the classification's stability is its own
    if not method_info(method).capabilities.ratio_resampled or stated_log10_lr is None:
        return stability
    ratios = stated_ratios(
        model, resampled, known_texts, unknown_text, lexicon, source, progress, seed
    )
    afresh = drawn_afresh(stated_components(model, source))
    return stability.with_ratio(_ratio_stability(method, stated_log10_lr, ratios, afresh))


def stated_log10_lr(findings: MethodFindings | None) -> float | None:
    """The stated ratio (log10) of a run whose model states another method's ratio than
    TAVeer's, from its typed findings (``VerificationResult.methods``; None for a TAVeer
    model's run, or where it stated none)."""
    if findings is None or not method_info(findings.stated).capabilities.ratio_resampled:
        return None  # no other method's findings, or a method whose ratio is not resampled
    return findings.by_method.get(findings.stated)
