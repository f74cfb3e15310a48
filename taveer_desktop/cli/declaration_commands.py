"""The ``taveer case`` actions of the examiner's declaration and the technical review.

- ``taveer --project P case declare CASE --examiner NAME --role ROLE [--statement-file F]
  [--json]``: keep the examiner's declaration of the case as it stands (``store/
  declaration_repository.py``). The statement of truth is the lab's: the text of ``F`` (UTF-8),
  else the one of the project's latest declaration, else the program's default.
- ``taveer --project P case review CASE --reviewer NAME --outcome approved|changes-required
  [--comments TEXT] [--json]``: keep a second examiner's technical review of the case's latest
  declaration; the reviewer must not be the declaring examiner, and asking for changes needs
  comments.

With ``--sign CERT.p12`` (passphrase from ``TAVEER_SIGN_PASSPHRASE`` or a prompt) the chain's
head after the declaration or review is signed with the examiner's certificate and kept as a
``checkpoint_signed`` entry in the same transaction (``cli/checkpoint_option.py``).

Both are audited and sealed. Each prints whether a report of the case can now be final, and if
not, what is missing (``standing_line``, also used by ``case show``). Bad input — an empty or
over-long name, control or invisible characters, the reviewer being the examiner, a review
before any declaration, an unreadable statement file — is one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from taveer_desktop.cli.checkpoint_option import (
    add_checkpoint_option,
    checkpoint_json,
    checkpoint_key,
    checkpoint_line,
)
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.file_reading import read_file_bytes
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.store.declaration_repository import (
    MAX_TEXT_CHARS,
    OUTCOMES,
    Declaration,
    Standing,
    TechnicalReview,
    clean_text,
)
from taveer_desktop.store.errors import StoreError

MAX_STATEMENT_BYTES = 64 * 1024


def register_declaration_actions(actions: argparse._SubParsersAction) -> None:
    """Add ``declare`` and ``review`` to the ``case`` command's actions."""
    p = actions.add_parser(
        "declare", help="keep the examiner's declaration of the case as it stands (audited)"
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("--examiner", required=True, metavar="NAME", help="the declaring examiner")
    p.add_argument("--role", required=True, metavar="ROLE", help="e.g. 'forensic linguist'")
    p.add_argument(
        "--statement-file",
        metavar="F",
        help="the lab's statement of truth (UTF-8 text; default: the project's latest, or the "
        "program's)",
    )
    add_checkpoint_option(p)
    json_option(p, run_case_declare)

    p = actions.add_parser(
        "review", help="keep a technical review of the case's declaration (audited)"
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("--reviewer", required=True, metavar="NAME", help="the reviewing examiner")
    p.add_argument(
        "--outcome",
        required=True,
        choices=[o.replace("_", "-") for o in OUTCOMES],
        help="approved, or changes-required (then --comments says which)",
    )
    p.add_argument("--comments", metavar="TEXT", default="", help="the reviewer's comments")
    add_checkpoint_option(p)
    json_option(p, run_case_review)


def read_statement(path: str) -> str:
    """The statement of truth in file ``path`` (a regular UTF-8 file of at most 64 KiB)."""
    data = read_file_bytes(path, MAX_STATEMENT_BYTES, kind="statement file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", path) from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").strip()
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(f"holds more than {MAX_TEXT_CHARS:,} characters", path)
    if not text:
        raise InputError("holds no text, so it cannot be the statement of truth", path)
    try:  # the store's own rule for the text, refused here naming the file
        return clean_text("statement of truth", text, MAX_TEXT_CHARS, lines=True)
    except StoreError as error:
        raise InputError(error.plain_message, path) from None


def declaration_json(declaration: Declaration | None) -> dict[str, Any] | None:
    if declaration is None:
        return None
    keys = ("id", "examiner", "role", "statement_of_truth", "declaration", "declared_utc")
    return {k: getattr(declaration, k) for k in keys} | {"recorded_by": declaration.actor}


def review_json(review: TechnicalReview | None) -> dict[str, Any] | None:
    if review is None:
        return None
    keys = ("id", "declaration_id", "reviewer", "outcome", "comments", "reviewed_utc")
    return {k: getattr(review, k) for k in keys} | {"recorded_by": review.actor}


def standing_json(standing: Standing) -> dict[str, Any]:
    """``{"final", "missing", "declaration", "declaration_current", "review",
    "review_current"}`` (the ``report_standing`` of ``case show``, ``declare`` and ``review``)."""
    return {
        "final": standing.final,
        "missing": list(standing.missing),
        "declaration": declaration_json(standing.declaration),
        "declaration_current": standing.declaration_current,
        "review": review_json(standing.review),
        "review_current": standing.review_current,
    }


def standing_line(standing: Standing) -> str:
    """One line: who declared and reviewed, and whether a report can be final."""
    parts = []
    if standing.declaration:
        d = standing.declaration
        parts.append(f"declared by {d.examiner} ({d.role}) {recorded_time(d.declared_utc)}")
    if standing.review:
        r = standing.review
        parts.append(
            f"reviewed by {r.reviewer} {recorded_time(r.reviewed_utc)}: {OUTCOMES[r.outcome]}"
        )
    verdict = (
        "a report can be final"
        if standing.final
        else "a report is a DRAFT: " + "; ".join(standing.missing)
    )
    return shown("report standing: " + "; ".join([*parts, verdict]))


def run_case_declare(args) -> int:
    statement = read_statement(args.statement_file) if args.statement_file else None
    return _keep(
        args,
        lambda store, case: store.declarations.declare(
            case.id, args.examiner, args.role, statement
        ),
        lambda kept, case: (
            f"declaration {kept.id} of case {case.number} kept: {kept.examiner}, {kept.role}"
        ),
    )


def run_case_review(args) -> int:
    return _keep(
        args,
        lambda store, case: store.declarations.review(
            case.id, args.reviewer, args.outcome, args.comments
        ),
        lambda kept, case: (
            f"technical review {kept.id} of case {case.number} kept: "
            f"{kept.reviewer}, {OUTCOMES[kept.outcome]}"
        ),
    )


def _keep(args, keep: Callable[[Any, Any], Any], kept_line: Callable[[Any, Any], str]) -> int:
    """Keep a declaration or a review of ``args.case`` (``keep(store, case)``) with its signed
    checkpoint, if ``--sign`` asks for one, in one transaction; print what was kept
    (``kept_line(kept, case)``), whether a report can now be final, and the checkpoint."""
    key = checkpoint_key(args)  # refused in one line before the project is opened
    checkpoint = None
    with open_project(args) as store:
        case = store.cases.find(args.case)
        with store.transaction():  # what is kept and its checkpoint commit together
            kept = keep(store, case)
            if key is not None:
                checkpoint = store.audit.record_checkpoint(key, case.id)
        standing = store.declarations.standing(case.id)
    if args.json:
        print_json(
            {
                "case": case.number,
                "report_standing": standing_json(standing),
                "checkpoint": checkpoint_json(checkpoint),
            }
        )
    else:
        print(shown(kept_line(kept, case)))
        print(standing_line(standing))
        checkpoint_line(checkpoint)
    return 0
