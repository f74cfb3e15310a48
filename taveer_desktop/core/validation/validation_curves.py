"""The plot data of a validation record: Tippett curves, empirical cross-entropy, score
distributions (numpy only, no Qt; shared by the validation report and the desktop).

A validation record (``core/validation/validation.py``, ``validate``) keeps every trial with its
cross-validated ensemble score and bounded log10 LR. This module turns those trials into the
three plots a reviewer reads:

- **Tippett plot** (``tippett``): for every log10 LR value x, the share of same-author and of
  different-author trials whose log10 LR is *greater than* x (``core.calibration.tippett_curves``),
  drawn as right-continuous steps from 1 (far left) to 0 (far right). At x = 0 the
  different-author curve is the rate of misleading evidence for Hp, and 1 minus the
  same-author curve is at least the rate of misleading evidence for Hd.
- **Empirical cross-entropy** (``empirical_cross_entropy``, ``ece_curves``; Ramos and
  González-Rodríguez 2008; Ramos et al. 2013, *Forensic Sci. Int.* 230:156): for prior log10
  odds θ of Hp, with P = 1 / (1 + 10^−θ),

      ECE(θ) = P · mean_same log2(1 + 10^−(l + θ)) + (1 − P) · mean_different log2(1 + 10^(l + θ))

  where l is a trial's log10 LR. At θ = 0 it equals Cllr. Three curves: the LRs as validated,
  the same LRs after the pool-adjacent-violators (PAV) transformation (the best any monotone
  recalibration of these trials could do; at θ = 0 it is Cllr_min, and it is at or below the
  first curve at every θ), and the neutral reference LR = 1 (the prior's own entropy, 1 at
  θ = 0): a system above the neutral curve is worse than giving no evidence at that prior.
  Note: the record's figure ``ece`` is the *expected calibration error* (binned, at equal
  priors), a different quantity that shares the abbreviation; the wording module keeps the two
  apart.
- **Score distributions** (``score_distributions``): histograms of the cross-validated ensemble
  score in [0, 1] per class, as shares of that class (so the two classes are comparable
  whatever their counts), with a smoothed density per class (``core.similarity_density``).

Stable API (the desktop's validation views use it; keep it so):

- ``RecordTrials`` / ``trials_of(record)``: the trials' ``log10_lr``, ``scores``, ``same``,
  ``questioned_chars`` and ``known_chars`` as numpy arrays (``n_same``, ``n_different``);
  ``InputError`` if the record holds no usable trials of both classes.
- ``TippettCurves`` / ``tippett(log10_lr, same)``: ``x``, ``same``, ``different``,
  ``x_range``, ``steps(shares)`` → (xs, ys) polyline of a step curve, ``share_above(x)``.
- ``EceCurves`` / ``ece_curves(log10_lr, same, prior_log10_odds=None)``: ``prior_log10_odds``,
  ``validated``, ``calibrated`` (PAV), ``neutral``, ``at_even_odds()``.
- ``ScoreDistributions`` / ``score_distributions(scores, same, bins=20)``: ``edges``,
  ``same_counts``, ``different_counts``, ``same_shares``, ``different_shares``, ``grid``,
  ``same_density``, ``different_density``.
- ``ValidationCurves`` / ``curves_of(record)``: all three at once, plus the trials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import LN10, pav_log10_lr, tippett_curves
from taveer_desktop.core.calibration.similarity_density import density
from taveer_desktop.core.ground.errors import InputError

DEFAULT_PRIOR_RANGE = 2.5  # ECE plots run over prior log10 odds −2.5 … +2.5
DEFAULT_PRIOR_POINTS = 201  # an odd count: θ = 0 is one of the points
DEFAULT_SCORE_BINS = 20
DENSITY_POINTS = 201
TIPPETT_MARGIN = 0.25  # log10 units of axis either side of the extreme LRs


@dataclass(frozen=True)
class RecordTrials:
    """The record's trials as arrays (one entry per trial, in the record's order)."""

    log10_lr: np.ndarray
    scores: np.ndarray
    same: np.ndarray  # bool: the questioned text is by the known author
    questioned_chars: np.ndarray  # the trial's questioned text, in characters
    known_chars: np.ndarray

    @property
    def n_same(self) -> int:
        return int(self.same.sum())

    @property
    def n_different(self) -> int:
        return int((~self.same).sum())


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError
    number = float(value)
    if not math.isfinite(number):
        raise ValueError
    return number


def trials_of(record: dict[str, Any]) -> RecordTrials:
    """The trials of a validation record; ``InputError`` (one sentence) if they are missing,
    malformed or lack one of the two classes."""
    trials = record.get("trials") if isinstance(record, dict) else None
    if not isinstance(trials, list) or not trials:
        raise InputError("the validation record holds no trials")
    log10_lr, scores, same, lengths = [], [], [], []
    for index, trial in enumerate(trials, start=1):
        try:
            if not isinstance(trial, dict) or not isinstance(trial.get("same"), bool):
                raise TypeError
            log10_lr.append(_number(trial.get("log10_lr")))
            scores.append(_number(trial.get("score")))
            lengths.append(
                (_number(trial.get("questioned_chars")), _number(trial.get("known_chars")))
            )
            same.append(trial["same"])
        except (TypeError, ValueError):
            raise InputError(
                f"trial {index} of the validation record lacks a finite score, log10_lr, "
                "same-author flag or length"
            ) from None
    chars = np.array(lengths, dtype=np.int64)
    result = RecordTrials(
        np.array(log10_lr), np.array(scores), np.array(same, dtype=bool), chars[:, 0], chars[:, 1]
    )
    if result.n_same == 0 or result.n_different == 0:
        raise InputError("the validation record lacks same-author or different-author trials")
    return result


# --- Tippett ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TippettCurves:
    """Shares of each class whose log10 LR exceeds each ``x`` (ascending, non-increasing)."""

    x: np.ndarray
    same: np.ndarray
    different: np.ndarray
    x_range: tuple[float, float]  # the axis: the extreme LRs with a margin, 0 always inside

    def steps(self, shares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(xs, ys) of the step polyline of ``shares`` (``self.same`` or ``self.different``)
        across ``x_range``: 1 at the far left, a vertical drop at every ``x``."""
        low, high = self.x_range
        before = np.concatenate(([1.0], shares[:-1]))
        xs = np.concatenate(([low], np.repeat(self.x, 2), [high]))
        ys = np.concatenate(([1.0], np.column_stack((before, shares)).ravel(), [shares[-1]]))
        return xs, ys

    def share_above(self, value: float) -> tuple[float, float]:
        """(same-author share, different-author share) of trials with log10 LR > ``value``."""
        i = int(np.searchsorted(self.x, value, side="right")) - 1
        if i < 0:
            return 1.0, 1.0
        return float(self.same[i]), float(self.different[i])


