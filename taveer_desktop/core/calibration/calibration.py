"""Weight of evidence: calibrated likelihood ratios and how well they are calibrated.

- ``fit_logistic_calibration``: a monotone map from the ensemble similarity s to log10 LR,
  fitted on the training corpus by logistic regression (Newton's method, numpy only). Two guards
  keep ratios finite when the training scores separate Y and N perfectly: Platt's smoothed
  targets (N₊+1)/(N₊+2) and 1/(N₋+2) instead of 1 and 0, and a small L2 penalty on the slope.
  The slope is constrained to 0 ≤ b ≤ ``MAX_COEFFICIENT`` (a higher similarity never lowers the
  LR; beyond the bound the model reader refuses the map) and the intercept to |a| ≤
  ``MAX_COEFFICIENT`` (the slope is lowered until it holds): every fitted map is one the
  program can read back. The training prior log-odds are subtracted, so the result is a
  likelihood ratio, not posterior odds.
- **Shrinkage** (``shrinkage`` κ ≥ 0, chosen by ``core/calibration/calibration_shrinkage.py``): an
  extra L2 penalty ½·κ·n·(σ·b)² on the slope of the score standardised by its spread σ over the n
  training trials, pulling the map towards LR = 1 for a method whose scores separate the
  classes weakly or unreliably (the length terms below are shrunk alike, each on its own
  column's spread); κ = 0 (the default, and every model written before it) is the plain map.
- ``with_elub`` / ``fit_bounded_calibration``: the map clipped to the empirical lower and upper
  bound (``core/calibration/elub.py``) of a set of trials' log10 LRs — for ``taveer train`` its own
  training cases' (in-sample: it has no others), for a validated model the cross-validated LRs of
  its trials (``core/validation/validation.py``), and then also per band of questioned length
  (``core/calibration/length_bands.py``): a case gets the bound of its band.
- **Quality-measure terms** (``core/calibration/quality_measures.py``): a validation over a range
  of lengths fits log-odds = a + b·s + c·q + d·s·q with q the (clamped, centred) log of the
  questioned length; ``log10_lr`` then needs the length. A calibration without them (every model of
  ``taveer train``, every model written before format 4) ignores the lengths and gives exactly
  what it always gave.
- ``cllr`` and ``cllr_min`` (pool-adjacent-violators), rates of misleading evidence, expected
  calibration error, and Tippett curves, for validating a model on a test corpus.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, overload

import numpy as np

from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.calibration.length_bands import BandBound, band_bounds, bounded
from taveer_desktop.core.calibration.quality_measures import QualityTerms, fit_quality_map

LN10 = math.log(10.0)
SLOPE_PENALTY = 0.01
MAX_COEFFICIENT = 100.0  # |intercept|, slope: the bound the model reader enforces
MAX_ITERATIONS = 100


Length = np.ndarray | float | int | None


@dataclass(frozen=True)
class Calibration:
    """log10 LR(s) = (intercept + slope·s [+ quality terms] − prior_log_odds) / ln 10, clipped to
    the bound of the questioned length's band (or the overall bound)."""

    intercept: float
    slope: float
    prior_log_odds: float
    method: str = "logistic"
    penalty: float = SLOPE_PENALTY
    training_cllr: float | None = None
    training_cllr_min: float | None = None
    # the range of log10 LR the calibration's trials support: their ELUB
    # (``core/calibration/elub.py``); None: unbounded (a model trained before the bound existed)
    min_log10_lr: float | None = None
    max_log10_lr: float | None = None
    quality: QualityTerms | None = None  # length terms (None: the plain map)
    bands: tuple[BandBound, ...] = field(default=())  # the bound of each length band
    shrinkage: float | None = None  # κ of the shrinkage towards LR = 1 (None: not shrunk)

    @property
    def needs_lengths(self) -> bool:
        """Whether ``log10_lr`` depends on the texts' lengths."""
        return self.quality is not None or bool(self.bands)

    @overload
    def log10_lr(
        self, similarity: float, questioned_chars: Length = None, known_chars: Length = None
    ) -> float: ...
    @overload
    def log10_lr(
        self, similarity: np.ndarray, questioned_chars: Length = None, known_chars: Length = None
    ) -> np.ndarray: ...
    def log10_lr(
        self,
        similarity: float | np.ndarray,
        questioned_chars: Length = None,
        known_chars: Length = None,
    ) -> float | np.ndarray:
        """The calibrated log10 likelihood ratio of one similarity or of an array of them, for
        texts of these lengths (characters; needed when ``needs_lengths``)."""
        s = np.asarray(similarity, dtype=float)
        if self.quality is None:
            value = (self.intercept + self.slope * s - self.prior_log_odds) / LN10
        else:
            lengths: Mapping[str, Any] = {
                "questioned_chars": questioned_chars,
                "known_chars": known_chars,
            }
            value = (
                self.intercept
                + self.slope * s
                + self.quality.terms(s, lengths)
                - self.prior_log_odds
            ) / LN10
        if self.bands and questioned_chars is None:
            raise ValueError("this calibration bounds each length band: give the length")
        value = bounded(value, questioned_chars, self.bands, self.min_log10_lr, self.max_log10_lr)
        return float(value) if np.ndim(value) == 0 else value

    def unbounded(self) -> Calibration:
        """The same map without any bound (what a report shows before clipping)."""
        return replace(self, min_log10_lr=None, max_log10_lr=None, bands=())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("min_log10_lr", "max_log10_lr", "shrinkage"):  # absent unless set
            if data[key] is None:
                del data[key]
        del data["quality"], data["bands"]
        if self.quality is not None:
            data["quality"] = self.quality.to_dict()
        if self.bands:
            data["bands"] = [b.to_dict() for b in self.bands]
        return data


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _newton(
    x: np.ndarray, targets: np.ndarray, slope_penalty: float, fixed_slope: float | None = None
) -> tuple[float, float]:
    """Minimise the penalised cross-entropy of σ(a + b·x) against ``targets`` (over a and b, or
    over a alone with b = ``fixed_slope``)."""
    a, b = 0.0, 0.0
    if fixed_slope is not None:  # start where Newton converges from however far x lies from 0
        b = fixed_slope
        mean = min(max(float(np.mean(targets)), 1e-9), 1.0 - 1e-9)
        a = math.log(mean / (1.0 - mean)) - b * float(np.mean(x))

    def loss(a: float, b: float) -> float:
        z = a + b * x
        # cross-entropy with soft targets, computed stably: log(1+e^z) − t·z
        return float(np.sum(np.logaddexp(0.0, z) - targets * z) + 0.5 * slope_penalty * b * b)

    current = loss(a, b)
    for _ in range(MAX_ITERATIONS):
        p = _sigmoid(a + b * x)
        w = p * (1.0 - p)
        r = p - targets
        if fixed_slope is None:
            gradient = np.array([r.sum(), (r * x).sum() + slope_penalty * b])
            hessian = np.array(
                [[w.sum(), (w * x).sum()], [(w * x).sum(), (w * x * x).sum() + slope_penalty]]
            )
            step = np.linalg.solve(hessian + 1e-12 * np.eye(2), gradient)
        else:
            step = np.array([r.sum() / max(w.sum(), 1e-12), 0.0])
        scale = 1.0
        while scale > 1e-6:
            na, nb = a - scale * step[0], b - scale * step[1]
            new = loss(na, nb)
            if new <= current + 1e-12:
                break
            scale /= 2.0
        if abs(current - new) < 1e-10 and np.max(np.abs(scale * step)) < 1e-9:
            a, b, current = na, nb, new
            break
        a, b, current = na, nb, new
    return a, b


