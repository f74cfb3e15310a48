"""Logistic-regression fusion of several methods' calibrated log10 likelihood ratios.

The standard of forensic likelihood-ratio systems (Brümmer and du Preez; Morrison's
calibration and fusion tutorial, 2013): one log-odds

    ln odds = a + Σ_k w_k · ln LR_k

is fitted by penalised logistic regression on validation trials with known truth (Platt's
smoothed targets and a small L2 penalty on the weights, as in ``core/calibration/calibration.py``);
the training prior log-odds are taken off again, so the result is a log likelihood ratio. Weights
are kept ≥ 0: a method is never counted against its own direction (a weight that comes out negative
is fixed at 0 and the rest refitted): a weight of 0 means the method carried no weight in the
fused ratio. Any two or more methods may be fused (``ValidationSettings.fuse``; by default
TAVeer and LambdaG); ``methods`` names the columns in order. The fused log10 LR is bounded
like every other one (per band of questioned length where the validation covered a range,
``core/calibration/length_bands.py``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any, NoReturn

import numpy as np

from taveer_desktop.core.calibration.calibration import LN10, cllr
from taveer_desktop.core.calibration.elub import elub
from taveer_desktop.core.calibration.length_bands import BandBound, bands_from_list, bounded
from taveer_desktop.core.calibration.quality_measures import newton_logistic

WEIGHT_PENALTY = 0.01


@dataclass(frozen=True)
class Fusion:
    """log10 LR = (intercept + Σ weight_k · ln LR_k − prior_log_odds) / ln 10, bounded."""

    methods: tuple[str, ...]
    intercept: float
    weights: tuple[float, ...]
    prior_log_odds: float
    min_log10_lr: float | None = None
    max_log10_lr: float | None = None
    training_cllr: float | None = None
    bands: tuple[BandBound, ...] = ()  # the bound of each questioned-length band

    def log10_lr(
        self, log10_lrs: np.ndarray, questioned_chars: np.ndarray | float | None = None
    ) -> np.ndarray:
        """Fused log10 LR of rows of per-method log10 LRs (columns in ``methods`` order), each
        clipped to the bound of its questioned length's band (or the overall bound)."""
        x = np.atleast_2d(np.asarray(log10_lrs, dtype=float)) * LN10
        value: np.ndarray = (
            self.intercept + x @ np.asarray(self.weights) - self.prior_log_odds
        ) / LN10
        if self.bands and questioned_chars is None:
            raise ValueError("this fusion bounds each length band: give the length")
        return bounded(value, questioned_chars, self.bands, self.min_log10_lr, self.max_log10_lr)

    def unbounded(self) -> Fusion:
        return replace(self, min_log10_lr=None, max_log10_lr=None, bands=())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["bands"]
        if self.bands:
            data["bands"] = [b.to_dict() for b in self.bands]
        data["methods"] = list(self.methods)
        data["weights"] = list(self.weights)
        data["rule"] = "logistic-regression fusion of the methods' calibrated log LRs"
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fusion:
        return cls(
            methods=tuple(str(m) for m in data["methods"]),
            intercept=float(data["intercept"]),
            weights=tuple(float(w) for w in data["weights"]),
            prior_log_odds=float(data["prior_log_odds"]),
            min_log10_lr=_optional(data.get("min_log10_lr")),
            max_log10_lr=_optional(data.get("max_log10_lr")),
            training_cllr=_optional(data.get("training_cllr")),
            bands=bands_from_list(data["bands"], _refuse) if data.get("bands") else (),
        )


def _refuse(message: str) -> NoReturn:
    raise ValueError(f"fusion.{message}")


def _optional(value: Any) -> float | None:
    return None if value is None else float(value)


def _fit(x: np.ndarray, targets: np.ndarray, free: np.ndarray) -> np.ndarray:
    """The penalised logistic fit (``quality_measures.newton_logistic``, intercept unpenalised);
    columns of ``x`` not ``free`` keep weight 0. Returns [a, w_1 … w_k]."""
    k = x.shape[1]
    design = np.column_stack([np.ones(len(x)), x[:, free]])
    penalties = np.array([0.0] + [WEIGHT_PENALTY] * int(free.sum()))
    theta = newton_logistic(design, targets, penalties)
    full = np.zeros(k + 1)
    full[0] = theta[0]
    full[1:][free] = theta[1:]
    return full


def fit_fusion(
    methods: tuple[str, ...],
    log10_lrs: np.ndarray,
    truth: np.ndarray,
    bounds: tuple[float, float] | None = None,
) -> Fusion:
    """Fit the fusion on trials: ``log10_lrs`` has one column per method."""
    x = np.asarray(log10_lrs, dtype=float) * LN10
    truth = np.asarray(truth, dtype=bool)
    n_y, n_n = int(truth.sum()), int((~truth).sum())
    if n_y == 0 or n_n == 0:
        raise ValueError("fusion needs trials of both classes")
    targets = np.where(truth, (n_y + 1.0) / (n_y + 2.0), 1.0 / (n_n + 2.0))
    free = np.ones(x.shape[1], dtype=bool)
    theta = _fit(x, targets, free)
    while (theta[1:] < 0).any():
        free &= theta[1:] > 0
        theta = _fit(x, targets, free)
    low, high = bounds if bounds is not None else (None, None)
    fusion = Fusion(
        methods=methods,
        intercept=float(theta[0]),
        weights=tuple(float(w) for w in theta[1:]),
        prior_log_odds=math.log(n_y / n_n),
        min_log10_lr=low,
        max_log10_lr=high,
    )
    trained = cllr(fusion.log10_lr(log10_lrs), truth)
    return Fusion(**{**asdict(fusion), "training_cllr": round(trained, 6)})


def bounded_fusion(
    methods: tuple[str, ...],
    columns: np.ndarray,
    truth: np.ndarray,
    bounding_lrs: np.ndarray | None = None,
) -> Fusion:
    """The fusion of ``methods`` (one column each) fitted on these trials, clipped to the ELUB
    of ``bounding_lrs`` (default: its own fused LRs on them)."""
    fitted = fit_fusion(methods, columns, truth)
    bounds = elub(fitted.log10_lr(columns) if bounding_lrs is None else bounding_lrs, truth)
    return replace(fitted, min_log10_lr=bounds.lower, max_log10_lr=bounds.upper)
