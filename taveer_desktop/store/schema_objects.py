"""Which tables and triggers a store of each schema version holds, read off its migrations.

``required_objects(version)`` replays the ``CREATE TABLE`` / ``CREATE TRIGGER``, ``ALTER TABLE
… RENAME TO`` and ``DROP TABLE`` statements of ``schema.MIGRATIONS[:version]`` by name only, so
the integrity check knows which tables to read and which guard triggers to expect without
opening a database (``schema_check.py`` compares the objects' definitions themselves).
"""

from __future__ import annotations

import re

from taveer_desktop.store.schema import MIGRATIONS

_CREATE = re.compile(r"^\s*CREATE (TABLE|TRIGGER) (\w+)", re.IGNORECASE)
_RENAME = re.compile(r"^\s*ALTER TABLE (\w+) RENAME TO (\w+)", re.IGNORECASE)
_DROP = re.compile(r"^\s*DROP TABLE (\w+)", re.IGNORECASE)


def required_objects(version: int) -> tuple[set[str], set[str]]:
    """The tables and guard triggers a store of ``version`` has (from its migrations)."""
    tables: set[str] = set()
    triggers: set[str] = set()
    for statement in (s for step in MIGRATIONS[:version] for s in step):
        if created := _CREATE.match(statement):
            (tables if created[1].upper() == "TABLE" else triggers).add(created[2])
        elif renamed := _RENAME.match(statement):
            tables.discard(renamed[1])
            tables.add(renamed[2])
        elif dropped := _DROP.match(statement):
            tables.discard(dropped[1])
    return tables, triggers
