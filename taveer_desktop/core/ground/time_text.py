"""A stored time (ISO 8601 UTC, with microseconds) as a person reads it in a message.

One format for every message of the program — the lock's "open since …", the audit log's
times, the report's stored times: ``2025-01-31 09:15:02 UTC``. Here in ``core`` so that the
store's own messages can use it as well as ``presentation/audit_text.py``.
"""

from __future__ import annotations


def recorded_time(iso: str) -> str:
    """``2025-01-31T09:15:02.123456Z`` → ``2025-01-31 09:15:02 UTC``."""
    if not iso:
        return ""
    text = iso.replace("T", " ").replace("Z", "").replace("+00:00", "")
    return text.split(".")[0] + " UTC"