def tippett(log10_lr: np.ndarray, same: np.ndarray) -> TippettCurves:
    """The Tippett curves of scored trials (see the module)."""
    log10_lr, same = np.asarray(log10_lr, dtype=float), np.asarray(same, dtype=bool)
    x, share_same, share_different = tippett_curves(log10_lr, same)
    low = min(float(x[0]), 0.0) - TIPPETT_MARGIN
    high = max(float(x[-1]), 0.0) + TIPPETT_MARGIN
    return TippettCurves(x, share_same, share_different, (low, high))


# --- empirical cross-entropy -----------------------------------------------------------------


def _log2_one_plus_ten_to(x: np.ndarray) -> np.ndarray:
    """log2(1 + 10^x), stable for large |x| and exact for ±inf."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.logaddexp(0.0, x * LN10) / math.log(2.0)


def empirical_cross_entropy(
    log10_lr: np.ndarray, same: np.ndarray, prior_log10_odds: np.ndarray
) -> np.ndarray:
    """ECE (bits) at each prior log10 odds of Hp (see the module's formula). LRs may be ±inf
    (PAV): an infinite LR on the right side costs nothing, on the wrong side is infinite."""
    log10_lr, same = np.asarray(log10_lr, dtype=float), np.asarray(same, dtype=bool)
    theta = np.atleast_1d(np.asarray(prior_log10_odds, dtype=float))
    p_same = 1.0 / (1.0 + 10.0 ** (-theta))
    same_cost = _log2_one_plus_ten_to(-(log10_lr[same][None, :] + theta[:, None])).mean(axis=1)
    different_cost = _log2_one_plus_ten_to(log10_lr[~same][None, :] + theta[:, None]).mean(axis=1)
    ece: np.ndarray = p_same * same_cost + (1.0 - p_same) * different_cost
    return ece


@dataclass(frozen=True)
class EceCurves:
    """ECE over prior log10 odds for the validated LRs, their PAV transform and LR = 1."""

    prior_log10_odds: np.ndarray
    validated: np.ndarray
    calibrated: np.ndarray  # PAV: at or below ``validated`` everywhere
    neutral: np.ndarray  # LR = 1 for every trial: 1 bit at even odds

    def at_even_odds(self) -> tuple[float, float, float]:
        """(validated, calibrated, neutral) at prior log10 odds 0: (Cllr, Cllr_min, 1)."""
        i = int(np.argmin(np.abs(self.prior_log10_odds)))
        return float(self.validated[i]), float(self.calibrated[i]), float(self.neutral[i])


def prior_grid(
    half_range: float = DEFAULT_PRIOR_RANGE, points: int = DEFAULT_PRIOR_POINTS
) -> np.ndarray:
    """Prior log10 odds from −``half_range`` to +``half_range`` (``points`` odd: 0 included)."""
    return np.linspace(-half_range, half_range, points)


def ece_curves(
    log10_lr: np.ndarray, same: np.ndarray, prior_log10_odds: np.ndarray | None = None
) -> EceCurves:
    """The three ECE curves of scored trials over ``prior_log10_odds`` (default ±2.5)."""
    log10_lr, same = np.asarray(log10_lr, dtype=float), np.asarray(same, dtype=bool)
    theta = prior_grid() if prior_log10_odds is None else np.asarray(prior_log10_odds, float)
    calibrated = pav_log10_lr(log10_lr, same)
    return EceCurves(
        theta,
        empirical_cross_entropy(log10_lr, same, theta),
        empirical_cross_entropy(calibrated, same, theta),
        empirical_cross_entropy(np.zeros(len(same)), same, theta),
    )


# --- score distributions ---------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreDistributions:
    """Per-class histograms of scores in [0, 1] and their smoothed densities."""

    edges: np.ndarray  # bins + 1 edges from 0 to 1
    same_counts: np.ndarray
    different_counts: np.ndarray
    grid: np.ndarray  # where the densities are evaluated (0 … 1)
    same_density: np.ndarray
    different_density: np.ndarray

    @property
    def same_shares(self) -> np.ndarray:
        """Share of the same-author trials in each bin (sums to 1)."""
        return self.same_counts / max(int(self.same_counts.sum()), 1)

    @property
    def different_shares(self) -> np.ndarray:
        return self.different_counts / max(int(self.different_counts.sum()), 1)


def score_distributions(
    scores: np.ndarray, same: np.ndarray, bins: int = DEFAULT_SCORE_BINS
) -> ScoreDistributions:
    """Histograms (``bins`` equal bins over [0, 1]; a score of exactly 1 counts in the last)
    and densities of the scores of each class."""
    scores, same = np.asarray(scores, dtype=float), np.asarray(same, dtype=bool)
    edges = np.linspace(0.0, 1.0, bins + 1)
    clipped = np.clip(scores, 0.0, 1.0)
    grid = np.linspace(0.0, 1.0, DENSITY_POINTS)
    return ScoreDistributions(
        edges,
        np.histogram(clipped[same], edges)[0],
        np.histogram(clipped[~same], edges)[0],
        grid,
        density(clipped[same], grid),
        density(clipped[~same], grid),
    )


# --- everything for one record ---------------------------------------------------------------


@dataclass(frozen=True)
class ValidationCurves:
    trials: RecordTrials
    tippett: TippettCurves
    ece: EceCurves
    scores: ScoreDistributions


def curves_of(record: dict[str, Any]) -> ValidationCurves:
    """The three plots' data of a validation record (``InputError`` if its trials are bad)."""
    trials = trials_of(record)
    return ValidationCurves(
        trials,
        tippett(trials.log10_lr, trials.same),
        ece_curves(trials.log10_lr, trials.same),
        score_distributions(trials.scores, trials.same),
    )
