"""The gate's rules about the validation a conclusion rests on (``core/gate/gate.py`` applies them).

An evaluative conclusion needs a ``ValidationBasis`` (``core/gate/validation_basis.py``): a
validation record stored in the project and linked to the case (by the case's own validation, or by
the examiner's declaration that a population is relevant to it), or a record file given with
``--record``. Each rule below caps the conclusion at investigative:

- ``no_validation``: there is none; or it validated another model (its SHA-256 differs) or
  another method. The model file's own ``validation`` block is a claim of the file, never a
  record: it is not read here.
- ``validation_too_small``: fewer than ``MIN_CASEWORK_AUTHORS`` (20) authors or
  ``MIN_CASEWORK_TRIALS`` (100) trials of a class — its intervals are too wide and its bound
  too narrow to rely on in a case (or the record itself says it is too small).
- ``validation_not_met``: no acceptance criteria were set before it (FSR-G-201: criteria come
  before the exercise), or they were not met (on the pessimistic end of each interval where
  the record judged them so).
- ``population_fit``: the case's questioned text, or its known texts together, are unlike the
  documents of the validation's population (a conformal p-value at or below the stated rate,
  ``core/gate/population_fit.py``), or the record holds no profile to check them against: the
  validation says nothing about texts of another kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taveer_desktop.core.calibration.outcome import GateFinding, GateRule
from taveer_desktop.core.gate.population_fit import (
    PART_ALPHA,
    CaseCounts,
    CaseFit,
    case_reason,
    fit_of_counts,
    part_reason,
)
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.ground.registry import METHOD_IDS, method_name
from taveer_desktop.core.trials.validation_settings import (
    MIN_CASEWORK_AUTHORS,
    MIN_CASEWORK_TRIALS,
)

if TYPE_CHECKING:  # annotations only: the gate stands below the methods' room
    from taveer_desktop.core.methods.taveer.model_fields import Model


def _percent(share: float, places: int) -> str:
    """A share as the house writes percentages (``presentation/numbers.percent``): ``55 %``."""
    return f"{100.0 * share:.{places}f} %"


NO_VALIDATION_MESSAGE = (
    "the model has no validation record on a population declared relevant to this case: its "
    "likelihood ratio is for investigation only"
)


def _method_name(method: str) -> str:
    """The registry's name of a method; an id it does not know, quoted."""
    return method_name(method) if method in METHOD_IDS else repr(method)


def _criterion_value(basis: ValidationBasis, key: str) -> tuple[float | None, str]:
    """The value a criterion was judged on: the record's own judged value (the worse of the
    interval's upper end and the worst repeat), else the upper end of the figure's 95 %
    interval when the record judged its criteria pessimistically, else the figure."""
    if basis.judged_on == "pessimistic":
        judged = basis.judged_values.get("misleading" if key.startswith("misleading") else key)
        if judged is not None:
            return judged, " (the worse of its 95 % interval's upper end and its worst repeat)"
        high = basis.intervals.get(key, (None, None))[1]
        if high is not None:
            return high, " (upper end of its 95 % interval)"
    return basis.figures.get(key), ""


def _not_met(basis: ValidationBasis) -> list[GateFinding]:
    where = basis.source.describe()
    if basis.met is True:
        return []
    if basis.met is None:
        return [
            GateFinding(
                GateRule.VALIDATION_NOT_MET,
                f"the validation ({where}) set no acceptance criteria before it ran: nothing "
                "says its figures are good enough for casework (FSR-G-201)",
            )
        ]
    failed = []
    if basis.results.get("cllr") is False:
        value, judged = _criterion_value(basis, "cllr")
        limit = basis.criteria.get("max_cllr")
        if value is not None and isinstance(limit, int | float):
            failed.append(f"Cllr {value:.3f}{judged}, above the {limit:g} set")
    if basis.results.get("misleading") is False:
        worst = [_criterion_value(basis, k) for k in ("misleading_y", "misleading_n")]
        values = [(v, j) for v, j in worst if v is not None]
        limit = basis.criteria.get("max_misleading")
        if values and isinstance(limit, int | float):
            value, judged = max(values)
            failed.append(
                f"misleading evidence in {_percent(value, 0)} of one class's trials{judged}, "
                f"above the {_percent(limit, 0)} set"
            )
    return [
        GateFinding(
            GateRule.VALIDATION_NOT_MET,
            f"the validation ({where}) did not meet the acceptance criteria set before it "
            f"({'; '.join(failed) or 'see its record'})",
        )
    ]


