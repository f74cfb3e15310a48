"""The ``taveer case`` actions about the validations of a case.

- ``taveer --project P case attempts CASE [--json]``: every validation of the case, oldest
  first — its own attempts (every ``case validate``) and the records declared relevant to it —
  with id, when, method, population, seed, criteria, met, Cllr, its model and whether that model
  is the case's chosen model (``store/case_basis.case_attempts``).
- ``taveer --project P case use-validation CASE RECORD_ID --reason TEXT [--json]``: link a stored
  validation record (and the model it produced) to the case with the examiner's declaration of
  why its population is relevant (audited ``validation_used``); its model becomes the case's
  model unless it would replace one whose validation met its criteria by one whose did not.

Bad input (no such case or record, no reason, a record already linked) ends with one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict

from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.presentation.validation_basis_text import (
    attempt_line,
    model_choice_sentence,
)


def register_case_actions(actions: argparse._SubParsersAction) -> None:
    """Add ``attempts`` and ``use-validation`` to the ``case`` command's actions."""
    from taveer_desktop.cli.project_commands import _json_option

    p = actions.add_parser(
        "attempts", help="every validation of a case: its attempts and declared uses"
    )
    p.add_argument("case", metavar="CASE", help="case number")
    _json_option(p, run_case_attempts)

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
    _json_option(p, run_case_use_validation)


def run_case_attempts(args) -> int:
    from taveer_desktop.cli.project_commands import _open
    from taveer_desktop.presentation.audit_text import recorded_time
    from taveer_desktop.store.case_basis import DECLARED_USE, case_attempts

    with _open(args) as store:
        case = store.cases.find(args.case)
        attempts = case_attempts(store, case.id)
    if args.json:
        print_json({"case": case.number, "attempts": [a.to_dict() for a in attempts]})
        return 0
    if not attempts:
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
    return 0


def run_case_use_validation(args) -> int:
    from taveer_desktop.cli.project_commands import _open
    from taveer_desktop.store.case_validation import use_validation

    with _open(args) as store:
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
