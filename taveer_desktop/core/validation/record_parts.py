"""The parts of a validation record, typed: one frozen dataclass per block of the record
(``core/validation/validation.py`` writes it; ``docs/validation.md``, "The record", lists every
key), each attribute named by its key. ``core/validation/record_reader.py`` reads a record into
them (``ValidationRecord``) and documents how absent and old parts read.

A block a command prints whole keeps the keys the record gave it, in the record's order
(``written``: None where the record held no object there; the figures and intervals their
``names``), so that ``core/validation/record_json.py`` prints it as the record holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Number = int | float
Pair = tuple[Number | None, Number | None]
Keys = tuple[str, ...] | None  # the keys a block held, in its order (None: not an object)


@dataclass(frozen=True)
class Figures:
    """The named figures (``validation_figures.FIGURES``); None: absent or not a number."""

    cllr: Number | None = None
    cllr_min: Number | None = None
    cllr_cal: Number | None = None
    eer: Number | None = None
    auc: Number | None = None
    accuracy: Number | None = None
    misleading_y: Number | None = None
    misleading_n: Number | None = None
    ece: Number | None = None
    names: tuple[str, ...] = ()  # the figures the record lists, in its order (null ones too)

    def value(self, name: str) -> Number | None:
        """The figure called ``name`` (None for a name that is not a figure)."""
        value: Number | None = getattr(self, name, None) if name in FIGURE_NAMES else None
        return value


@dataclass(frozen=True)
class Intervals:
    """Each figure's 95 % interval ``(low, high)``; None where the record has none."""

    cllr: Pair | None = None
    cllr_min: Pair | None = None
    cllr_cal: Pair | None = None
    eer: Pair | None = None
    auc: Pair | None = None
    accuracy: Pair | None = None
    misleading_y: Pair | None = None
    misleading_n: Pair | None = None
    ece: Pair | None = None
    names: tuple[str, ...] = ()  # the intervals the record lists, in its order

    def value(self, name: str) -> Pair | None:
        value: Pair | None = getattr(self, name, None) if name in FIGURE_NAMES else None
        return value


FIGURE_NAMES = frozenset(Figures.__dataclass_fields__) - {"names"}


@dataclass(frozen=True)
class RecordPopulation:
    name: str = ""
    description: str = ""
    sha256: str | None = None
    authors: int | None = None
    documents: int | None = None
    source: str | None = None


@dataclass(frozen=True)
class Conditions:
    """The declared ranges (format 2; None: not recorded, a side None: whole documents)."""

    questioned_chars: Pair | None = None
    known_chars: Pair | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class TopicGroups:
    source: str | None = None
    count: int | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class TrialDates:
    """What was done about time (``core/trials/trial_dates.py``): same-author trials kept apart
    where the population's documents are dated."""

    used: bool | None = None
    built: str | None = None
    source: str | None = None
    gap_days: int | None = None
    documents: int | None = None
    dated_documents: int | None = None
    same_author_trials: int | None = None
    apart_same: int | None = None
    apart_share_same: Number | None = None
    questioned_later: int | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Construction:
    """How the trials were built in topic (``core/trials/trial_topics.py``)."""

    topic: str | None = None
    same_author: str | None = None
    different_author: str | None = None
    built: str | None = None
    # what was done about time; a record made before dates were read holds a sentence
    dates: TrialDates | str | None = None
    groups: TopicGroups | None = None
    matched_same: int | None = None
    matched_different: int | None = None
    matched_share: Number | None = None
    matched_share_same: Number | None = None
    matched_share_different: Number | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Protocol:
    method: str | None = None
    threshold_method: str | None = None
    questioned_chars: Number | Pair | None = None
    known_chars: Number | Pair | None = None
    length_draw: str | None = None
    min_length_share: Number | None = None
    folds: int | None = None
    folds_asked: int | None = None
    folds_by: str | None = None
    max_trials: int | None = None
    seed: int | None = None
    repeats: int | None = None
    repeats_asked: int | None = None
    seeds: tuple[Number | None, ...] | None = None
    bootstrap: int | None = None
    interval: str | None = None
    calibration: str | None = None
    trials_same: int | None = None
    trials_different: int | None = None
    same_author_trials_possible: int | None = None
    min_trials_per_class: int | None = None
    cut: str | None = None
    pairing: str | None = None
    construction: Construction | None = None  # the record's protocol.trials.construction