def slope_penalty(scores: np.ndarray, shrinkage: float) -> float:
    """The L2 penalty on the raw slope: the small guard, plus κ·n·σ² (see the module)."""
    scores = np.asarray(scores, dtype=float)
    spread = float(np.var(scores)) if len(scores) > 1 else 0.0
    return SLOPE_PENALTY + shrinkage * len(scores) * spread


def _bounded_fit(x: np.ndarray, targets: np.ndarray, penalty: float) -> tuple[float, float]:
    """(a, b) with 0 ≤ b ≤ ``MAX_COEFFICIENT`` and |a| ≤ ``MAX_COEFFICIENT`` where it can be
    had by lowering b (the loss is convex: with the free optimum beyond a bound, the bounded
    one lies on it)."""
    a, b = _newton(x, targets, penalty)
    if b < 0:  # the similarity ranks the classes the wrong way round: refuse to reward that
        b = 0.0
        a, _ = _newton(x, targets, penalty, fixed_slope=b)
    elif b > MAX_COEFFICIENT:
        b = MAX_COEFFICIENT
        a, _ = _newton(x, targets, penalty, fixed_slope=b)
    while abs(a) > MAX_COEFFICIENT and b > 1e-9:
        b = b / 2.0 if b > 1e-6 else 0.0
        a, _ = _newton(x, targets, penalty, fixed_slope=b)
    return a, b


