"""Validating the method for one case on a stored relevant population.

The case's conditions come from its documents in use (``documents.in_use``: excluded evidence
left out): the questioned length is the longest questioned document's characters, the known
length the characters of the known documents together. The engine's validation
(``core/validation/validation.py``) then builds its trials at those lengths from the population's
stored texts (each re-hashed as it is read). The model it produces is added to the project
(``model_added``) and the record stored as one more attempt of the case, linked to the case, the
population and the model (``validation_stored``); no earlier attempt is replaced. Model, record
and the case's model choice are one transaction: after a failure all of them are stored or none
(never a model without its record, which would make the retry collide with it).

**Never replaced by a failed attempt.** The new model becomes the case's chosen model
(``case_model_chosen``) only if its validation met its acceptance criteria, or if no validation
of the case met them; otherwise the case keeps its model and ``CaseValidation`` says which
(``chosen`` false, ``case_model``) so that the command line and the desktop tell the examiner.

**A failed attempt is kept too.** A validation that ends without a model (the engine refuses
it: too few trials of a class, a method that cannot calibrate, …) is recorded as one audit entry
of the case (``validation_failed``: the population, method, seed, declared lengths and the
reason), and ``failed_attempts`` lists them, so that ``case attempts`` shows every try, not only
the ones that gave a model; the error then goes on to the caller as before.

``use_validation`` links a stored record made for another case (a lab's validation over a range,
used for many cases) to this case with the examiner's declaration of why its population is
relevant (``validation_used``), and chooses its model by the same rule.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from typing import Any

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.registry import Origin, method_info
from taveer_desktop.core.methods.systems.catalogue import require_loadable
from taveer_desktop.core.validation.validation import (
    ValidationResult,
    ValidationSettings,
    validate,
)
from taveer_desktop.store.case_basis import met_for_case
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.population_repository import StoredValidation
from taveer_desktop.store.project_store import ProjectStore
from taveer_desktop.store.records import KNOWN, QUESTIONED, StoredModel
from taveer_desktop.store.validation_use_repository import StoredValidationUse


@dataclass(frozen=True)
class CaseValidation:
    """A validation attempt of a case: the engine's result, the stored model and record, and
    whether its model became the case's model (``chosen``) or which model the case kept
    (``case_model``: the model chosen for the case after the attempt, None if it has none)."""

    result: ValidationResult
    model: StoredModel
    validation: StoredValidation
    chosen: bool = True
    case_model: StoredModel | None = None


@dataclass(frozen=True)
class CaseValidationUse:
    """A stored validation declared relevant to a case; ``chosen`` and ``case_model`` as in
    ``CaseValidation``."""

    use: StoredValidationUse
    validation: StoredValidation
    model: StoredModel
    chosen: bool
    case_model: StoredModel | None


FAILED = "validation_failed"


@dataclass(frozen=True)
class FailedAttempt:
    """A validation of a case that gave no model (see the module)."""

    entry: int  # the audit entry that keeps it
    when: str
    details: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"entry": self.entry, "when": self.when, **self.details}


def failed_attempts(store: ProjectStore, case_id: int) -> list[FailedAttempt]:
    """The case's failed validations, oldest first."""
    return [
        FailedAttempt(e.seq, e.time_utc, dict(e.details))
        for e in store.audit.entries(case_id)
        if e.action == FAILED
    ]


def _keep_failed(
    store: ProjectStore,
    case_id: int,
    population: str,
    settings: ValidationSettings,
    reason: str,
) -> None:
    """Record the failed attempt; a failure to record it never hides the validation's own."""
    details = {
        "population": population,
        "method": settings.method,
        "seed": settings.seed,
        "repeats": settings.repeats,
        "questioned_chars": list(settings.questioned_chars or ()),
        "known_chars": list(settings.known_chars or ()),
        "reason": reason,
    }
    with contextlib.suppress(StoreError):
        store.audit.record_validation_failed(case_id, details)


def choose_unless_worse(
    store: ProjectStore, case_id: int, model_id: int, met: bool | None
) -> tuple[bool, StoredModel | None]:
    """Choose ``model_id`` for the case unless its validation did not meet its criteria while
    another validation of the case did (see the module). Returns (chosen, the case's model)."""
    case = store.cases.get(case_id)
    if met is True or case.model_id == model_id or not met_for_case(store, case_id):
        store.cases.choose_model(case_id, model_id)
        return True, store.models.get(model_id)
    kept = store.cases.get(case_id).model_id
    return False, None if kept is None else store.models.get(kept)


def use_validation(
    store: ProjectStore, case_id: int, validation_id: int, reason: str
) -> CaseValidationUse:
    """Declare stored validation ``validation_id`` relevant to the case (audited), then choose
    its model for the case unless that would replace a model whose validation met its criteria
    by one whose validation did not."""
    if store.read_only_reason:
        raise StoreError(f"is read-only: {store.read_only_reason}", store.path)
    with store.transaction():  # the declaration and the model choice: both or neither
        use = store.validation_uses.declare(case_id, validation_id, reason)
        validation = store.validations.get(validation_id)
        chosen, case_model = choose_unless_worse(
            store, case_id, validation.model_id, validation.criteria_met
        )
    return CaseValidationUse(
        use, validation, store.models.get(validation.model_id), chosen, case_model
    )


