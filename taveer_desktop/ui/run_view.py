"""``RunView``: one stored verification run with everything a result view needs to show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taveer_desktop.store import Case, Document, VerificationRun


@dataclass(frozen=True)
class RunView:
    """One stored run: case, run record, the engine's full result dict, the documents used."""

    case: Case
    run: VerificationRun
    result: dict[str, Any]
    questioned: Document | None
    known: tuple[Document, ...]
