"""The ``taveer case`` actions about the validations of a case.

- ``taveer --project P case validate CASE --population NAME [options] [--json]``: validate the
  method on a stored population at the case's lengths (``store/case_validation.validate_case``);
  the model it produces and its record are kept as an attempt of the case.
- ``taveer --project P case attempts CASE [--json]``: every validation of the case, oldest
  first — its own attempts (every ``case validate``) and the records declared relevant to it —
  with id, when, method, population, seed, criteria, met, Cllr, its model and whether that model
  is the case's chosen model (``store/case_basis.case_attempts``); then the attempts that failed
  without a model (``"failed"``: entry, when, population, method, seed, repeats, declared
  lengths and the reason; ``store/case_validation.failed_attempts``).
- ``taveer --project P case use-validation CASE RECORD_ID --reason TEXT [--json]``: link a stored
  validation record (and the model it produced) to the case with the examiner's declaration of
  why its population is relevant (audited ``validation_used``); its model becomes the case's
  model unless it would replace one whose validation met its criteria by one whose did not.

Bad input (no such case or record, no reason, a record already linked) ends with one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.cli.validate_command import add_validation_options, print_validation_notes
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.validation_basis_text import (
    attempt_line,
    model_choice_sentence,
)
from taveer_desktop.presentation.validation_figures_text import acceptance_verdict
from taveer_desktop.store.failure_account import accounting_for_failure


def register_case_actions(actions: argparse._SubParsersAction) -> None:
    """Add ``validate``, ``attempts`` and ``use-validation`` to the ``case`` command's
    actions."""
    p = actions.add_parser(
        "validate",
        help="validate on a stored population at the case's lengths; keep model and record",
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("--population", required=True, metavar="NAME", help="a stored population")
    p.add_argument(
        "--questioned-chars",
        metavar="LO:HI",
        help="the lab's declared range of questioned lengths in characters, holding the case's "
        "(default: the case's own length)",
    )
    p.add_argument(
        "--known-chars",
        metavar="LO:HI",
        help="the declared range of known lengths (together), holding the case's (default: the "
        "case's own)",
    )
    add_validation_options(p)
    p.add_argument("--name", help="name of the model it produces")
    json_option(p, run_case_validate)

    p = actions.add_parser(
        "attempts", help="every validation of a case: its attempts and declared uses"
    )
    p.add_argument("case", metavar="CASE", help="case number")
    json_option(p, run_case_attempts)

    p = actions.add_parser(
        "use-validation",
        help="rely on a stored validation (of another case) for this case, saying why its "
        "population is relevant",
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("record", type=int, metavar="RECORD_ID", help="validation record id")
    p.add_argument(
        "--reason",
        required=True,
        metavar="TEXT",
        help="why the record's population is relevant to this case (kept in the audit log)",
    )
    json_option(p, run_case_use_validation)


def _chars(value) -> str:
    """A recorded length: N, or a declared range [LO, HI] (LO–HI; N when LO = HI)."""
    if isinstance(value, list):
        low, high = value
        return (
            numbers.integer(low)
            if low == high
            else f"{numbers.integer(low)}–{numbers.integer(high)}"
        )
    return numbers.integer(value)


def run_case_validate(args) -> int:
    from taveer_desktop.cli.validate_command import settings_from_args, validation_summary
    from taveer_desktop.core.ground.progress import NO_PROGRESS
    from taveer_desktop.core.validation.record_json import part_json
    from taveer_desktop.core.validation.record_reader import read_validation_record
    from taveer_desktop.store.case_validation import validate_case

    settings = settings_from_args(args)
    progress = StderrProgress("validating") if sys.stderr.isatty() else NO_PROGRESS
    with open_project(args) as store:
        case = store.cases.find(args.case)
        with accounting_for_failure(store, "the validation's model, its record and model choice"):
            done = validate_case(store, case.id, args.population, settings, args.name, progress)
    record = read_validation_record(done.result.record)  # the record just stored, read typed
    summary = validation_summary(record, done.model.name, f"validation {done.validation.id}")
    questioned, known = (
        part_json(record.protocol.questioned_chars),
        part_json(record.protocol.known_chars),
    )
    summary.update(
        case=case.number,
        population=args.population,
        model_id=done.model.id,
        validation_id=done.validation.id,
        questioned_chars=questioned,
        known_chars=known,
        chosen=done.chosen,
        case_model=done.case_model.name if done.case_model else None,
    )
    if args.json:
        print_json(summary)
        return 0
    verdict = acceptance_verdict(record.acceptance.met)
    print(
        f"case {shown(case.number)} validated on population {shown(repr(args.population))} "
        f"({_chars(questioned)} / {_chars(known)} characters): "
        f"{numbers.integer(record.protocol.trials_same or 0)} + "
        f"{numbers.count(record.protocol.trials_different or 0, 'trial')}, "
        f"Cllr {numbers.decimal(record.figures.cllr)}, AUC {numbers.decimal(record.figures.auc)}; "
        f"{verdict}"
    )
    print_validation_notes(record)
    choice = model_choice_sentence(
        done.chosen,
        done.model.name,
        done.case_model.name if done.case_model else None,
        done.validation.criteria_met,
    )
    print(f"validation {done.validation.id} kept as an attempt of the case; {shown(choice)}")
    return 0


def run_case_attempts(args) -> int:
    from taveer_desktop.presentation.audit_text import recorded_time
    from taveer_desktop.presentation.validation_attempts_text import failed_attempt_line
    from taveer_desktop.store.case_basis import DECLARED_USE, case_attempts
    from taveer_desktop.store.case_validation import failed_attempts

    with read_project(args) as store:
        case = store.cases.find(args.case)
        attempts = case_attempts(store, case.id)
        failed = failed_attempts(store, case.id)
    if args.json:
        print_json(
            {
                "case": case.number,
                "attempts": [a.to_dict() for a in attempts],
                "failed": [f.to_dict() for f in failed],
            }
        )
        return 0
    if not attempts and not failed:
        print(f"case {shown(case.number)} has no validation")
    for attempt in attempts:
        line = attempt_line(
            attempt.basis,
            recorded_time(attempt.linked_utc),  # the desktop's time format
            attempt.model_name,
            attempt.chosen,
            attempt.link == DECLARED_USE,
            attempt.reason,
        )
        print(f"{attempt.validation.id}\t{shown(line)}")
    for failure in failed:
        print(f"failed\t{shown(failed_attempt_line(failure.when, failure.details))}")
    return 0


def run_case_use_validation(args) -> int:
    from taveer_desktop.store.case_validation import use_validation

    with open_project(args) as store:
        case = store.cases.find(args.case)
        done = use_validation(store, case.id, args.record, args.reason)
    sentence = model_choice_sentence(
        done.chosen,
        done.model.name,
        done.case_model.name if done.case_model else None,
        done.validation.criteria_met,
    )
    if args.json:
        print_json(
            {
                "case": case.number,
                "use": asdict(done.use),
                "validation_id": done.validation.id,
                "model": done.model.name,
                "model_id": done.model.id,
                "chosen": done.chosen,
                "case_model": done.case_model.name if done.case_model else None,
                "statement": sentence,
            }
        )
        return 0
    print(
        f"validation record {done.validation.id} declared relevant to case {shown(case.number)} "
        f"(declaration {done.use.id}); {shown(sentence)}"
    )
    return 0
