"""What a comparison system must provide, and the texts it is given.

The ten comparison systems of the TAVeer paper differ only in how they turn a case's texts
into a score; everything else — the trials, the folds, the calibration to a likelihood ratio,
the ELUB bound, the gate, the record, the report — is written once, around this interface
(``core/methods/systems/comparison_validation.py`` and ``comparison_verify.py``).

A method gets **prepared texts** (``feature_stream.prepare_text``: the normalised text every
other method reads) of one case — the known documents and the questioned text — and, if it
``needs_impostors``, documents of *other* authors of the validation population: in a
validation trial those of the authors of the other folds, never the trial's own; in a case the
population the model was validated on, never a document of the case. It gets a seeded
``numpy.random.Generator`` and must draw from nothing else, so that the same case with the same
seed always gives the same score.

Three steps, as in scikit-learn's estimator contract:

1. ``features(case, impostors, rng)`` → a 1-D float vector describing the case (a
   compression dissimilarity, a degradation curve, a similarity per feature category …), or
   ``CannotCompare`` with a plain reason when the method cannot work on the case (Unmasking on
   texts too short to cut into chunks); the validation counts such trials and a case gets no
   ratio from the method. ``features_many`` gives several cases' at once (the validation's
   trials, the stability check's resamples), the same vectors.
2. ``learn(features, truth)`` → the method's learned parameters (JSON-ready, stored in the
   model) from the training trials' feature rows; most methods learn nothing here (their
   threshold is replaced by the calibration), Unmasking learns its curve classifier.
3. ``score(features, learned)`` → one raw score per row, **higher meaning more like the same
   author**. The calibration (logistic, bounded by the ELUB) turns it into a likelihood ratio.

Hyperparameters come from the seed's tables (``DEFAULTS``) and are stored in the model and the
record; ``check_params`` / ``check_learned`` refuse malformed ones read from a model file
(``ValueError`` with the reason).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodInfo


class CannotCompare(Exception):
    """The method cannot work on this case; ``str(error)`` is the reason, a plain sentence
    (e.g. "Unmasking needs at least 10 chunks of 5 words in each text; the questioned text
    gives 4")."""


@dataclass(frozen=True)
class CaseTexts:
    """The prepared texts of one case (or one validation trial)."""

    known: tuple[str, ...]  # the known documents (or the parts of them a trial uses)
    questioned: str

    @property
    def known_joined(self) -> str:
        """The known documents as one text (a blank line between documents)."""
        return "\n\n".join(self.known)


CaseDraw = tuple[CaseTexts, Sequence[str], np.random.Generator]  # a case, impostors, generator


class ComparisonMethod(ABC):
    """One comparison system (see the module). Subclasses set ``info`` and ``DEFAULTS`` and
    implement ``features``; they are plain picklable objects (validation runs them in worker
    processes)."""

    info: ClassVar[MethodInfo]
    DEFAULTS: ClassVar[Mapping[str, Any]] = {}
    BATCHES: ClassVar[bool] = False  # ``features_many`` computes several cases at once

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        unknown = set(params or {}) - set(self.DEFAULTS)
        if unknown:
            raise ValueError(f"{self.info.name} has no hyperparameter {', '.join(sorted(unknown))}")
        self.params: dict[str, Any] = {**self.DEFAULTS, **(params or {})}
        self.check_params(self.params)

    def check_params(self, params: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Refuse hyperparameters out of range (``ValueError`` naming the parameter)."""

    def params_for_lengths(
        self, questioned_chars: np.ndarray, known_chars: np.ndarray
    ) -> dict[str, Any]:
        """The hyperparameters to validate with on trials of these lengths (characters of each
        trial's questioned and known text): by default this method's own, whatever the
        lengths. A method whose papers give settings per text length chooses here."""
        return dict(self.params)

    @abstractmethod
    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        """The case's feature vector (1-D, finite), or ``CannotCompare``."""

    def features_many(self, cases: Sequence[CaseDraw]) -> list[np.ndarray | CannotCompare]:
        """The features of several cases, each with its own impostors and generator, in order:
        each the vector ``features`` gives it, or its ``CannotCompare``. By default one case
        after another; a method that can compute several cases at once, the same numbers,
        overrides it (Generalised Unmasking's SVMs)."""
        found: list[np.ndarray | CannotCompare] = []
        for case, impostors, rng in cases:
            try:
                found.append(np.asarray(self.features(case, impostors, rng), dtype=float))
            except CannotCompare as reason:
                found.append(reason)
        return found

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        """Learned parameters from training rows (trials × features) and their truth."""
        return {}

    def score(self, features: np.ndarray, learned: Mapping[str, Any]) -> np.ndarray:
        """One raw score per row, higher = more like the same author (default: column 0)."""
        return np.asarray(features, dtype=float)[:, 0]

    def check_learned(self, learned: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Refuse learned parameters read from a model file that ``score`` cannot use."""
