"""Every validation attempt of a case, read from the project store (pure, no Qt).

``case_attempts(store, case)`` lists every validation of the case — its own attempts and the
records declared relevant to it, from ``store/case_basis.case_attempts`` — oldest first, as
``presentation.validation_attempts_text.Attempt`` (each record read back with its SHA-256
checked by the store), the ones whose model is the case's chosen model marked *chosen*.
The case report's validation section and the wizard's attempts list both use it, so they list
the same attempts.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.gate.population_fit import FitProfile, case_fit
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.validation.record_reader import ValidationRecord, read_validation_record
from taveer_desktop.presentation.population_fit_text import (
    FIT_NOT_MADE,
    FIT_NOT_STORED,
    NO_BASIS_FOR_FIT,
    NO_PROFILE,
    FitCheck,
    FitPart,
    fit_check_of,
)
from taveer_desktop.presentation.validation_attempts_text import (
    Attempt,
    attempt_of,
    failed_attempt_line,
)
from taveer_desktop.store import KNOWN, QUESTIONED, Case, ProjectStore
from taveer_desktop.store.case_basis import DECLARED_USE
from taveer_desktop.store.case_basis import case_attempts as stored_attempts
from taveer_desktop.store.case_validation import failed_attempts
from taveer_desktop.store.errors import DamagedStore


def failed_lines(store: ProjectStore, case: Case) -> tuple[str, ...]:
    """The case's validations that gave no model, oldest first, one line each."""
    return tuple(failed_attempt_line(f.when, f.details) for f in failed_attempts(store, case.id))


def case_attempts(store: ProjectStore, case: Case) -> tuple[Attempt, ...]:
    """Every validation of ``case`` — its own attempts and the records declared relevant to it
    (``store/case_basis.case_attempts``, the one list the command line also shows), oldest first,
    as listed; a damaged record raises the store's error: a report must not list an attempt it
    cannot read."""
    attempts = []
    for found in stored_attempts(store, case.id):
        stored = found.validation
        attempts.append(
            attempt_of(
                stored.id,
                found.linked_utc,
                read_validation_record(store.validations.record(stored.id)),
                found.model_name,
                found.chosen,
                stored.record_sha256,
                found.reason if found.link == DECLARED_USE else None,
            )
        )
    return tuple(attempts)


@dataclass(frozen=True)
class CaseValidationFacts:
    """What the case report's validation section states: every attempt, the record the
    conclusion rests on (None: none), and the population-fit check of each questioned document
    against that record's population (or why there is none)."""

    attempts: tuple[Attempt, ...]
    basis_id: int | None
    basis_sha256: str
    basis_population: str
    fit_checks: tuple[FitCheck, ...] = ()
    fit_problem: str = ""
    failed: tuple[str, ...] = ()  # the case's validations that gave no model, worded


def case_validation_facts(
    store: ProjectStore, case: Case, result: VerificationResult
) -> CaseValidationFacts:
    """The facts for one stored run: the basis is the validation record the run itself rested on
    (its stored reference: a project record, checked against the record's SHA-256), the fit check
    the one the run computed against that record's population. A model file's own claims are
    never a basis; a run that rested on none says so."""
    attempts = case_attempts(store, case)
    failed = failed_lines(store, case)
    reference = result.validation
    if reference is None or reference.source.record_id is None:
        return CaseValidationFacts(attempts, None, "", "", (), NO_BASIS_FOR_FIT, failed)
    stored = store.validations.get(reference.source.record_id)
    if stored.record_sha256 != reference.source.sha256:
        raise DamagedStore(
            f"holds validation record {stored.id} whose SHA-256 is not the one the run rested on",
            store.path,
        )
    population = reference.population
    if result.population_fit is not None:
        checks = (fit_check_of(result.population_fit, population),)
        return CaseValidationFacts(
            attempts, stored.id, stored.record_sha256, population, checks, failed=failed
        )
    record = read_validation_record(store.validations.record(stored.id))
    problem = NO_PROFILE if record.population_fit is None else FIT_NOT_STORED
    return CaseValidationFacts(
        attempts, stored.id, stored.record_sha256, population, (), problem, failed
    )


def record_fit_check(
    store: ProjectStore, case: Case, record: ValidationRecord, population: str
) -> tuple[FitCheck | None, str]:
    """The case's documents in use judged against a validation record's population profile
    (the wizard's record page: the same engine check a verification makes), as one check — each
    questioned document a part, the known texts together one part — or (None, why not)."""
    data = record.population_fit
    if data is None:
        return None, NO_PROFILE
    known = store.documents.in_use(case.id, KNOWN)
    questioned = store.documents.in_use(case.id, QUESTIONED)
    if not known or not questioned:
        return None, FIT_NOT_MADE
    try:
        profile = FitProfile.from_dict(data, "the validation record's population_fit")
        known_texts = [store.documents.text(doc.id) for doc in known]
        checks = [
            (
                doc,
                fit_check_of(
                    case_fit(profile, store.documents.text(doc.id), known_texts), population
                ),
            )
            for doc in questioned
        ]
    except InputError as error:
        return None, f"{FIT_NOT_MADE} ({error})"
    parts: list[FitPart] = []
    for doc, check in checks:
        for part in check.parts:
            if part.label.startswith("the questioned"):
                label = part.label if len(checks) == 1 else f"{part.label} {doc.file_name}"
                parts.append(FitPart(label, part.p_value, part.flagged))
    parts += [part for part in checks[0][1].parts if not part.label.startswith("the questioned")]
    combined = [check.combined for _doc, check in checks]  # the case's p per questioned document
    together = None if None in combined else tuple(p for c in combined if c for p in c)
    first = checks[0][1]
    return FitCheck(population, first.alpha, tuple(parts), together, first.profile_version), ""
