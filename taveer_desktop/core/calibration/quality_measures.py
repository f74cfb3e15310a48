"""Quality-measure terms of a calibration: text length enters the logistic map.

Speaker recognition calibrates scores of short and long recordings with one logistic map whose
offset and scale depend on the recordings' durations — *quality measure functions* (Mandasari,
Saeidi, McLaren and van Leeuwen 2013, IEEE TASLP 21(11); Nautsch, Saeidi, Rathgeb and Busch,
Odyssey 2016). Text length plays the part of duration here. For a score s (TAVeer's ensemble
similarity, or LambdaG's raw λG, which grows with the questioned text's length) and lengths
L_j (``MEASURES``: characters of the questioned text, of the known texts together):

    q_j = ln(clamp(L_j, lo_j, hi_j)) − ln √(lo_j · hi_j)
    log-odds = a + b·s + Σ c_j·q_j + Σ d_j·s·q_j   (log10 LR: less the prior, then / ln 10)

- **Clamped to the validated range** (lo_j, hi_j): outside the lengths the trials had, the map
  is not extrapolated (the gate makes such cases investigative in any case).
- **Monotone in s across the range**: the slope b + Σ d_j·q_j is linear in q, so it is checked
  at the corners of the range; if it is negative anywhere the interactions are dropped (d = 0),
  and if b is then negative too, the plain map is used (``core/calibration/calibration.py``).
- **Penalised**: c and d carry an L2 penalty ``QUALITY_PENALTY`` (b keeps the plain map's
  ``SLOPE_PENALTY``), so that a narrow range, where q hardly varies, does not give wild weights.
- **Shrunk with the slope**: a calibration shrunk by κ towards LR = 1
  (``core/calibration/calibration_shrinkage.py``) adds κ·n·σ_k² to the penalty of every term k
  of the map (b, each c, each d), σ_k the spread of its column (s, q_j, s·q_j) over the n
  training trials — each term on its own scale, so that a large κ leaves no term free to state
  a confident ratio. (Before, κ reached b only: a weak method's length terms, d on the scale of
  a raw score in the thousands, kept ratios from staying near 1.) κ = 0 is the map as before.

``fit_quality_map`` fits (a, b, c, d) by Newton's method with step halving, as the plain map.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any, NoReturn

import numpy as np

MEASURES = ("questioned_chars", "known_chars")
QUALITY_PENALTY = 1.0
MAX_QUALITY_MAGNITUDE = 100.0
MAX_ITERATIONS = 100

Lengths = Mapping[str, "np.ndarray | float | None"]


@dataclass(frozen=True)
class QualityTerms:
    """The length terms of a calibration (see the module)."""

    measures: tuple[str, ...]
    ranges: tuple[tuple[int, int], ...]  # (lo, hi) characters of each measure
    weights: tuple[float, ...]  # c
    interactions: tuple[float, ...]  # d
    penalty: float = QUALITY_PENALTY  # the fixed part (κ·n·σ² is added; κ: the shrinkage)

    def q(self, lengths: Lengths) -> list[np.ndarray]:
        """The clamped, centred log lengths (one array per measure)."""
        out = []
        for name, (lo, hi) in zip(self.measures, self.ranges, strict=True):
            value = lengths.get(name)
            if value is None:
                raise ValueError(f"this calibration needs the {name.replace('_', ' ')}")
            clamped = np.clip(np.asarray(value, dtype=float), lo, hi)
            out.append(np.log(clamped) - 0.5 * (math.log(lo) + math.log(hi)))
        return out

    def terms(self, similarity: np.ndarray, lengths: Lengths) -> np.ndarray:
        """Σ c_j·q_j + Σ d_j·s·q_j."""
        total = np.zeros(np.broadcast_shapes(np.shape(similarity), *self._shapes(lengths)))
        for q, c, d in zip(self.q(lengths), self.weights, self.interactions, strict=True):
            total = total + c * q + d * similarity * q
        return total

    def _shapes(self, lengths: Lengths) -> list[tuple[int, ...]]:
        return [np.shape(np.asarray(lengths.get(name))) for name in self.measures]

    def min_slope(self, slope: float) -> float:
        """The smallest slope in s anywhere in the range (at a corner: it is linear in q)."""
        half = [0.5 * (math.log(hi) - math.log(lo)) for lo, hi in self.ranges]
        return min(
            slope
            + sum(d * sign * h for d, sign, h in zip(self.interactions, signs, half, strict=True))
            for signs in product((-1.0, 1.0), repeat=len(self.measures))
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "measures": list(self.measures),
            "ranges": [list(r) for r in self.ranges],
            "weights": list(self.weights),
            "interactions": list(self.interactions),
            "penalty": self.penalty,
        }


def quality_from_dict(data: Any, slope: float, fail: Callable[[str], NoReturn]) -> QualityTerms:
    """Validate a calibration's ``quality`` object (``fail(message)`` raises)."""
    if not isinstance(data, dict):
        fail("quality must be an object")
    measures = data.get("measures")
    if (
        not isinstance(measures, list)
        or not 1 <= len(measures) <= len(MEASURES)
        or not set(measures) <= set(MEASURES)
        or len(set(measures)) != len(measures)
    ):
        fail(f"quality.measures must name distinct measures of {MEASURES}")
    n = len(measures)
    ranges = data.get("ranges")
    if not isinstance(ranges, list) or len(ranges) != n:
        fail("quality.ranges must give [lo, hi] for every measure")
    for pair in ranges:
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            and 1 <= pair[0] < pair[1] < 10**12
        ):
            fail("quality.ranges must be whole numbers 1 ≤ lo < hi")
    numbers = {}
    for key in ("weights", "interactions"):
        values = data.get(key)
        if not (
            isinstance(values, list)
            and len(values) == n
            and all(_bounded_number(v) for v in values)
        ):
            fail(f"quality.{key} must give one number within ±{MAX_QUALITY_MAGNITUDE:g} a measure")
        numbers[key] = tuple(float(v) for v in values)
    penalty: Any = data.get("penalty")
    if not _bounded_number(penalty) or penalty < 0:
        fail("quality.penalty must be a number ≥ 0")
    terms = QualityTerms(
        tuple(measures),
        tuple((int(a), int(b)) for a, b in ranges),
        numbers["weights"],
        numbers["interactions"],
        float(penalty),
    )
    if terms.min_slope(slope) < -1e-9:
        fail("quality.interactions make the calibration decrease with the score somewhere")
    return terms


