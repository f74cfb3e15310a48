"""The ``taveer population`` command: add a relevant population (a folder with one sub-folder
per author) to the project, or list the stored ones."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.presentation.audit_text import recorded_time


def register(subparsers: argparse._SubParsersAction) -> None:
    population = subparsers.add_parser("population", help="add or list relevant populations")
    actions = population.add_subparsers(dest="population_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="import a folder with one sub-folder per author")
    p.add_argument("name", metavar="NAME")
    p.add_argument("folder", metavar="DIR")
    p.add_argument(
        "--description",
        required=True,
        metavar="TEXT",
        help="who the authors are, genre, period and how they were selected",
    )
    json_option(p, run_population_add)
    json_option(actions.add_parser("list", help="list stored populations"), run_population_list)


def run_population_add(args) -> int:
    with open_project(args, create=True) as store:
        population, warnings = store.populations.add_folder(
            args.name, args.folder, args.description
        )
        dates = store.populations.dates(population.id)
    dated = len(dates.of) if dates else 0  # documents its topics.csv dates (docs/validation.md)
    for warning in warnings:
        print(f"taveer: warning: {shown(warning)}", file=sys.stderr)
    if args.json:
        print_json({**asdict(population), "dated_documents": dated, "warnings": warnings})
    else:
        print(
            f"added population {shown(repr(population.name))} (id {population.id}): "
            f"{population.author_count} authors, {population.document_count} documents"
            + (f" ({dated} dated)" if dated else "")
            + f", sha256 {population.sha256}"
        )
    return 0


def run_population_list(args) -> int:
    with read_project(args) as store:
        populations = store.populations.list_all()
    if args.json:
        print_json({"populations": [asdict(p) for p in populations]})
        return 0
    if not populations:
        print("no populations")
    for p in populations:
        print(
            f"{shown(p.name)}\t{p.author_count} authors\t{p.document_count} documents\t"
            f"added {recorded_time(p.added_utc)}\n  {shown(p.description)}"
        )
    return 0
