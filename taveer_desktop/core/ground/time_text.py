"""A stored time (ISO 8601 UTC, with microseconds) as a person reads it in a message.

One format for every message of the program — the lock's "open since …", the audit log's
times, the report's stored times: ``2025-01-31 09:15:02 UTC``. Here in ``core`` so that the
store's own messages can use it as well as ``presentation/audit_text.py``. And the one reading of
a stored date a file claims (``parsed_time``, ``date_problem``: a record or model made in the
year 99999 is refused).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def recorded_time(iso: str) -> str:
    """``2025-01-31T09:15:02.123456Z`` → ``2025-01-31 09:15:02 UTC``."""
    if not iso:
        return ""
    text = iso.replace("T", " ").replace("Z", "").replace("+00:00", "")
    return text.split(".")[0] + " UTC"


FIRST_YEAR = 2000  # no record or model the program reads was made before it


def parsed_time(value: object) -> datetime | None:
    """An ISO 8601 date or time as an aware datetime (UTC when it names no zone), or None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def date_problem(value: object) -> str | None:
    """What is wrong with a stored date (None: a real date from ``FIRST_YEAR`` to tomorrow,
    UTC, allowing for a clock a day ahead)."""
    when = parsed_time(value)
    if when is None:
        return "not a date"
    if when.year < FIRST_YEAR or when > datetime.now(UTC) + timedelta(days=1):
        return f"not a date from {FIRST_YEAR} to today"
    return None