def _targets(truth: np.ndarray) -> np.ndarray:
    n_y, n_n = int(truth.sum()), int((~truth).sum())
    return np.where(truth, (n_y + 1.0) / (n_y + 2.0), 1.0 / (n_n + 2.0))


def fit_logistic_calibration(
    scores: np.ndarray, truth: np.ndarray, shrinkage: float = 0.0
) -> Calibration:
    """Fit the similarity → log10 LR map on training scores with Y/N truth (shrunk by κ =
    ``shrinkage`` towards LR = 1; see the module)."""
    scores = np.asarray(scores, dtype=float)
    truth = np.asarray(truth, dtype=bool)
    n_y, n_n = int(truth.sum()), int((~truth).sum())
    if n_y == 0 or n_n == 0:
        raise ValueError("calibration needs training cases of both classes (Y and N)")
    a, b = _bounded_fit(scores, _targets(truth), slope_penalty(scores, shrinkage))
    fitted = Calibration(
        intercept=float(a),
        slope=float(b),
        prior_log_odds=math.log(n_y / n_n),
        shrinkage=float(shrinkage) if shrinkage else None,
    )
    return replace(
        fitted,
        training_cllr=round(cllr(fitted.log10_lr(scores), truth), 6),
        training_cllr_min=round(cllr_min(scores, truth), 6),
    )


QualityInputs = tuple[Mapping[str, np.ndarray], Mapping[str, tuple[int, int]]]


def _readable(a: float, b: float, terms: QualityTerms) -> bool:
    """Whether the model reader accepts these coefficients (``calibration/model_checks.py``)."""
    numbers = (a, b, *terms.weights, *terms.interactions)
    return b <= MAX_COEFFICIENT and all(abs(v) <= MAX_COEFFICIENT for v in numbers)


def fit_calibration(
    scores: np.ndarray,
    truth: np.ndarray,
    quality: QualityInputs | None = None,
    shrinkage: float = 0.0,
) -> Calibration:
    """The plain map, or — given the trials' lengths and the validated range of each
    (``quality``) — the quality-measure map where one fits (see
    ``core/calibration/quality_measures.py``) within the bounds the model reader enforces; both
    shrunk by κ = ``shrinkage``."""
    plain = fit_logistic_calibration(scores, truth, shrinkage)
    if quality is None:
        return plain
    lengths, ranges = quality
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    penalty = slope_penalty(scores, shrinkage)
    fitted = fit_quality_map(scores, _targets(truth), lengths, ranges, penalty, shrinkage)
    if fitted is None or not _readable(*fitted):
        return plain
    a, b, terms = fitted
    calibration = replace(plain, intercept=a, slope=b, quality=terms)
    q_chars, k_chars = lengths.get("questioned_chars"), lengths.get("known_chars")
    training = cllr(calibration.log10_lr(scores, q_chars, k_chars), truth)
    return replace(calibration, training_cllr=round(training, 6))


def with_elub(
    calibration: Calibration,
    log10_lr: np.ndarray,
    truth: np.ndarray,
    questioned_chars: np.ndarray | None = None,
    bands: list[tuple[int, int]] | None = None,
) -> Calibration:
    """The calibration clipped to the ELUB of trials with these log10 LRs and this truth; with
    the trials' questioned lengths and more than one length band, also to each band's ELUB."""
    bounds = elub(log10_lr, truth)
    per_band: tuple[BandBound, ...] = ()
    if questioned_chars is not None and bands is not None and len(bands) > 1:
        per_band = band_bounds(np.asarray(log10_lr), np.asarray(truth), questioned_chars, bands)
    return replace(
        calibration, min_log10_lr=bounds.lower, max_log10_lr=bounds.upper, bands=per_band
    )


def fit_bounded_calibration(
    scores: np.ndarray,
    truth: np.ndarray,
    quality: QualityInputs | None = None,
    shrinkage: float = 0.0,
) -> Calibration:
    """``fit_calibration`` clipped to the ELUB of its own training trials' log10 LRs."""
    fitted = fit_calibration(scores, truth, quality, shrinkage)
    if quality is None:
        return with_elub(fitted, fitted.log10_lr(scores), truth)
    lengths = quality[0]
    own = fitted.log10_lr(scores, lengths.get("questioned_chars"), lengths.get("known_chars"))
    return with_elub(fitted, own, truth)


def _log2_one_plus_ten_to(x: np.ndarray) -> np.ndarray:
    """log2(1 + 10^x), stable for large |x|."""
    return np.logaddexp(0.0, x * LN10) / math.log(2.0)