@dataclass(frozen=True)
class Criteria:
    max_cllr: Number | None = None
    max_misleading: Number | None = None
    set_utc: str | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Acceptance:
    criteria: Criteria = Criteria()
    results: Mapping[str, bool] = field(default_factory=dict)  # each criterion set: met?
    met: bool | None = None
    judged_on: str | None = None  # None: a record made before (judged on the point figures)
    judged_values: Mapping[str, Number] = field(default_factory=dict)


@dataclass(frozen=True)
class Bound:
    min_log10_lr: Number | None = None
    max_log10_lr: Number | None = None
    rule: str | None = None
    trials_same: int | None = None
    trials_different: int | None = None
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Band:
    questioned_chars: Pair | None
    trials_same: int | None
    trials_different: int | None
    figures: Figures
    intervals: Intervals
    bound: Bound
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Repeats:
    """Each repeat's figures (``REPEAT_FIGURES``) and their spread (max − min)."""

    count: int | None = None
    seeds: tuple[Number | None, ...] | None = None
    trials: tuple[Number | None, ...] | None = None
    cllr: tuple[Number | None, ...] | None = None
    cllr_min: tuple[Number | None, ...] | None = None
    auc: tuple[Number | None, ...] | None = None
    eer: tuple[Number | None, ...] | None = None
    misleading_y: tuple[Number | None, ...] | None = None
    misleading_n: tuple[Number | None, ...] | None = None
    spread: Figures = Figures()
    written: Keys = field(default=None, compare=False, repr=False)  # see the module

    def values(self, name: str) -> tuple[Number | None, ...] | None:
        """Each repeat's ``name`` (None: not a repeat figure, or not recorded)."""
        value: tuple[Number | None, ...] | None = (
            getattr(self, name, None) if name in REPEAT_NAMES else None
        )
        return value


REPEAT_NAMES = frozenset(("cllr", "cllr_min", "auc", "eer", "misleading_y", "misleading_n"))


@dataclass(frozen=True)
class RecordCasework:
    """The record's size for casework as it states it (the gate's own reading, which also
    computes it for a record without the block: ``core/gate/validation_basis.Casework``)."""

    authors: int | None = None
    trials_same: int | None = None
    trials_different: int | None = None
    min_authors: int | None = None
    min_trials: int | None = None
    counted: str | None = None
    too_small: bool | None = None
    reasons: tuple[str, ...] = ()
    written: Keys = field(default=None, compare=False, repr=False)  # see the module


@dataclass(frozen=True)
class Comparison:
    """The methods compared on the same trials, and the rule that chose the stated one."""

    methods: tuple[str, ...] | None = None
    stated: str | None = None
    rule: str | None = None
    rule_set_utc: str | None = None
    rule_values: Mapping[str, Number | None] = field(default_factory=dict)


@dataclass(frozen=True)
class FusionBlock:
    """The fused methods and their weights (None: a weight not a number)."""

    methods: tuple[str, ...] | None = None
    weights: Mapping[str, Number | None] = field(default_factory=dict)
    intercept: Number | None = None
    weights_meaning: str | None = None
    trials: int | None = None
    left_out: int | None = None
    left_out_by_method: Mapping[str, Number | None] = field(default_factory=dict)
    fit: str | None = None


@dataclass(frozen=True)
class LambdaGBlock:
    max_order: int | None = None
    order: int | None = None
    fold_orders: tuple[Number | None, ...] | None = None
    samples: int | None = None
    reference: str | None = None
    reference_sentences: int | None = None
    reference_models: int | None = None
    seconds: Number | None = None
    seconds_per_trial: Number | None = None


@dataclass(frozen=True)
class RecordModel:
    name: str | None = None
    sha256: str | None = None
    ensemble: tuple[str, ...] = ()


@dataclass(frozen=True)
class Trial:
    """One trial row (None: absent or not of its type)."""

    known_author: str | None = None
    questioned_author: str | None = None
    same: bool | None = None
    repeat: int | None = None
    fold: int | None = None
    questioned_chars: Number | None = None
    known_chars: Number | None = None
    known_documents: int | None = None
    score: Number | None = None
    log10_lr: Number | None = None
    matched: bool | None = None
    log10_lr_by_method: Mapping[str, Number | None] = field(default_factory=dict)
