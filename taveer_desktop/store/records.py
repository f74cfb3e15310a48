"""Frozen dataclasses the store hands out: its callers never see an SQLite row.

Large payloads (a document's bytes and text, a model's JSON, a run's full result) are fetched on
demand by id (``documents.original_bytes``/``text``, ``models.json_bytes``/``load``,
``runs.result``) so that listings stay light. Fields holding a dict are excluded from equality
and hashing; treat them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.ground.time_text import recorded_time
from taveer_desktop.core.intake.reading_notes import ReadingNotes
from taveer_desktop.core.methods.taveer.stability import RatioStability

KNOWN = "known"
QUESTIONED = "questioned"
DOCUMENT_ROLES = (KNOWN, QUESTIONED)


def utc_now() -> str:
    """The current time as ISO 8601 UTC text with microseconds, e.g. 2025-01-31T09:15:02.123456Z."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Case:
    """A case with the number of its documents and runs."""

    id: int
    number: str
    title: str
    examiner: str
    agency: str
    description: str
    created_utc: str
    modified_utc: str
    known_count: int = 0
    questioned_count: int = 0
    run_count: int = 0
    model_id: int | None = None  # the model the examiner chose; None until chosen


@dataclass(frozen=True)
class Document:
    """One piece of evidence as stored; bytes and text come from ``document_bytes/_text``."""

    id: int
    case_id: int
    role: str
    file_name: str
    file_format: str
    byte_count: int
    sha256: str
    encoding: str
    text_sha256: str
    char_count: int
    sentence_count: int
    imported_utc: str
    excluded_reason: str | None = None  # set when the examiner took it out of the case
    excluded_utc: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def excluded(self) -> bool:
        return self.excluded_reason is not None

    @property
    def reading_notes(self) -> ReadingNotes:
        """How the analysed text differs from the file (``metadata["reading"]``; empty for a
        document whose text is all a reader sees, or imported before notes were recorded)."""
        return ReadingNotes.from_metadata(self.metadata)


@dataclass(frozen=True)
class StoredModel:
    """A trained model kept in the project; ``load_model`` returns the engine's ``Model``."""

    id: int
    name: str
    sha256: str
    byte_count: int
    corpus_name: str
    corpus_sha256: str
    source_file_name: str
    added_utc: str


@dataclass(frozen=True)
class VerificationRun:
    """One stored verification of a questioned document against a case's known documents."""

    id: int
    case_id: int
    model_id: int
    model_name: str
    model_sha256: str
    questioned_document_id: int
    known_document_ids: tuple[int, ...]
    prediction: Classification
    similarity: float | None
    software_version: str
    run_utc: str
    record_sha256: str
    conclusion: ConclusionKind | None  # None: stored before the gate existed (store version 1)


@dataclass(frozen=True)
class StabilityCheck:
    """One stored stability assessment of a run (sentences left out and the run repeated)."""

    id: int
    run_id: int
    resamples: int
    keep_fraction: float
    seed: int
    agreeing: int
    interval_low: float
    interval_high: float
    software_version: str
    computed_utc: str
    answers: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    # a LambdaG or fused model's stated ratio under the same resamples (None: a TAVeer model,
    # or a check stored before the stated ratio was resampled)
    ratio: RatioStability | None = field(default=None, compare=False, hash=False)

    @property
    def agreement(self) -> float:
        return self.agreeing / self.resamples


@dataclass(frozen=True)
class AuditEntry:
    """One entry of the append-only, hash-chained audit log."""

    seq: int
    time_utc: str
    action: str
    case_id: int | None
    actor: str
    prev_hash: str
    entry_hash: str
    details: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


class RejectionReason(StrEnum):
    """Why an evidence file was not imported."""

    EMPTY = "empty"
    BINARY = "binary"
    UNREADABLE = "unreadable"
    TOO_LARGE = "too_large"
    DUPLICATE = "duplicate"
    UNSUPPORTED = "unsupported"


