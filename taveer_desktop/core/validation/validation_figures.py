"""A validation's figures, their intervals, and the figures of each length band.

- ``figures_of``: Cllr, Cllr_min (PAV), Cllr_cal = Cllr − Cllr_min, EER, AUC, accuracy (score >
  0.5), both rates of misleading evidence, ECE — of a set of scored trials.
- ``bootstrap_intervals``: a 95 % **bias-corrected percentile** interval of every figure from
  resamples **over authors** (a trial belongs to its known author; all of an author's trials,
  of every repeat, go together; a resample lacking a class is drawn again). The point figure and
  its resamples are computed by the same function; the bias correction (Efron 1981) moves the
  percentiles by z0 = Φ⁻¹(share of resamples below the estimate, ties counted half), so that a
  figure whose resamples lean to one side of it (Cllr_cal, ECE: their resampled values are
  biased upward) still gets an interval around it. The share is kept within [1/(2B), 1 − 1/(2B)]
  (B resamples); if the estimate still lies outside the interval — it lies outside every
  resample — the interval is widened to the estimate, so every interval contains its figure.
- ``band_summaries``: the trials of each questioned-length band with their own figures,
  intervals and ELUB (``core/calibration/length_bands.py``).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import (
    cllr,
    misleading_rates,
    pav_log10_lr,
    reliability_bins,
)
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.calibration.length_bands import band_indices
from taveer_desktop.core.calibration.score_measures import roc_auc
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress

FIGURES = (
    "cllr",
    "cllr_min",
    "cllr_cal",
    "eer",
    "auc",
    "accuracy",
    "misleading_y",
    "misleading_n",
    "ece",
)
INTERVAL_LEVEL = 0.95
_NORMAL = NormalDist()


def equal_error_rate(values: np.ndarray, truth: np.ndarray) -> float:
    """The error rate where misses (same-author below a threshold) equal false alarms."""
    values, truth = np.asarray(values, dtype=float), np.asarray(truth, dtype=bool)
    thresholds = np.concatenate(([-np.inf], np.unique(values), [np.inf]))
    same, different = np.sort(values[truth]), np.sort(values[~truth])
    miss = np.searchsorted(same, thresholds, side="left") / len(same)
    false_alarm = 1.0 - np.searchsorted(different, thresholds, side="left") / len(different)
    i = int(np.argmin(np.abs(miss - false_alarm)))
    return float((miss[i] + false_alarm[i]) / 2.0)


def figures_of(scores: np.ndarray, log10_lr: np.ndarray, truth: np.ndarray) -> dict[str, float]:
    """Every figure of a set of scored trials."""
    value = cllr(log10_lr, truth)
    minimum = cllr(pav_log10_lr(log10_lr, truth), truth)
    misleading_y, misleading_n = misleading_rates(log10_lr, truth)
    return {
        "cllr": value,
        "cllr_min": minimum,
        "cllr_cal": value - minimum,
        "eer": equal_error_rate(log10_lr, truth),
        "auc": roc_auc(log10_lr, truth),
        "accuracy": float(np.mean((scores > 0.5) == truth)),
        "misleading_y": misleading_y,
        "misleading_n": misleading_n,
        "ece": reliability_bins(log10_lr, truth)[1],
    }


def bc_interval(samples: np.ndarray, estimate: float) -> tuple[float, float]:
    """The bias-corrected percentile interval of ``samples`` around ``estimate`` (see the
    module), widened to contain the estimate."""
    samples = np.asarray(samples, dtype=float)
    samples = samples[np.isfinite(samples)]
    if not len(samples) or not math.isfinite(estimate):
        return (math.nan, math.nan)
    b = len(samples)
    share = (np.sum(samples < estimate) + 0.5 * np.sum(samples == estimate)) / b
    share = min(max(share, 0.5 / b), 1.0 - 0.5 / b)
    z0 = _NORMAL.inv_cdf(share)
    z = _NORMAL.inv_cdf(0.5 + INTERVAL_LEVEL / 2.0)
    low_q, high_q = _NORMAL.cdf(2.0 * z0 - z), _NORMAL.cdf(2.0 * z0 + z)
    low, high = np.quantile(samples, [low_q, high_q])
    return (float(min(low, estimate)), float(max(high, estimate)))


def bootstrap_intervals(
    scores: np.ndarray,
    log10_lr: np.ndarray,
    truth: np.ndarray,
    units: list[str],
    resamples: int,
    seed: int,
    progress: Progress = NO_PROGRESS,
    estimates: dict[str, float] | None = None,
) -> dict[str, tuple[float, float]]:
    """95 % bias-corrected percentile intervals of every figure, resampling ``units``
    (authors) with replacement (at most ``3 × resamples`` draws)."""
    if estimates is None:
        estimates = figures_of(scores, log10_lr, truth)
    names = sorted(set(units))
    index = {name: i for i, name in enumerate(names)}
    unit_of = np.array([index[u] for u in units])
    order = np.argsort(unit_of, kind="stable")
    starts = np.searchsorted(unit_of[order], np.arange(len(names) + 1))
    members = [order[starts[i] : starts[i + 1]] for i in range(len(names))]
    rng = np.random.default_rng(seed)
    collected: dict[str, list[float]] = {name: [] for name in FIGURES}
    draws = 0
    while len(collected["cllr"]) < resamples and draws < 3 * resamples:
        if draws % 20 == 0:
            progress.step(len(collected["cllr"]), resamples, "bootstrap over authors")
        draws += 1
        picked = rng.integers(len(names), size=len(names))
        rows = np.concatenate([members[i] for i in picked])
        t = truth[rows]
        if t.all() or not t.any():
            continue
        for name, value in figures_of(scores[rows], log10_lr[rows], t).items():
            collected[name].append(value)
    return {
        name: bc_interval(np.array(v), estimates[name]) if v else (math.nan, math.nan)
        for name, v in collected.items()
    }


def rounded(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), 6)


def band_summaries(
    bands: list[tuple[int, int]],
    questioned_chars: np.ndarray,
    scores: np.ndarray,
    log10_lr: np.ndarray,
    truth: np.ndarray,
    units: list[str],
    resamples: int,
    seed: int,
    progress: Progress = NO_PROGRESS,
) -> list[dict[str, Any]]:
    """Each band's trial counts, figures, intervals and ELUB (a band without trials of both
    classes gets counts only: no figure can be computed there)."""
    index = band_indices(bands, questioned_chars)
    out = []
    for b, band in enumerate(bands):
        rows = np.flatnonzero(index == b)
        t = truth[rows]
        entry: dict[str, Any] = {
            "questioned_chars": list(band),
            "trials_same": int(t.sum()),
            "trials_different": int((~t).sum()),
            "figures": None,
            "intervals": None,
            "bound": None,
        }
        if t.any() and not t.all():
            figures = figures_of(scores[rows], log10_lr[rows], t)
            intervals = bootstrap_intervals(
                scores[rows],
                log10_lr[rows],
                t,
                [units[i] for i in rows],
                resamples,
                seed + 1 + b,
                progress,
                figures,
            )
            bound = elub(log10_lr[rows], t)
            entry.update(
                figures={k: rounded(v) for k, v in figures.items()},
                intervals={k: [rounded(lo), rounded(hi)] for k, (lo, hi) in intervals.items()},
                bound={"min_log10_lr": bound.lower, "max_log10_lr": bound.upper},
            )
        out.append(entry)
    return out
