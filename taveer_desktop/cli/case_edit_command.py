"""``taveer case edit CASE [--title T] [--examiner E] [--agency A] [--description D]``.

Changes a case's descriptive fields after ``case create`` — most often the examiner and the
agency a final report needs — through the store's one write path for a case
(``store.cases.update``): one transaction with its ``case_updated`` audit entry naming the
fields that changed. Only the options given are changed; an option given as "" clears the
field. Nothing is written when nothing changes. The desktop's Case ▸ Edit Case dialog writes
through the same call. The case number itself is not changed here (it names the case in every
record and report).
"""

from __future__ import annotations

import argparse
from dataclasses import asdict

from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project

EDITABLE = ("title", "examiner", "agency", "description")


def register_case_edit(actions: argparse._SubParsersAction) -> None:
    """Add ``edit`` to the ``case`` command's actions."""
    p = actions.add_parser(
        "edit", help="change a case's title, examiner, agency or description (audited)"
    )
    p.add_argument("case", metavar="CASE", help="case number")
    for name in EDITABLE:
        p.add_argument(f"--{name}", default=None, help=f"the case's new {name} ('' clears it)")
    json_option(p, run_case_edit)


def run_case_edit(args) -> int:
    changes = {name: getattr(args, name) for name in EDITABLE if getattr(args, name) is not None}
    with open_project(args) as store:
        before = store.cases.find(args.case)
        after = store.cases.update(before.id, **changes) if changes else before
    changed = [name for name in EDITABLE if getattr(before, name) != getattr(after, name)]
    if args.json:
        print_json({"case": asdict(after), "changed": changed})
    elif changed:
        print(f"case {shown(after.number)}: changed {', '.join(changed)} (audited)")
    else:
        print(f"case {shown(after.number)}: nothing changed")
    return 0
