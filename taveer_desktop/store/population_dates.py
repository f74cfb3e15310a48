"""The documents' dates kept with a stored population (store version 9, ``population_dates``).

A population read from a folder finds its documents' dates in the ``date`` column of its
``topics.csv`` (``core/trials/document_dates.py``, read by ``store/population_folder.py``). A
stored population has no folder any more, so when it is added the dates are kept with it: one row
per population with where they came from, how many documents are dated, and every dated
document's date as canonical JSON ``[[author, text SHA-256, date], …]`` sorted
(``store/population_keyed.py``), written in the population's own transaction with a
``population_dates_added`` audit entry (sealed like every record). ``read_dates`` gives them back,
checked (every date an ISO 8601 day, month or year), for ``PopulationRepository.load``, so that a
validation from the project keeps its same-author trials apart in time as one from the folder
does.
"""

from __future__ import annotations

from taveer_desktop.core.trials.document_dates import DocumentDates, interval
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.population_keyed import insert_keyed, read_keyed

_TABLE, _COLUMNS = "population_dates", ("dated_count", "dates_json")


def store_dates(tx: WriteTransaction, population_id: int, dates: DocumentDates) -> int:
    """Keep a population's document dates (inside the transaction that adds the population)."""
    dates_id, documents = insert_keyed(
        tx, _TABLE, _COLUMNS, population_id, dates.source, len(dates.of), dates.of
    )
    tx.audit(
        "population_dates_added",
        None,
        {
            "population_id": population_id,
            "dates_id": dates_id,
            "source": dates.source,
            "documents": documents,
        },
    )
    return dates_id


def read_dates(db: StoreDatabase, population_id: int) -> DocumentDates | None:
    """The dates kept with a stored population (None: its files dated none)."""
    kept = read_keyed(
        db,
        _TABLE,
        _COLUMNS,
        population_id,
        "document dates",
        lambda values, count: (
            len(values) == count and all(interval(v) is not None for v in values.values())
        ),
    )
    return None if kept is None else DocumentDates(*kept)
