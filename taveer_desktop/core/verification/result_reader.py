"""The one reader of a verification result's dictionary (as stored in a run or printed as JSON).

``read_result`` checks the shape of everything it reads and returns the engine's own typed
``VerificationResult``, so the store, the report, the desktop and the command line all see the
same classification, conclusion and numbers. A result stored by an earlier version, before the
fitness-for-purpose gate existed, is read with the conclusion it can support: investigative
only (its conditions were never assessed), or none where the method gave no classification.
"""

from __future__ import annotations

import math
from typing import Any

from taveer_desktop.core.calibration.method_findings import findings_from_dict
from taveer_desktop.core.calibration.outcome import (
    Classification,
    Conclusion,
    ConclusionKind,
    GateFinding,
    GateRule,
    ResultFormatError,
    conclusion_from_dict,
    parse_enum,
)
from taveer_desktop.core.calibration.repeat_agreement import agreement_from_dict
from taveer_desktop.core.features.features import CATEGORY_IDS, CATEGORY_NAMES
from taveer_desktop.core.gate.population_fit import CaseFit
from taveer_desktop.core.gate.validation_basis import BasisReference, BasisSource
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.interpret import Interpretation, PhiEntry
from taveer_desktop.core.methods.taveer.verify import CategoryResult, VerificationResult


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ResultFormatError(message)


def _number(value: Any, name: str) -> float:
    _require(
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value),
        f"{name} is not a finite number",
    )
    return float(value)


def _optional_number(value: Any, name: str) -> float | None:
    return None if value is None else _number(value, name)


def _count(value: Any, name: str) -> int:
    _require(isinstance(value, int) and not isinstance(value, bool) and value >= 0, f"{name}")
    return int(value)


def _category(category: str, data: Any) -> CategoryResult:
    _require(isinstance(data, dict), f"categories.{category} is not an object")
    where = f"categories.{category}"
    return CategoryResult(
        category=category,
        name=CATEGORY_NAMES[category],
        in_ensemble=bool(data.get("in_ensemble")),
        abstained=bool(data.get("abstained")),
        distance=_optional_number(data.get("distance"), f"{where}.distance"),
        threshold=_number(data.get("threshold"), f"{where}.threshold"),
        similarity=_optional_number(data.get("similarity"), f"{where}.similarity"),
        features_unknown=_count(data.get("features_unknown"), f"{where}.features_unknown"),
        features_known=_count(data.get("features_known"), f"{where}.features_known"),
        occurrences_unknown=_count(data.get("occurrences_unknown"), f"{where}.occurrences"),
        occurrences_known=_count(data.get("occurrences_known"), f"{where}.occurrences"),
        warning=data.get("warning") if isinstance(data.get("warning"), str) else None,
    )


def _pairs(items: Any, name: str) -> tuple[tuple[str, float], ...]:
    _require(isinstance(items, list), f"{name} is not a list")
    out = []
    for item in items:
        _require(
            isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str),
            f"{name} holds something that is not a [feature, importance] pair",
        )
        out.append((item[0], _number(item[1], name)))
    return tuple(out)


def _interpretation(category: str, data: Any) -> Interpretation:
    _require(isinstance(data, dict), f"interpretation.{category} is not an object")
    phi = data.get("phi", [])
    _require(isinstance(phi, list), f"interpretation.{category}.phi is not a list")
    entries = []
    for entry in phi:
        _require(isinstance(entry, dict), f"interpretation.{category}.phi holds a non-object")
        entries.append(
            PhiEntry(
                feature=str(entry.get("feature")),
                x=_number(entry.get("x"), "phi.x"),
                y=_number(entry.get("y"), "phi.y"),
                distance=_number(entry.get("distance"), "phi.distance"),
                count_unknown=_count(entry.get("count_unknown"), "phi.count_unknown"),
                count_known=_count(entry.get("count_known"), "phi.count_known"),
            )
        )
    return Interpretation(
        category=category,
        threshold=_number(data.get("threshold"), f"interpretation.{category}.threshold"),
        theta_prime=_number(data.get("theta_prime"), f"interpretation.{category}.theta_prime"),
        phi=tuple(entries),
        l_y=_pairs(data.get("l_y", []), f"interpretation.{category}.l_y"),
        l_n=_pairs(data.get("l_n", []), f"interpretation.{category}.l_n"),
        abstained=bool(data.get("abstained")),
    )


def _legacy_conclusion(prediction: Classification, log10_lr: float | None) -> Conclusion:
    """The conclusion a result from before the gate can support."""
    if prediction is Classification.INSUFFICIENT:
        finding = GateFinding(
            GateRule.ENOUGH_TEXT,
            "every category of the ensemble abstained: insufficient text",
        )
        return Conclusion(ConclusionKind.NONE, (finding,), None, "")
    finding = GateFinding(
        GateRule.NOT_ASSESSED,
        "recorded by an earlier version of this program, before the fitness-for-purpose "
        "gate: whether the case lies within the model's validated conditions was not "
        "assessed; verify again for a conclusion",
    )
    return Conclusion(ConclusionKind.INVESTIGATIVE, (finding,), log10_lr, "")


