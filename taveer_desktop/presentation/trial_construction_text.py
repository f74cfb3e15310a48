"""The words for how a validation's trials were built in topic (the record's
``protocol.trials.construction``, ``core/trials/trial_topics.py``): one vocabulary for the
validation report, the case report, the command line and the desktop's record view. Plain text, no
Qt.

- ``construction_of(record)``: the construction block, checked (None for a record made before
  topic relations could be declared, or one without a declared relation);
- ``topic_sentence(record)``: the protocol's sentence (opens with the head "Topic like the
  case." or "Topic not declared.");
- ``case_topic_sentence(record)``: the case report's shorter sentence;
- ``TOPIC_CHOICES`` / ``TOPIC_HELP``: the validation wizard's choice and its explanation;
- ``matched_shortfalls(record)``: why too few trials stood in the declared relation (or, where
  the documents were dated, apart in time) for casework ([] if enough);
- ``time_sentence(record)``: the protocol's sentence on time ("Apart in time."; None where the
  population's documents carried no dates), and ``case_time_clause`` the case report's.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.trials.trial_topics import TOPIC_RELATIONS, TOPIC_WORDS
from taveer_desktop.core.validation.record_reader import (
    Construction,
    TrialDates,
    ValidationRecord,
)
from taveer_desktop.presentation import numbers

# the wizard's choice: (relation, label), the default first, and its one-line explanation
TOPIC_CHOICES = (
    ("unknown", "Unknown: the harder trials of each kind"),
    ("same", "The same topic"),
    ("different", "Different topics"),
)
TOPIC_HELP = (
    "Trials of both kinds are built with this relation of topic between known and questioned "
    "texts, so that topic cannot tell them apart; unknown builds same-author trials on "
    "different topics and different-author trials on one topic."
)

NOT_DECLARED_SENTENCE = (
    "Topic not declared. The trials were drawn without regard to topic: where an author's "
    "documents share a topic that other authors' do not, topic rather than authorship can tell "
    "the two kinds of trial apart, and the figures are then more optimistic than a case on one "
    "topic gives."
)


def construction_of(record: ValidationRecord) -> Construction | None:
    """The record's trial construction with a declared topic relation, or None."""
    block = record.protocol.construction
    if block is None or block.topic not in TOPIC_RELATIONS:
        return None
    for relation in (block.same_author, block.different_author):
        if relation not in TOPIC_RELATIONS:
            return None
    return block


def _share(value: Any) -> str:
    return numbers.percent(value, 0) if isinstance(value, int | float) else "none"


def _groups(block: Construction) -> str:
    groups = block.groups
    source = (groups.source if groups is not None else None) or "not stated"
    number = groups.count if groups is not None else None
    counted = f", {numbers.integer(number)} groups" if isinstance(number, int) else ""
    return f"Topic groups from {source}{counted}."


def topic_sentence(record: ValidationRecord) -> str:
    """How the trials were built in topic, with the matched share and the groups' source."""
    block = construction_of(record)
    if block is None:
        return NOT_DECLARED_SENTENCE
    topic = str(block.topic)
    return (
        f"Topic like the case. The examiner declared the case's known and questioned texts "
        f"{TOPIC_WORDS[topic]}, so same-author trials were built "
        f"{TOPIC_WORDS[str(block.same_author)]} and different-author trials "
        f"{TOPIC_WORDS[str(block.different_author)]}"
        + (" (the harder of the two for each kind)" if topic == "unknown" else "")
        + f". {_share(block.matched_share)} of the trials stood in that relation "
        f"(same-author {_share(block.matched_share_same)}, different-author "
        f"{_share(block.matched_share_different)}); the population could not supply "
        "the rest, which were drawn without regard to topic and do not count towards the "
        f"casework minimum. {_groups(block)}"
    )


def dates_of(record: ValidationRecord) -> TrialDates | None:
    """The record's block on time where the population's documents were dated, or None."""
    block = record.protocol.construction
    dates = None if block is None else block.dates
    return dates if isinstance(dates, TrialDates) and dates.used else None


def time_sentence(record: ValidationRecord) -> str | None:
    """How same-author trials were kept apart in time (None: no dates to keep them apart)."""
    dates = dates_of(record)
    if dates is None:
        return None
    n_same = int(dates.same_author_trials or 0)
    return (
        f"Apart in time. {numbers.integer(int(dates.dated_documents or 0))} of the population's "
        f"{numbers.integer(int(dates.documents or 0))} documents were dated "
        f"({dates.source or 'source not stated'}). "
        f"{numbers.integer(int(dates.apart_same or 0))} of the {numbers.integer(n_same)} "
        f"same-author trials ({_share(dates.apart_share_same)}) kept the questioned text at "
        f"least {numbers.integer(int(dates.gap_days or 0))} days before or after all of its "
        f"known texts ({numbers.integer(int(dates.questioned_later or 0))} of them with the "
        "questioned text the later, as in most cases); the others, undated or too close in "
        "time, were drawn as before and do not count towards the casework minimum."
    )


def case_time_clause(record: ValidationRecord) -> str:
    """The case report's words on time (empty where the documents carried no dates)."""
    dates = dates_of(record)
    if dates is None:
        return ""
    return (
        f" {_share(dates.apart_share_same)} of its same-author trials kept known and "
        f"questioned texts at least {numbers.integer(int(dates.gap_days or 0))} days apart "
        "(the population's documents were dated)."
    )


def case_topic_sentence(record: ValidationRecord) -> str:
    """The case report's sentence: which topic condition the validation assumed, and what
    share of its trials was matched (and kept apart in time, where the documents were
    dated)."""
    return _case_topic(record) + case_time_clause(record)


def _case_topic(record: ValidationRecord) -> str:
    block = construction_of(record)
    if block is None:
        return (
            "The validation declared no topic relation between known and questioned texts: its "
            "trials were drawn without regard to topic."
        )
    return (
        f"The validation assumed known and questioned texts {TOPIC_WORDS[str(block.topic)]}"
        f" (same-author trials {TOPIC_WORDS[str(block.same_author)]}, different-author "
        f"trials {TOPIC_WORDS[str(block.different_author)]}); "
        f"{_share(block.matched_share)} of its trials stood in that relation."
    )


def matched_shortfalls(record: ValidationRecord, minimum: int) -> list[str]:
    """Too few distinct trials in the declared relation (same-author ones: apart in time,
    where the documents were dated) for casework, one reason per kind."""
    topic, dated = construction_of(record) is not None, dates_of(record) is not None
    casework = record.casework
    if casework is None or not (topic or dated):
        return []
    relation = " in the declared topic relation" if topic else ""
    reasons = []
    for value, kind, apart in (
        (casework.trials_same, "same-author", dated),
        (casework.trials_different, "different-author", False),
    ):
        if value is not None and value < minimum and (topic or apart):
            when = (" and" if topic else "") + " apart in time" if apart else ""
            reasons.append(
                f"{numbers.integer(value)} distinct {kind} trials{relation}{when} (fewer than "
                f"{minimum}: the population cannot supply trials like the case)"
            )
    return reasons
