"""The paper's interpretation method (Algorithm 1): which features pushed the decision where.

For one case and one category: X is the unknown (questioned) document, Y the known profile; Φ
pairs each of the m features of the union vocabulary with its element-wise distance |x − y|;
θ' = θ_F / m is the equilibrated feature-wise threshold; a feature with |x − y| < θ' goes to
L_Y ("same author") and every other one to L_N, each with importance λ = |θ' − d|. Both lists
are sorted by λ descending (ties by feature text, so the order is deterministic).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class PhiEntry:
    """One feature of Φ: relative frequencies x (unknown) and y (known), their distance."""

    feature: str
    x: float
    y: float
    distance: float
    count_unknown: int
    count_known: int


@dataclass(frozen=True)
class Interpretation:
    """(Φ, L_Y, L_N) for one category of one case."""

    category: str
    threshold: float
    theta_prime: float
    phi: tuple[PhiEntry, ...]
    l_y: tuple[tuple[str, float], ...]
    l_n: tuple[tuple[str, float], ...]
    abstained: bool

    @property
    def m(self) -> int:
        return len(self.phi)

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "threshold": self.threshold,
            "m": self.m,
            "theta_prime": self.theta_prime,
            "abstained": self.abstained,
            "phi": [asdict(entry) for entry in self.phi],
            "l_y": [[feature, importance] for feature, importance in self.l_y],
            "l_n": [[feature, importance] for feature, importance in self.l_n],
        }


def interpret(
    category: str,
    unknown_counts: Mapping[str, int],
    known_counts: Mapping[str, int],
    threshold: float,
) -> Interpretation:
    """Algorithm 1 for one category; an abstaining category gives empty lists."""
    total_x = sum(unknown_counts.values())
    total_y = sum(known_counts.values())
    if total_x == 0 or total_y == 0:
        return Interpretation(category, threshold, 0.0, (), (), (), True)
    vocabulary = sorted(set(unknown_counts) | set(known_counts))
    phi = []
    for feature in vocabulary:
        cx, cy = unknown_counts.get(feature, 0), known_counts.get(feature, 0)
        x, y = cx / total_x, cy / total_y
        phi.append(PhiEntry(feature, x, y, abs(x - y), cx, cy))
    theta_prime = threshold / len(phi)
    l_y: list[tuple[str, float]] = []
    l_n: list[tuple[str, float]] = []
    for entry in phi:
        importance = abs(theta_prime - entry.distance)
        (l_y if entry.distance < theta_prime else l_n).append((entry.feature, importance))
    l_y.sort(key=lambda item: (-item[1], item[0]))
    l_n.sort(key=lambda item: (-item[1], item[0]))
    phi.sort(key=lambda entry: (-entry.distance, entry.feature))
    return Interpretation(
        category, threshold, theta_prime, tuple(phi), tuple(l_y), tuple(l_n), False
    )
