"""Verify one case with a model of any method: TAVeer alone, LambdaG, one of the ten comparison
systems (``core/methods/systems/comparison_verify.py``), or the fusion of any of them.

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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.calibration.outcome import Classification, GateFinding
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.gate import conclude, raw_range_finding
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.ground.registry import COMPARISON_IDS, MethodId
from taveer_desktop.core.methods.taveer.model import Model, method_of
from taveer_desktop.core.methods.taveer.verify import VerificationResult, verify
from taveer_desktop.core.verification.method_findings import LambdaGEvidence, MethodFindings

if TYPE_CHECKING:  # LambdaG's modules load only when a model of another method is used
    from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
    from taveer_desktop.core.methods.systems.comparison_model import ComparisonPart
    from taveer_desktop.core.methods.systems.comparison_verify import CaseComparison


def taveer_log10_lr(model: Model, result: VerificationResult) -> float | None:
    """TAVeer's own log10 LR, before the gate decides whether a conclusion may state it."""
    if model.calibration is None or result.prediction is Classification.INSUFFICIENT:
        return None
    lengths = result.calibration_lengths or (None, None)
    return float(model.calibration.log10_lr(result.similarity, *lengths))


Bounds = tuple[float | None, float | None]


def _at_bound(log10_lr: float | None, bounds: Bounds) -> bool:
    """Whether a ratio equals the lower or upper bound of what produced it (its ELUB)."""
    return log10_lr is not None and any(b is not None and abs(log10_lr - b) < 1e-9 for b in bounds)


class LambdaGScorer:
    """LambdaG's part of verifications with one model: the model's reference population is
    decoded once and serves every case (``evaluate`` scores a whole corpus with one). Each
    case's samples come from a generator seeded by the model, so a case's ratio does not
    depend on which cases were scored before it, nor in which process. Picklable: a worker
    process gets the model's part and decodes the reference itself."""

    def __init__(self, part: LambdaGPart, lexicon: Lexicon, source: str):
        self.part = part
        self.lexicon = lexicon
        self.source = source
        self._pool: ReferencePool | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_pool": None}

    def pool(self) -> ReferencePool:
        if self._pool is None:
            from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool
            from taveer_desktop.core.methods.lambdag.lambdag_masking import split_sentences
            from taveer_desktop.core.methods.lambdag.lambdag_model import decode_reference

            self._pool = ReferencePool.from_sentences(
                split_sentences(decode_reference(self.part.reference, self.source)),
                self.part.order,
                self.part.vocabulary_size,
            )
        return self._pool

    def score(
        self, known_texts: Sequence[str], unknown_text: str, explain: bool = False
    ) -> tuple[float, float, LambdaGEvidence | None]:
        """(raw λG, calibrated log10 LR, LambdaG's evidence in the text if ``explain``) of a
        case."""
        import numpy as np

        from taveer_desktop.core.features.feature_stream import encode_document, prepare_text
        from taveer_desktop.core.methods.lambdag.kneser_ney import sentence_keys
        from taveer_desktop.core.methods.lambdag.lambdag import contributions, lambda_g
        from taveer_desktop.core.methods.lambdag.lambdag_evidence import place_evidence
        from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences

        part, lexicon = self.part, self.lexicon
        known = sentence_keys(
            [s for text in known_texts for s in masked_sentences(encode_document(text, lexicon))],
            part.order,
        )
        document = encode_document(unknown_text, lexicon)
        questioned = sentence_keys(masked_sentences(document), part.order)
        rng = np.random.default_rng(part.seed)
        scores = lambda_g(known, [questioned], self.pool(), part.samples, rng)[0]
        raw = float(scores.by_order[part.order - 1])
        evidence = None
        if explain:
            found = contributions(scores, questioned, part.order)
            evidence = place_evidence(prepare_text(unknown_text), document, lexicon, found)
        lengths = (len(unknown_text), sum(len(t) for t in known_texts))
        return raw, float(part.calibration.log10_lr(raw, *lengths)), evidence

    def raw(self, known_texts: Sequence[str], unknown_text: str) -> float:
        """The raw λG of one case alone (what ``evaluate`` collects from its workers)."""
        return self.score(known_texts, unknown_text)[0]


def lambdag_for_case(
    part: LambdaGPart,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str,
    explain: bool = False,
) -> tuple[float, float, LambdaGEvidence | None]:
    """(raw λG, calibrated log10 LR, LambdaG's evidence in the text if ``explain``) of a case."""
    return LambdaGScorer(part, lexicon, source).score(known_texts, unknown_text, explain)


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
    method = method_of(model)
    if method == MethodId.TAVEER:  # the common case, without another method
        return result
    taveer = taveer_log10_lr(model, result)
    if method in COMPARISON_IDS:
        return _with_comparison(model, result, taveer, known_texts, unknown_text, source)
    if method == MethodId.FUSION:
        return _with_fusion(
            model, result, taveer, known_texts, unknown_text, lexicon, source, explain
        )
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart

    part = LambdaGPart.of(model, source)
    raw, lambdag, evidence = lambdag_for_case(
        part, known_texts, unknown_text, lexicon, source, explain
    )
    by_method: dict[str, float | None] = {
        MethodId.TAVEER.value: taveer,
        MethodId.LAMBDAG.value: lambdag,
    }
    findings_ = result.conclusion.findings
    outside = raw_range_finding(MethodId.LAMBDAG, raw, part.raw_range)
    if outside is not None:
        findings_ = (*findings_, outside)
    conclusion = conclude(model, findings_, lambdag)
    chars = len(unknown_text)  # each ratio's bound at this length
    bounds: dict[str, Bounds] = {
        MethodId.TAVEER.value: _taveer_bounds(model, chars),
        MethodId.LAMBDAG.value: _lambdag_bounds(part, chars),
    }
    at_bound = tuple(m for m, v in by_method.items() if _at_bound(v, bounds[m]))
    findings = MethodFindings(method, by_method, raw, part.order, evidence, at_bound)
    return replace(result, log10_lr=conclusion.log10_lr, conclusion=conclusion, methods=findings)


