"""The one vocabulary of what a verification concluded, shared by every layer.

Two separate things are reported for each verification, and they must never be confused:

- the **classification** of the TAVeer method (its similarity score against the 0.5 boundary):
  ``Y`` (the score lies above 0.5, "same author" side), ``N``, ``inconclusive`` (inside the
  model's optional band around 0.5) or ``insufficient`` (every ensemble category abstains);
- the **conclusion** a forensic report may state: a likelihood ratio for the findings under two
  propositions, Hp (the author of the known documents wrote the questioned document) and Hd
  (someone else from the model's calibration population wrote it). Its ``kind`` says how far it
  may be relied on: ``evaluative`` (calibrated, every fitness-for-purpose rule met),
  ``investigative`` (a likelihood ratio exists but the case lies outside the conditions the model
  was validated under, or they are unknown, or the model has no validation record on a
  population declared relevant to the case, or that validation is too small or failed its
  criteria, or the case does not fit the population: for investigation only) or ``none`` (no
  conclusion: the text is not usable, too short, or the same text as a known document).

The fitness-for-purpose gate (``core/gate/gate.py``) produces the ``GateFinding`` records; the
words a person reads are made in ``presentation/`` from these values, never from ad-hoc strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar


class Classification(StrEnum):
    """The TAVeer method's classification (the paper's decision rule, plus two non-answers)."""

    SAME = "Y"
    DIFFERENT = "N"
    INCONCLUSIVE = "inconclusive"
    INSUFFICIENT = "insufficient"

    @property
    def answered(self) -> bool:
        return self in (Classification.SAME, Classification.DIFFERENT)


class ConclusionKind(StrEnum):
    """How far the likelihood ratio of a verification may be relied on."""

    EVALUATIVE = "evaluative"
    INVESTIGATIVE = "investigative"
    NONE = "none"


class GateRule(StrEnum):
    """The fitness-for-purpose rules (docs/method.md, "The fitness-for-purpose gate")."""

    USABLE_TEXT = "usable_text"
    ENOUGH_TEXT = "enough_text"
    SAME_TEXT = "same_text"
    VALIDATED_CONDITIONS = "validated_conditions"
    CONDITIONS_UNKNOWN = "conditions_unknown"
    NOT_CALIBRATED = "not_calibrated"
    LEXICON = "lexicon"
    VALIDATION_NOT_MET = "validation_not_met"
    NO_VALIDATION = "no_validation"
    VALIDATION_TOO_SMALL = "validation_too_small"
    POPULATION_FIT = "population_fit"
    NOT_ASSESSED = "not_assessed"  # a result stored before this program had the gate
    # the validation's repeats point different ways: the ratio is stated as 1, no direction
    # (``core/calibration/repeat_agreement.py``); the kind stays what the other rules leave
    REPEATS_DISAGREE = "repeats_disagree"


# The kind of conclusion that remains at most when a rule is broken.
RULE_CEILING = {
    GateRule.USABLE_TEXT: ConclusionKind.NONE,
    GateRule.ENOUGH_TEXT: ConclusionKind.NONE,
    GateRule.SAME_TEXT: ConclusionKind.NONE,
    GateRule.VALIDATED_CONDITIONS: ConclusionKind.INVESTIGATIVE,
    GateRule.CONDITIONS_UNKNOWN: ConclusionKind.INVESTIGATIVE,
    GateRule.NOT_CALIBRATED: ConclusionKind.INVESTIGATIVE,
    GateRule.LEXICON: ConclusionKind.INVESTIGATIVE,
    GateRule.VALIDATION_NOT_MET: ConclusionKind.INVESTIGATIVE,
    GateRule.NO_VALIDATION: ConclusionKind.INVESTIGATIVE,
    GateRule.VALIDATION_TOO_SMALL: ConclusionKind.INVESTIGATIVE,
    GateRule.POPULATION_FIT: ConclusionKind.INVESTIGATIVE,
    GateRule.NOT_ASSESSED: ConclusionKind.INVESTIGATIVE,
    GateRule.REPEATS_DISAGREE: ConclusionKind.EVALUATIVE,
}
_KIND_ORDER = (ConclusionKind.NONE, ConclusionKind.INVESTIGATIVE, ConclusionKind.EVALUATIVE)


@dataclass(frozen=True)
class GateFinding:
    """One broken rule: what was measured, against which limit, with one plain sentence."""

    rule: GateRule
    message: str
    measured: float | None = None
    limit: float | None = None
    document: str | None = None  # "questioned", "known" or None for the case as a whole

    @property
    def ceiling(self) -> ConclusionKind:
        return RULE_CEILING[self.rule]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule.value,
            "message": self.message,
            "measured": self.measured,
            "limit": self.limit,
            "document": self.document,
        }


def conclusion_kind(findings: tuple[GateFinding, ...]) -> ConclusionKind:
    """The strongest kind of conclusion the findings leave (evaluative when there are none)."""
    kinds = [f.ceiling for f in findings] or [ConclusionKind.EVALUATIVE]
    return min(kinds, key=_KIND_ORDER.index)


@dataclass(frozen=True)
class Conclusion:
    """What may be concluded from one verification, with every reason that limits it.

    ``population`` names the relevant population of Hd (the model's calibration population).
    ``log10_lr`` is kept for investigative conclusions too (shown, clearly marked, for
    investigation) and is None for ``none`` or an uncalibrated model.
    """

    kind: ConclusionKind
    findings: tuple[GateFinding, ...]
    log10_lr: float | None
    population: str

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f.message for f in self.findings)

    @property
    def outside_conditions(self) -> bool:
        return any(f.rule is GateRule.VALIDATED_CONDITIONS for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "reasons": list(self.reasons),
            "findings": [f.to_dict() for f in self.findings],
            "log10_lr": self.log10_lr,
            "population": self.population,
        }


class ResultFormatError(ValueError):
    """A stored or received result does not have the shape this program writes."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ResultFormatError(message)


def _optional_number(value: Any, name: str) -> float | None:
    if value is None:
        return None
    _require(
        isinstance(value, int | float) and not isinstance(value, bool), f"{name} is not a number"
    )
    return float(value)


_Enum = TypeVar("_Enum", bound=StrEnum)


def parse_enum(enum: type[_Enum], value: Any, name: str) -> _Enum:
    """``enum(value)``, or a ``ResultFormatError`` naming the allowed values."""
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in enum)
        raise ResultFormatError(f"{name} must be one of {allowed}, not {value!r}") from None


