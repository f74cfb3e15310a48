"""After an action fails, what the project holds from it — read back from the store, not guessed.

``accounting_for_failure(store, what)`` wraps the writing part of one action (``case add``,
``case verify``, ``case validate``, ``report``). It notes where the audit log ends before the
action; if the action fails with a write failure (a full disk, the file-size limit, an I/O
error, a file that could not be written) — or with any error after it had stored something —
it reads the audit log back and raises one sentence: the failure, then exactly which records
the action stored (each named by its audit entry) and that the rest of ``what`` was not stored,
or that nothing was (the log still ends where it ended), and whether running the command again
is safe; interrupted (Ctrl-C), it says the same after "interrupted". Every stored change is
audited in the same transaction, so the entries after that point are exactly what the action
stored. If the log cannot be read back either, the sentence says so and asks for ``taveer
check`` instead of claiming anything.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.ground.atomic_file import FileWriteError
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.store import audit_chain
from taveer_desktop.store.errors import StoreError, WriteFailed

if TYPE_CHECKING:
    from taveer_desktop.store.project_store import ProjectStore

# audit action → (what it stores, the detail naming it, a second detail shown in brackets)
_STORED: dict[str, tuple[str, str, str | None]] = {
    "document_added": ("document", "document_id", "file_name"),
    "model_added": ("model", "model_id", "name"),
    "validation_stored": ("validation record", "validation_id", None),
    "case_model_chosen": ("the case's model choice: model", "model_id", None),
    "run_stored": ("run", "run_id", None),
    "stability_stored": ("the stability check of run", "run_id", None),
    "report_exported": ("the audit entry of the report", "file_name", None),
    "validation_used": ("declaration", "use_id", None),
    "validation_failed": ("the failed attempt of the case, with its reason", "", None),
}


def _is_write_failure(error: BaseException) -> bool:
    return isinstance(error, WriteFailed | FileWriteError | OSError) or bool(
        getattr(error, "write_failure", False)
    )


def _head_seq(store: ProjectStore) -> int:
    row = store._db.query_one("SELECT COALESCE(MAX(seq), 0) FROM audit_log")
    return int(row[0]) if row else 0


def _entries_after(store: ProjectStore, seq: int) -> list[tuple[int, str, dict[str, Any]]] | None:
    try:
        rows = store._db.query(
            "SELECT seq, action, details_json FROM audit_log WHERE seq > ? ORDER BY seq", (seq,)
        )
    except (StoreError, sqlite3.Error):
        return None
    return [(int(s), str(a), audit_chain.details_of(d)) for s, a, d in rows]


def _describe(action: str, details: dict[str, Any]) -> str:
    noun, key, extra = _STORED.get(action, (action.replace("_", " "), "", None))
    named = f"{noun} {details.get(key)}" if key and key in details else noun
    if extra and details.get(extra):
        named += f" ({details[extra]})"
    return named


def account(
    store: ProjectStore,
    before: int,
    what: str,
    stored: list[tuple[int, str, dict[str, Any]]] | None = None,
    name_it: bool = False,
) -> str:
    """What the project holds from an action begun when its audit log ended at ``before``
    (``stored``: the entries after it, if already read back; ``name_it``: name the project,
    when the message names another file first)."""
    stored = _entries_after(store, before) if stored is None else stored
    project = f"the project {store.path}" if name_it else "the project"
    if stored is None:
        return (
            "whether anything was stored could not be read back; run `taveer check` on the "
            "project before going on"
        )
    if not stored:
        return (
            f"read back from {project}, nothing was stored ({what}: none of it; its audit "
            f"log still ends at entry {before}), so the command can be run again"
        )
    names = ", ".join(f"{_describe(a, d)} (entry {s})" for s, a, d in stored)
    return (
        f"read back from {project}, these were stored before the failure: {names}; the rest "
        f"of {what} was not stored"
    )


@contextmanager
def accounting_for_failure(store: ProjectStore, what: str) -> Iterator[None]:
    """Run the block; after a write failure (or any failure once something was stored) raise
    the failure with the account of what was and was not stored (see the module)."""
    before = _head_seq(store)
    try:
        yield
    except KeyboardInterrupt:  # Ctrl-C: still say what the project holds
        said = account(store, before, what)
        raise KeyboardInterrupt(f"{store.path}: interrupted; {said}") from None
    except (TaveerError, OSError) as error:
        stored = _entries_after(store, before)
        if stored == [] and not _is_write_failure(error):
            raise  # refused before writing: its own message says what happened
        if isinstance(error, TaveerError):
            reason, source = error.plain_message, error.source
        else:
            reason = f"cannot be written ({error.strerror or error})"
            source = str(error.filename) if error.filename else str(store.path)
        said = account(store, before, what, stored, name_it=source != str(store.path))
        raise StoreError(f"{reason}; {said}", source) from None
