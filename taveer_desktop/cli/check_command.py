"""``taveer check``: the integrity check of a project, held against a receipt and a report.

``taveer --project P check [--quick] [--receipt R] [--report R.pdf] [--json]`` runs the whole
integrity check (``store/integrity.py``) and prints the state root the audit chain commits to;
with ``--receipt`` it also holds the store against the receipt and lists every record sealed
there that changed since, with the audited entry that changed it; with ``--report`` it says
whether the PDF is one the project issued (a ``report_exported`` or
``validation_report_exported`` entry with its SHA-256) and, when the PDF is signed, checks its
signature (``report_signature_check.py``: intact, covering the whole file, who signed it, when
and from which time source, and with ``--trust CA.pem`` whether the signer chains to that CA),
and holds the project's chain to the checkpoint a final signed report carries, listing every
entry after it (``checkpoint_text.py``). Every signed checkpoint kept in the chain is verified
too, and the output says which entries they cover and which are sealed by the program only.
A file that is the unsigned first revision of a signed report the project issued is named as
such (its signature was removed). Exit 0 when all pass, 1 when anything fails, 2 on bad input
(a receipt, report or CA certificate that is not a regular file, too large, unreadable or not
what it claims: refused before the store is opened).
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import Any

from taveer_desktop.cli.checkpoint_text import (
    checkpoint_dict,
    entry_dict,
    print_checkpoints,
    print_report_checkpoint,
    report_checkpoint,
    report_checkpoint_json,
)
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.report_signature_check import (
    ReportSignature,
    check_signature,
    first_revision_of,
    print_signature,
    signature_json,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.file_reading import read_file_bytes
from taveer_desktop.paths import default_project_path
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.report.report_checkpoint import carried_checkpoint
from taveer_desktop.store import ProjectStore
from taveer_desktop.store.checkpoints import last_holding
from taveer_desktop.store.receipts import read_receipt
from taveer_desktop.store.records import AuditEntry, IntegrityReport, ReceiptCheck
from taveer_desktop.store.state_replay import issued_reports

EXIT_CHECK_FAILED = 1
MAX_REPORT_BYTES = 512 * 1024 * 1024


def add_check_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("check", help="integrity check of the project (exit 1 on problems)")
    p.add_argument(
        "--quick", action="store_true", help="skip SQLite's own page-level integrity check"
    )
    p.add_argument(
        "--receipt",
        metavar="FILE",
        help="also fail unless the store continues this receipt and every record it sealed is "
        "unchanged or changed by an audited entry",
    )
    p.add_argument(
        "--report",
        metavar="PDF",
        help="also say whether this PDF is a report the project issued (exit 1 when not)",
    )
    p.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="CA.pem",
        help="with --report: also say whether the report's signer chains to this CA "
        "(repeatable; exit 1 when not)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run_check)


def _report_bytes(path: str) -> bytes:
    """A report file: a regular file under the size limit, opened without blocking."""
    return read_file_bytes(path, MAX_REPORT_BYTES, kind="report file")


def run_check(args) -> int:
    # bad files end here, with one line and exit 2, before the store is opened
    receipt = read_receipt(args.receipt) if args.receipt else None
    data = _report_bytes(args.report) if args.report else None
    report_sha = hashlib.sha256(data).hexdigest() if data is not None else None
    signature: ReportSignature | None = None
    if args.report and data is not None:
        signature = check_signature(args.report, data, args.trust)
    elif args.trust:
        raise InputError("--trust is an option of --report; give the report to check")
    carried = carried_checkpoint(data) if data is not None else None
    path = Path(args.project) if args.project else default_project_path()
    # read-only, beside the open desktop too: never migrated, nothing written
    store = ProjectStore.open_for_reading(path, verify=False, for_check=True)
    try:
        report = store.check_integrity(include_sqlite_check=not args.quick, receipt=receipt)
        entries = store.audit.entries(None) if report_sha else []
        issued = issued_reports(entries, report_sha) if report_sha else []
        earlier = first_revision_of(entries, report_sha) if report_sha and not issued else []
        case_numbers = store.cases.numbers()
    finally:
        store.close()
    held = report_checkpoint(carried, entries) if carried is not None else None
    if args.json:
        output = _json(report, case_numbers)
        if args.report:
            output["report"] = {
                "path": args.report,
                "sha256": report_sha,
                "ok": bool(issued)
                and (signature is None or signature.ok)
                and (held is None or held.problem is None),
                "issued": [_issued_dict(e, case_numbers) for e in issued] or None,
                "unsigned_revision_of": [_issued_dict(e, case_numbers) for e in earlier] or None,
                "signature": signature_json(signature),
                "checkpoint": report_checkpoint_json(held, entries, case_numbers),
            }
        print_json(output)
    else:
        _print(report, args, report_sha, issued, case_numbers)
        if earlier:
            print(
                "  It is the unsigned first revision of the signed report of audit entry "
                + ", ".join(str(e.seq) for e in earlier)
                + ": its signature was removed."
            )
        if args.report:
            print_signature(signature)
            print_report_checkpoint(held, entries, case_numbers)
    receipt_ok = report.receipt is None or report.receipt.ok
    report_ok = not args.report or (bool(issued) and (signature is None or signature.ok))
    report_ok = report_ok and (held is None or held.problem is None)
    return 0 if report.ok and receipt_ok and report_ok else EXIT_CHECK_FAILED


def _issued_dict(entry: AuditEntry, case_numbers: dict[int, str]) -> dict[str, Any]:
    return {**entry_dict(entry, case_numbers), "file_name": entry.details.get("file_name")}


def _json(report: IntegrityReport, case_numbers: dict[int, str]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "path": report.path,
        "ok": report.ok,
        "checked_utc": report.checked_utc,
        "store_version": report.store_version,
        "sealed": report.sealed,
        "state_root": report.state_root or None,
        "documents_checked": report.documents_checked,
        "models_checked": report.models_checked,
        "runs_checked": report.runs_checked,
        "audit_entries_checked": report.audit_entries_checked,
        "audit_head_hash": report.audit_head_hash,
        "sqlite_checked": report.sqlite_checked,
        "problems": [
            {"kind": p.kind, "subject": p.subject, "message": p.message} for p in report.problems
        ],
    }
    if report.receipt is not None:
        result["receipt"] = _receipt_json(report.receipt, case_numbers)
    result["checkpoints"] = [checkpoint_dict(c) for c in report.checkpoints]
    result["unanchored_entries"] = unanchored_entries(report, report.receipt)
    return result


def _receipt_json(check: ReceiptCheck, case_numbers: dict[int, str]) -> dict[str, Any]:
    return {
        "entries_after_receipt": [entry_dict(e, case_numbers) for e in check.entries_after],
        "ok": check.ok,
        "problems": list(check.problems),
        "changes_since_receipt": [
            {
                "record": change.record,
                "change": change.change,
                "audited": change.audited,
                "entries": list(change.entries),
            }
            for change in check.changes_since_receipt
        ],
    }


def _print(
    report: IntegrityReport,
    args,
    report_sha: str | None,
    issued: list[AuditEntry],
    case_numbers: dict[int, str],
) -> None:
    print(report.summary())
    for problem in report.problems:
        print(f"  {shown(problem.subject)}: {shown(problem.message)}")
    print(f"audit chain head hash: {report.audit_head_hash}")
    if report.sealed:
        print(f"state root: {report.state_root or 'none (a record carries no seal)'}")
    else:
        print(f"records not sealed (store version {report.store_version})")
    check = report.receipt
    _print_limits(report, check)
    if check is not None:
        if check.problems:
            print(f"Receipt check FAILED ({shown(args.receipt)}):")
            for line in check.problems:
                print(f"  {shown(line)}")
        else:
            print(f"Receipt check passed: the store continues the receipt {shown(args.receipt)}.")
        if check.changes_since_receipt:
            print("Changes since the receipt:")
        for change in check.changes_since_receipt:
            by = "; ".join(change.entries) if change.audited else "NO audited entry"
            print(f"  {shown(change.record)} {change.change}: by {shown(by)}")
        _print_entries_after(check, case_numbers)
    if report_sha is not None:
        if issued:
            for entry in issued:
                case = shown(case_numbers.get(entry.case_id, "?")) if entry.case_id else "none"
                after = check is not None and entry in check.entries_after
                print(
                    f"Report {shown(args.report)} (SHA-256 {report_sha}) "
                    "was issued by this project: "
                    f"audit entry {entry.seq} ({entry.action}), case {case}, "
                    f"{recorded_time(entry.time_utc)}"
                    + (" — recorded after the receipt, which does not cover it" if after else "")
                )
        else:
            print(
                f"Report {shown(args.report)} (SHA-256 {report_sha}) "
                "was NOT issued by this project: "
                "no report_exported or validation_report_exported entry records this SHA-256"
            )


def _print_entries_after(check: ReceiptCheck, case_numbers: dict[int, str]) -> None:
    """Every entry appended after the receipt: the receipt covers none of them."""
    if not check.entries_after:
        if not check.problems:
            print("No entry was appended after the receipt.")
        return
    first, last = check.entries_after[0].seq, check.entries_after[-1].seq
    if first == last:
        print(
            f"One entry after the receipt (entry {first}): the receipt does not cover it; it is "
            "sealed by the program only:"
        )
    else:
        print(
            f"{len(check.entries_after)} entries after the receipt (entries {first}–{last}): "
            "the receipt does not cover them; they are sealed by the program only:"
        )
    for entry in check.entries_after:
        case = shown(case_numbers.get(entry.case_id, "?")) if entry.case_id else "none"
        print(
            f"  audit entry {entry.seq}: {shown(entry.action)}, case {case}, "
            f"{recorded_time(entry.time_utc)}"
        )


def unanchored_entries(report: IntegrityReport, check: ReceiptCheck | None) -> list[int] | None:
    """[first, last] of the entries nothing outside the file holds — neither the receipt given
    nor a signed checkpoint that holds (None: none such)."""
    last = report.audit_entries_checked
    anchored = 0
    if check is not None and check.ok:
        anchored = check.entries_after[0].seq - 1 if check.entries_after else last
    signed = last_holding(report.checkpoints)
    if signed is not None:
        anchored = max(anchored, signed.covers_to)
    return [anchored + 1, last] if last > anchored else None


def _print_limits(report: IntegrityReport, check: ReceiptCheck | None) -> None:
    """What the check can prove, and what it cannot, in words."""
    print_checkpoints(report.checkpoints)
    span = unanchored_entries(report, check)
    if span is None:
        if report.audit_entries_checked and (check is not None and check.ok):
            print("Every entry is held to the receipt given, which was kept outside the file.")
        return
    first, last = span
    where = f"all {last} entries" if first == 1 else f"entries {first}–{last} (of {last})"
    verb = "are"
    if first == last > 1:
        where, verb = f"entry {last} (the last)", "is"
    after = "" if first == 1 else "after the last signed checkpoint or the receipt, "
    print(
        f"Not anchored outside the file: {after}{where} {verb} sealed by the program only: "
        "whoever holds the file and this program's source could rewrite them consistently. "
        "A signed checkpoint (case declare/review --sign, report --final --sign) or a receipt "
        "kept outside the file (--receipt) holds the entries up to it."
    )
