"""The documents' dates kept with a stored population (store version 9, ``population_dates``).

A population read from a folder finds its documents' dates in the ``date`` column of its
``topics.csv`` (``core/trials/document_dates.py``, read by ``store/population_folder.py``). A
stored population has no folder any more, so when it is added the dates are kept with it: one row
per population with where they came from, how many documents are dated, and every dated
document's date as canonical JSON ``[[author, text SHA-256, date], …]`` sorted, written in the
population's own transaction with a ``population_dates_added`` audit entry (sealed like every
record). ``read_dates`` gives them back, checked, for ``PopulationRepository.load``, so that a
validation from the project keeps its same-author trials apart in time as one from the folder
does.
"""

from __future__ import annotations

import json

from taveer_desktop.core.trials.document_dates import DocumentDates, interval
from taveer_desktop.store.audit_chain import canonical_json
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.errors import DamagedStore


def store_dates(tx: WriteTransaction, population_id: int, dates: DocumentDates) -> int:
    """Keep a population's document dates (inside the transaction that adds the population)."""
    rows = sorted([author, sha, date] for (author, sha), date in dates.of.items())
    dates_id = tx.insert(
        "INSERT INTO population_dates (population_id, source, dated_count, dates_json)"
        " VALUES (?, ?, ?, ?)",
        (population_id, dates.source, len(rows), canonical_json(rows)),
    )
    tx.audit(
        "population_dates_added",
        None,
        {
            "population_id": population_id,
            "dates_id": dates_id,
            "source": dates.source,
            "documents": len(rows),
        },
    )
    return dates_id


def read_dates(db: StoreDatabase, population_id: int) -> DocumentDates | None:
    """The dates kept with a stored population (None: its files dated none)."""
    row = db.query_one(
        "SELECT source, dated_count, dates_json FROM population_dates WHERE population_id = ?",
        (population_id,),
    )
    if row is None:
        return None
    source, count, data = row
    try:
        rows = json.loads(data)
    except (TypeError, json.JSONDecodeError):
        rows = None
    if not (
        isinstance(source, str)
        and isinstance(rows, list)
        and all(
            isinstance(r, list) and len(r) == 3 and all(isinstance(v, str) and v for v in r)
            for r in rows
        )
        and all(interval(r[2]) is not None for r in rows)
        and len(rows) == count
    ):
        raise DamagedStore(
            f"holds document dates of population {population_id} that are not a list of "
            "(author, text SHA-256, ISO 8601 date)",
            db.path,
        )
    return DocumentDates(source, {(author, sha): date for author, sha, date in rows})