def _lambdag_bounds(part: LambdaGPart, chars: int) -> Bounds:
    cal = part.calibration
    return bound_at(cal.bands, chars, cal.min_log10_lr, cal.max_log10_lr)


def _with_fusion(
    model: Model,
    result: VerificationResult,
    taveer: float | None,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon,
    source: str,
    explain: bool,
) -> VerificationResult:
    """The result stating the fused ratio: every fused method scores the case with its own
    part (TAVeer: the model; LambdaG: ``"lambdag"``; a comparison system: its part in
    ``"comparisons"``), then the fusion combines their log10 LRs in ``fusion.methods`` order.
    A method that gives no ratio (TAVeer without enough text, a comparison system that cannot
    compare the case: its finding says so) leaves the fusion without one; a raw score outside
    a method's validated range is a finding, as for the method alone."""
    import numpy as np

    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart, fusion_of
    from taveer_desktop.core.methods.systems.comparison_model import fused_parts

    fusion = fusion_of(model, source)
    chars = len(unknown_text)  # each ratio's bound at this length
    by_method: dict[str, float | None] = {MethodId.TAVEER.value: taveer}
    bounds: dict[str, Bounds] = {MethodId.TAVEER.value: _taveer_bounds(model, chars)}
    found: list[GateFinding] = []
    lambdag_raw = order = evidence = cannot = None
    if MethodId.LAMBDAG in fusion.methods:
        part = LambdaGPart.of(model, source)
        lambdag_raw, lambdag, evidence = lambdag_for_case(
            part, known_texts, unknown_text, lexicon, source, explain
        )
        order = part.order
        by_method[MethodId.LAMBDAG.value] = lambdag
        bounds[MethodId.LAMBDAG.value] = _lambdag_bounds(part, chars)
        outside = raw_range_finding(MethodId.LAMBDAG, lambdag_raw, part.raw_range)
        found += [] if outside is None else [outside]
    for method_id, comparison in fused_parts(model, source).items():
        compared = _compare(model, comparison, known_texts, unknown_text, source)
        by_method[method_id] = compared.log10_lr
        bounds[method_id] = compared.bounds
        found += compared.findings
        cannot = cannot or compared.cannot_compare
    columns = [by_method.get(m) for m in fusion.methods]
    stated = None
    if all(v is not None for v in columns):
        row = np.array([[float(v) for v in columns if v is not None]])
        stated = float(fusion.log10_lr(row, chars)[0])
    by_method[MethodId.FUSION.value] = stated
    bounds[MethodId.FUSION.value] = bound_at(
        fusion.bands, chars, fusion.min_log10_lr, fusion.max_log10_lr
    )
    conclusion = conclude(model, (*result.conclusion.findings, *found), stated)
    at_bound = tuple(m for m, v in by_method.items() if _at_bound(v, bounds[m]))
    findings = MethodFindings(
        MethodId.FUSION.value,
        by_method,
        lambdag_raw,
        order,
        evidence,
        at_bound,
        cannot_compare=cannot,
    )
    return replace(result, log10_lr=conclusion.log10_lr, conclusion=conclusion, methods=findings)


def _compare(
    model: Model,
    part: ComparisonPart,
    known_texts: Sequence[str],
    unknown_text: str,
    source: str,
) -> CaseComparison:
    """One fused comparison system on the case, as a model stating it would score it (the
    same gate findings: raw score outside its validated range, cannot compare)."""
    from taveer_desktop.core.methods.systems.comparison_verify import compare_case

    alone = {"method": part.id, "comparison": part.to_dict()}
    return compare_case(replace(model, extra=alone), known_texts, unknown_text, source)


def _taveer_bounds(model: Model, chars: int) -> Bounds:
    cal = model.calibration
    return bound_at(cal.bands, chars, cal.min_log10_lr, cal.max_log10_lr) if cal else (None, None)


def _with_comparison(
    model: Model,
    result: VerificationResult,
    taveer: float | None,
    known_texts: Sequence[str],
    unknown_text: str,
    source: str,
) -> VerificationResult:
    """The result stating the model's comparison system's ratio (see the module)."""
    from taveer_desktop.core.methods.systems.comparison_verify import compare_case

    found = compare_case(model, known_texts, unknown_text, source)
    conclusion = conclude(model, (*result.conclusion.findings, *found.findings), found.log10_lr)
    by_method = {MethodId.TAVEER.value: taveer, found.method: found.log10_lr}
    bounds = {
        MethodId.TAVEER.value: _taveer_bounds(model, len(unknown_text)),
        found.method: found.bounds,
    }
    at_bound = tuple(m for m, v in by_method.items() if _at_bound(v, bounds[m]))
    findings = MethodFindings(
        found.method,
        by_method,
        at_bound=at_bound,
        raw=found.raw,
        cannot_compare=found.cannot_compare,
    )
    return replace(result, log10_lr=conclusion.log10_lr, conclusion=conclusion, methods=findings)
