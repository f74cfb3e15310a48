"""Cases: creating, editing, finding and listing them (``store.cases``).

Every change writes a ``case_created`` or ``case_updated`` audit entry holding all descriptive
fields as they are after the change; the integrity check compares the case row with the last of
those entries, so an edit behind the store's back is detected.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from taveer_desktop.core.intake.control_characters import unsafe_characters
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import Conflict, NotFound, StoreError
from taveer_desktop.store.records import Case

CASE_FIELDS = ("number", "title", "examiner", "agency", "description")
MAX_FIELD_CHARS = 10_000

_LIST_SQL = """
SELECT c.id, c.number, c.title, c.examiner, c.agency, c.description, c.created_utc,
       c.modified_utc,
       (SELECT count(*) FROM documents d WHERE d.case_id = c.id AND d.role = 'known'),
       (SELECT count(*) FROM documents d WHERE d.case_id = c.id AND d.role = 'questioned'),
       (SELECT count(*) FROM runs r WHERE r.case_id = c.id),
       c.model_id
FROM cases c
"""


def case_fields_snapshot(case: Case) -> dict[str, str]:
    return {name: getattr(case, name) for name in CASE_FIELDS}


_LINES = ("\\n", "\\r", "\\t")  # a description may have lines and tabs, as escapes name them


def _clean(fields: Mapping[str, str | None], source: Path | None) -> dict[str, str]:
    cleaned = {}
    for name, value in fields.items():
        if name not in CASE_FIELDS:
            raise ValueError(f"unknown case field {name!r}")
        text = "" if value is None else str(value).strip()
        if len(text) > MAX_FIELD_CHARS:
            raise StoreError(f"case {name} is longer than {MAX_FIELD_CHARS:,} characters", source)
        hidden = [c for c in unsafe_characters(text) if name != "description" or c not in _LINES]
        if hidden:  # a bidi override in a case number makes it read as another number
            raise StoreError(
                f"case {name} holds control or invisible characters ({', '.join(hidden)})", source
            )
        cleaned[name] = text
    if "number" in cleaned and not cleaned["number"]:
        raise StoreError("a case needs a case number", source)
    return cleaned


clean_case_fields = _clean  # the door's rules, also held against stored cases (entry_rules)


class CaseRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def create(
        self,
        number: str,
        title: str = "",
        examiner: str = "",
        agency: str = "",
        description: str = "",
    ) -> Case:
        """Create a case; its number must not be in use yet."""
        fields = _clean(
            {
                "number": number,
                "title": title,
                "examiner": examiner,
                "agency": agency,
                "description": description,
            },
            self._db.path,
        )
        with self._db.write() as tx:
            try:
                case_id = tx.insert(
                    "INSERT INTO cases (number, title, examiner, agency, description,"
                    " created_utc, modified_utc) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*(fields[name] for name in CASE_FIELDS), tx.time_utc, tx.time_utc),
                )
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"already has a case numbered {fields['number']!r}", self._db.path
                ) from None
            tx.audit("case_created", case_id, {"case_id": case_id, **fields})
        return self.get(case_id)

    def update(self, case_id: int, **changes: str | None) -> Case:
        """Change descriptive fields (number, title, examiner, agency, description)."""
        cleaned = _clean(changes, self._db.path)
        current = self.get(case_id)
        if all(getattr(current, name) == value for name, value in cleaned.items()):
            return current
        with self._db.write() as tx:
            assignments = ", ".join(f"{name} = ?" for name in cleaned)
            try:
                tx.execute(
                    f"UPDATE cases SET {assignments}, modified_utc = ? WHERE id = ?",
                    (*cleaned.values(), tx.time_utc, case_id),
                )
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"already has a case numbered {cleaned.get('number')!r}", self._db.path
                ) from None
            after = {**case_fields_snapshot(current), **cleaned}
            changed = sorted(name for name in cleaned if getattr(current, name) != cleaned[name])
            tx.audit("case_updated", case_id, {"case_id": case_id, **after, "changed": changed})
        return self.get(case_id)

    def choose_model(self, case_id: int, model_id: int | None) -> Case:
        """Record the model the examiner chose for the case (None clears the choice)."""
        current = self.get(case_id)
        if current.model_id == model_id:
            return current
        with self._db.write() as tx:
            model_sha = None
            if model_id is not None:
                row = tx.execute("SELECT sha256 FROM models WHERE id = ?", (model_id,)).fetchone()
                if row is None:
                    raise NotFound(f"has no model with id {model_id}", self._db.path)
                model_sha = row[0]
            tx.execute(
                "UPDATE cases SET model_id = ?, modified_utc = ? WHERE id = ?",
                (model_id, tx.time_utc, case_id),
            )
            tx.audit(
                "case_model_chosen",
                case_id,
                {"case_id": case_id, "model_id": model_id, "model_sha256": model_sha},
            )
        return self.get(case_id)

    def list_all(self) -> list[Case]:
        """Every case, by case number."""
        return [Case(*row) for row in self._db.query(_LIST_SQL + " ORDER BY c.number")]

    def numbers(self) -> dict[int, str]:
        """Every case's number by id (columns every store version has: usable on a store
        opened for a check, which is never upgraded)."""
        return {
            case_id: number for case_id, number in self._db.query("SELECT id, number FROM cases")
        }

    def get(self, case_id: int) -> Case:
        row = self._db.query_one(_LIST_SQL + " WHERE c.id = ?", (case_id,))
        if row is None:
            raise NotFound(f"has no case with id {case_id}", self._db.path)
        return Case(*row)

    def find(self, number: str) -> Case:
        """The case with this case number."""
        row = self._db.query_one(_LIST_SQL + " WHERE c.number = ?", (str(number).strip(),))
        if row is None:
            raise NotFound(f"has no case numbered {str(number)!r}", self._db.path)
        return Case(*row)
