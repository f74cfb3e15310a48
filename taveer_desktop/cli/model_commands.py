"""The ``taveer model`` command: add a model JSON file to the project (checked before it is
kept), or list the stored models with their conditions (or why one is refused)."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.model_text import model_summary_lines, unusable_model_line


def register(subparsers: argparse._SubParsersAction) -> None:
    model = subparsers.add_parser("model", help="add or list the project's models")
    actions = model.add_subparsers(dest="model_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="validate a model JSON file and keep it")
    p.add_argument("model_file", metavar="MODEL.json")
    json_option(p, run_model_add)
    json_option(actions.add_parser("list", help="list stored models"), run_model_list)


def run_model_add(args) -> int:
    with open_project(args, create=True) as store:
        model = store.models.add_file(args.model_file)
    if args.json:
        print_json(asdict(model))
    else:
        print(f"added model {shown(repr(model.name))} (id {model.id}, sha256 {model.sha256})")
    return 0


def run_model_list(args) -> int:
    """Every stored model; one that fails today's checks (stored by an older version) is
    listed with its problem, and refused only where it would be used."""
    with read_project(args) as store:
        readings = store.models.readings()
    if args.json:
        print_json({"models": [_model_listing(r.stored, r.model, r.problem) for r in readings]})
        return 0
    if not readings:
        print("no models")
    for r in readings:
        m = r.stored
        print(
            f"{shown(m.name)}\tcorpus {shown(m.corpus_name)}\tsha256 {m.sha256}"
            f"\tadded {recorded_time(m.added_utc)}"
        )
        if r.model is None:
            print(f"  {shown(unusable_model_line(r.problem))}")
            continue
        for line in model_summary_lines(r.model):
            print(f"  {shown(line)}")
    return 0


def _model_listing(stored, model, problem: str | None) -> dict:
    """A stored model in ``model list --json``: its row, its conditions and the held-out
    figures its file states (``evaluations``: stated by the model file, not a record), or the
    problem that refuses it."""
    data = {**asdict(stored), "usable": model is not None, "problem": problem}
    data["conditions"] = model.conditions.to_dict() if model and model.conditions else None
    data["evaluations"] = model.extra.get("evaluations") if model else None
    return data
