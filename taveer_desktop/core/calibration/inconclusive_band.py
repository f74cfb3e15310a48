"""An optional inconclusive band around the decision boundary (the PAN convention).

Inside [0.5 − w, 0.5 + w] the answer is 0.5, "inconclusive", counted as unanswered by c@1 and
F0.5u. The half-width w is learned on the training corpus: among 0 and every training case's
|s − 0.5|, the w that maximises c@1 (ties: the narrowest band).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class InconclusiveBand:
    low: float
    high: float
    training_c_at_1: float

    def contains(self, similarity: float) -> bool:
        return self.low <= similarity <= self.high

    def apply(self, scores: np.ndarray) -> np.ndarray:
        """Scores with every score inside the band replaced by 0.5."""
        scores = np.asarray(scores, dtype=float)
        return np.where((scores >= self.low) & (scores <= self.high), 0.5, scores)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def _c_at_1(scores: np.ndarray, truth: np.ndarray, width: float) -> float:
    n = len(scores)
    unanswered = np.abs(scores - 0.5) <= width if width > 0 else scores == 0.5
    correct = np.sum(~unanswered & ((scores > 0.5) == truth))
    return float((correct + unanswered.sum() * correct / n) / n)


def fit_inconclusive_band(scores: np.ndarray, truth: np.ndarray) -> InconclusiveBand:
    """The band of maximal training c@1."""
    scores, truth = np.asarray(scores, dtype=float), np.asarray(truth, dtype=bool)
    candidates = np.unique(np.concatenate(([0.0], np.abs(scores - 0.5))))
    best_width, best = 0.0, _c_at_1(scores, truth, 0.0)
    for width in candidates[1:]:
        value = _c_at_1(scores, truth, float(width))
        if value > best + 1e-12:
            best_width, best = float(width), value
    return InconclusiveBand(0.5 - best_width, 0.5 + best_width, best)
