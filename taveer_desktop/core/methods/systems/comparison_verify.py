"""A case verified with a comparison system's model: its ratio, its bound, what limits it.

``core/verification/method_verify.py`` verifies the case with TAVeer (the gate's findings, TAVeer's
own ratio) and, for a model whose method is one of the ten comparison systems, asks
``compare_case`` for that method's part:

- the method's raw score of the case — its features from the case's prepared texts, the
  model's impostors (the validation population's documents, any identical to a document of the
  case left out) and a generator seeded by the model, so the same case always gives the same
  score — then the model's calibration (with the case's lengths where it has length terms),
  bounded by the ELUB of the validation (its band's bound where it has bands);
- a ``validated_conditions`` finding when the raw score lies outside the range the
  validation's trials gave (the calibration is extrapolated there; the conclusion is then
  investigative at most; ``core/gate.raw_range_finding``, the rule LambdaG's λG is held to);
- ``CannotCompare``: no ratio, and an ``enough_text`` finding that says why (no conclusion).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.calibration.outcome import GateFinding, GateRule
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.gate.gate import raw_range_finding
from taveer_desktop.core.methods.systems.comparison import CannotCompare, CaseDraw, CaseTexts
from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart, decode_impostors
from taveer_desktop.core.methods.taveer.model_fields import Model


@dataclass(frozen=True)
class CaseComparison:
    """One comparison system on one case (see the module)."""

    method: str
    raw: float | None  # None: the method could not compare the case
    log10_lr: float | None
    bounds: tuple[float | None, float | None]  # the bound that applied at the case's length
    findings: tuple[GateFinding, ...]
    cannot_compare: str | None = None  # the method's reason, when it gave no ratio
    lengths: tuple[int, int] | None = None  # (questioned, known) its calibration took


def cannot_compare_finding(name: str, reason: str) -> GateFinding:
    """The method cannot work on the case: no ratio from it."""
    return GateFinding(
        GateRule.ENOUGH_TEXT, f"{name} cannot compare this case: {reason}", None, None, None
    )


class ComparisonScorer:
    """A comparison system's raw score of cases with one model: the impostors are decoded once
    and serve every case (``evaluate`` scores a whole corpus with one). Each case's generator
    is seeded by the model alone, so a case's score does not depend on which cases were
    scored before it, nor in which process. Picklable: a worker process decodes the impostors
    itself."""

    def __init__(self, part: ComparisonPart, source: str = "the model"):
        self.part = part
        self.source = source
        self.method = part.method()
        self._impostors: tuple[str, ...] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_impostors": None}

    def impostors(self) -> tuple[str, ...]:
        if self._impostors is None:
            self._impostors = (
                ()
                if self.part.impostors is None
                else decode_impostors(self.part.impostors, self.source)
            )
        return self._impostors

    def case(self, known_texts: Sequence[str], unknown_text: str) -> CaseTexts:
        return CaseTexts(tuple(prepare_text(t) for t in known_texts), prepare_text(unknown_text))

    def score(self, case: CaseTexts, seed: Sequence[int] | None = None) -> float | str:
        """The raw score of a case, or the method's reason for giving none. ``seed``: the
        generator's seed, the model's own unless given (the stability check draws each
        resample of a method that draws at random with another, ``core/comparison_stability``).
        """
        return self.score_many([(case, seed)])[0]

    def score_many(
        self, cases: Sequence[tuple[CaseTexts, Sequence[int] | None]]
    ) -> list[float | str]:
        """``score`` of several cases (each with its seed, or None), computed together where
        the method can (``ComparisonMethod.features_many``): the same scores."""
        draws: list[CaseDraw] = []
        for case, seed in cases:
            own = {case.questioned, *case.known}  # never a document of the case as an impostor
            impostors = tuple(t for t in self.impostors() if t not in own)
            rng = np.random.default_rng([self.part.seed] if seed is None else list(seed))
            draws.append((case, impostors, rng))
        found: list[float | str] = []
        for features in self.method.features_many(draws):
            if isinstance(features, CannotCompare):
                found.append(str(features) or "the method cannot compare these texts")
                continue
            row = np.asarray(features, dtype=float).ravel()[None, :]
            raw = float(np.asarray(self.method.score(row, self.part.learned)).ravel()[0])
            found.append(
                raw if np.isfinite(raw) else "its score of this case is not a finite number"
            )
        return found

    def raw(self, known_texts: Sequence[str], unknown_text: str) -> float:
        """The raw score of one case, NaN where the method cannot compare it (``evaluate``)."""
        found = self.score(self.case(known_texts, unknown_text))
        return found if isinstance(found, float) else math.nan


def compare_case(
    model: Model, known_texts: Sequence[str], unknown_text: str, source: str = "the model"
) -> CaseComparison:
    """The model's comparison system on one case (see the module)."""
    return compare_part(ComparisonPart.of(model, source), known_texts, unknown_text, source)


def compare_part(
    part: ComparisonPart, known_texts: Sequence[str], unknown_text: str, source: str = "the model"
) -> CaseComparison:
    """A comparison system's part (stated or fused) on one case (see the module)."""
    scorer = ComparisonScorer(part, source)
    name, part = scorer.method.info.name, scorer.part
    case = scorer.case(known_texts, unknown_text)
    calibration = part.calibration
    q_chars, k_chars = len(case.questioned), sum(len(t) for t in case.known)
    low, high = calibration.min_log10_lr, calibration.max_log10_lr
    bounds = bound_at(calibration.bands, q_chars, low, high)
    raw = scorer.score(case)
    if isinstance(raw, str):
        return CaseComparison(
            part.id, None, None, bounds, (cannot_compare_finding(name, raw),), raw
        )
    log10_lr = float(calibration.log10_lr(raw, q_chars, k_chars))
    outside = raw_range_finding(part.id, raw, part.raw_range)
    findings = () if outside is None else (outside,)
    return CaseComparison(part.id, raw, log10_lr, bounds, findings, lengths=(q_chars, k_chars))
