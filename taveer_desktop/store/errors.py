"""Exceptions of the project store, each carrying one plain sentence for the user.

All of them derive from the engine's ``TaveerError`` so the CLI prints them as one line (exit 2)
and the GUI shows ``plain_message`` without a traceback. ``source`` names the project file or
the evidence file at fault.
"""

from __future__ import annotations

from collections.abc import Iterable

from taveer_desktop.core.ground.errors import InputError, TaveerError
from taveer_desktop.store.records import IntakeRejection, LockHolder


class StoreError(TaveerError):
    """A project store cannot be opened, read or written as asked."""


class NotAProjectStore(StoreError):
    """The file exists but is not a TAVeer project store (or is not SQLite at all)."""


class NewerStoreVersion(StoreError):
    """The store was written by a newer TAVeer Desktop; this version must not touch it."""


class DamagedStore(StoreError):
    """SQLite reports the file as damaged, or it fails the store's integrity check."""


class ProjectLocked(StoreError):
    """Another process has the project open; ``holder`` says who (or None if unknown)."""

    def __init__(self, message: str, source: str, holder: LockHolder | None = None) -> None:
        super().__init__(message, source)
        self.holder = holder


class NotFound(StoreError):
    """A case, document, model or run named by the caller does not exist in the store."""


class Conflict(StoreError):
    """The change would break a rule of the store (a case number or model name already used)."""


class IntakeRejected(InputError):
    """An evidence file was refused; ``rejections`` lists every refused file with its reason.

    Raised by ``ProjectStore.add_documents`` when any file is refused and the caller did not
    ask to skip refused files; nothing was imported in that case.
    """

    def __init__(
        self, message: str, source: str | None, rejections: Iterable[IntakeRejection] = ()
    ) -> None:
        super().__init__(message, source)
        self.rejections = tuple(rejections)


class EvidenceRefused(InputError):
    """One evidence file cannot be imported; ``reason`` is a ``RejectionReason`` value."""

    def __init__(self, message: str, source: str | None, reason: str):
        super().__init__(message, source)
        self.reason = reason


class WriteFailed(StoreError):
    """A write to the store failed (full disk, file-size limit, I/O error); its transaction
    is rolled back. The caller that knows the whole action says what it had stored before."""

    def rolled_back(self) -> WriteFailed:
        """The same failure, saying that its transaction was rolled back (read back: the
        connection left the transaction)."""
        return WriteFailed(f"{self.plain_message}; that change was rolled back", self.source)
