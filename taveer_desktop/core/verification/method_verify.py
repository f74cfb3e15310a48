"""Verify one case with a model of any method: TAVeer alone, LambdaG, one of the ten comparison
systems (``core/methods/systems/comparison_verify.py``), or the fusion of any of them.

Every model is built on TAVeer's: ``verify_with_method`` verifies with it and applies the gate,
then hands the result to the seam of the model's stated method (``core/methods/method_registry.py``)
to state that method's ratio, TAVeer's own ratio kept beside it (a TAVeer model's seam states
TAVeer's result as it is).

``core/methods/taveer/verify.py`` verifies with TAVeer and applies the gate of the model's
validated conditions. A model validated with ``--method lambdag`` or ``--method fusion``
(``core/methods/lambdag/lambdag_model.py``) also carries LambdaG's calibration and reference
population and, for the fusion, the fusion's weights; ``verify_with_method`` then computes
LambdaG's likelihood ratio for the case (masked texts, ``core/methods/lambdag/lambdag.py``, seeded
by the model so the same case always gives the same ratio) and the conclusion states the model's
method's ratio — LambdaG's, or the fused one — under the same gate. A fused model scores the case
with every method it fuses (each with its own part, and its own findings: a raw score outside its
validated range, a comparison system that cannot compare the case — then the fusion gives no ratio)
and states their fusion. A comparison system's model states that system's calibrated, ELUB-bounded
ratio under the same gate (with a finding when its raw score lies outside the range validated, and
no ratio — with the method's reason — where it cannot compare the case). Every method's own ratio
is kept beside it (the result's ``methods``, ``core/verification/method_findings.py``), so that
agreement or disagreement between them can be stated (``presentation/method_agreement.py``), with
LambdaG's evidence placed on the questioned text when the verification explains itself
(``core/methods/lambdag/lambdag_evidence.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.methods.lambdag.lambdag_scorer import LambdaGScorer as LambdaGScorer
from taveer_desktop.core.methods.lambdag.lambdag_scorer import (
    lambdag_for_case as lambdag_for_case,
)
from taveer_desktop.core.methods.method_registry import base_seam, method_seam
from taveer_desktop.core.methods.method_seam import Case
from taveer_desktop.core.methods.taveer.model_fields import Model, method_of
from taveer_desktop.core.methods.taveer.taveer_seam import taveer_log10_lr as taveer_log10_lr
from taveer_desktop.core.methods.taveer.verify import VerificationResult, verify


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
    return method_seam(method_of(model)).state(model, result, base, case)
