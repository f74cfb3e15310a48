"""Writing a validation report: a validation record as a PDF, atomically, audited in a project.

Two ways in:

- ``export_validation_report(record, output, source)``: a record in hand (``taveer validate
  --report``, right after the run); nothing is audited, there is no project.
- ``export_stored_validation_report(store, validation_id, output)``: a record stored in a
  project (``taveer --project P validation report ID``): the project's integrity check must
  pass (as for a case report), the record is read back with its SHA-256 checked, the PDF
  written, its SHA-256 recorded as a ``validation_report_exported`` audit entry (under the
  record's case) before it takes its name, and the store's receipt written beside it, as the
  case report's export does (``report/export.py``).

Both reports end with the examiner's declaration and the technical review
(``declaration_block.py``) of the record's case: a stored record's report is final only when
asked (``final``) and its case allows it, and may then be signed (``sign``) before it takes its
name, as the case report; a record without a case, or one written outside a project, is a
DRAFT on every page (declarations and reviews are kept per case, in a project).

Both take a ``Progress`` (``core/ground/progress.py``): three steps, and cancelling is honoured
between them (before the PDF is written, never half-way). Either way the target is checked
before any work (folder missing, not writable, a folder given), the record's trials are checked
before any page is laid out (``InputError``), and the PDF goes through a temporary file that is
read back and checked (``pdf_check``) and only then renamed: a half-written report is never
left behind.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.report.declaration_block import SignatureNote, with_declaration
from taveer_desktop.report.export import (
    check_target,
    file_sha256,
    issue_details,
    receipt_beside,
    signed_and_recorded,
    signing_plan,
)
from taveer_desktop.report.inputs import ReportError
from taveer_desktop.report.pdf import RenderedReport, ReportWriteError
from taveer_desktop.report.report_signing import SignedFacts, SigningRequest
from taveer_desktop.report.validation_content import (
    RecordSource,
    build_validation_report,
    now,
    record_sha256,
)
from taveer_desktop.store import AuditEntry, ProjectStore
from taveer_desktop.store.declaration_repository import Standing
from taveer_desktop.store.errors import DamagedStore

OUTSIDE_A_PROJECT = Standing(
    None,
    None,
    False,
    False,
    ("written outside a project, where the examiner's declaration and the review are kept",),
)
NO_CASE = Standing(
    None,
    None,
    False,
    False,
    ("the validation record belongs to no case; declarations and reviews are made per case",),
)


@dataclass(frozen=True)
class ExportedValidationReport:
    path: Path
    sha256: str  # of the PDF
    page_count: int
    record_sha256: str
    seconds: float
    validation_id: int | None = None
    audit_entry: AuditEntry | None = None
    receipt_path: Path | None = None
    receipt_problem: str | None = None
    final: bool = False
    signed: SignedFacts | None = None


def _write(
    record: dict[str, Any],
    target: Path,
    source: str,
    progress: Progress,
    before_rename: Callable[[Path], None] | None = None,
    standing: Standing = OUTSIDE_A_PROJECT,
    final: bool = False,
    signing: SignatureNote | None = None,
) -> RenderedReport:
    progress.step(1, 3, "laying out the validation report")
    content = build_validation_report(read_validation_record(record), RecordSource(source, now()))
    rendered = RenderedReport.layout(with_declaration(content, standing, final, signing))
    progress.step(2, 3, "writing the PDF")
    try:
        rendered.write_pdf(target, before_rename=before_rename)
    except ReportWriteError as error:
        raise ReportError(str(error).split(": ", 1)[-1], target) from None
    progress.step(3, 3, "done")
    return rendered


def export_validation_report(
    record: dict[str, Any], output: str | Path, source: str, progress: Progress = NO_PROGRESS
) -> ExportedValidationReport:
    """Write the report of ``record`` (described as ``source``) to ``output``."""
    started = time.perf_counter()
    target = check_target(output)
    rendered = _write(record, target, source, progress)
    return ExportedValidationReport(
        path=target,
        sha256=file_sha256(target),
        page_count=rendered.page_count,
        record_sha256=record_sha256(record),
        seconds=time.perf_counter() - started,
    )


def stored_record(store: ProjectStore, validation_id: int) -> dict[str, Any]:
    """A stored validation record, its SHA-256 checked; ``DamagedStore`` if it is no longer a
    JSON object (``NotFound`` if there is no such record)."""
    try:
        record = store.validations.record(validation_id)
    except (UnicodeDecodeError, json.JSONDecodeError):
        record = None
    if not isinstance(record, dict):
        raise DamagedStore(
            f"holds validation record {validation_id} whose JSON cannot be read", store.path
        )
    return record


def export_stored_validation_report(
    store: ProjectStore,
    validation_id: int,
    output: str | Path,
    progress: Progress = NO_PROGRESS,
    final: bool = False,
    sign: SigningRequest | None = None,
) -> ExportedValidationReport:
    """Write the report of stored validation record ``validation_id`` and audit it (``final``
    and ``sign`` as for the case report: ``export.export_report``)."""
    started = time.perf_counter()
    progress.step(0, 3, "checking the project's integrity and reading the record")
    target = check_target(output)
    if store.read_only_reason:
        raise ReportError(f"is read-only ({store.read_only_reason})", store.path)
    stored = store.validations.get(validation_id)  # an unknown id before the slower check
    plan = signing_plan(sign, final, archival=False)
    note = plan.note() if plan else None
    integrity = store.check_integrity()
    if not integrity.ok:
        raise ReportError(
            f"failed its integrity check ({integrity.problem_count()}); no validation report "
            "is written from a project that no longer verifies — run the integrity "
            "check for details",
            store.path,
        )
    record = stored_record(store, validation_id)
    sha = record_sha256(record)
    case = f", case {store.cases.get(stored.case_id).number}" if stored.case_id else ""
    source = (
        f"validation record {stored.id} of the project {store.path}, stored "
        f"{recorded_time(stored.created_utc)}{case}"
    )
    standing = store.declarations.standing(stored.case_id) if stored.case_id else NO_CASE
    issued = issue_details(store, stored.case_id, final)
    recorded: list[tuple[str, AuditEntry, SignedFacts | None]] = []

    def record_export(temp_path: Path) -> None:
        recorded.append(
            signed_and_recorded(
                store, plan, stored.case_id, temp_path, issued,
                lambda digest, details: store.audit.record_validation_report_exported(
                    validation_id, str(target), digest, stored.record_sha256, details
                ),
            )
        )  # fmt: skip

    rendered = _write(record, target, source, progress, record_export, standing, final, note)
    digest, entry, signed = recorded[0]
    receipt_path, receipt_problem = receipt_beside(store, target, digest)
    return ExportedValidationReport(
        path=target,
        sha256=digest,
        page_count=rendered.page_count,
        record_sha256=sha,
        seconds=time.perf_counter() - started,
        validation_id=validation_id,
        audit_entry=entry,
        receipt_path=receipt_path,
        receipt_problem=receipt_problem,
        final=final,
        signed=signed,
    )
