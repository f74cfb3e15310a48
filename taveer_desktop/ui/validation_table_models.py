"""The project's relevant populations and validation records as tables.

``PopulationTableModel`` lists ``StoredPopulation`` rows (the wizard's first page);
``ValidationTableModel`` lists ``ValidationRow``s — a stored record with the names of its case,
population and model looked up once when the list is loaded, so ``data()`` never touches the
store.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.presentation.fusion_text import listed_method_label
from taveer_desktop.store.population_repository import StoredValidation
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

P_NAME, P_AUTHORS, P_DOCUMENTS, P_DESCRIPTION = range(4)


class PopulationTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Population",
            lambda p: p.name,
            "The name the population was imported under",
            lambda p: (
                f"{p.name}\nSHA-256 {p.sha256}\nimported {short_utc(p.added_utc)} from "
                f"{p.source_path}"
            ),
        ),
        Column(
            "Authors",
            lambda p: f"{p.author_count:,}",
            "Authors with at least two usable documents",
            sort_key=lambda p: p.author_count,
            numeric=True,
        ),
        Column(
            "Documents",
            lambda p: f"{p.document_count:,}",
            "Documents stored with their hashes",
            sort_key=lambda p: p.document_count,
            numeric=True,
        ),
        Column(
            "Description",
            lambda p: " ".join(p.description.split()),
            "Who wrote the texts, their genre and period, and how they were selected",
            lambda p: p.description,
        ),
    )


@dataclass(frozen=True)
class ValidationRow:
    """A stored validation record with the names it refers to."""

    stored: StoredValidation
    case_number: str
    population_name: str
    model_name: str


V_CREATED, V_CASE, V_POPULATION, V_MODEL, V_METHOD, V_CLLR, V_CRITERIA = range(7)


def _criteria_text(row: ValidationRow) -> str:
    met = row.stored.criteria_met
    return "none set" if met is None else "met" if met else "not met"


class ValidationTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Stored",
            lambda r: short_utc(r.stored.created_utc),
            "When the validation record was stored (UTC)",
            lambda r: (
                f"record SHA-256 {short_hash(r.stored.record_sha256)}, software "
                f"{r.stored.software_version}"
            ),
            sort_key=lambda r: r.stored.id,
        ),
        Column("Case", lambda r: r.case_number, "The case whose conditions were validated"),
        Column("Population", lambda r: r.population_name, "The relevant population (Hd)"),
        Column("Model", lambda r: r.model_name, "The model the validation produced"),
        Column(
            "Method",
            lambda r: listed_method_label(r.stored.method, r.stored.fused),
            "The method validated: whose likelihood ratios the figures are",
            lambda r: listed_method_label(r.stored.method, r.stored.fused),
        ),
        Column(
            "Cllr",
            lambda r: "—" if r.stored.cllr is None else f"{r.stored.cllr:.3f}",
            "Cross-validated log-likelihood-ratio cost (below 1: informative; lower is better)",
            sort_key=lambda r: -1.0 if r.stored.cllr is None else r.stored.cllr,
            numeric=True,
        ),
        Column(
            "Criteria",
            _criteria_text,
            "Whether the acceptance criteria set before the run were met",
        ),
    )


def validation_rows(store, validations: list[StoredValidation]) -> list[ValidationRow]:
    """Rows for ``validations``, with the case number, population and model names."""
    populations = {p.id: p.name for p in store.populations.list_all()}
    models = {m.id: m.name for m in store.models.list_all()}
    cases = {c.id: c.number for c in store.cases.list_all()}
    return [
        ValidationRow(
            v,
            cases.get(v.case_id, "—") if v.case_id is not None else "—",
            populations.get(v.population_id, f"population {v.population_id}"),
            models.get(v.model_id, f"model {v.model_id}"),
        )
        for v in validations
    ]
