"""Validating the method for one case on a stored relevant population.

The case's conditions come from its documents in use (``documents.in_use``: excluded evidence
left out): the questioned length is the longest questioned document's characters, the known
length the characters of the known documents together. The engine's validation
(``core/validation.py``) then builds its trials at those lengths from the population's stored
texts (each re-hashed as it is read). The model it produces is added to the project
(``model_added``), the record stored and linked to the case, the population and the model
(``validation_stored``), and the model becomes the case's chosen model (``case_model_chosen``)
— three audited writes, each in its own transaction, in that order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from taveer_desktop.core.progress import NO_PROGRESS, Progress
from taveer_desktop.core.validation import (
    METHOD_TITLES,
    ValidationResult,
    ValidationSettings,
    validate,
)
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.population_repository import StoredValidation
from taveer_desktop.store.project_store import ProjectStore
from taveer_desktop.store.records import KNOWN, QUESTIONED, StoredModel


@dataclass(frozen=True)
class CaseValidation:
    result: ValidationResult
    model: StoredModel
    validation: StoredValidation


def case_lengths(store: ProjectStore, case_id: int) -> tuple[int, int]:
    """(questioned characters, known characters together) of a case's documents in use."""
    case = store.cases.get(case_id)
    known = store.documents.in_use(case_id, KNOWN)
    questioned = store.documents.in_use(case_id, QUESTIONED)
    if not known or not questioned:
        raise StoreError(
            f"case {case.number} needs known and questioned documents in use before a "
            "validation can take its conditions from them",
            store.path,
        )
    return max(d.char_count for d in questioned), sum(d.char_count for d in known)


def validate_case(
    store: ProjectStore,
    case_id: int,
    population_name: str,
    settings: ValidationSettings,
    model_name: str | None = None,
    progress: Progress = NO_PROGRESS,
    genre: str | None = None,
    lengths: tuple[int, int] | None = None,
) -> CaseValidation:
    """Validate at the case's lengths, store model and record, choose the model for the case.

    ``lengths`` (questioned, known characters) replaces the case's own when the examiner
    changed them (the desktop's wizard shows the case's and lets them be edited); the record's
    protocol keeps the lengths used."""
    if store.read_only_reason:
        raise StoreError(f"is read-only: {store.read_only_reason}", store.path)
    case = store.cases.get(case_id)
    stored_population = store.populations.find(population_name)
    questioned_chars, known_chars = lengths or case_lengths(store, case_id)
    settings = replace(
        settings,
        questioned_chars=(questioned_chars, questioned_chars),
        known_chars=(known_chars, known_chars),
    )
    settings.check()
    population = store.populations.load(stored_population.id)
    # a LambdaG or fused model is named for its method, so validating the same case with
    # another method under the same conditions does not collide with the TAVeer model's name
    method = "" if settings.method == "taveer" else f"with {METHOD_TITLES[settings.method]} "
    name = model_name or (
        f"Validated {method}for case {case.number} on {stored_population.name} "
        f"({questioned_chars:,}/{known_chars:,} chars, seed {settings.seed})"
    )
    result = validate(population, settings, name=name, genre=genre, progress=progress)
    progress.check()  # the last point where stopping leaves nothing stored
    data = result.model.to_json().encode("utf-8")
    model = store.models.add_bytes(data, f"validated-case-{case.number}.json")
    validation = store.validations.store(case_id, stored_population.id, model.id, result.record)
    store.cases.choose_model(case_id, model.id)
    return CaseValidation(result, model, validation)