def _too_small(basis: ValidationBasis) -> list[GateFinding]:
    casework = basis.casework
    if not casework.too_small:
        return []
    where = basis.source.describe()
    findings = []
    if casework.authors < MIN_CASEWORK_AUTHORS:
        findings.append(
            GateFinding(
                GateRule.VALIDATION_TOO_SMALL,
                f"the validation ({where}) is too small for casework: {casework.authors} "
                f"authors, fewer than {MIN_CASEWORK_AUTHORS} (its intervals over authors are "
                "too wide to rely on)",
                casework.authors,
                MIN_CASEWORK_AUTHORS,
            )
        )
    fewest = min(casework.trials_same, casework.trials_different)
    if fewest < MIN_CASEWORK_TRIALS:
        findings.append(
            GateFinding(
                GateRule.VALIDATION_TOO_SMALL,
                f"the validation ({where}) is too small for casework: "
                f"{casework.trials_same:,} same-author and {casework.trials_different:,} "
                f"different-author trials, fewer than {MIN_CASEWORK_TRIALS} of a class",
                fewest,
                MIN_CASEWORK_TRIALS,
            )
        )
    if not findings:  # the record itself judged it too small
        reasons = "; ".join(casework.reasons) or "as its record states"
        findings.append(
            GateFinding(
                GateRule.VALIDATION_TOO_SMALL,
                f"the validation ({where}) is too small for casework: {reasons}",
            )
        )
    return findings


def case_population_fit(basis: ValidationBasis | None, counts: CaseCounts | None) -> CaseFit | None:
    """The case's fit to the basis's population (None: no basis, no profile or no counts)."""
    if basis is None or basis.fit_profile is None or counts is None:
        return None
    return fit_of_counts(basis.fit_profile, counts)


def _fit_findings(basis: ValidationBasis, counts: CaseCounts | None) -> list[GateFinding]:
    population = basis.population.name
    if basis.fit_profile is None:
        return [
            GateFinding(
                GateRule.POPULATION_FIT,
                f"the validation ({basis.source.describe()}) holds no profile of its "
                f"population's documents, so whether this case's documents are like those of "
                f"'{population}' was not checked",
            )
        ]
    fit = case_population_fit(basis, counts)
    if fit is None:
        return []  # measures without counts: a caller that did not measure the texts
    whole = case_reason(fit, population)  # the parts judged together (Fisher's method)
    if whole is not None:
        return [GateFinding(GateRule.POPULATION_FIT, whole, fit.p_value, fit.alpha)]
    return [
        GateFinding(
            GateRule.POPULATION_FIT,
            part_reason(part, population) or "",
            part.p_value,
            PART_ALPHA,
            part.part,
        )
        for part in fit.failed
    ]


def validation_findings(
    model: Model, basis: ValidationBasis | None, counts: CaseCounts | None = None
) -> list[GateFinding]:
    """The rules of the validation a conclusion rests on (see the module); ``counts``: the
    case's parts counted for the population-fit check (``CaseMeasures.fit_counts``). The model
    file's own ``validation`` block is never read: only a record linked to the case, or given."""
    if basis is None:
        return [GateFinding(GateRule.NO_VALIDATION, NO_VALIDATION_MESSAGE)]
    where = basis.source.describe()
    if basis.model_sha256 != model.sha256:
        return [
            GateFinding(
                GateRule.NO_VALIDATION,
                f"{where} validated another model (SHA-256 {basis.model_sha256[:12]}…, this "
                f"model's is {model.sha256[:12]}…): {NO_VALIDATION_MESSAGE}",
            )
        ]
    method = str(model.extra.get("method", "taveer"))
    if basis.method != method:
        return [
            GateFinding(
                GateRule.NO_VALIDATION,
                f"{where} validated {_method_name(basis.method)}, not the model's method "
                f"{_method_name(method)}: {NO_VALIDATION_MESSAGE}",
            )
        ]
    return _too_small(basis) + _not_met(basis) + _fit_findings(basis, counts)
