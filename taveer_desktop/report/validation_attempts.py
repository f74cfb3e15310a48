"""Every validation attempt of a case, read from the project store (pure, no Qt).

``case_attempts(store, case)`` lists each validation record stored for the case, oldest first,
as a ``presentation.validation_attempts_text.Attempt`` (its record read back with its SHA-256
checked by the store), with the one whose model is the case's chosen model marked *chosen*.
The case report's validation section and the wizard's attempts list both use it, so they list
the same attempts.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.presentation.population_fit_text import (
    FIT_NOT_STORED,
    NO_BASIS_FOR_FIT,
    NO_PROFILE,
    FitCheck,
)
from taveer_desktop.presentation.validation_attempts_text import Attempt, attempt_of
from taveer_desktop.store import Case, ProjectStore
from taveer_desktop.store.errors import StoreError


def _model_name(store: ProjectStore, model_id: int) -> str:
    try:
        return store.models.get(model_id).name
    except StoreError:
        return f"model {model_id} (no longer in the project)"


def chosen_validation_id(store: ProjectStore, case: Case) -> int | None:
    """The latest of the case's validations that produced its chosen model (None: none did)."""
    chosen = [
        v.id
        for v in store.validations.for_case(case.id)
        if case.model_id is not None and v.model_id == case.model_id
    ]
    return chosen[-1] if chosen else None


def case_attempts(store: ProjectStore, case: Case) -> tuple[Attempt, ...]:
    """Every validation stored for ``case``, oldest first (a damaged record raises the store's
    error: a report must not list an attempt it cannot read)."""
    case = store.cases.get(case.id)  # the choice as it stands now
    chosen = chosen_validation_id(store, case)
    attempts = []
    for stored in store.validations.for_case(case.id):
        record = store.validations.record(stored.id)
        attempts.append(
            attempt_of(
                stored.id,
                stored.created_utc,
                record,
                _model_name(store, stored.model_id),
                stored.id == chosen,
                stored.record_sha256,
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


def case_validation_facts(store: ProjectStore, case: Case, model_id: int) -> CaseValidationFacts:
    """The facts for a run made with ``model_id``: the basis is the project's stored record that
    produced that model (a model file's own claims are never a basis)."""
    attempts = case_attempts(store, case)
    stored = store.validations.for_model(model_id)
    if stored is None:
        return CaseValidationFacts(attempts, None, "", "", (), NO_BASIS_FOR_FIT)
    record = store.validations.record(stored.id)
    population = str((record.get("population") or {}).get("name") or "")
    problem = NO_PROFILE if not isinstance(record.get("population_fit"), dict) else FIT_NOT_STORED
    return CaseValidationFacts(attempts, stored.id, stored.record_sha256, population, (), problem)
