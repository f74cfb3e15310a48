"""Trials built like the case: the topic relation the examiner declared, applied to each pair
of trials (``core/validation_trials.build_trials`` calls these; ``docs/validation.md``, "Trials
built like the case").

The examiner declares how the case's known and questioned texts relate in topic: ``same``,
``different`` or ``unknown``. Same-author and different-author trials then share that relation,
so that topic cannot tell the two kinds apart; ``unknown`` takes the harder one for each kind —
different topics for a same-author trial, the same topic for a different-author trial.

A text's topics are the groups (``core/trials/topic_groups.py``) of the documents it was cut
from; a trial is on the **same topic** when the questioned document's group is among the known
text's, on **different topics** when it is not. For each pair:

- the same-author trial's known documents are ordered so that the relation can hold (documents
  of the questioned document's group first for "same"; only documents of other groups for
  "different", if they are long enough for the known target);
- the different-author trial keeps that known text and draws its questioned document from the
  documents of the fold's other authors that stand in the declared relation to it.

Where the population has no document that fits, the trial is drawn as before and counted as
**unmatched**: the record states the matched share of each kind, and only matched trials count
towards the casework minimum (``core/validation_record.casework_block``).

Time (same-author trials kept apart where the documents are dated) is ``trial_dates.py``'s; the
record's block sits beside this one's keys (``core/validation/validation_record.protocol_of``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from taveer_desktop.core.trials.topic_groups import TopicGroups

SAME, DIFFERENT, UNKNOWN = "same", "different", "unknown"
TOPIC_RELATIONS = (SAME, DIFFERENT, UNKNOWN)
# what each kind of trial takes under a declared relation: (same-author, different-author)
TAKES = {SAME: (SAME, SAME), DIFFERENT: (DIFFERENT, DIFFERENT), UNKNOWN: (DIFFERENT, SAME)}
TOPIC_WORDS = {
    SAME: "on the same topic",
    DIFFERENT: "on different topics",
    UNKNOWN: "of unknown topic relation",
}
COUNTED_MATCHED = "trials in the declared topic relation"  # the casework block's ``counted``
NOT_DECLARED = "topic relation not declared: trials drawn without regard to topic"


def relation_holds(relation: str, questioned: str, known: set[str]) -> bool:
    """Whether a questioned document's group stands in ``relation`` to the known text's."""
    return (questioned in known) == (relation == SAME)


def order_known(
    documents: Sequence[int], groups: Sequence[str], questioned: str, relation: str
) -> list[int]:
    """The same-author trial's known documents (positions into ``groups``, in their drawn
    order) so that the relation can hold: the questioned group's documents first ("same"), or
    only the other groups' documents ("different"; empty when there are none)."""
    if relation == SAME:
        return sorted(documents, key=lambda i: groups[i] != questioned)
    return [i for i in documents if groups[i] != questioned]


def matching_rivals(
    candidates: Sequence[tuple[str, int]],
    groups: TopicGroups,
    known: set[str],
    relation: str,
) -> list[tuple[str, int]]:
    """The (author, document) candidates for a different-author trial's questioned text whose
    group stands in ``relation`` to the known text's groups."""
    return [c for c in candidates if relation_holds(relation, groups.group(*c), known)]


def pick(items: Sequence[tuple[str, int]], rng: np.random.Generator) -> tuple[str, int]:
    """An author drawn uniformly, then one of their documents (authors with many documents do
    not crowd out the others)."""
    authors = sorted({a for a, _ in items})
    author = authors[int(rng.integers(len(authors)))]
    mine = [c for c in items if c[0] == author]
    return mine[int(rng.integers(len(mine)))]


def construction_block(
    topic: str | None,
    groups: TopicGroups | None,
    truth: np.ndarray,
    matched: np.ndarray,
) -> dict[str, Any]:
    """The record's ``construction``: how the trials were built, the matched share of each
    kind, and where the topic groups came from."""
    if topic is None or groups is None:
        return {"topic": None, "built": NOT_DECLARED, "matched_share": None}
    same_takes, different_takes = TAKES[topic]
    same, different = truth.astype(bool), ~truth.astype(bool)

    def share(rows: np.ndarray) -> float | None:
        return round(float(matched[rows].mean()), 4) if rows.any() else None

    return {
        "topic": topic,
        "built": (
            f"known and questioned texts declared {TOPIC_WORDS[topic]}: same-author trials "
            f"{TOPIC_WORDS[same_takes]}, different-author trials {TOPIC_WORDS[different_takes]}"
        ),
        "same_author": same_takes,
        "different_author": different_takes,
        "matched_share": share(np.ones(len(truth), dtype=bool)),
        "matched_share_same": share(same),
        "matched_share_different": share(different),
        "matched_same": int((matched & same).sum()),
        "matched_different": int((matched & different).sum()),
        "groups": {"source": groups.source, "count": groups.count},
    }
