"""``taveer methods [--json]``: every registered method — id, name, family, reference and
whether it is deterministic (``core/methods/registry.listing``; the JSON is a stable contract,
docs/cli.md). ``--method ID`` and ``--compare ID,ID,…`` of ``validate`` take these ids."""

from __future__ import annotations

import argparse

from taveer_desktop.cli.output import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "methods", help="the methods that can be validated and compared, with their references"
    )
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.set_defaults(handler=run_methods)


def run_methods(args) -> int:
    from taveer_desktop.core.ground.registry import listing

    entries = listing()
    if args.json:
        print_json(entries)
        return 0
    for entry in entries:
        chance = "" if entry["deterministic"] else "; seeded (draws at random)"
        print(f"{entry['id']}\t{entry['name']} — {entry['family']}{chance}\n\t{entry['reference']}")
    return 0