@dataclass(frozen=True)
class IntakeRejection:
    """One refused file: the reason code and one plain sentence saying what is wrong."""

    path: str
    reason: RejectionReason
    message: str

    def describe(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class IntakeResult:
    """What ``add_documents`` did: documents stored and files refused."""

    added: tuple[Document, ...]
    rejected: tuple[IntakeRejection, ...]


@dataclass(frozen=True)
class IntegrityProblem:
    """One mismatch found by the integrity check.

    ``kind`` is one of: sqlite, schema, value, document, model, run, audit, population,
    validation, validation use.
    ``subject`` names the thing at fault (e.g. ``document 12``, ``audit entry 40``).
    """

    kind: str
    subject: str
    message: str


@dataclass(frozen=True)
class RecordChange:
    """A record sealed at a receipt that is different or gone now, with the audited entries
    that changed it since (none: it was changed outside the program)."""

    record: str  # e.g. "document 3"
    change: str  # "changed" or "removed"
    entries: tuple[str, ...]  # e.g. "audit entry 14 (document_removed, 2026-…Z)"

    @property
    def audited(self) -> bool:
        return bool(self.entries)


@dataclass(frozen=True)
class ReceiptCheck:
    """A store held against a receipt: why it does not continue it (``problems``) and every
    record sealed at the receipt that changed since."""

    problems: tuple[str, ...]
    changes_since_receipt: tuple[RecordChange, ...]
    # every entry appended after the receipt, of every action: the receipt covers none of them
    entries_after: tuple[AuditEntry, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class CheckpointCheck:
    """One signed checkpoint held against the chain (``store/checkpoints.py``)."""

    carried_by: int  # the audit entry that holds it (0: carried by a report, not the store)
    covers_to: int  # the entry whose hash was signed: entries 1..covers_to are covered
    signer: str  # the certificate's subject, as the checkpoint names it
    signed_utc: str
    certificate_sha256: str
    problem: str | None = None  # None: the signature holds and the chain still matches it

    def failing(self, problem: str) -> CheckpointCheck:
        return replace(self, problem=self.problem or problem)


@dataclass(frozen=True)
class IntegrityReport:
    """Outcome of an integrity check of one project store."""

    path: str
    checked_utc: str
    documents_checked: int
    models_checked: int
    runs_checked: int
    audit_entries_checked: int
    audit_head_hash: str
    sqlite_checked: bool
    problems: tuple[IntegrityProblem, ...]
    store_version: int = 0
    sealed: bool = False  # the records carry seals (store version 6 on)
    state_root: str = ""  # SHA-256 over every record's seal, as the chain commits to them
    receipt: ReceiptCheck | None = None
    checkpoints: tuple[CheckpointCheck, ...] = ()  # every signed checkpoint in the chain

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem_count(self) -> str:
        """'1 problem', '3 problems'."""
        n = len(self.problems)
        return f"{n} problem" if n == 1 else f"{n} problems"

    def summary(self) -> str:
        """One sentence for a status bar or the CLI."""
        counts = (
            f"{self.documents_checked} documents, {self.models_checked} models, "
            f"{self.runs_checked} runs and {self.audit_entries_checked} audit entries"
        )
        unsealed = (
            ""
            if self.sealed or not self.store_version
            else f"; records not sealed (store version {self.store_version})"
        )
        if self.ok:
            return f"Integrity check passed: {counts} verified{unsealed}."
        return f"Integrity check found {self.problem_count()} in {counts}{unsealed}."


@dataclass(frozen=True)
class LockHolder:
    """Who has a project open, as written into its lock file."""

    pid: int
    host: str
    user: str
    since_utc: str
    program: str

    def describe(self) -> str:
        return (
            f"process {self.pid} of user {self.user} on host {self.host}, "
            f"open since {recorded_time(self.since_utc) or 'an unknown time'}"
        )