def _span(declared: tuple[int, int]) -> str:
    low, high = declared
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


def _free_name(name: str, taken: set[str]) -> str:
    """``name``, or — when an earlier attempt already has it (the same conditions and seed, other
    criteria or method settings) — ``name`` with the attempt's number, so a new attempt never
    fails on its name after the work is done."""
    attempt = 2
    candidate = name
    while candidate in taken:
        candidate = f"{name}, attempt {attempt}"
        attempt += 1
    return candidate


def _check_case_inside(
    store: ProjectStore, number: str, case_id: int, settings: ValidationSettings
) -> None:
    """The case's own lengths must lie inside the declared ranges (where it has documents)."""
    try:
        questioned, known = case_lengths(store, case_id)
    except StoreError:
        return  # no documents in use yet: nothing to hold against the range
    for what, value, declared in (
        ("questioned", questioned, settings.questioned_chars),
        ("known", known, settings.known_chars),
    ):
        assert declared is not None
        if not declared[0] <= value <= declared[1]:
            raise StoreError(
                f"cannot validate case {number} over {what} lengths {_span(declared)}: the "
                f"case's own {what} text has {value:,} characters, outside that range, so the "
                "validation could not support its conclusion",
                store.path,
            )


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


def case_documents(store: ProjectStore, case_id: int) -> dict[str, str]:
    """Every document of the case (excluded ones too) by a label an examiner recognises:
    the population a validation uses must not hold them (``core/trials/population.py``)."""
    labels = {KNOWN: "known", QUESTIONED: "questioned"}
    return {
        f"{labels[role]} document {d.file_name!r} (id {d.id})": store.documents.text(d.id)
        for role in (KNOWN, QUESTIONED)
        for d in store.documents.list_for_case(case_id, role)
    }


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
    """Validate for the case, store model and record (one more attempt of the case), choose the
    model for the case unless a failed attempt would replace a met one.

    The lengths validated are the declared ranges of ``settings`` (the lab's casework range,
    which must hold the case's own lengths: a validation that does not cover its case could
    not support its conclusion); without them, the case's own lengths — or ``lengths``
    (questioned, known characters) where the examiner changed them — as one length each."""
    if store.read_only_reason:
        raise StoreError(f"is read-only: {store.read_only_reason}", store.path)
    case = store.cases.get(case_id)
    stored_population = store.populations.find(population_name)
    if settings.questioned_chars is None or settings.known_chars is None:
        questioned, known = lengths or case_lengths(store, case_id)
        settings = replace(
            settings,
            questioned_chars=settings.questioned_chars or (questioned, questioned),
            known_chars=settings.known_chars or (known, known),
        )
    settings.check()
    require_loadable(settings.named)
    assert settings.questioned_chars is not None and settings.known_chars is not None
    _check_case_inside(store, case.number, case_id, settings)
    population = store.populations.load(stored_population.id, case_documents(store, case_id))
    # a LambdaG or fused model is named for its method, so validating the same case with
    # another method under the same conditions does not collide with the TAVeer model's name
    seed = method_info(settings.method).origin is Origin.SEED  # the paper's: named plainly
    method = "" if seed else f"with {settings.name_of(settings.method)} "
    taken = {m.name for m in store.models.list_all()}
    if model_name is not None and model_name in taken:  # refused before any work, not after it
        raise StoreError(
            f"already holds a model named {model_name!r}: choose another name for this "
            "validation's model",
            store.path,
        )
    name = model_name or _free_name(
        f"Validated {method}for case {case.number} on {stored_population.name} "
        f"({_span(settings.questioned_chars)}/{_span(settings.known_chars)} chars, "
        f"seed {settings.seed})",
        taken,
    )
    try:
        result = validate(population, settings, name=name, genre=genre, progress=progress)
    except InputError as error:
        _keep_failed(store, case_id, stored_population.name, settings, error.plain_message)
        raise
    except ValueError as error:  # a method's own refusal: one line, not a traceback
        _keep_failed(store, case_id, stored_population.name, settings, str(error))
        raise InputError(str(error), population.source) from None
    progress.check()  # the last point where stopping leaves nothing stored
    data = result.model.to_json().encode("utf-8")
    with store.transaction():  # model, record and the case's model choice: all or none
        model = store.models.add_bytes(data, f"validated-case-{case.number}.json")
        validation = store.validations.store(case_id, stored_population.id, model.id, result.record)
        chosen, case_model = choose_unless_worse(store, case_id, model.id, validation.criteria_met)
    return CaseValidation(result, model, validation, chosen, case_model)
