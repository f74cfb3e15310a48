"""The checkpoint a final signed report carries: written into the PDF, read back from it.

When a report is signed (``report --final --sign``, ``validation report --final --sign``), the
chain's head as it stands before the report's own entries is signed with the examiner's key
(``store/checkpoints.py``), kept in the project as a ``checkpoint_signed`` entry and written,
as canonical JSON, into the PDF's document catalog under ``/TAVeerCheckpoint`` in the revision
the PAdES signature covers. ``carried_checkpoint`` reads it back from a PDF for ``taveer check
--report``, which holds the project's chain to it and lists every entry after it.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

from taveer_desktop.store.audit_chain import canonical_json

if TYPE_CHECKING:
    from taveer_desktop.store.project_store import ProjectStore

CATALOG_KEY = "/TAVeerCheckpoint"


def checkpoint_for_report(store: ProjectStore, key: Any, case_id: int | None) -> dict[str, str]:
    """Sign the chain's head and keep the checkpoint (inside the caller's transaction); the
    catalog entry the signed PDF carries."""
    entry = store.audit.record_checkpoint(key, case_id)
    return {CATALOG_KEY: canonical_json(entry.details)}


def carried_checkpoint(data: bytes) -> dict[str, Any] | None:
    """The checkpoint in a PDF's catalog (None: the PDF carries none or it is unreadable)."""
    if CATALOG_KEY.encode("ascii") not in data:
        return None
    from pyhanko.pdf_utils.misc import PdfError
    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        text = PdfFileReader(io.BytesIO(data), strict=False).root.get(CATALOG_KEY)
        value = json.loads(str(text)) if text is not None else None
    except (PdfError, ValueError, KeyError, TypeError, IndexError):
        return None
    return value if isinstance(value, dict) else None
