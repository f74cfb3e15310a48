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
    """Raised by long-running work at its next ``Progress.step``/``check`` once cancelling
    was asked (``core/ground/progress.py``)."""
