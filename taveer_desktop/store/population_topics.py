"""The topic labels kept with a stored population (store version 8, ``population_topics``).

A population read from a folder finds its documents' topics in its files — the group column of
a PAN split's ``cases.csv`` or the folder's ``topics.csv`` (``core/trials/topic_groups.py``,
``file_labels``). A stored population has no folder any more, so when it is added the labels
are kept with it: one row per population with where they came from, how many topics, and every
document's label as canonical JSON ``[[author, text SHA-256, topic], …]`` sorted, written in the
population's own transaction with a ``population_topics_added`` audit entry (sealed like every
record). ``read_labels`` gives them back, checked, for ``PopulationRepository.load``, so that a
validation from the project groups its trials by the same labels as one from the folder.
"""

from __future__ import annotations

import json

from taveer_desktop.core.trials.population import TopicLabels
from taveer_desktop.store.audit_chain import canonical_json
from taveer_desktop.store.database import StoreDatabase, WriteTransaction
from taveer_desktop.store.errors import DamagedStore


def store_labels(tx: WriteTransaction, population_id: int, labels: TopicLabels) -> int:
    """Keep a population's topic labels (inside the transaction that adds the population)."""
    rows = sorted([author, sha, topic] for (author, sha), topic in labels.of.items())
    count = len({topic for _author, _sha, topic in rows})
    topics_id = tx.insert(
        "INSERT INTO population_topics (population_id, source, topic_count, labels_json)"
        " VALUES (?, ?, ?, ?)",
        (population_id, labels.source, count, canonical_json(rows)),
    )
    tx.audit(
        "population_topics_added",
        None,
        {
            "population_id": population_id,
            "topics_id": topics_id,
            "source": labels.source,
            "topics": count,
            "documents": len(rows),
        },
    )
    return topics_id


def read_labels(db: StoreDatabase, population_id: int) -> TopicLabels | None:
    """The topic labels kept with a stored population (None: its files named none)."""
    row = db.query_one(
        "SELECT source, topic_count, labels_json FROM population_topics WHERE population_id = ?",
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
        and len({r[2] for r in rows}) == count
    ):
        raise DamagedStore(
            f"holds topic labels of population {population_id} that are not a list of "
            "(author, text SHA-256, topic)",
            db.path,
        )
    return TopicLabels(source, {(author, sha): topic for author, sha, topic in rows})