def finding_from_dict(data: Any) -> GateFinding:
    _require(isinstance(data, dict), "a gate finding is not an object")
    message = data.get("message")
    _require(isinstance(message, str) and message.strip() != "", "a finding has no message")
    document = data.get("document")
    _require(document is None or isinstance(document, str), "a finding's document is not text")
    return GateFinding(
        rule=parse_enum(GateRule, data.get("rule"), "finding.rule"),
        message=message,
        measured=_optional_number(data.get("measured"), "finding.measured"),
        limit=_optional_number(data.get("limit"), "finding.limit"),
        document=document,
    )


def conclusion_from_dict(data: Any) -> Conclusion:
    _require(isinstance(data, dict), "conclusion is not an object")
    findings = data.get("findings", [])
    _require(isinstance(findings, list), "conclusion.findings is not a list")
    population = data.get("population", "")
    _require(isinstance(population, str), "conclusion.population is not text")
    parsed = tuple(finding_from_dict(f) for f in findings)
    kind = parse_enum(ConclusionKind, data.get("kind"), "conclusion.kind")
    _require(
        _KIND_ORDER.index(kind) <= _KIND_ORDER.index(conclusion_kind(parsed)),
        f"conclusion.kind {kind.value!r} is stronger than its findings allow",
    )
    return Conclusion(
        kind=kind,
        findings=parsed,
        log10_lr=_optional_number(data.get("log10_lr"), "conclusion.log10_lr"),
        population=population,
    )
