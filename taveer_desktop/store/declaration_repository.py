"""The examiner's declaration and the technical review of a case (store version 7).

``store.declarations.declare(case_id, examiner, role, statement_of_truth)`` keeps the
examiner's declaration: name, role, the lab's statement of truth and the whole declaration as
declared (the report's standard, that the opinions are the examiner's own and within their
expertise, then the statement of truth), with the digest of the case as it stood
(``case_state.py``). ``review(case_id, reviewer, outcome, comments)`` keeps a second examiner's
technical review of the case's latest declaration: the reviewer must not be the declaring
examiner, ``changes_required`` needs comments. Each is one row and one audited, sealed entry
(``case_declared``, ``case_reviewed``); none is ever changed or deleted — a newer one supersedes.

``standing(case_id)`` says whether a report of the case can be final: a declaration and an
approved review, both made on the case as it stands now, and the case naming its examiner (the
declaring one: the title page prints the case's) and agency. Otherwise ``Standing.missing``
lists, in plain words, what is missing or stale and why.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from taveer_desktop.core.intake.control_characters import unsafe_characters
from taveer_desktop.store.audit_chain import AUDIT_COLUMNS, entry_from_row
from taveer_desktop.store.case_state import case_state_sha256, changes_since
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import NotFound, StoreError
from taveer_desktop.store.records import AuditEntry

REPORT_STANDARD = (
    "the ENFSI Guideline for Evaluative Reporting in Forensic Science (2015) and ISO 21043-5: "
    "it gives the probability of the findings under each of two stated propositions, never the "
    "probability of a proposition"
)
DEFAULT_STATEMENT_OF_TRUTH = (
    "I believe that the facts stated in this report are true and that the opinions expressed "
    "in it are correct. I understand that I may be called to account before the court for any "
    "statement in it that I know to be false or do not believe to be true."
)
OUTCOMES = {"approved": "approved", "changes_required": "changes required"}
MAX_NAME_CHARS = 300
MAX_TEXT_CHARS = 10_000
_LINES = ("\\n", "\\r", "\\t")  # long texts may have lines and tabs


@dataclass(frozen=True)
class Declaration:
    id: int
    case_id: int
    examiner: str
    role: str
    statement_of_truth: str
    declaration: str  # the whole text as declared
    case_state_sha256: str
    declared_utc: str
    actor: str = ""  # the account that recorded it (its audit entry)
    audit_seq: int = 0


@dataclass(frozen=True)
class TechnicalReview:
    id: int
    case_id: int
    declaration_id: int
    reviewer: str
    outcome: str  # "approved" or "changes_required"
    comments: str
    case_state_sha256: str
    reviewed_utc: str
    actor: str = ""
    audit_seq: int = 0

    @property
    def approved(self) -> bool:
        return self.outcome == "approved"


@dataclass(frozen=True)
class Standing:
    """Whether a report of a case can be final, and if not, what is missing (plain words)."""

    declaration: Declaration | None
    review: TechnicalReview | None
    declaration_current: bool
    review_current: bool
    missing: tuple[str, ...]

    @property
    def final(self) -> bool:
        return not self.missing


def declaration_text(examiner: str, role: str, statement_of_truth: str) -> str:
    """The whole declaration an examiner makes (stored as declared)."""
    return (
        f"I, {examiner}, {role}, declare that this report was prepared to the standard of "
        f"{REPORT_STANDARD}; that the opinions in it are my own and within my expertise; and "
        f"that I have stated the limitations of the method and of the material examined.\n"
        f"{statement_of_truth}"
    )


def same_person(first: str, second: str) -> bool:
    return " ".join(first.casefold().split()) == " ".join(second.casefold().split())


def clean_text(what: str, value: str | None, limit: int, lines: bool) -> str:
    """``value`` stripped, or a ``StoreError`` naming ``what`` (empty texts are allowed here)."""
    text = "" if value is None else str(value).strip()
    if len(text) > limit:
        raise StoreError(f"the {what} is longer than {limit:,} characters")
    hidden = [c for c in unsafe_characters(text) if not lines or c not in _LINES]
    if hidden:
        raise StoreError(f"the {what} holds control or invisible characters ({', '.join(hidden)})")
    return text


_DECLARATION_COLUMNS = (
    "id, case_id, examiner, role, statement_of_truth, declaration, case_state_sha256, declared_utc"
)
_REVIEW_COLUMNS = (
    "id, case_id, declaration_id, reviewer, outcome, comments, case_state_sha256, reviewed_utc"
)


def _seq(entry: AuditEntry | None) -> int:
    return entry.seq if entry else 0


class DeclarationRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def _required(self, what: str, value: str | None, limit: int, lines: bool = False) -> str:
        text = clean_text(what, value, limit, lines)
        if not text:
            raise StoreError(f"the {what} is empty")
        return text

    def declare(
        self, case_id: int, examiner: str, role: str, statement_of_truth: str | None = None
    ) -> Declaration:
        """Keep the examiner's declaration for the case as it stands now (audited)."""
        examiner = self._required("examiner's name", examiner, MAX_NAME_CHARS)
        role = self._required("examiner's role", role, MAX_NAME_CHARS)
        statement = self._required(
            "statement of truth",
            statement_of_truth if statement_of_truth is not None else self.lab_statement(),
            MAX_TEXT_CHARS,
            lines=True,
        )
        text = declaration_text(examiner, role, statement)
        with self._db.write() as tx:
            if tx.execute("SELECT 1 FROM cases WHERE id = ?", (case_id,)).fetchone() is None:
                raise NotFound(f"has no case with id {case_id}", self._db.path)
            state = case_state_sha256(tx.conn, case_id)
            declaration_id = tx.insert(
                f"INSERT INTO declarations ({_DECLARATION_COLUMNS.split(', ', 1)[1]})"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (case_id, examiner, role, statement, text, state, tx.time_utc),
            )
            tx.audit(
                "case_declared",
                case_id,
                {
                    "declaration_id": declaration_id,
                    "case_id": case_id,
                    "examiner": examiner,
                    "role": role,
                    "case_state_sha256": state,
                },
            )
        return self._declaration(declaration_id)

    def review(
        self, case_id: int, reviewer: str, outcome: str, comments: str | None = None
    ) -> TechnicalReview:
        """Keep a technical review of the case's latest declaration (audited)."""
        reviewer = self._required("reviewer's name", reviewer, MAX_NAME_CHARS)
        outcome = outcome.replace("-", "_").strip().lower()
        if outcome not in OUTCOMES:
            raise StoreError(
                f"a review's outcome is 'approved' or 'changes-required', not {outcome!r}"
            )
        comments = clean_text("review's comments", comments, MAX_TEXT_CHARS, True)
        if outcome == "changes_required" and not comments:
            raise StoreError("a review asking for changes needs comments saying which changes")
        declaration = self.latest_declaration(case_id)
        if declaration is None:
            raise StoreError(
                "the case has no examiner's declaration yet: the examiner declares first, "
                "then another examiner reviews"
            )
        if same_person(reviewer, declaration.examiner):
            raise StoreError(
                f"{declaration.examiner} declared this case's report; its technical review "
                "is made by another examiner"
            )
        with self._db.write() as tx:
            state = case_state_sha256(tx.conn, case_id)
            review_id = tx.insert(
                f"INSERT INTO technical_reviews ({_REVIEW_COLUMNS.split(', ', 1)[1]})"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (case_id, declaration.id, reviewer, outcome, comments, state, tx.time_utc),
            )
            tx.audit(
                "case_reviewed",
                case_id,
                {
                    "review_id": review_id,
                    "case_id": case_id,
                    "declaration_id": declaration.id,
                    "reviewer": reviewer,
                    "outcome": outcome,
                    "case_state_sha256": state,
                },
            )
        return self._review(review_id)

    # -- reading -----------------------------------------------------------------------------
    def lab_statement(self) -> str:
        """The lab's statement of truth: the one of the project's latest declaration, or the
        default (the lab sets its own with the first declaration that gives one)."""
        row = self._db.query_one(
            "SELECT statement_of_truth FROM declarations ORDER BY id DESC LIMIT 1"
        )
        return row[0] if row else DEFAULT_STATEMENT_OF_TRUTH

    def _entry(self, action: str, key: str, record_id: int, case_id: int) -> AuditEntry | None:
        row = self._db.query_one(
            f"SELECT {AUDIT_COLUMNS} FROM audit_log WHERE action = ? AND case_id = ?"
            " AND json_extract(details_json, ?) = ? ORDER BY seq LIMIT 1",
            (action, case_id, f"$.{key}", record_id),
        )
        return entry_from_row(row) if row else None

    def _declaration(self, declaration_id: int) -> Declaration:
        row = self._db.query_one(
            f"SELECT {_DECLARATION_COLUMNS} FROM declarations WHERE id = ?", (declaration_id,)
        )
        if row is None:
            raise NotFound(f"has no declaration with id {declaration_id}", self._db.path)
        entry = self._entry("case_declared", "declaration_id", row[0], row[1])
        fields = dict(zip(_DECLARATION_COLUMNS.split(", "), row, strict=True))
        return Declaration(**fields, actor=entry.actor if entry else "", audit_seq=_seq(entry))

    def _review(self, review_id: int) -> TechnicalReview:
        row = self._db.query_one(
            f"SELECT {_REVIEW_COLUMNS} FROM technical_reviews WHERE id = ?", (review_id,)
        )
        if row is None:
            raise NotFound(f"has no technical review with id {review_id}", self._db.path)
        entry = self._entry("case_reviewed", "review_id", row[0], row[1])
        fields = dict(zip(_REVIEW_COLUMNS.split(", "), row, strict=True))
        return TechnicalReview(**fields, actor=entry.actor if entry else "", audit_seq=_seq(entry))

    def latest_declaration(self, case_id: int) -> Declaration | None:
        row = self._db.query_one(
            "SELECT id FROM declarations WHERE case_id = ? ORDER BY id DESC LIMIT 1", (case_id,)
        )
        return self._declaration(row[0]) if row else None

    def latest_review(self, case_id: int) -> TechnicalReview | None:
        row = self._db.query_one(
            "SELECT id FROM technical_reviews WHERE case_id = ? ORDER BY id DESC LIMIT 1",
            (case_id,),
        )
        return self._review(row[0]) if row else None

    def standing(self, case_id: int) -> Standing:
        """Whether a report of the case can be final now (see the module's docstring)."""
        case = self._db.query_one("SELECT examiner, agency FROM cases WHERE id = ?", (case_id,))
        if case is None:
            raise NotFound(f"has no case with id {case_id}", self._db.path)
        try:
            now = case_state_sha256(self._db.connection(), case_id)
        except sqlite3.DatabaseError as error:  # as every read: a table missing from a
            raise self._db.translate(error) from None  # damaged store is one sentence
        declaration, review = self.latest_declaration(case_id), self.latest_review(case_id)
        missing: list[str] = []
        if not case[0]:
            missing.append("the case names no examiner")
        if not case[1]:
            missing.append("the case names no agency")
        declared_now = declaration is not None and declaration.case_state_sha256 == now
        if declaration is not None and case[0] and not same_person(case[0], declaration.examiner):
            missing.append(
                f"the case names {case[0]} as its examiner, but {declaration.examiner} declared "
                "the report"
            )
        if declaration is None:
            missing.append("no examiner's declaration")
        elif not declared_now:
            missing.append(
                f"the examiner's declaration is stale: {self._changed(case_id, declaration)}"
            )
        reviewed_now = (
            review is not None
            and declaration is not None
            and review.declaration_id == declaration.id
            and review.case_state_sha256 == now
        )
        if review is None or declaration is None:
            missing.append("no technical review")
        elif review.declaration_id != declaration.id:
            missing.append("no technical review of the latest declaration")
        elif not reviewed_now:
            missing.append(f"the technical review is stale: {self._changed(case_id, review)}")
        elif not review.approved:
            missing.append(f"the technical review by {review.reviewer} asks for changes")
        return Standing(declaration, review, declared_now, reviewed_now, tuple(missing))

    def _changed(self, case_id: int, made: Declaration | TechnicalReview) -> str:
        entries = [
            entry_from_row(row)
            for row in self._db.query(
                f"SELECT {AUDIT_COLUMNS} FROM audit_log WHERE case_id = ? AND seq > ? ORDER BY seq",
                (case_id, made.audit_seq),
            )
        ]
        changes = changes_since(entries, made.audit_seq)
        if not changes:
            return "the case changed after it was made"
        named = ", ".join(
            f"{e.action.replace('_', ' ')} (audit entry {e.seq})" for e in changes[:3]
        )
        more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
        return f"the case changed after it: {named}{more}"
