"""Same-author trials kept apart in time where the population's documents are dated
(``core/trials/validation_trials.build_trials`` calls these; ``docs/validation.md``, "Trials
built like the case: time").

A case typically compares writings known from one period with a questioned text from another
(most often a newer one): the same writer's texts drift with time, and texts written close
together share their occasion, phrasing and subject. A same-author trial cut from neighbouring
texts is easier than such a case. So, where dates exist (``core/trials/document_dates.py``):

- a same-author trial is **apart in time** when every known document it was cut from is dated at
  least ``MIN_GAP_DAYS`` (30) days before the questioned document, or every one at least that
  far after it: the questioned text lies outside the known texts' span, by the gap. A date names
  an interval (``1847-12`` is the whole month), and the gap is measured between intervals, so a
  month or a year is apart from another only when they are that far apart at their nearest days.
- the known documents of each same-author trial are chosen (in their drawn order) among those
  before the questioned document by the gap — older known writings, as in most cases — or,
  where those are too short for the known length, among those after it;
- pairs whose same-author trial can be kept apart are taken first, after those whose topic
  relation holds (the topic relation, where declared, comes first: ``trial_topics.py``);
- a trial whose questioned document is undated, or none of whose author's other documents are
  dated far enough from it, is drawn as before and counted as **not apart**; only same-author
  trials apart in time count towards the casework minimum where the population carries dates.

Why 30 days: papers of one series (the Federalist's "The Same Subject Continued") appeared a few
days apart and continue one argument; a month separates the texts from that immediate context of
writing and is the finest gap that a month's date (the finest many collections give) can show.
The different-author trial keeps the same-author trial's known text, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.trials.document_dates import Interval, interval
from taveer_desktop.core.trials.population import Population

MIN_GAP_DAYS = 30
NO_DATES = (
    "not used: the population's documents carry no dates, so same-author trials are not kept "
    "apart in time"
)


@dataclass(frozen=True)
class DatedDocuments:
    """Each document's interval (None: undated) by author, in ``population.documents`` order."""

    source: str
    of: dict[str, list[Interval | None]]

    @property
    def dated(self) -> int:
        return sum(d is not None for days in self.of.values() for d in days)

    @property
    def documents(self) -> int:
        return sum(len(days) for days in self.of.values())


def dated_documents(population: Population) -> DatedDocuments | None:
    """The population's document intervals (None: it carries no dates)."""
    dates = population.dates
    if dates is None:
        return None
    of = {}
    for author, documents in population.documents.items():
        values = [dates.of.get((author, d.text_sha256)) for d in documents]
        of[author] = [interval(v) if v else None for v in values]
    found = DatedDocuments(dates.source, of)
    return found if found.dated else None


def _side(known: Interval | None, questioned: Interval) -> int:
    """−1: the known document is at least the gap before the questioned one; 1: after; 0:
    undated or closer than the gap."""
    if known is None:
        return 0
    if questioned[0] - known[1] >= MIN_GAP_DAYS:
        return -1
    return 1 if known[0] - questioned[1] >= MIN_GAP_DAYS else 0


def keep_apart(
    drawn: Sequence[int],
    days: Sequence[Interval | None],
    questioned: int,
    enough: Callable[[list[int]], bool],
) -> list[int] | None:
    """The known documents (positions into ``days``, in their drawn order) all before the
    questioned document by the gap, or failing that all after it, where they are ``enough``
    for the known length; None where neither side is (or the questioned one is undated)."""
    q = days[questioned]
    if q is None:
        return None
    for side in (-1, 1):
        chosen = [i for i in drawn if _side(days[i], q) == side]
        if chosen and enough(chosen):
            return chosen
    return None


def apart_side(known: Sequence[int], days: Sequence[Interval | None], questioned: int) -> int:
    """−1 when every known document is before the questioned one by the gap (the questioned
    text is the later), 1 when every one is after it, 0 when the trial is not apart in time."""
    q = days[questioned]
    if q is None or not known:
        return 0
    sides = {_side(days[i], q) for i in known}
    return sides.pop() if len(sides) == 1 else 0


def dates_block(
    found: DatedDocuments | None, truth: np.ndarray, side: np.ndarray
) -> dict[str, Any]:
    """The record's ``construction.dates``: what was done about time."""
    if found is None:
        return {"used": False, "built": NO_DATES}
    same = truth.astype(bool)
    apart = same & (side != 0)
    n_same = int(same.sum())
    return {
        "used": True,
        "built": (
            f"same-author trials keep the questioned text at least {MIN_GAP_DAYS} days before "
            "or after all of its known texts where the documents are dated (older known texts "
            "first); the others are drawn as before and do not count towards the casework "
            "minimum"
        ),
        "source": found.source,
        "gap_days": MIN_GAP_DAYS,
        "documents": found.documents,
        "dated_documents": found.dated,
        "same_author_trials": n_same,
        "apart_same": int(apart.sum()),
        "apart_share_same": round(float(apart.sum() / n_same), 4) if n_same else None,
        "questioned_later": int((same & (side == -1)).sum()),
    }
