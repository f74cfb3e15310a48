"""The ``taveer validation`` commands: the validation records kept in a project.

- ``taveer --project P validation list [--json]``: every stored record with its id, case,
  population, model, Cllr and whether its acceptance criteria were met.
- ``taveer --project P validation report ID -o FILE.pdf [--final [--sign CERT.p12 …]] [--json]``:
  the record's validation report (``report/validation_export.py``), written atomically and
  audited in the project; final and signed as the case report (``signing_options.py``).

Bad input (no such record, an unwritable target, a record whose JSON no longer matches its
SHA-256 or cannot be read) ends with one line on stderr and exit status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.output_files import writes_files
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.cli.signing_options import (
    add_signing_options,
    print_standing,
    signed_json,
    signing_request,
)
from taveer_desktop.core.ground.progress import NO_PROGRESS
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.validation_figures_text import acceptance_verdict
from taveer_desktop.store.errors import NotFound


def register(subparsers: argparse._SubParsersAction) -> None:
    validation = subparsers.add_parser(
        "validation", help="list the project's validation records or write their reports"
    )
    actions = validation.add_subparsers(dest="validation_action", metavar="ACTION", required=True)
    json_option(actions.add_parser("list", help="list stored validation records"), run_list)
    p = actions.add_parser("report", help="write the PDF validation report of a stored record")
    p.add_argument("id", type=int, metavar="ID", help="validation record id (see `list`)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the PDF to write")
    writes_files(p, "output")
    add_signing_options(p)
    json_option(p, run_report)


def _names(store, validation) -> tuple[str, str]:
    """(case number or "–", population name) of a stored validation."""
    case = "–"
    if validation.case_id is not None:
        try:
            case = store.cases.get(validation.case_id).number
        except NotFound:
            case = f"case id {validation.case_id}"
    try:
        population = store.populations.get(validation.population_id).name
    except NotFound:
        population = f"population id {validation.population_id}"
    return case, population


def run_list(args) -> int:
    with read_project(args) as store:
        rows = [(v, *_names(store, v)) for v in store.validations.list_all()]
    if args.json:
        print_json(
            {
                "validations": [
                    {**asdict(v), "case": case, "population": population}
                    for v, case, population in rows
                ]
            }
        )
        return 0
    if not rows:
        print("no validation records")
    for v, case, population in rows:
        cllr = f"Cllr {v.cllr:.3f}" if v.cllr is not None else "Cllr not measured"
        print(
            f"{v.id}\tcase {shown(case)}\tpopulation {shown(population)}\t"
            f"model {v.model_id}\t{cllr}\t{acceptance_verdict(v.criteria_met)}\t"
            f"stored {recorded_time(v.created_utc)}"
        )
    return 0


def run_report(args) -> int:
    # Qt loads only when a report is written
    from taveer_desktop.report.export import check_target
    from taveer_desktop.report.validation_export import export_stored_validation_report

    target = check_target(args.output)  # refuse before opening anything
    sign = signing_request(args)
    with open_project(args, verify=False) as store:  # the export runs the full check itself
        # progress only on a terminal: a script reading stderr gets one line on bad input
        progress = (
            StderrProgress("validation report")
            if sys.stderr.isatty() and not args.json
            else NO_PROGRESS
        )
        report = export_stored_validation_report(
            store, args.id, target, progress, final=args.final, sign=sign
        )
    if args.json:
        print_json(
            {
                "report": str(report.path),
                "sha256": report.sha256,
                "pages": report.page_count,
                "validation_id": report.validation_id,
                "record_sha256": report.record_sha256,
                "audit_seq": report.audit_entry.seq if report.audit_entry else None,
                "receipt": str(report.receipt_path) if report.receipt_path else None,
                "final": report.final,
                "signature": signed_json(report.signed),
                "seconds": round(report.seconds, 3),
            }
        )
    else:
        print(
            f"wrote {shown(report.path)} ({report.page_count} pages) for validation record "
            f"{report.validation_id}; sha256 {report.sha256} recorded in the audit log as "
            f"entry {report.audit_entry.seq if report.audit_entry else '–'}"
        )
        if report.receipt_path:
            print(f"receipt written to {shown(report.receipt_path)}")
        print_standing(report.final, report.signed)
    if report.receipt_problem:
        print(
            f"taveer: warning: no receipt was written: {shown(report.receipt_problem)}",
            file=sys.stderr,
        )
    return 0
