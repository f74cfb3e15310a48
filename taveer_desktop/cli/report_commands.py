"""The ``taveer report`` command: write the PDF case report of a stored verification run.

``taveer --project P report CASE [--run ID] -o FILE.pdf [--archival] [--evaluation FILE]
[--final [--sign CERT.p12 [--tsa URL] [--trust CA.pem]]]`` checks the target first, opens the
project, runs the integrity check, writes the PDF atomically (signed before it takes its name
with ``--sign``) and records its SHA-256 in the project's audit log. Without ``--final`` the
report is a DRAFT on every page. Bad input (unknown case, no run, a run of another case, an
unwritable target, a project failing its integrity check, a final report the case does not
allow, a signed draft, a wrong passphrase, an expired certificate, an unreachable TSA) ends
with one line on stderr and exit status 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.output_files import writes_files
from taveer_desktop.cli.signing_options import (
    add_signing_options,
    print_standing,
    signed_json,
    signing_request,
)
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES
from taveer_desktop.core.ground.progress import NO_PROGRESS
from taveer_desktop.paths import default_project_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "report",
        help="write the PDF report of a case's verification run",
        description="Write the PDF case report of a stored verification run (A4).",
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("--run", type=int, metavar="ID", help="run id (default: the latest run)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the PDF to write")
    p.add_argument(
        "--archival",
        action="store_true",
        help="write PDF/A-1b (archival; carries no attached result JSON)",
    )
    p.add_argument(
        "--evaluation",
        metavar="FILE",
        help="training record with held-out evaluations of the model (*.training.json), "
        "quoted in the summary's error rates",
    )
    p.add_argument(
        "--scale",
        choices=sorted(SCALES),
        default=DEFAULT_SCALE,
        help="verbal scale for the likelihood ratio (printed with its table)",
    )
    add_signing_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    writes_files(p, "output")
    p.set_defaults(handler=run_report)


def run_report(args) -> int:
    # Imported here: Qt and the store load only when a report is written, so the other
    # commands start as fast as before.
    from taveer_desktop.report.export import check_target, export_report, load_evaluations
    from taveer_desktop.report.inputs import choose_run
    from taveer_desktop.store import ProjectStore
    from taveer_desktop.store.failure_account import accounting_for_failure

    target = check_target(args.output)  # refuse before opening anything
    sign = signing_request(args)
    path = Path(args.project) if args.project else default_project_path()
    store = _open_for_report(ProjectStore, path)
    try:
        case = store.cases.find(args.case)
        run = choose_run(store, case, args.run)
        evaluations = source = None
        if args.evaluation:
            evaluations, source = load_evaluations(args.evaluation, run.model_sha256)
        with accounting_for_failure(store, "the report's audit entry"):
            report = export_report(
                store,
                case.number,
                target,
                run_id=run.id,
                archival=args.archival,
                evaluations=evaluations,
                evaluation_source=source,
                progress=NO_PROGRESS if args.json else StderrProgress("report"),
                scale_id=args.scale,
                final=args.final,
                sign=sign,
            )
    finally:
        store.close()
    if args.json:
        print_json(
            {
                "report": str(report.path),
                "sha256": report.sha256,
                "pages": report.page_count,
                "report_id": report.report_id,
                "case": report.case_number,
                "run_id": report.run_id,
                "audit_seq": report.audit_entry.seq,
                "audit_head_hash": report.audit_entry.entry_hash,
                "receipt": str(report.receipt_path) if report.receipt_path else None,
                "final": report.final,
                "signature": signed_json(report.signed),
                "seconds": round(report.seconds, 3),
            }
        )
    else:
        print(
            f"wrote {shown(report.path)} ({report.page_count} pages, report {report.report_id}); "
            f"sha256 {report.sha256} recorded in the audit log as entry {report.audit_entry.seq}"
        )
        print(f"audit chain head at the report: {report.audit_entry.entry_hash}")
        print_standing(report.final, report.signed)
        if report.receipt_path:
            print(f"receipt written to {shown(report.receipt_path)}")
    if report.receipt_problem:
        print(
            f"taveer: warning: no receipt was written: {shown(report.receipt_problem)}",
            file=sys.stderr,
        )
    return 0


def _open_for_report(store_class, path: Path):
    """The project, with the writer's lock: every report, a draft too, records its export in
    the audit trail (``report_exported``), so it cannot run beside the open desktop; the
    refusal says so."""
    from taveer_desktop.cli.project_access import writer_refused
    from taveer_desktop.store import ProjectLocked

    try:
        return store_class.open(path, verify=False)  # the report runs the full check itself
    except ProjectLocked as locked:
        why = "a report, even a draft, writes: its export is recorded in the audit trail"
        raise writer_refused(locked, why) from None
