"""The models kept in a project as a table, with what their training recorded.

``StoredModel`` rows hold only the store's columns; a ``ModelSummary`` adds the number of
training cases, the training accuracy, the ensemble, the method (TAVeer, LambdaG or their
fusion) and the creation time read from the model JSON when the list is loaded
(``summarize_model``), so ``data()`` never touches the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.taveer.model import method_of
from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.method_names import stated_name
from taveer_desktop.presentation.model_text import (
    model_method_name,
    model_method_sentence,
    stated_validation_line,
    unusable_model_line,
)
from taveer_desktop.presentation.validation_figures_text import acceptance_verdict
from taveer_desktop.store import StoredModel
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

NAME, CORPUS, CASES, ACCURACY, ENSEMBLE, METHOD, VALIDATION, CREATED = range(8)


@dataclass(frozen=True)
class ModelSummary:
    stored: StoredModel
    cases: int
    cases_y: int
    cases_n: int
    accuracy: float
    ensemble: tuple[str, ...]
    threshold_method: str
    created_utc: str
    validation: dict | None = None  # the summary of the validation that produced it
    method: str = MethodId.TAVEER  # whose likelihood ratio it states (core.model.method_of)
    method_sentence: str = "Method: TAVeer."  # with LambdaG's order and samples
    problem: str | None = None  # why today's checks refuse it (stored by an older version)
    method_title: str = ""  # the method's name; a fusion's by what it combines ("TAVeer + COAV")

    @property
    def name(self) -> str:
        return self.stored.name


def summarize_model(stored: StoredModel, model) -> ModelSummary:
    """A summary from the store's record and the engine's ``Model``."""
    training = model.training
    validation = model.extra.get("validation")
    return ModelSummary(
        stored=stored,
        cases=training.cases,
        cases_y=training.cases_y,
        cases_n=training.cases_n,
        accuracy=training.accuracy,
        ensemble=tuple(model.ensemble),
        threshold_method=model.threshold_method,
        created_utc=model.created_utc,
        validation=validation if isinstance(validation, dict) else None,
        method=method_of(model),
        method_sentence=model_method_sentence(model) + ".",
        method_title=model_method_name(model),
    )


def unusable_summary(stored: StoredModel, problem: str | None) -> ModelSummary:
    """A stored model that today's checks refuse: listed with its problem, never used."""
    line = unusable_model_line(problem)
    return ModelSummary(stored, 0, 0, 0, 0.0, (), "", stored.added_utc, None, "", line, line)


def validation_cell(validation: dict | None) -> str:
    """“demo — criteria met (stated by the model file)”, or “—” for a model not validated on
    a population. The summary is the model file's claim, never a record of the project."""
    if not validation:
        return "—"
    record = read_validation_record(validation)  # the model file's summary, read at its edge
    name, met = record.population.name, acceptance_verdict(record.acceptance.met)
    return f"{name} — {met} (stated by the model file)"


def _name_tip(summary: ModelSummary) -> str:
    stored = summary.stored
    return (
        f"{stored.name}\nSHA-256 {stored.sha256}\n"
        f"added to the project {short_utc(stored.added_utc)} from {stored.source_file_name}"
    )


class ModelTableModel(RecordTableModel):
    COLUMNS = (
        Column("Name", lambda m: m.name, "The model's name", _name_tip),
        Column(
            "Training corpus",
            lambda m: m.stored.corpus_name,
            "The corpus the model was trained on",
            lambda m: (
                f"{m.stored.corpus_name}\ncorpus SHA-256 {short_hash(m.stored.corpus_sha256)}"
            ),
        ),
        Column(
            "Cases",
            lambda m: "—" if m.problem else numbers.integer(m.cases),
            "Training cases (same author / different authors)",
            lambda m: (
                f"{numbers.count(m.cases, 'case')}: {numbers.integer(m.cases_y)} same author, "
                f"{numbers.integer(m.cases_n)} different authors"
            ),
            sort_key=lambda m: m.cases,
            numeric=True,
        ),
        Column(
            "Training accuracy",
            lambda m: "—" if m.problem else numbers.percent(m.accuracy),
            "Accuracy of the chosen ensemble on its own training corpus (optimistic)",
            sort_key=lambda m: m.accuracy,
            numeric=True,
        ),
        Column(
            "Ensemble",
            lambda m: " ".join(m.ensemble),
            "The feature categories whose median similarity decides",
        ),
        Column(
            "Method",
            lambda m: m.method_title or stated_name(m.method),
            "Whose likelihood ratio the model states: a method's, or a fusion of methods'",
            lambda m: m.method_sentence,
        ),
        Column(
            "Validation",
            lambda m: (m.problem and "cannot be used") or validation_cell(m.validation),
            "The population the model was validated on, and whether the criteria were met",
            lambda m: (
                m.method_sentence
                if m.problem
                else stated_validation_line(m.validation)
                if m.validation
                else "—"
            ),
        ),
        Column(
            "Created",
            lambda m: short_utc(m.created_utc),
            "When the model was trained (UTC)",
            lambda m: short_utc(m.created_utc),
            sort_key=lambda m: m.created_utc,
        ),
    )