def _bounded_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= MAX_QUALITY_MAGNITUDE
    )


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def newton_logistic(x: np.ndarray, targets: np.ndarray, penalties: np.ndarray) -> np.ndarray:
    """Weights w minimising Σ [log(1 + e^{x·w}) − t·x·w] + ½ Σ penalty_k w_k² (columns of x)."""
    w = np.zeros(x.shape[1])

    def loss(w: np.ndarray) -> float:
        z = x @ w
        return float(np.sum(np.logaddexp(0.0, z) - targets * z) + 0.5 * penalties @ (w * w))

    current = loss(w)
    for _ in range(MAX_ITERATIONS):
        p = _sigmoid(x @ w)
        gradient = x.T @ (p - targets) + penalties * w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + np.diag(penalties)
        step = np.linalg.solve(hessian + 1e-12 * np.eye(len(w)), gradient)
        scale = 1.0
        while scale > 1e-6:
            candidate = w - scale * step
            new = loss(candidate)
            if new <= current + 1e-12:
                break
            scale /= 2.0
        done = abs(current - new) < 1e-10 and np.max(np.abs(scale * step)) < 1e-9
        w, current = candidate, new
        if done:
            break
    return w


def fit_quality_map(
    scores: np.ndarray,
    targets: np.ndarray,
    lengths: Lengths,
    ranges: Mapping[str, tuple[int, int]],
    slope_penalty: float,
    shrinkage: float = 0.0,
) -> tuple[float, float, QualityTerms] | None:
    """(a, b, terms) of the quality-measure map, monotone in s across the range; None when
    no range varies or no monotone fit with a positive slope exists (use the plain map).
    ``slope_penalty`` is b's (already shrunk); ``shrinkage`` κ shrinks c and d (module)."""
    measures = tuple(m for m in MEASURES if m in ranges and ranges[m][0] < ranges[m][1])
    if not measures:
        return None
    spans = tuple(ranges[m] for m in measures)
    blank = QualityTerms(measures, spans, (0.0,) * len(measures), (0.0,) * len(measures))
    q = np.column_stack(blank.q(lengths))
    s = np.asarray(scores, dtype=float)
    m = len(measures)
    for with_interactions in (True, False):
        columns = [np.ones_like(s), s, *q.T] + ([*(s[:, None] * q).T] if with_interactions else [])
        spreads = [float(np.var(c)) if len(s) > 1 else 0.0 for c in columns[2:]]
        shrunk = [QUALITY_PENALTY + shrinkage * len(s) * v for v in spreads]
        penalties = np.array([0.0, slope_penalty, *shrunk])
        w = newton_logistic(np.column_stack(columns), targets, penalties)
        interactions = tuple(float(v) for v in w[2 + m :]) if with_interactions else (0.0,) * m
        terms = QualityTerms(measures, spans, tuple(float(v) for v in w[2 : 2 + m]), interactions)
        if w[1] >= 0 and terms.min_slope(float(w[1])) >= 0:
            return float(w[0]), float(w[1]), terms
    return None
