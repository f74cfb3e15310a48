"""The stored verification runs of a case as a table: the conclusion and its likelihood ratio
first, then the method's classification, the score and the model.

Rows are ``RunRow``s: the store's ``VerificationRun`` with the file name of its questioned
document and the conclusion read from the stored result (``store.runs.verification``), joined
when the list is loaded, so ``data()`` never queries the store. The words are those of
``presentation/conclusion_text``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import Conclusion, ConclusionKind
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import (
    CLASSIFICATION_LABELS,
    CLASSIFICATION_SHORT,
    KIND_EXPLANATIONS,
    KIND_LABELS,
    format_lr,
)
from taveer_desktop.presentation.method_agreement import method_lines, short_name
from taveer_desktop.presentation.refusal_text import conclusion_reasons
from taveer_desktop.store import VerificationRun
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

TIME, QUESTIONED, CONCLUSION, LIKELIHOOD_RATIO, CLASSIFICATION, SIMILARITY, MODEL = range(7)
UNREADABLE = "the stored result could not be read (see the integrity check)"


@dataclass(frozen=True)
class RunRow:
    run: VerificationRun
    questioned_name: str
    conclusion: Conclusion | None = None  # None when the stored result could not be read
    methods: MethodFindings | None = None  # a LambdaG or fused model's findings (None: TAVeer)
    weights: Mapping[str, float] | None = None  # a fused model's weight of each fused method

    @property
    def kind(self) -> ConclusionKind | None:
        return self.conclusion.kind if self.conclusion else self.run.conclusion

    @property
    def log10_lr(self) -> float | None:
        if self.conclusion is None or self.conclusion.kind is ConclusionKind.NONE:
            return None
        return self.conclusion.log10_lr


def run_rows(
    runs: Sequence[VerificationRun],
    document_names: Mapping[int, str],
    conclusions: Mapping[int, Conclusion] | None = None,
    methods: Mapping[int, MethodFindings] | None = None,
    weights: Mapping[int, Mapping[str, float]] | None = None,
) -> list[RunRow]:
    """Rows newest first, each with its questioned document's file name and conclusion (and
    the findings of each method, for a run of a LambdaG or fused model)."""
    conclusions, methods = conclusions or {}, methods or {}
    ordered = sorted(runs, key=lambda r: (r.run_utc, r.id), reverse=True)
    return [
        RunRow(
            r,
            document_names.get(r.questioned_document_id, f"document {r.questioned_document_id}"),
            conclusions.get(r.id),
            methods.get(r.id),
            weights.get(r.model_id) if weights else None,
        )
        for r in ordered
    ]


def conclusion_text(row: RunRow) -> str:
    kind = row.kind
    if kind is None:
        return "Not readable"
    return KIND_LABELS[kind]


def conclusion_tip(row: RunRow) -> str:
    if row.kind is None:
        return UNREADABLE
    lines = [KIND_EXPLANATIONS[row.kind]]
    if row.conclusion is not None and row.conclusion.reasons:
        lines += [f"• {reason}" for reason in conclusion_reasons(row.conclusion)]
    return "\n".join(lines)


def lr_text(row: RunRow) -> str:
    if row.log10_lr is None:
        return numbers.MISSING
    shown = format_lr(row.log10_lr)
    notes = [] if row.kind is ConclusionKind.EVALUATIVE else ["investigation only"]
    if row.methods is not None:
        fused = list(row.weights) if row.weights else None
        notes.append(short_name(row.methods.stated, fused))
    return f"{shown} ({'; '.join(notes)})" if notes else shown


def lr_tip(row: RunRow) -> str:
    """The ratio, and for a LambdaG or fused model each method's own and their agreement."""
    if row.methods is None:
        return lr_text(row)
    lines = method_lines(row.methods, row.weights)
    return "\n".join([lr_text(row), *(line.strip() for line in lines)])


def record_line(row) -> str:
    return f"record SHA-256 {row.run.record_sha256}"


def similarity_text(similarity: float | None) -> str:
    return numbers.decimal(similarity)


def _answered(row: RunRow) -> bool:
    """False where there is no conclusion: a score measured on unusable text is not shown."""
    return row.kind is not ConclusionKind.NONE


def classification_text(row: RunRow) -> str:
    return CLASSIFICATION_SHORT[row.run.prediction] if _answered(row) else "not reported"


class RunTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Run at",
            lambda r: short_utc(r.run.run_utc),
            "When the verification ran (UTC)",
            lambda r: f"run {r.run.id} at {short_utc(r.run.run_utc)}\n" + record_line(r),
            sort_key=lambda r: r.run.run_utc,
        ),
        Column("Questioned document", lambda r: r.questioned_name, "The document verified"),
        Column(
            "Conclusion",
            conclusion_text,
            "Evaluative conclusion, for investigation only (outside the model's validated "
            "conditions), or no conclusion",
            conclusion_tip,
            sort_key=lambda r: "" if r.kind is None else r.kind.value,
        ),
        Column(
            "Likelihood ratio",
            lr_text,
            "How many times more probable the findings are if the author of the known documents "
            "wrote the questioned one than if someone else did",
            lr_tip,
            sort_key=lambda r: -1e9 if r.log10_lr is None else r.log10_lr,
            numeric=True,
        ),
        Column(
            "Classification",
            classification_text,
            "The method's classification (its score against the 0.5 boundary), a secondary figure",
            lambda r: (
                f"The method's classification: {CLASSIFICATION_LABELS[r.run.prediction]}"
                if _answered(r)
                else "Not reported: there is no conclusion for these texts"
            ),
        ),
        Column(
            "Similarity",
            lambda r: similarity_text(r.run.similarity if _answered(r) else None),
            "The method's ensemble similarity from 0 to 1 (the classification boundary is 0.5)",
            sort_key=lambda r: (
                -1.0 if r.run.similarity is None or not _answered(r) else r.run.similarity
            ),
            numeric=True,
        ),
        Column(
            "Model",
            lambda r: r.run.model_name,
            "The model used",
            lambda r: f"{r.run.model_name}\nSHA-256 {short_hash(r.run.model_sha256)}",
        ),
    )
