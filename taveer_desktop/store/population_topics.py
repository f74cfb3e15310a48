"""The topic labels kept with a stored population (store version 8, ``population_topics``).

A population read from a folder finds its documents' topics in its files — the group column of
a PAN split's ``cases.csv`` or the folder's ``topics.csv`` (``core/trials/topic_groups.py``,
``file_labels``). A stored population has no folder any more, so when it is added the labels
are kept with it: one row per population with where they came from, how many topics, and every
document's label as canonical JSON ``[[author, text SHA-256, topic], …]`` sorted
(``store/population_keyed.py``), written in the population's own transaction with a
``population_topics_added`` audit entry (sealed like every record). ``read_labels`` gives them
back, checked, for ``PopulationRepository.load``, so that a validation from the project groups
its trials by the same labels as one from the folder.
"""

from __future__ import annotations

from taveer_desktop.core.trials.population import TopicLabels
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.population_keyed import insert_keyed, read_keyed

_TABLE, _COLUMNS = "population_topics", ("topic_count", "labels_json")


def store_labels(tx: WriteTransaction, population_id: int, labels: TopicLabels) -> int:
    """Keep a population's topic labels (inside the transaction that adds the population)."""
    count = len(set(labels.of.values()))
    topics_id, documents = insert_keyed(
        tx, _TABLE, _COLUMNS, population_id, labels.source, count, labels.of
    )
    tx.audit(
        "population_topics_added",
        None,
        {
            "population_id": population_id,
            "topics_id": topics_id,
            "source": labels.source,
            "topics": count,
            "documents": documents,
        },
    )
    return topics_id


def read_labels(db: StoreDatabase, population_id: int) -> TopicLabels | None:
    """The topic labels kept with a stored population (None: its files named none)."""
    kept = read_keyed(
        db,
        _TABLE,
        _COLUMNS,
        population_id,
        "topic labels",
        lambda values, count: len(set(values.values())) == count,
    )
    return None if kept is None else TopicLabels(*kept)