def cllr(log10_lr: np.ndarray, truth: np.ndarray) -> float:
    """Log-likelihood-ratio cost: 1 for an uninformative system, 0 for a perfect one."""
    log10_lr, truth = np.asarray(log10_lr, dtype=float), np.asarray(truth, dtype=bool)
    if truth.all() or not truth.any():
        return float("nan")
    same = _log2_one_plus_ten_to(-log10_lr[truth]).mean()
    different = _log2_one_plus_ten_to(log10_lr[~truth]).mean()
    return float(0.5 * (same + different))


def pav_log10_lr(scores: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The optimally calibrated log10 LR of each case given only the order of its score.

    Pool-adjacent-violators on the scores (tied scores pooled first) gives non-decreasing
    posteriors; dividing out the sample's prior odds gives likelihood ratios (±inf possible).
    """
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    unique, inverse = np.unique(scores, return_inverse=True)
    positives = np.bincount(inverse, weights=truth.astype(float), minlength=len(unique))
    counts = np.bincount(inverse, minlength=len(unique)).astype(float)
    blocks: list[list[float]] = []  # [positives, count, number of unique scores]
    for pos, cnt in zip(positives, counts, strict=True):
        blocks.append([pos, cnt, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            pos2, cnt2, k2 = blocks.pop()
            blocks[-1][0] += pos2
            blocks[-1][1] += cnt2
            blocks[-1][2] += k2
    posterior = np.concatenate([np.full(int(k), p / c) for p, c, k in blocks])
    prior_odds = truth.sum() / (~truth).sum()
    with np.errstate(divide="ignore"):
        log10_odds = np.log10(posterior) - np.log10(1.0 - posterior)
    recalibrated: np.ndarray = (log10_odds - math.log10(prior_odds))[inverse]
    return recalibrated


def cllr_min(scores: np.ndarray, truth: np.ndarray) -> float:
    """Cllr after the best monotone recalibration: the discrimination part of Cllr."""
    return cllr(pav_log10_lr(scores, truth), truth)


def misleading_rates(log10_lr: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """(share of same-author cases with LR < 1, share of different-author cases with LR > 1)."""
    log10_lr, truth = np.asarray(log10_lr, dtype=float), np.asarray(truth, dtype=bool)
    misleading_y = float(np.mean(log10_lr[truth] < 0)) if truth.any() else float("nan")
    misleading_n = float(np.mean(log10_lr[~truth] > 0)) if (~truth).any() else float("nan")
    return misleading_y, misleading_n


@dataclass(frozen=True)
class ReliabilityBin:
    predicted: float  # mean posterior probability of "same author" at equal priors
    observed: float  # share of same-author cases, reweighted to equal priors
    count: int


def reliability_bins(
    log10_lr: np.ndarray, truth: np.ndarray, n_bins: int = 10
) -> tuple[list[ReliabilityBin], float]:
    """Calibration plot data at equal priors, and the expected calibration error (ECE).

    Each case's posterior at prior odds 1 is LR / (1 + LR); observed frequencies weight Y and N
    cases so that both classes count equally, matching that prior.
    """
    log10_lr, truth = np.asarray(log10_lr, dtype=float), np.asarray(truth, dtype=bool)
    posterior = _sigmoid(log10_lr * LN10)
    weights = np.where(truth, 0.5 / max(truth.sum(), 1), 0.5 / max((~truth).sum(), 1))
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    index = np.clip(np.digitize(posterior, edges[1:-1]), 0, n_bins - 1)
    bins, ece = [], 0.0
    for b in range(n_bins):
        members = index == b
        if not members.any():
            continue
        weight = weights[members].sum()
        predicted = float(np.average(posterior[members], weights=weights[members]))
        observed = float(weights[members & truth].sum() / weight)
        bins.append(ReliabilityBin(predicted, observed, int(members.sum())))
        ece += weight * abs(predicted - observed)
    return bins, float(ece)


def tippett_curves(
    log10_lr: np.ndarray, truth: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tippett plot data: for each log10 LR value x, the share of same-author and of
    different-author cases whose log10 LR exceeds x. Returns (x, share_y, share_n)."""
    log10_lr, truth = np.asarray(log10_lr, dtype=float), np.asarray(truth, dtype=bool)
    x = np.sort(np.unique(log10_lr))
    same = np.sort(log10_lr[truth])
    different = np.sort(log10_lr[~truth])
    share_y = 1.0 - np.searchsorted(same, x, side="right") / max(len(same), 1)
    share_n = 1.0 - np.searchsorted(different, x, side="right") / max(len(different), 1)
    return x, share_y, share_n
