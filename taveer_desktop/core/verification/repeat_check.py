"""Whether a verified case's stated ratio depends on its validation's seed, and what follows.

A validated model keeps each repeat's own fit beside the final model
(``core/methods/taveer/repeat_models.py``), of every method the stated ratio is made of.
``check_repeats`` asks the stated method's seam for the case's ratio under each
(``MethodSeam.repeat_case_ratio``, from the case's distances, lengths and the raw scores the
final model measured, ``CaseDistances``) and compares their directions with the final model's
(``core/calibration/repeat_agreement.py``). ``repeat_checked`` is the one step every stated
ratio passes, a verification's (``with_repeat_check``, ``core/verification/method_verify.py``)
and each case's of an evaluated corpus (``core/validation/corpus_gate.py``): where the repeats
agree the conclusion stays the final model's; where they do not, the conclusion is given no
direction — its ratio is stated as 1 (log10 LR 0, "no support for either proposition" on every
verbal scale) with a ``REPEATS_DISAGREE`` finding giving the spread — whatever kind of
conclusion the other rules leave. A conclusion of kind ``none`` states no ratio and is left
alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from taveer_desktop.core.calibration.outcome import (
    Conclusion,
    ConclusionKind,
    GateFinding,
    GateRule,
)
from taveer_desktop.core.calibration.repeat_agreement import (
    NotPossible,
    RepeatAgreement,
    RepeatStatus,
    agreement_of,
    not_possible,
)
from taveer_desktop.core.gate.gate import conclude
from taveer_desktop.core.methods.method_registry import method_seam, repeat_fits_of
from taveer_desktop.core.methods.method_seam import Case, CaseDistances, RawScore
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.verify import VerificationResult


def check_repeats(
    model: Model, case_distances: CaseDistances, stated: float | None, source: str
) -> RepeatAgreement:
    """The case's ratio under each repeat's fit against ``stated``, the final model's
    (``source`` names the model in messages)."""
    if stated is None:
        return not_possible(NotPossible.NO_RATIO)
    fits = repeat_fits_of(model, source)
    if fits is None:
        return not_possible(NotPossible.NO_REPEAT_FITS, stated)
    if len(fits) < 2:  # one draw shows nothing of how the ratio moves with the draw
        return not_possible(NotPossible.ONE_REPEAT, stated)
    seam = method_seam(method_of(model))
    ratios = [seam.repeat_case_ratio(model, case_distances, fit) for fit in fits]
    if any(r is None for r in ratios):
        return not_possible(NotPossible.METHOD_KEEPS_NONE, stated)
    values = tuple(r.log10_lr for r in ratios if r is not None)
    return agreement_of(stated, values, tuple(fit.seed for fit in fits))


def disagreement_message(agreement: RepeatAgreement) -> str:
    """The gate's technical sentence of a disagreement (the plain words are presentation's)."""
    n = len(agreement.log10_lrs)
    missing = n - sum(v is not None for v in agreement.log10_lrs)
    low, high = agreement.lowest, agreement.highest
    spread = f" from {low:+.3f} to {high:+.3f}" if low is not None and high is not None else ""
    final = agreement.final_log10_lr
    fits = "repeat's own fit" if n == 1 else f"{n} repeats' own fits"
    text = (
        f"the case's log10 LR under the validation's {fits} ranges{spread} "
        f"({agreement.towards_hp} above 0, {agreement.towards_hd} below)"
        + (f", {missing} giving none" if missing else "")
        + (f"; the model fitted on all repeats gives {final:+.3f}" if final is not None else "")
        + ": its direction depends on the seed, so it is stated as log10 LR 0 (LR 1)"
    )
    return text


def repeat_checked(
    model: Model, conclusion: Conclusion, case_distances: CaseDistances, source: str
) -> tuple[Conclusion, RepeatAgreement]:
    """The conclusion after the repeat check, and what the check found (see the module)."""
    stated = conclusion.log10_lr if conclusion.kind is not ConclusionKind.NONE else None
    agreement = check_repeats(model, case_distances, stated, source)
    if agreement.status is not RepeatStatus.DISAGREE:
        return conclusion, agreement
    spread = (agreement.highest or 0.0) - (agreement.lowest or 0.0)
    finding = GateFinding(GateRule.REPEATS_DISAGREE, disagreement_message(agreement), spread)
    return conclude(model, (*conclusion.findings, finding), 0.0), agreement


def distances_of(
    result: VerificationResult, case: Case, raws: Mapping[str, RawScore] | None = None
) -> CaseDistances:
    """What a verification measured of its case (its categories' distances, its lengths, and
    ``raws``: the raw score of each method its stated ratio is made of)."""
    distances = {c: category.distance for c, category in result.categories.items()}
    return CaseDistances(distances, result.calibration_lengths, len(case.unknown), raws or {})


def with_repeat_check(
    model: Model,
    result: VerificationResult,
    case: Case,
    raws: Mapping[str, RawScore] | None = None,
) -> VerificationResult:
    """The result with its repeat check (see the module; ``raws`` as in ``distances_of``)."""
    case_distances = distances_of(result, case, raws)
    concluded, agreement = repeat_checked(model, result.conclusion, case_distances, case.source)
    if agreement.status is not RepeatStatus.DISAGREE:
        return replace(result, repeats=agreement)
    return replace(result, conclusion=concluded, log10_lr=0.0, repeats=agreement)
