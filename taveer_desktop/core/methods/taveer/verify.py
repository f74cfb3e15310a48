"""Inference: verify one case (known documents vs. a questioned document) with a model.

The result carries, for all eleven categories, the distance, threshold, similarity and how many
features each side contributed; the ensemble's median similarity gives the method's
classification (Y iff > 0.5). A category with no feature on one side abstains; if every category
of the ensemble abstains the classification is "insufficient" rather than a guess. The
calibrated likelihood ratio and the fitness-for-purpose gate (``core/gate/gate.py``) give the
conclusion (``core/calibration/outcome.py``): evaluative, investigative only, or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from taveer_desktop import __version__
from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import (
    Classification,
    Conclusion,
    ConclusionKind,
    GateRule,
)
from taveer_desktop.core.calibration.repeat_agreement import RepeatAgreement
from taveer_desktop.core.features.features import (
    CATEGORY_IDS,
    CATEGORY_NAMES,
    DocumentFeatures,
    extract_features,
)
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.gate import CaseMeasures, assess, conclude, measure_case
from taveer_desktop.core.gate.gate_validation import case_population_fit
from taveer_desktop.core.gate.population_fit import CaseFit
from taveer_desktop.core.gate.validation_basis import BasisReference, ValidationBasis
from taveer_desktop.core.methods.taveer.ensemble import ensemble_similarities
from taveer_desktop.core.methods.taveer.interpret import Interpretation, interpret
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.scoring import similarity

# Reliability rules (docs/method.md): below these a result carries a warning.
MIN_DOCUMENT_CHARS = 500
MIN_DOCUMENT_SENTENCES = 5
MIN_CATEGORY_OCCURRENCES = 10


@dataclass(frozen=True)
class CategoryResult:
    """One category's contribution to a verification."""

    category: str
    name: str
    in_ensemble: bool
    abstained: bool
    distance: float | None
    threshold: float
    similarity: float | None
    features_unknown: int
    features_known: int
    occurrences_unknown: int
    occurrences_known: int
    warning: str | None = None


@dataclass(frozen=True)
class VerificationResult:
    """The classification and conclusion for one case and everything to explain and trace it."""

    prediction: Classification
    similarity: float
    ensemble: tuple[str, ...]
    categories: dict[str, CategoryResult]
    warnings: tuple[str, ...]
    model_name: str
    model_sha256: str
    lexicon_sha256: str
    unknown_chars: int
    unknown_sentences: int
    known_chars: int
    known_sentences: int
    known_documents: int
    conclusion: Conclusion
    log10_lr: float | None = None
    inconclusive_band: tuple[float, float] | None = None
    interpretation: dict[str, Interpretation] = field(default_factory=dict)
    software_version: str | None = None
    methods: MethodFindings | None = None  # a LambdaG or fused model's findings (None: TAVeer)
    validation: BasisReference | None = None  # the validation record the conclusion rested on
    # (questioned, known) characters as read — the lengths the gate holds against the validated
    # range and a length-aware calibration takes (``Calibration.log10_lr``)
    calibration_lengths: tuple[int, int] | None = None
    # the case's fit to the validation's population (None: no basis with a profile)
    population_fit: CaseFit | None = None
    # what a stored result states of its ratio (``result_reader``): False where its model gave
    # no calibrated ratio (trained before model format 2), True where it did or where the
    # result was stored before calibration existed; None: not read from a stored result
    calibrated: bool | None = field(default=None, compare=False)
    # the stated ratio under each repeat's own fit (None: not checked, a result from before)
    repeats: RepeatAgreement | None = None

    @property
    def likelihood_ratio(self) -> float | None:
        return None if self.log10_lr is None else 10.0**self.log10_lr

    @property
    def conditions_within(self) -> bool | None:
        """True inside the model's validated conditions, False outside, None if unknown."""
        rules = {f.rule for f in self.conclusion.findings}
        if GateRule.CONDITIONS_UNKNOWN in rules or GateRule.NOT_ASSESSED in rules:
            return None
        return GateRule.VALIDATED_CONDITIONS not in rules

    def to_dict(self) -> dict[str, Any]:
        conditions_rules = (GateRule.VALIDATED_CONDITIONS, GateRule.CONDITIONS_UNKNOWN)
        data = {
            "prediction": self.prediction.value,
            "similarity": self.similarity,
            "ensemble": list(self.ensemble),
            "categories": {c: asdict(r) for c, r in self.categories.items()},
            "warnings": list(self.warnings),
            "model": {"name": self.model_name, "sha256": self.model_sha256},
            "lexicon_sha256": self.lexicon_sha256,
            "software_version": self.software_version,
            "calibrated": self.log10_lr is not None,
            "log10_lr": self.log10_lr,
            "likelihood_ratio": self.likelihood_ratio,
            "inconclusive_band": list(self.inconclusive_band) if self.inconclusive_band else None,
            "conclusion": self.conclusion.to_dict(),
            "conditions": {
                "within": self.conditions_within,
                "reasons": [
                    f.message for f in self.conclusion.findings if f.rule in conditions_rules
                ],
            },
            "documents": {
                "unknown": {"chars": self.unknown_chars, "sentences": self.unknown_sentences},
                "known": {
                    "documents": self.known_documents,
                    "chars": self.known_chars,
                    "sentences": self.known_sentences,
                },
            },
        }
        if self.interpretation:
            data["interpretation"] = {c: i.to_dict() for c, i in self.interpretation.items()}
        if self.methods is not None:
            data["methods"] = self.methods.to_dict()
        data["validation"] = None if self.validation is None else self.validation.to_dict()
        data["population_fit"] = (
            None if self.population_fit is None else self.population_fit.to_dict()
        )
        data["repeats"] = None if self.repeats is None else self.repeats.to_dict()
        return data


