"""The smoothed distribution of similarities in [0, 1], as the model view's violins draw it.

``density`` is a Gaussian kernel density estimate with Silverman's bandwidth (never narrower
than 0.02, so a handful of equal values still gives a visible shape). Similarities cannot leave
[0, 1], so the mass a kernel puts outside is reflected back at the bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

MIN_BANDWIDTH = 0.02


def bandwidth(values: np.ndarray) -> float:
    """Silverman's rule of thumb, 0.9 · min(σ, IQR / 1.34) · n^(-1/5), at least 0.02."""
    spread = float(np.std(values)) if len(values) > 1 else 0.0
    q75, q25 = np.percentile(values, [75, 25])
    scale = min(spread, (q75 - q25) / 1.34) if q75 > q25 else spread
    return max(0.9 * float(scale) * math.pow(len(values), -0.2), MIN_BANDWIDTH)


def density(values: Sequence[float] | np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Kernel density of the finite ``values`` on ``grid``, reflected at 0 and 1 (zeros if none)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return np.zeros_like(grid)
    h = bandwidth(v)
    centres = np.concatenate([v, -v, 2.0 - v])
    z = (grid[:, None] - centres[None, :]) / h
    kernel_sums: np.ndarray = np.exp(-0.5 * z * z).sum(axis=1)
    return kernel_sums / (len(v) * h * math.sqrt(2 * math.pi))
