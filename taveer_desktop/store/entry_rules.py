"""What the program never writes, found in a store: entries out of time order, an entry changing
a record of another case than the one it is filed under, and values its own door refuses.

The seals prove that a row is what its entry says; they cannot prove that the entry is one the
program could have written. A forger who appends a well-formed entry with a sealed row can give
it an earlier time than the entries before it, file it under case 2 while it changes case 1 (so
case 1's audit omits it), or put into a name what the program refuses at its door (bidi and
zero-width characters, a reviewer who is the declaring examiner). ``entry_problems`` holds the
chain to the first two rules, ``value_problems`` the stored cases, declarations and reviews to
the door's own rules (``case_repository.clean_case_fields``, ``declaration_repository``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any, TypeGuard

from taveer_desktop.store.audit_actions import ACTIONS, CASE_OF_ENTRY, Transition
from taveer_desktop.store.case_repository import CASE_FIELDS, clean_case_fields
from taveer_desktop.store.declaration_repository import (
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    OUTCOMES,
    clean_text,
    same_person,
)
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.records import AuditEntry, IntegrityProblem

CASE_DOOR_FROM = 7  # the first store version whose program refused invisible case fields
# tables whose records belong to one case (the entry creating one is filed under it)
_CASE_RECORDS = (
    "documents",
    "document_exclusions",
    "runs",
    "run_documents",
    "stability_checks",
    "declarations",
    "technical_reviews",
    "validation_uses",
)
# keys of an entry's details naming a record of a case
_NAMED_RECORDS = {
    "document_id": "documents",
    "questioned_document_id": "documents",
    "run_id": "runs",
    "declaration_id": "declarations",
}


def _problem(seq: int, message: str) -> IntegrityProblem:
    return IntegrityProblem("audit", f"audit entry {seq}", message)


def entry_problems(entries: Iterable[AuditEntry]) -> list[IntegrityProblem]:
    """Entries dated before an earlier one, and entries filed under another case than the
    record they create, change or name."""
    problems = []
    latest: AuditEntry | None = None
    record_case: dict[tuple[str, int], int | None] = {}
    for entry in entries:
        if latest is not None and entry.time_utc < latest.time_utc:
            problems.append(
                _problem(
                    entry.seq,
                    f"is dated {entry.time_utc}, before audit entry {latest.seq} "
                    f"({latest.time_utc}): the program writes its entries forward in time",
                )
            )
        if latest is None or entry.time_utc > latest.time_utc:
            latest = entry
        details = entry.details if isinstance(entry.details, dict) else {}
        problems += _case_problems(entry, details, record_case)
    return problems


def _case_problems(
    entry: AuditEntry, details: dict[str, Any], record_case: dict[tuple[str, int], int | None]
) -> list[IntegrityProblem]:
    found = []
    named = details.get("case_id")
    if _is_id(named) and entry.case_id is not None and named != entry.case_id:
        found.append(f"names case {named} but is filed under case {entry.case_id}")
    for key, table in _NAMED_RECORDS.items():
        record = details.get(key)
        owner = record_case.get((table, record)) if _is_id(record) else None
        if owner is not None and owner != entry.case_id:
            found.append(
                f"names {table[:-1].replace('_', ' ')} {record} of case {owner} but is filed "
                f"under case {entry.case_id}"
            )
    for effect in ACTIONS.get(entry.action, ()):
        record = details.get(effect.id_key) if effect.id_key != CASE_OF_ENTRY else None
        created = effect.transition is Transition.CREATE
        if created and effect.table in _CASE_RECORDS and _is_id(record):
            record_case[(effect.table, record)] = entry.case_id
    return [
        _problem(entry.seq, f"{entry.action} {why}: an entry changing a case is filed under it")
        for why in dict.fromkeys(found)
    ]


def _is_id(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def created_version(entries: list[AuditEntry]) -> int:
    """The store version the project was created at (its ``project_created`` entry; 0: unknown)."""
    first = entries[0].details if entries and entries[0].action == "project_created" else {}
    version = first.get("schema_version") if isinstance(first, dict) else None
    return version if _is_id(version) else 0


def value_problems(
    conn: sqlite3.Connection, tables: set[str], created: int
) -> list[IntegrityProblem]:
    """Stored cases, declarations and technical reviews holding a value the program's own door
    refuses (control or invisible characters, too long, blank where required). Cases are held
    to it only in a store created at version ``CASE_DOOR_FROM`` or later: older programs let
    invisible characters into case fields, and a case made then is no forgery."""
    problems = []
    names = ", ".join(CASE_FIELDS)
    cases = f"SELECT id, {names} FROM cases" if created >= CASE_DOOR_FROM else "SELECT 1 WHERE 0"
    for case_id, *values in conn.execute(cases):
        fields = dict(zip(CASE_FIELDS, values, strict=True))
        why = _case_refused(fields)
        if why:
            problems.append(IntegrityProblem("case", f"case {case_id}", why))
    if "declarations" not in tables:
        return problems
    examiners = {}
    for row_id, examiner, role, statement in conn.execute(
        "SELECT id, examiner, role, statement_of_truth FROM declarations"
    ):
        examiners[row_id] = examiner
        why = _text_refused(
            ("examiner's name", examiner, MAX_NAME_CHARS, False, True),
            ("examiner's role", role, MAX_NAME_CHARS, False, True),
            ("statement of truth", statement, MAX_TEXT_CHARS, True, True),
        )
        if why:
            problems.append(IntegrityProblem("declaration", f"declaration {row_id}", why))
    for row_id, declaration_id, reviewer, outcome, comments in conn.execute(
        "SELECT id, declaration_id, reviewer, outcome, comments FROM technical_reviews"
    ):
        why = _text_refused(
            ("reviewer's name", reviewer, MAX_NAME_CHARS, False, True),
            ("review's comments", comments or "", MAX_TEXT_CHARS, True, False),
        )
        if not why and outcome not in OUTCOMES:
            why = f"its outcome {outcome!r} is not one the program writes"
        examiner = examiners.get(declaration_id)
        if not why and isinstance(examiner, str) and same_person(str(reviewer), examiner):
            why = "its reviewer is the examiner who declared: the program refuses that"
        if why:
            problems.append(IntegrityProblem("review", f"technical review {row_id}", why))
    return problems


def _case_refused(fields: dict[str, Any]) -> str | None:
    try:
        cleaned = clean_case_fields(fields, None)
    except StoreError as error:
        return f"holds a value the program refuses ({error.plain_message})"
    if cleaned != fields:
        return "holds a value the program never writes (spaces around it)"
    return None


def _text_refused(*texts: tuple[str, object, int, bool, bool]) -> str | None:
    """Why the door refuses one of ``texts`` (what, value, limit, lines allowed, required)."""
    for what, value, limit, lines, required in texts:
        if not isinstance(value, str) or (required and not value.strip()):
            return f"its {what} is empty: the program refuses that"
        try:
            cleaned = clean_text(what, value, limit, lines)
        except StoreError as error:
            return f"holds a value the program refuses ({error.plain_message})"
        if cleaned != value:
            return f"its {what} has spaces around it: the program never writes that"
    return None
