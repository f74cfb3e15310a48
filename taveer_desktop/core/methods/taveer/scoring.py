"""Distances and similarities: the numbers every TAVeer decision is made of.

For one category, the vocabulary is the union of both documents' features; each count vector is
L1-normalised and the Manhattan distance lies in [0, d_max = 2]. ``similarity`` is the paper's
piecewise-linear map that sends the threshold θ to exactly 0.5, 0 to 1 and d_max to 0.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

D_MAX = 2.0
# θ is kept inside (0, d_max) so that neither branch of the similarity divides by zero.
THETA_EPSILON = 1e-9


def manhattan_distance(x_counts: Mapping[str, int], y_counts: Mapping[str, int]) -> float | None:
    """Manhattan distance of the L1-normalised count vectors, or None if either is empty.

    The terms are added from the smallest to the largest, so the distance does not depend on the
    order in which the features (or the documents they were counted from) arrived."""
    total_x = sum(x_counts.values())
    total_y = sum(y_counts.values())
    if total_x <= 0 or total_y <= 0:
        return None
    terms = [abs(count / total_x - y_counts.get(f, 0) / total_y) for f, count in x_counts.items()]
    terms += [count / total_y for f, count in y_counts.items() if f not in x_counts]
    distance = 0.0
    for term in sorted(terms):
        distance += term
    return min(max(distance, 0.0), D_MAX)


def guard_threshold(theta: float, d_max: float = D_MAX) -> float:
    """θ clipped into [ε, d_max − ε]."""
    return min(max(float(theta), THETA_EPSILON), d_max - THETA_EPSILON)


def similarity(distance: float, theta: float, d_max: float = D_MAX) -> float:
    """sim(d, d_max, θ): 1 − d/(2θ) up to θ, then 1/2 − (d − θ)/(2(d_max − θ))."""
    theta = guard_threshold(theta, d_max)
    if distance <= theta:
        value = 1.0 - distance / (2.0 * theta)
    else:
        value = 0.5 - (distance - theta) / (2.0 * (d_max - theta))
    return min(max(value, 0.0), 1.0)


def similarity_array(distances: np.ndarray, thetas: np.ndarray, d_max: float = D_MAX) -> np.ndarray:
    """Vectorised ``similarity``: distances (cases × categories) against θ per category.

    NaN distances (abstaining categories) stay NaN.
    """
    thetas = np.clip(np.asarray(thetas, dtype=float), THETA_EPSILON, d_max - THETA_EPSILON)
    d = np.asarray(distances, dtype=float)
    below = 1.0 - d / (2.0 * thetas)
    above = 0.5 - (d - thetas) / (2.0 * (d_max - thetas))
    with np.errstate(invalid="ignore"):
        result = np.where(d <= thetas, below, above)
    return np.clip(result, 0.0, 1.0)