def _document_warnings(label: str, features: DocumentFeatures) -> list[str]:
    if features.n_chars < MIN_DOCUMENT_CHARS or features.n_sentences < MIN_DOCUMENT_SENTENCES:
        return [
            f"the {label} is short ({features.n_chars} characters, {features.n_sentences} "
            f"sentences; reliable results need at least {MIN_DOCUMENT_CHARS} characters and "
            f"{MIN_DOCUMENT_SENTENCES} sentences)"
        ]
    return []


def _category_result(
    model: Model, category: str, unknown: DocumentFeatures, profile: DocumentFeatures
) -> CategoryResult:
    distance = unknown.distance(profile, category)
    threshold = model.thresholds[category]
    occ_x, occ_y = unknown.total(category), profile.total(category)
    in_ensemble = category in model.ensemble
    warning = None
    if distance is None:
        side = "questioned text" if occ_x == 0 else "known texts"
        warning = f"abstains: no {CATEGORY_NAMES[category].lower()} in the {side}"
    elif in_ensemble and min(occ_x, occ_y) < MIN_CATEGORY_OCCURRENCES:
        warning = (
            f"few features ({occ_x} in the questioned text, {occ_y} in the known texts; "
            f"fewer than {MIN_CATEGORY_OCCURRENCES} makes this category unreliable)"
        )
    return CategoryResult(
        category=category,
        name=CATEGORY_NAMES[category],
        in_ensemble=in_ensemble,
        abstained=distance is None,
        distance=distance,
        threshold=threshold,
        similarity=None if distance is None else similarity(distance, threshold),
        features_unknown=unknown.size(category),
        features_known=profile.size(category),
        occurrences_unknown=occ_x,
        occurrences_known=occ_y,
        warning=warning,
    )


def decide(model: Model, score: float) -> Classification:
    """Y iff the score is above 0.5 (the paper's rule), unless it lies in the model's band."""
    if model.inconclusive_band is not None and model.inconclusive_band.contains(score):
        return Classification.INCONCLUSIVE
    return Classification.SAME if score > 0.5 else Classification.DIFFERENT


