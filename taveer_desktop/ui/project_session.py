"""The open project as the window sees it: the ``ProjectStore`` and what changed in it.

State flows one way: an action changes the store (directly for one short write, or through a
job), then calls ``changed(kind, …, case_id=…)``; ``store_changed`` carries a ``StoreChange``
(what kinds of record changed, and in which case, or None for the whole project) and each view
decides from it whether to reload. The read helpers return plain lists of dataclasses for the
table models.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation.method_agreement import model_fusion_weights
from taveer_desktop.store import AuditEntry, Case, Document, ProjectStore, StoredModel
from taveer_desktop.store.population_repository import StoredPopulation, StoredValidation
from taveer_desktop.ui.model_choice_table_model import ModelChoice, model_choice
from taveer_desktop.ui.model_table_model import ModelSummary, summarize_model, unusable_summary
from taveer_desktop.ui.run_table_model import RunRow, run_rows

log = logging.getLogger(__name__)

CASES, DOCUMENTS, MODELS, RUNS = "cases", "documents", "models", "runs"
AUDIT = "audit"  # only an audit entry was added (a report exported, a copy saved)
VALIDATIONS = "validations"  # a population imported or a validation record stored
ALL_KINDS = frozenset({CASES, DOCUMENTS, MODELS, RUNS, AUDIT, VALIDATIONS})


@dataclass(frozen=True)
class StoreChange:
    """What changed in the store: kinds of record, and the case (None: the whole project)."""

    kinds: frozenset[str]
    case_id: int | None = None

    def touches(self, kinds: set[str] | frozenset[str], case_id: int | None) -> bool:
        """True if any of ``kinds`` changed in case ``case_id`` (or project-wide)."""
        return bool(self.kinds & kinds) and (self.case_id is None or self.case_id == case_id)


class ProjectSession(QObject):
    """Holds the open store (or none) and announces changes to it."""

    project_opened = Signal(object)  # Path
    project_closed = Signal()
    store_changed = Signal(object)  # StoreChange

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store: ProjectStore | None = None

    # ---- opening and closing ------------------------------------------------------------------

    @property
    def store(self) -> ProjectStore | None:
        return self._store

    @property
    def is_open(self) -> bool:
        return self._store is not None

    @property
    def path(self) -> Path | None:
        return self._store.path if self._store else None

    @property
    def read_only_reason(self) -> str | None:
        return self._store.read_only_reason if self._store else "no project is open"

    def open(self, path: Path, create: bool = False) -> ProjectStore:
        """Open (or create) ``path``; the integrity check is left to a background job."""
        path = Path(path).expanduser().absolute()
        store = ProjectStore.create(path) if create else ProjectStore.open(path, verify=False)
        self.close()
        self._store = store
        log.info("project opened: %s", store.path)
        self.project_opened.emit(store.path)
        return store

    def open_or_create(self, path: Path) -> ProjectStore:
        path = Path(path).expanduser().absolute()
        return self.open(path, create=not path.exists())

    def close(self) -> None:
        if self._store is None:
            return
        store, self._store = self._store, None
        try:
            store.close()
        finally:
            log.info("project closed: %s", store.path)
            self.project_closed.emit()

    def changed(self, *kinds: str, case_id: int | None = None) -> StoreChange:
        """Announce that records of ``kinds`` changed (in ``case_id``, or project-wide)."""
        change = StoreChange(frozenset(kinds), case_id)
        self.store_changed.emit(change)
        return change

    # ---- reading (GUI thread; all light listings) ---------------------------------------------

    def cases(self) -> list[Case]:
        return self._store.cases.list_all() if self._store else []

    def case(self, case_id: int) -> Case:
        return self._require().cases.get(case_id)

    def documents(self, case_id: int) -> list[Document]:
        return self._store.documents.list_for_case(case_id) if self._store else []

    def runs(self, case_id: int) -> list[RunRow]:
        """The runs of a case, each with the conclusion read from its stored result."""
        if not self._store:
            return []
        names = {doc.id: doc.file_name for doc in self.documents(case_id)}
        runs = self._store.runs.list_for_case(case_id)
        conclusions, methods = {}, {}
        weights: dict[int, dict[str, float] | None] = {}
        for run in runs:
            try:
                verification = self._store.runs.verification(run.id)
            except TaveerError:  # a damaged run is reported by the integrity check
                log.warning("run %s could not be read", run.id)
                continue
            conclusions[run.id] = verification.conclusion
            if verification.methods is not None:
                methods[run.id] = verification.methods
                if run.model_id not in weights:  # None for a model that fuses nothing
                    weights[run.model_id] = self._fusion_weights(run.model_id)
        found = {m: w for m, w in weights.items() if w is not None}
        return run_rows(runs, names, conclusions, methods, found)

    def _fusion_weights(self, model_id: int) -> dict[str, float] | None:
        """A fused model's weight of each method it fuses (None: unreadable, reported by the
        integrity check)."""
        try:
            return model_fusion_weights(self._require().models.load(model_id))
        except TaveerError:
            return None

    def audit(self, case_id: int | None) -> list[AuditEntry]:
        return self._store.audit.entries(case_id) if self._store else []

    def models(self) -> list[StoredModel]:
        return self._store.models.list_all() if self._store else []

    def model_summaries(self) -> list[ModelSummary]:
        """Every model with its training facts (each model's JSON is read and re-hashed)."""
        if not self._store:
            return []
        summaries = []
        for reading in self._store.models.readings():  # one that is refused: with its problem
            if reading.model is None:
                summaries.append(unusable_summary(reading.stored, reading.problem))
            else:
                summaries.append(summarize_model(reading.stored, reading.model))
        return summaries

    def model_choices(self) -> list[ModelChoice]:
        """Every model with what the examiner needs to choose one for a case."""
        if not self._store:
            return []
        choices = []
        for stored in self._store.models.list_all():
            try:
                validation = self._store.validations.for_model(stored.id)
                record = (
                    read_validation_record(self._store.validations.record(validation.id))
                    if validation
                    else None
                )
                choices.append(model_choice(stored, self._store.models.load(stored.id), record))
            except Exception:  # a damaged model is reported by the integrity check
                log.exception("model %s could not be read", stored.name)
        return choices

    def model_name(self, model_id: int | None) -> str | None:
        """The name of a stored model (None for no model, or one no longer readable)."""
        if self._store is None or model_id is None:
            return None
        try:
            return self._store.models.get(model_id).name
        except TaveerError:
            return None

    def populations(self) -> list[StoredPopulation]:
        return self._store.populations.list_all() if self._store else []

    def validations(self) -> list[StoredValidation]:
        return self._store.validations.list_all() if self._store else []

    def model_validation(self, model_id: int | None) -> StoredValidation | None:
        """The latest validation record that produced a model (None: none in this project)."""
        if self._store is None or model_id is None:
            return None
        return self._store.validations.for_model(model_id)

    def model_validation_summary(self, model_id: int | None) -> dict | None:
        """The validation that produced a model: its stored record if this project has one,
        else the summary the model's JSON carries (None: the model was not validated)."""
        if self._store is None or model_id is None:
            return None
        try:
            stored = self._store.validations.for_model(model_id)
            if stored is not None:
                return self._store.validations.record(stored.id)
            summary = self._store.models.load(model_id).extra.get("validation")
        except TaveerError:  # a damaged record or model is reported by the integrity check
            log.warning("the validation of model %s could not be read", model_id)
            return None
        return summary if isinstance(summary, dict) else None

    def _require(self) -> ProjectStore:
        if self._store is None:
            raise RuntimeError("no project is open")
        return self._store
