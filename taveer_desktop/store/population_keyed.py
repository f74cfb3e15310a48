"""Values kept with a stored population, one per document by (author, text SHA-256): the topic
labels (``population_topics``, store version 8) and the dates (``population_dates``, version 9).

Both are written the same way — one row per population: where the values came from, a count,
and every document's value as canonical JSON ``[[author, text SHA-256, value], …]`` sorted,
inside the population's own transaction (the caller adds its audit entry) — and read back the same
way, checked: a row that is not such a list is a damaged store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from taveer_desktop.store.audit_chain import canonical_json
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.errors import DamagedStore

Keyed = dict[tuple[str, str], str]


def insert_keyed(
    tx: WriteTransaction,
    table: str,
    columns: tuple[str, str],
    population_id: int,
    source: str,
    count: int,
    values: Mapping[tuple[str, str], str],
) -> tuple[int, int]:
    """Write the row (``columns``: the count's and the JSON's); its id and how many values."""
    rows = sorted([author, sha, value] for (author, sha), value in values.items())
    row_id = tx.insert(
        f"INSERT INTO {table} (population_id, source, {columns[0]}, {columns[1]})"
        " VALUES (?, ?, ?, ?)",
        (population_id, source, count, canonical_json(rows)),
    )
    return row_id, len(rows)


def read_keyed(
    db: StoreDatabase,
    table: str,
    columns: tuple[str, str],
    population_id: int,
    what: str,
    fits: Callable[[Keyed, int], bool],
) -> tuple[str, Keyed] | None:
    """The source and values kept for a population (None: no row); a row that is not a list of
    (author, text SHA-256, value), or whose values and count do not ``fit``, is refused as
    damaged, naming ``what`` it holds ("topic labels", "document dates")."""
    row = db.query_one(
        f"SELECT source, {columns[0]}, {columns[1]} FROM {table} WHERE population_id = ?",
        (population_id,),
    )
    if row is None:
        return None
    source, count, data = row
    try:
        rows = json.loads(data)
    except (TypeError, json.JSONDecodeError):
        rows = None
    shaped = isinstance(rows, list) and all(
        isinstance(r, list) and len(r) == 3 and all(isinstance(v, str) and v for v in r)
        for r in rows
    )
    values = {(r[0], r[1]): r[2] for r in rows} if shaped and isinstance(rows, list) else {}
    if not (shaped and isinstance(source, str) and isinstance(count, int) and fits(values, count)):
        raise DamagedStore(
            f"holds {what} of population {population_id} that are not a list of "
            f"(author, text SHA-256, value)",
            db.path,
        )
    return source, values