def ensemble_similarity(model: Model, categories: dict[str, CategoryResult]) -> float | None:
    """Median similarity over the ensemble's non-abstaining categories (None if all abstain)."""
    row = np.array(
        [[np.nan if r.similarity is None else r.similarity for r in categories.values()]]
    )
    members = np.array([[CATEGORY_IDS.index(c) for c in model.ensemble]])
    if all(categories[c].abstained for c in model.ensemble):
        return None
    return float(ensemble_similarities(row, members)[0, 0])


def verify_features(
    model: Model,
    known: Sequence[DocumentFeatures],
    unknown: DocumentFeatures,
    lexicon_sha256: str,
    measures: CaseMeasures,
    explain: bool = False,
    basis: ValidationBasis | None = None,
) -> VerificationResult:
    """Verify from already extracted features and the gate's measures of the texts;
    ``basis``: the validation record the conclusion may rest on (None: investigative)."""
    profile = DocumentFeatures.combine(known)
    categories = {c: _category_result(model, c, unknown, profile) for c in CATEGORY_IDS}
    score = ensemble_similarity(model, categories)
    warnings = _document_warnings("questioned text", unknown)
    warnings += _document_warnings("known texts", profile)
    if model.lexicon_sha256 != lexicon_sha256:
        warnings.append("the model was trained with a different lexicon than the one in use")
    warnings += [f"{c}: {categories[c].warning}" for c in model.ensemble if categories[c].warning]
    if score is None:
        prediction, score = Classification.INSUFFICIENT, 0.5
        warnings.append("every category of the ensemble abstains: insufficient evidence")
    else:
        prediction = decide(model, score)
    log10_lr = None
    lengths = (measures.questioned.chars, measures.known_chars)
    if model.calibration is not None and prediction is not Classification.INSUFFICIENT:
        log10_lr = float(model.calibration.log10_lr(score, *lengths))
    findings = assess(
        model,
        measures,
        {c: r.distance for c, r in categories.items()},
        lexicon_sha256,
        basis=basis,
    )
    conclusion = conclude(model, findings, log10_lr)
    if conclusion.kind is ConclusionKind.NONE:
        log10_lr = None
    interpretation = {}
    if explain:
        interpretation = {
            c: interpret(c, unknown.counts[c], profile.counts[c], model.thresholds[c])
            for c in model.ensemble
        }
    return VerificationResult(
        prediction=prediction,
        similarity=score,
        ensemble=model.ensemble,
        categories=categories,
        warnings=tuple(warnings),
        model_name=model.name,
        model_sha256=model.sha256,
        lexicon_sha256=lexicon_sha256,
        unknown_chars=unknown.n_chars,
        unknown_sentences=unknown.n_sentences,
        known_chars=profile.n_chars,
        known_sentences=profile.n_sentences,
        known_documents=len(known),
        conclusion=conclusion,
        log10_lr=log10_lr,
        inconclusive_band=(
            (model.inconclusive_band.low, model.inconclusive_band.high)
            if model.inconclusive_band
            else None
        ),
        interpretation=interpretation,
        software_version=__version__,
        validation=None if basis is None else basis.reference(),
        population_fit=case_population_fit(basis, measures.fit_counts),
        calibration_lengths=lengths,
    )


def verify(
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    lexicon: Lexicon | None = None,
    explain: bool = False,
    basis: ValidationBasis | None = None,
) -> VerificationResult:
    """Verify whether the author of ``known_texts`` also wrote ``unknown_text``; an evaluative
    conclusion needs ``basis``, the validation record of this model declared relevant to the
    case (``core/gate/validation_basis.py``)."""
    if not known_texts:
        raise ValueError("at least one known document is needed")
    lexicon = lexicon or default_lexicon()
    known = [extract_features(text, lexicon) for text in known_texts]
    unknown = extract_features(unknown_text, lexicon)
    measures = measure_case(known_texts, unknown_text, lexicon)
    return verify_features(model, known, unknown, lexicon.sha256, measures, explain, basis)
