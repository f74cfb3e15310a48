"""Writing a case report end to end: check, gather, lay out, write, record in the audit log.

``export_report`` is what the CLI and the GUI call. It refuses bad input before doing any work
(unknown case, no run, a target folder that does not exist or is not writable; with ``sign``, a
certificate file the passphrase does not open or that expired, a signed draft, a signed
archival copy), runs the project's integrity check and refuses to report on a project that
fails it, builds the content with the examiner's declaration and the technical review
(``declaration_block.py``: a report is a DRAFT on every page unless issued ``final``, which the
case must allow), writes the PDF through a temporary file, signs it there (``report_signing``),
records the finished file's SHA-256 as a ``report_exported`` audit entry, and only then gives
the file its name. If signing or recording fails, the file is removed: a report that the audit
trail does not know of is never left behind, nor one signed differently from what it records.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.ground.safe_json import loads_limited
from taveer_desktop.core.intake.file_reading import FileRefused, read_file_bytes
from taveer_desktop.presentation import numbers
from taveer_desktop.report.content import build_report
from taveer_desktop.report.declaration_block import MarkedContent, SignatureNote, with_declaration
from taveer_desktop.report.inputs import ReportError, ReportInputs, gather_inputs
from taveer_desktop.report.pdf import RenderedReport, ReportWriteError
from taveer_desktop.report.report_checkpoint import checkpoint_for_report
from taveer_desktop.report.report_signing import (
    SignedFacts,
    SigningPlan,
    SigningRequest,
    plan_signing,
    sign_in_place,
)
from taveer_desktop.store import AuditEntry, ProjectStore
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.receipts import write_receipt

RECEIPT_SUFFIX = ".receipt.json"
MAX_EVALUATION_BYTES = 1024 * 1024


class ReportNotWritten(ReportError):
    """The PDF could not be written whole (a failure of writing, not a refusal)."""

    write_failure = True


@dataclass(frozen=True)
class ExportedReport:
    path: Path
    sha256: str
    page_count: int
    report_id: str
    case_number: str
    run_id: int
    audit_entry: AuditEntry
    seconds: float
    receipt_path: Path | None = None  # the store's receipt written beside the report
    receipt_problem: str | None = None  # why it could not be written (the report stands)
    final: bool = False
    signed: SignedFacts | None = None


def signed_and_recorded(
    store: ProjectStore,
    plan: SigningPlan | None,
    case_id: int | None,
    temp_path: Path,
    issued: Mapping[str, Any],
    write_entry: Callable[[str, dict[str, Any]], AuditEntry],
) -> tuple[str, AuditEntry, SignedFacts | None]:
    """A written report file signed (with its checkpoint) when ``plan`` says so, hashed, and its
    export entry kept by ``write_entry(digest, details)``: the checkpoint and the entry commit
    together. (digest, entry, signed facts or None) — the case and the validation report alike."""
    with store.transaction():
        signed = None
        if plan:
            carried = checkpoint_for_report(store, plan.key, case_id)
            signed = sign_in_place(plan, temp_path, carried)
        digest = file_sha256(temp_path)
        details = dict(issued)
        if signed and plan:
            details["signature"] = signed.audit_details(plan.request.tsa_url)
        entry = write_entry(digest, details)
    return digest, entry, signed


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def check_target(output: str | Path) -> Path:
    """The absolute target path, or a ``ReportError`` saying why it cannot be written."""
    target = Path(output).expanduser().absolute()
    if target.is_dir():
        raise ReportError("is a folder; give a file name for the report", target)
    if not target.parent.is_dir():
        raise ReportError(f"cannot be written: the folder {target.parent} does not exist", target)
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise ReportError(f"cannot be written: the folder {target.parent} is not writable", target)
    if target.exists() and not os.access(target, os.W_OK):
        raise ReportError("cannot be replaced: the file is not writable", target)
    return target


def receipt_beside(
    store: ProjectStore, target: Path, sha256: str
) -> tuple[Path | None, str | None]:
    """Write the store's receipt beside an exported report (``NAME.pdf.receipt.json``), naming
    the report and its SHA-256 (receipt version 2): (its path, None), or (None, why not) — the
    report stands whole and recorded either way."""
    receipt_path = target.with_name(target.name + RECEIPT_SUFFIX)
    try:
        write_receipt(store, receipt_path, report=(target.name, sha256))
    except StoreError as error:
        return None, str(error)
    return receipt_path, None


def load_evaluations(path: str | Path, model_sha256: str | None = None) -> tuple[dict, str]:
    """Held-out evaluations from a training record (``*.training.json``) for the summary.

    Returns (evaluations by test corpus, a source note with the file's SHA-256). Refuses a
    record made for a different model than ``model_sha256``.
    """
    path = Path(path)
    try:  # a regular file only (a FIFO would block), read once, checked unchanged
        data = read_file_bytes(path, MAX_EVALUATION_BYTES, kind="evaluation record")
    except FileRefused as error:
        if error.reason == "too_large":
            raise ReportError("is too large for an evaluation record", path) from None
        raise ReportError(error.plain_message, path) from None
    try:
        record = loads_limited(data.decode("utf-8-sig"), str(path), "evaluation record")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ReportError("is not a JSON evaluation record", path) from None
    except InputError as error:
        raise ReportError(error.plain_message, path) from None
    evaluations = record.get("evaluations") if isinstance(record, dict) else None
    if not isinstance(evaluations, dict) or not evaluations:
        raise ReportError("holds no 'evaluations' object", path)
    recorded_model = record.get("model_sha256")
    if model_sha256 and recorded_model and recorded_model != model_sha256:
        raise ReportError("is the evaluation of a different model than the run used", path)
    for name, entry in evaluations.items():
        numbers = ("accuracy", "tp", "fn", "fp", "tn")
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), int | float)
            and not isinstance(entry.get(k), bool)
            and math.isfinite(entry[k])
            for k in numbers
        ):
            raise ReportError(f"evaluation {name!r} lacks accuracy, tp, fn, fp or tn", path)
    digest = hashlib.sha256(data).hexdigest()
    return evaluations, f"the evaluation record {path.name} (SHA-256 {digest})"


def prepare_report(
    store: ProjectStore,
    case_number: str,
    run_id: int | None = None,
    evaluations: Mapping[str, Any] | None = None,
    evaluation_source: str | None = None,
    archival: bool = False,
    scale_id: str = DEFAULT_SCALE,
    identity: tuple[datetime, str] | None = None,
    final: bool = False,
    signing: SignatureNote | None = None,
) -> tuple[ReportInputs, MarkedContent]:
    """Integrity check, inputs and content of a report (used by the export and the preview);
    ``identity`` (time, report identifier) of a previewed report keeps both when it is saved;
    ``final``: refuse (``FinalRefused``) unless the case has a current declaration and an
    approved, current review, else the report is a DRAFT."""
    case = store.cases.find(case_number)  # an unknown case is refused before the slower check
    integrity = store.check_integrity()
    if not integrity.ok:
        raise ReportError(
            f"failed its integrity check ({numbers.count(len(integrity.problems), 'problem')}); "
            "no report is "
            "written on evidence that no longer verifies — run the integrity check for details",
            store.path,
        )
    inputs = gather_inputs(
        store,
        case.number,
        run_id,
        integrity,
        evaluations,
        evaluation_source,
        scale_id=scale_id,
        now=identity[0] if identity else None,
        report_id=identity[1] if identity else None,
    )
    content = build_report(inputs, attached=not archival)
    standing = store.declarations.standing(case.id)
    return inputs, with_declaration(content, standing, final, signing)


def signing_plan(sign: SigningRequest | None, final: bool, archival: bool) -> SigningPlan | None:
    """The checked signing plan (credentials opened) or None; refuses what cannot be signed."""
    if sign is None:
        return None
    if not final:
        raise ReportError("A draft cannot be signed: sign only a report issued as final.")
    if archival:
        raise ReportError(
            "A signed report is not written as PDF/A-1b: a PAdES signature needs PDF 1.7 "
            "features PDF/A-1 does not allow. Write the archival copy separately, unsigned."
        )
    return plan_signing(sign)


def export_report(
    store: ProjectStore,
    case_number: str,
    output: str | Path,
    run_id: int | None = None,
    archival: bool = False,
    evaluations: Mapping[str, Any] | None = None,
    evaluation_source: str | None = None,
    progress: Progress = NO_PROGRESS,
    scale_id: str = DEFAULT_SCALE,
    identity: tuple[datetime, str] | None = None,
    final: bool = False,
    sign: SigningRequest | None = None,
) -> ExportedReport:
    """Write the report of one run of a case to ``output`` and record it in the audit log
    (``identity``: the time and identifier of the report the examiner previewed; ``final``:
    issued as final, refused unless the case allows it; ``sign``: signed before it is named)."""
    started = time.perf_counter()
    target = check_target(output)
    if store.read_only_reason:
        raise ReportError(f"is read-only ({store.read_only_reason})", store.path)
    plan = signing_plan(sign, final, archival)
    note = plan.note() if plan else None

    def step(done: int, message: str) -> None:
        progress.step(done, 4, message)

    step(0, "checking the project's integrity and reading the run")
    inputs, content = prepare_report(
        store,
        case_number,
        run_id,
        evaluations,
        evaluation_source,
        archival,
        scale_id,
        identity,
        final,
        note,
    )
    case = inputs.case
    step(2, "laying out the pages")
    rendered = RenderedReport.layout(content)
    step(3, "writing the PDF")
    recorded: list[tuple[str, AuditEntry, SignedFacts | None]] = []
    issued = issue_details(store, case.id, final)

    def record(temp_path: Path) -> None:
        recorded.append(
            signed_and_recorded(
                store, plan, case.id, temp_path, issued,
                lambda digest, details: store.audit.record_report_exported(
                    case.id, str(target), digest, [inputs.run.id], details
                ),
            )
        )  # fmt: skip

    try:
        rendered.write_pdf(target, archival, before_rename=record)
    except ReportWriteError as error:
        raise ReportNotWritten(str(error).split(": ", 1)[-1], target) from None
    digest, entry, signed = recorded[0]
    receipt_path, receipt_problem = receipt_beside(store, target, digest)
    step(4, "done")
    return ExportedReport(
        path=target,
        sha256=digest,
        page_count=rendered.page_count,
        report_id=inputs.report_id,
        case_number=case.number,
        run_id=inputs.run.id,
        audit_entry=entry,
        seconds=time.perf_counter() - started,
        receipt_path=receipt_path,
        receipt_problem=receipt_problem,
        final=final,
        signed=signed,
    )


def issue_details(store: ProjectStore, case_id: int | None, final: bool) -> dict[str, Any]:
    """What a report's audit entry says of its standing: final or draft, and the declaration
    and review it rests on (their ids)."""
    if case_id is None:
        return {"final": final}
    standing = store.declarations.standing(case_id)
    return {
        "final": final,
        "declaration_id": standing.declaration.id if standing.declaration else None,
        "review_id": standing.review.id if standing.review else None,
    }
