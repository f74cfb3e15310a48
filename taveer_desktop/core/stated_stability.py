"""The stability check of a run: of TAVeer's classification and of the stated ratio.

``core/stability.py`` resamples the sentences for TAVeer (its classification, and so the
ratio of a TAVeer model, which is a function of the same score). A LambdaG or fused model
states another ratio: here λG is resampled too, with the same sentences left out in each
resample (``core/lambdag_stability.py``), and the stated ratio is recomputed in every
resample — LambdaG's calibrated ratio, or the fusion of both methods' — so the stability
quoted is the stated ratio's. Its figures (``RatioStability``): how many resamples give a
ratio on the same side of 1 as the run's (above, below, or exactly 1), and the 95 %
percentile interval of the resampled log10 ratios. The ratios are computed at the run's text
lengths and with the model's bounds, but without the gate (the gate's reasons do not change
when a tenth of the sentences is left out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from taveer_desktop.core.lambdag_model import FUSED_METHODS, LAMBDAG_METHODS
from taveer_desktop.core.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.model import Model, method_of
from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.stability import (
    DEFAULT_KEEP_FRACTION,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    RatioStability,
    ResampledScores,
    Stability,
    resampled_scores,
    stability_of,
)


def _side(log10_lr: float) -> int:
    return 0 if log10_lr == 0 or np.isnan(log10_lr) else (1 if log10_lr > 0 else -1)


def _ratio_stability(method: str, stated: float, ratios: np.ndarray) -> RatioStability:
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
    )


def stated_ratios(
    model: Model,
    resampled: ResampledScores,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str,
    progress: Progress = NO_PROGRESS,
) -> np.ndarray:
    """The stated ratio (log10) of a LambdaG or fused model in every resample (NaN: none)."""
    from taveer_desktop.core.lambdag_model import LambdaGPart, fusion_of
    from taveer_desktop.core.lambdag_stability import resampled_lambda_g
    from taveer_desktop.core.method_verify import LambdaGScorer

    part = LambdaGPart.of(model, source)
    pool = LambdaGScorer(part, lexicon, source).pool()
    raws = resampled_lambda_g(
        pool,
        part.order,
        part.samples,
        part.seed,
        known_texts,
        unknown_text,
        lexicon,
        resampled.keep_unknown,
        resampled.keep_known,
        progress,
    )
    lengths = (len(unknown_text), sum(len(t) for t in known_texts))
    lambdag = np.asarray(part.calibration.log10_lr(raws, *lengths), dtype=float)
    if method_of(model) != "fusion":
        return lambdag
    taveer = np.full(len(raws), np.nan)
    if model.calibration is not None:
        scores = np.where(resampled.abstains, 0.5, resampled.scores)
        taveer = np.asarray(model.calibration.log10_lr(scores, *lengths), dtype=float)
        taveer[resampled.abstains | np.isnan(resampled.scores)] = np.nan
    fusion = fusion_of(model, source)
    columns = dict(zip(FUSED_METHODS, (taveer, lambdag), strict=True))
    fused = np.asarray(
        fusion.log10_lr(np.column_stack([columns[m] for m in fusion.methods]), len(unknown_text)),
        dtype=float,
    ).reshape(-1)
    return fused


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
    """The stability check of a run: TAVeer's classification, and — for a LambdaG or fused
    model whose run states a ratio (``stated_log10_lr``) — the stated ratio's, from the same
    resamples."""
    lexicon = lexicon or default_lexicon()
    resampled = resampled_scores(
        model, known_texts, unknown_text, resamples, seed, lexicon, keep_fraction, progress
    )
    stability = stability_of(model, resampled, original_answer, seed, keep_fraction)
    method = method_of(model)
    # TAVeer's ratio is its classification's score; a comparison system's is not resampled
    if method not in LAMBDAG_METHODS or stated_log10_lr is None:
        return stability
    ratios = stated_ratios(model, resampled, known_texts, unknown_text, lexicon, source, progress)
    return stability.with_ratio(_ratio_stability(method, stated_log10_lr, ratios))


def stated_log10_lr(result: Mapping[str, Any]) -> float | None:
    """The stated ratio (log10) of a stored result dict of a LambdaG or fused model's run
    (None for a TAVeer model's run, or where the run stated none)."""
    methods = result.get("methods")
    if not isinstance(methods, dict) or methods.get("method", "taveer") == "taveer":
        return None
    value = (methods.get("log10_lr_by_method") or {}).get(methods.get("method"))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