def _population_fit(data: Any) -> CaseFit | None:
    """The case's stored population-fit check (None: none, or a result from before)."""
    if data is None:
        return None
    try:
        return CaseFit.from_dict(data, "the result")
    except InputError as error:
        raise ResultFormatError(error.plain_message) from None


def _validation(data: Any) -> BasisReference | None:
    """The validation record a result rested on (None: none, or a result from before)."""
    if data is None:
        return None
    _require(isinstance(data, dict), "validation is not an object")
    kind = data.get("kind")
    _require(kind in ("project", "file"), "validation.kind must be 'project' or 'file'")
    sha = data.get("sha256")
    _require(isinstance(sha, str) and len(sha) == 64, "validation.sha256 is not a SHA-256")
    record_id = data.get("record_id")
    _require(
        record_id is None or (isinstance(record_id, int) and not isinstance(record_id, bool)),
        "validation.record_id is not a whole number",
    )
    met = data.get("met")
    _require(met is None or isinstance(met, bool), "validation.met is not true, false or null")
    declaration = data.get("declaration")
    _require(declaration is None or isinstance(declaration, str), "validation.declaration")
    return BasisReference(
        source=BasisSource(kind, sha, str(data.get("path", "")), record_id),
        method=str(data.get("method", "taveer")),
        population=str(data.get("population", "")),
        met=met,
        too_small=data.get("too_small") is True,
        declaration=declaration,
    )


def read_result(data: Any) -> VerificationResult:
    """Validate a result dictionary and return it typed (``ResultFormatError`` if malformed)."""
    _require(isinstance(data, dict), "the result is not an object")
    prediction = parse_enum(Classification, data.get("prediction"), "prediction")
    categories = data.get("categories")
    _require(
        isinstance(categories, dict) and set(categories) == set(CATEGORY_IDS),
        "categories must give F1..F11",
    )
    ensemble = data.get("ensemble")
    _require(
        isinstance(ensemble, list) and bool(ensemble) and all(c in CATEGORY_IDS for c in ensemble),
        "ensemble must list categories F1..F11",
    )
    model = data.get("model")
    _require(isinstance(model, dict), "model is not an object")
    documents = data.get("documents")
    _require(
        isinstance(documents, dict)
        and isinstance(documents.get("unknown"), dict)
        and isinstance(documents.get("known"), dict),
        "documents must describe the unknown and the known texts",
    )
    unknown, known = documents["unknown"], documents["known"]
    log10_lr = _optional_number(data.get("log10_lr"), "log10_lr")
    if "conclusion" in data:
        conclusion = conclusion_from_dict(data["conclusion"])
    else:
        conclusion = _legacy_conclusion(prediction, log10_lr)
    if conclusion.kind is ConclusionKind.NONE:
        log10_lr = None
    band = data.get("inconclusive_band")
    _require(
        band is None or (isinstance(band, list) and len(band) == 2), "inconclusive_band is wrong"
    )
    interpretation = data.get("interpretation", {})
    _require(isinstance(interpretation, dict), "interpretation is not an object")
    _require(set(interpretation) <= set(CATEGORY_IDS), "interpretation names unknown categories")
    warnings = data.get("warnings", [])
    _require(
        isinstance(warnings, list) and all(isinstance(w, str) for w in warnings),
        "warnings must be a list of text",
    )
    version = data.get("software_version")
    return VerificationResult(
        prediction=prediction,
        similarity=_number(data.get("similarity"), "similarity"),
        ensemble=tuple(sorted(ensemble, key=CATEGORY_IDS.index)),
        categories={c: _category(c, categories[c]) for c in CATEGORY_IDS},
        warnings=tuple(warnings),
        model_name=str(model.get("name", "")),
        model_sha256=str(model.get("sha256", "")),
        lexicon_sha256=str(data.get("lexicon_sha256", "")),
        unknown_chars=_count(unknown.get("chars"), "documents.unknown.chars"),
        unknown_sentences=_count(unknown.get("sentences"), "documents.unknown.sentences"),
        known_chars=_count(known.get("chars"), "documents.known.chars"),
        known_sentences=_count(known.get("sentences"), "documents.known.sentences"),
        known_documents=_count(known.get("documents"), "documents.known.documents"),
        conclusion=conclusion,
        log10_lr=log10_lr,
        inconclusive_band=(
            (_number(band[0], "inconclusive_band"), _number(band[1], "inconclusive_band"))
            if band
            else None
        ),
        interpretation={
            c: _interpretation(c, interpretation[c]) for c in CATEGORY_IDS if c in interpretation
        },
        software_version=version if isinstance(version, str) else None,
        methods=findings_from_dict(data["methods"]) if "methods" in data else None,
        validation=_validation(data.get("validation")),
        population_fit=_population_fit(data.get("population_fit")),
        calibrated=bool(data.get("calibrated", True)),
        repeats=agreement_from_dict(data.get("repeats")),
    )
