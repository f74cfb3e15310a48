"""The stored verification runs of a case as a table: when, which document, model, decision.

Rows are ``RunRow``s: the store's ``VerificationRun`` with the file name of its questioned
document, joined when the list is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taveer_desktop.store import VerificationRun
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

TIME, QUESTIONED, DECISION, SIMILARITY, MODEL = range(5)
DECISION_WORDS = {"Y": "Same author", "N": "Different authors", "insufficient": "No decision"}


@dataclass(frozen=True)
class RunRow:
    run: VerificationRun
    questioned_name: str


def run_rows(runs: Sequence[VerificationRun], document_names: Mapping[int, str]) -> list[RunRow]:
    """Rows newest first, each with its questioned document's file name."""
    ordered = sorted(runs, key=lambda r: (r.run_utc, r.id), reverse=True)
    return [
        RunRow(
            r, document_names.get(r.questioned_document_id, f"document {r.questioned_document_id}")
        )
        for r in ordered
    ]


def decision_word(prediction: str) -> str:
    return DECISION_WORDS.get(prediction, prediction)


def similarity_text(similarity: float | None) -> str:
    return "—" if similarity is None else f"{similarity:.3f}"


class RunTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Run at",
            lambda r: short_utc(r.run.run_utc),
            "When the verification ran (UTC)",
            lambda r: f"run {r.run.id} at {r.run.run_utc}\nrecord SHA-256 {r.run.record_sha256}",
            sort_key=lambda r: r.run.run_utc,
        ),
        Column("Questioned document", lambda r: r.questioned_name, "The document verified"),
        Column(
            "Decision",
            lambda r: decision_word(r.run.prediction),
            "Same author, different authors, or no decision (too little evidence)",
        ),
        Column(
            "Similarity",
            lambda r: similarity_text(r.run.similarity),
            "Ensemble similarity from 0 to 1; above 0.5 means same author",
            sort_key=lambda r: -1.0 if r.run.similarity is None else r.run.similarity,
            numeric=True,
        ),
        Column(
            "Model",
            lambda r: r.run.model_name,
            "The model used",
            lambda r: f"{r.run.model_name}\nSHA-256 {short_hash(r.run.model_sha256)}",
        ),
    )
