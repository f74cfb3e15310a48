"""The validations of a case: every attempt kept, and the one a conclusion rests on.

A case's validations are its own attempts (every ``case validate`` stores one record linked to
the case, its population and the model it produced; none is ever replaced) and the records the
examiner declared relevant to it (``case use-validation``, ``store/validation_use_repository.py``).

- ``case_attempts(store, case_id)``: all of them, oldest first, each read through the one
  typed reader (``core/validation/record_basis.basis_from_record``, the record's SHA-256
  checked), with whether its model is the case's chosen model.
- ``basis_for_case(store, case_id, model_id)``: the validation a verification of the case with
  that model rests on — the latest record of that model linked to the case (own attempt or
  declared use) — or None (the gate then leaves the conclusion investigative).
- ``met_for_case(store, case_id)``: whether any validation of the case met its criteria (a
  failed attempt never replaces such a model as the case's model: ``case_validation.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.gate.validation_basis import BasisSource, ValidationBasis
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.validation.record_basis import basis_from_record
from taveer_desktop.store.errors import DamagedStore
from taveer_desktop.store.population_repository import StoredValidation
from taveer_desktop.store.project_store import ProjectStore

ATTEMPT = "attempt"
DECLARED_USE = "declared use"


@dataclass(frozen=True)
class ValidationAttempt:
    """One validation of a case: its own attempt, or a record declared relevant to it."""

    validation: StoredValidation
    basis: ValidationBasis
    link: str  # ATTEMPT or DECLARED_USE
    linked_utc: str  # when it was run (attempt) or declared (use)
    model_name: str
    chosen: bool  # its model is the case's chosen model
    reason: str | None = None  # the examiner's declaration (a declared use)

    def to_dict(self) -> dict[str, Any]:
        basis = self.basis
        return {
            "id": self.validation.id,
            "link": self.link,
            "when": self.linked_utc,
            "run_utc": self.validation.created_utc,
            "method": basis.method,
            "population": basis.population.name,
            "seed": basis.seed,
            "criteria": basis.criteria,
            "judged_on": basis.judged_on,
            "met": basis.met,
            "cllr": basis.figures.get("cllr"),
            "too_small": basis.casework.too_small,
            "authors": basis.casework.authors,
            "trials_same": basis.casework.trials_same,
            "trials_different": basis.casework.trials_different,
            "model_id": self.validation.model_id,
            "model": self.model_name,
            "model_sha256": basis.model_sha256,
            "record_sha256": self.validation.record_sha256,
            "chosen": self.chosen,
            "reason": self.reason,
        }


def read_basis(
    store: ProjectStore, validation: StoredValidation, declaration: str | None = None
) -> ValidationBasis:
    """A stored record as a basis (its SHA-256 checked; a record that cannot be read as one is
    damage to the store)."""
    record = store.validations.record(validation.id)
    source = BasisSource("project", validation.record_sha256, str(store.path), validation.id)
    try:
        return basis_from_record(record, source, declaration)
    except InputError as error:
        raise DamagedStore(
            f"holds validation record {validation.id} that cannot be read: {error.plain_message}",
            store.path,
        ) from None


def _links(
    store: ProjectStore, case_id: int
) -> list[tuple[str, int, StoredValidation, str, str | None]]:
    """(time, order, record, link, reason) of every validation linked to the case."""
    links: list[tuple[str, int, StoredValidation, str, str | None]] = [
        (v.created_utc, v.id, v, ATTEMPT, None) for v in store.validations.for_case(case_id)
    ]
    for use in store.validation_uses.for_case(case_id):
        validation = store.validations.get(use.validation_id)
        links.append((use.declared_utc, validation.id, validation, DECLARED_USE, use.reason))
    return sorted(links, key=lambda link: (link[0], link[1]))


def case_attempts(store: ProjectStore, case_id: int) -> list[ValidationAttempt]:
    """Every validation of the case, oldest first (see the module)."""
    chosen = store.cases.get(case_id).model_id
    attempts = []
    for when, _order, validation, link, reason in _links(store, case_id):
        attempts.append(
            ValidationAttempt(
                validation=validation,
                basis=read_basis(store, validation, reason),
                link=link,
                linked_utc=when,
                model_name=store.models.get(validation.model_id).name,
                chosen=validation.model_id == chosen,
                reason=reason,
            )
        )
    return attempts


def basis_for_case(store: ProjectStore, case_id: int, model_id: int) -> ValidationBasis | None:
    """The latest validation of ``model_id`` linked to the case, read back and checked; None if
    the case has none for that model."""
    found = [link for link in _links(store, case_id) if link[2].model_id == model_id]
    if not found:
        return None
    _when, _order, validation, _link, reason = found[-1]
    return read_basis(store, validation, reason)


def met_for_case(store: ProjectStore, case_id: int) -> list[int]:
    """The models of the case's validations that met their criteria (ids, oldest first)."""
    return [link[2].model_id for link in _links(store, case_id) if link[2].criteria_met is True]
