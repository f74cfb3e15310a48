"""The ``taveer`` commands about the project file as evidence: ``audit`` (the audit trail),
``check`` (``check_command.py``), ``receipt`` and ``save-copy``."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path

from taveer_desktop.cli.check_command import add_check_parser
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.output_files import writes_files
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.receipts import write_receipt


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("audit", help="the audit trail of a case (or of the project)")
    p.add_argument("case", metavar="CASE", nargs="?", help="case number (default: all)")
    json_option(p, run_audit)

    add_check_parser(subparsers)  # cli/check_command.py

    p = subparsers.add_parser(
        "receipt", help="write a receipt of the store (identity, chain length, head hash)"
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    writes_files(p, "output")
    json_option(p, run_receipt)

    p = subparsers.add_parser("save-copy", help="save a consistent copy of the project")
    p.add_argument("target", metavar="FILE")
    p.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    writes_files(p, "target", replaced_by={"target": "overwrite"})
    json_option(p, run_save_copy)


def run_audit(args) -> int:
    with read_project(args) as store:
        case = store.cases.find(args.case) if args.case else None
        entries = store.audit.entries(case.id if case else None)
        head = store.audit.head()
    if args.json:
        print_json(
            {
                "case": case.number if case else None,
                "head_hash": head.entry_hash if head else None,
                "entries": [asdict(e) for e in entries],
            }
        )
        return 0
    for e in entries:
        when = recorded_time(e.time_utc)
        print(f"{e.seq:>6}  {when}  {shown(e.actor)}  {e.action}  {e.entry_hash[:16]}")
    if head:
        print(f"audit chain head: entry {head.seq}, hash {head.entry_hash}")
    return 0


def run_receipt(args) -> int:
    with read_project(args) as store:
        receipt = write_receipt(store, args.output)
    if args.json:
        print_json({"receipt": str(Path(args.output).absolute()), **receipt.to_dict()})
    else:
        print(
            f"wrote a receipt to {shown(args.output)}: chain of {receipt.chain_length} entries, "
            f"head {receipt.head_hash}"
        )
    return 0


def run_save_copy(args) -> int:
    with open_project(args) as store:
        target = store.save_copy(args.target, overwrite=args.overwrite)
    if args.json:
        print_json({"copy": str(target)})
    else:
        print(f"saved a copy to {shown(target)}")
    return 0
