"""The cases of a project as a table, and the search filter of the case list."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from taveer_desktop.presentation.numbers import count
from taveer_desktop.store import Case
from taveer_desktop.ui.record_table_model import (
    RECORD_ROLE,
    SORT_ROLE,
    Column,
    RecordTableModel,
    short_utc,
)

NUMBER, TITLE, DOCUMENTS, RUNS, MODIFIED = range(5)


def _documents(case: Case) -> str:
    return f"{case.known_count} + {case.questioned_count}"


def _documents_tip(case: Case) -> str:
    return f"{case.known_count} known, {case.questioned_count} questioned"


class CaseTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Case",
            lambda c: c.number,
            "The case number",
            lambda c: (
                (f"{c.number}: {c.title}" if c.title else c.number)
                + f"\n{_documents_tip(c)}, {count(c.run_count, 'run')}"
            ),
        ),
        Column("Title", lambda c: c.title, "The case title", lambda c: c.description or c.title),
        Column(
            "Docs",
            _documents,
            "Known + questioned documents in the case",
            _documents_tip,
            sort_key=lambda c: c.known_count + c.questioned_count,
        ),
        Column(
            "Runs",
            lambda c: str(c.run_count),
            "Stored verification runs",
            sort_key=lambda c: c.run_count,
            numeric=True,
        ),
        Column(
            "Modified",
            lambda c: short_utc(c.modified_utc),
            "When the case last changed (UTC)",
            lambda c: short_utc(c.modified_utc),
            sort_key=lambda c: c.modified_utc,
        ),
    )


def case_matches(case: Case, search: str) -> bool:
    """True when every word of ``search`` occurs in the case's number, title, people or text."""
    haystack = " ".join(
        (case.number, case.title, case.examiner, case.agency, case.description)
    ).casefold()
    return all(word in haystack for word in search.casefold().split())


class CaseFilterProxy(QSortFilterProxyModel):
    """Sorts by ``SORT_ROLE`` and keeps the cases matching the search text."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._search = ""

    def set_search(self, text: str) -> None:
        self.beginFilterChange()
        self._search = text.strip()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        if not self._search:
            return True
        index = self.sourceModel().index(source_row, 0, source_parent)
        case = self.sourceModel().data(index, RECORD_ROLE)
        return case is not None and case_matches(case, self._search)
