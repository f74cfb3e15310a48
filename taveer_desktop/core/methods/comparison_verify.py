"""A case verified with a comparison system's model: its ratio, its bound, what limits it.

``core/method_verify.py`` verifies the case with TAVeer (the gate's findings, TAVeer's own
ratio) and, for a model whose method is one of the ten comparison systems, asks
``compare_case`` for that method's part:

- the method's raw score of the case — its features from the case's prepared texts, the
  model's impostors (the validation population's documents, any identical to a document of the
  case left out) and a generator seeded by the model, so the same case always gives the same
  score — then the model's calibration (with the case's lengths where it has length terms),
  bounded by the ELUB of the validation (its band's bound where it has bands);
- a ``validated_conditions`` finding when the raw score lies outside the range the
  validation's trials gave (the calibration is extrapolated there; the conclusion is then
  investigative at most), as LambdaG's ``lambdag_range_finding``;
- ``CannotCompare``: no ratio, and an ``enough_text`` finding that says why (no conclusion).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.feature_stream import prepare_text
from taveer_desktop.core.length_bands import bound_at
from taveer_desktop.core.methods.comparison import CannotCompare, CaseTexts
from taveer_desktop.core.methods.comparison_model import ComparisonPart, decode_impostors
from taveer_desktop.core.model import Model
from taveer_desktop.core.outcome import GateFinding, GateRule


@dataclass(frozen=True)
class CaseComparison:
    """One comparison system on one case (see the module)."""

    method: str
    raw: float | None  # None: the method could not compare the case
    log10_lr: float | None
    bounds: tuple[float | None, float | None]  # the bound that applied at the case's length
    findings: tuple[GateFinding, ...]
    cannot_compare: str | None = None  # the method's reason, when it gave no ratio


def raw_range_finding(
    name: str, raw: float, raw_range: tuple[float, float] | None
) -> GateFinding | None:
    """A method's raw score outside the range its validation trials gave: its calibration is
    extrapolated there."""
    if raw_range is None or raw_range[0] <= raw <= raw_range[1]:
        return None
    low, high = raw_range
    return GateFinding(
        GateRule.VALIDATED_CONDITIONS,
        f"{name}: its score {raw:+.4g} lies outside the range its validation trials gave "
        f"({low:+.4g} to {high:+.4g}); its likelihood ratio is extrapolated",
        raw,
        high if raw > high else low,
        None,
    )


def cannot_compare_finding(name: str, reason: str) -> GateFinding:
    """The method cannot work on the case: no ratio from it."""
    return GateFinding(
        GateRule.ENOUGH_TEXT, f"{name} cannot compare this case: {reason}", None, None, None
    )


def compare_case(
    model: Model, known_texts: Sequence[str], unknown_text: str, source: str = "the model"
) -> CaseComparison:
    """The model's comparison system on one case (see the module)."""
    part = ComparisonPart.of(model, source)
    method = part.method()
    name = method.info.name
    case = CaseTexts(tuple(prepare_text(t) for t in known_texts), prepare_text(unknown_text))
    own = {case.questioned, *case.known}
    impostors: tuple[str, ...] = ()
    if part.impostors is not None:
        impostors = tuple(t for t in decode_impostors(part.impostors, source) if t not in own)
    rng = np.random.default_rng([part.seed])
    calibration = part.calibration
    q_chars, k_chars = len(case.questioned), sum(len(t) for t in case.known)
    bounds = bound_at(
        calibration.bands, q_chars, calibration.min_log10_lr, calibration.max_log10_lr
    )
    try:
        features = np.asarray(method.features(case, impostors, rng), dtype=float).ravel()
    except CannotCompare as reason:
        text = str(reason) or "the method cannot compare these texts"
        return CaseComparison(
            part.id, None, None, bounds, (cannot_compare_finding(name, text),), text
        )
    raw = float(np.asarray(method.score(features[None, :], part.learned), dtype=float).ravel()[0])
    if not np.isfinite(raw):
        text = "its score of this case is not a finite number"
        return CaseComparison(
            part.id, None, None, bounds, (cannot_compare_finding(name, text),), text
        )
    log10_lr = float(calibration.log10_lr(raw, q_chars, k_chars))
    outside = raw_range_finding(name, raw, part.raw_range)
    return CaseComparison(part.id, raw, log10_lr, bounds, () if outside is None else (outside,))
