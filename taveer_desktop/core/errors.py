"""Exceptions the engine raises towards its callers (CLI, store, GUI)."""

from __future__ import annotations

from pathlib import Path


class TaveerError(Exception):
    """A problem the user can act on: bad input file, malformed model, unusable corpus.

    The message is one plain sentence; ``source`` names the file (or other input) at fault.
    """

    def __init__(self, message: str, source: str | Path | None = None):
        self.source = str(source) if source is not None else None
        self.plain_message = message
        super().__init__(f"{self.source}: {message}" if self.source else message)


class InputError(TaveerError):
    """A document, corpus or model given by the user cannot be used."""


class Cancelled(Exception):
    """Raised by long-running engine functions when their cancel token was set."""


class CancelToken:
    """A flag a caller sets to ask a long computation to stop at its next check."""

    def __init__(self) -> None:
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def raise_if_cancelled(self) -> None:
        if self._cancelled:
            raise Cancelled()
