"""Verify one case with a model of any method: TAVeer alone, LambdaG, one of the ten comparison
systems (``core/methods/systems/comparison_verify.py``), or the fusion of any of them.

Every model is built on TAVeer's: ``verify_with_method`` verifies with it and applies the gate,
asks the seam of the model's stated method (``core/methods/method_registry.py``) what the result
states (its ``Statement``: that method's ratio, TAVeer's own kept beside it; none for a TAVeer
model, whose result states its ratio), and concludes from it under the same gate.

``core/methods/taveer/verify.py`` verifies with TAVeer and applies the gate of the model's
validated conditions. LambdaG's seam computes its likelihood ratio for the case (masked texts,
seeded by the model so the same case always gives the same ratio; ``lambdag_seam.py``); a
comparison system's states its calibrated, ELUB-bounded ratio (with a finding when its raw score
lies outside the range validated, and no ratio — with the method's reason — where it cannot
compare the case; ``comparison_seam.py``); a fused model's scores the case with every method it
fuses, each through its own seam and with its own findings, and states their fusion (no ratio
where one of them gives none; ``fusion_seam.py``). Every method's own ratio is kept beside the
stated one (the result's ``methods``, ``core/calibration/method_findings.py``), so that
agreement or disagreement between them can be stated (``presentation/method_agreement.py``), with
LambdaG's evidence placed on the questioned text when the verification explains itself
(``core/methods/lambdag/lambdag_evidence.py``). Last, the stated ratio is checked against each
repeat of the model's validation (``core/verification/repeat_check.py``): where they point
different ways it is stated as 1, no direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.gate import conclude
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.methods.lambdag.lambdag_scorer import LambdaGScorer as LambdaGScorer
from taveer_desktop.core.methods.lambdag.lambdag_scorer import (
    lambdag_for_case as lambdag_for_case,
)
from taveer_desktop.core.methods.method_registry import base_seam, method_seam
from taveer_desktop.core.methods.method_seam import Bounds, Case
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.taveer_seam import taveer_log10_lr as taveer_log10_lr
from taveer_desktop.core.methods.taveer.verify import VerificationResult, verify
from taveer_desktop.core.verification.repeat_check import with_repeat_check


def verify_with_method(
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon | None = None,
    source: str = "the model",
    explain: bool = False,
    basis: ValidationBasis | None = None,
) -> VerificationResult:
    """Verify with the model's method (see the module); ``explain`` adds TAVeer's
    interpretation and LambdaG's evidence in the text; ``basis`` is the validation record an
    evaluative conclusion rests on (None: investigative at most)."""
    lexicon = lexicon or default_lexicon()
    result = verify(model, known_texts, unknown_text, lexicon, explain=explain, basis=basis)
    case = Case(known_texts, unknown_text, lexicon, source, explain)
    base = base_seam().case_ratio(model, result, case)
    said = method_seam(method_of(model)).statement(model, result, base, case)
    if said is None:  # a TAVeer model: its result states its ratio
        return with_repeat_check(model, result, case)
    conclusion = conclude(model, (*result.conclusion.findings, *said.findings), said.log10_lr)
    findings = MethodFindings(
        said.stated,
        said.by_method,
        said.lambdag_raw,
        said.lambdag_order,
        said.evidence,
        tuple(m for m, v in said.by_method.items() if _at_bound(v, said.bounds[m])),
        raw=said.raw,
        cannot_compare=said.cannot_compare,
    )
    stated = replace(result, log10_lr=conclusion.log10_lr, conclusion=conclusion, methods=findings)
    return with_repeat_check(model, stated, case, said.scores)


def _at_bound(log10_lr: float | None, bounds: Bounds) -> bool:
    """Whether a ratio equals the lower or upper bound of what produced it (its ELUB)."""
    return log10_lr is not None and any(b is not None and abs(log10_lr - b) < 1e-9 for b in bounds)
