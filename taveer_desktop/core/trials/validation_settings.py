"""What a validation is asked to do: the declared conditions, the protocol's numbers and the
acceptance criteria set before the run (``ValidationSettings``, ``AcceptanceCriteria``).

The lengths are the laboratory's declared **range** of casework: ``questioned_chars`` and
``known_chars`` are (LO, HI) characters, LO ≤ HI; a single number N means (N, N) (the case's own
length, as before ranges existed) and ``length_range`` turns one into the other; None means whole
documents. Criteria are judged on the pessimistic end of each figure's 95 % interval, or on
the worst repeat where that is worse.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from taveer_desktop.core.calibration.length_bands import length_bands
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import (
    METHOD_IDS,
    MethodId,
    capabilities_of,
    fusion_name,
    method_name,
)
from taveer_desktop.core.trials.trial_topics import TOPIC_RELATIONS

# the two threshold rules of the paper: each category's median of the training trials'
# distances, or its equal error rate (TAVeer's model and training check against these)
THRESHOLD_METHODS = ("median", "eer")

MIN_TRIALS_PER_CLASS = 20
MIN_LENGTH_SHARE = 0.8
DEFAULT_FOLDS = 5
DEFAULT_MAX_TRIALS = 5000
DEFAULT_BOOTSTRAP = 200
DEFAULT_REPEATS = 3
MAX_REPEATS = 20
# a population of casework size is validated with at least this many author-repeats (authors ×
# repeats): 20 authors get 10 repeats, 40 get 5, 67 or more the 3 asked for by default — so that
# the acceptance decision does not depend on the seed (measured: docs/validation.md, "A decision
# no seed can flip")
AUTHOR_REPEATS = 200
# a validation smaller than this is too small for casework (a gate rule, ``core/gate/gate.py``)
MIN_CASEWORK_AUTHORS = 20
MIN_CASEWORK_TRIALS = 100  # distinct trials of each class
METHODS = METHOD_IDS  # every registered method may be validated and stated
METHOD_TITLES = {m: method_name(m) for m in METHOD_IDS}  # the registry's names, for old callers
# rules that pick the stated method among those compared, registered before the run
LOWEST_PESSIMISTIC_CLLR = "lowest_pessimistic_cllr"
CHOICE_RULES = {
    LOWEST_PESSIMISTIC_CLLR: "the method with the lowest pessimistic Cllr (the upper end of its "
    "95 % interval, or its worst repeat where that is worse) on the same trials",
}

# the methods ``--method fusion`` combines unless ``--fuse`` says otherwise (every fused model
# and record made before ``fuse`` existed combines these two)
DEFAULT_FUSE = (MethodId.TAVEER.value, MethodId.LAMBDAG.value)

LengthRange = tuple[int, int]


def now_utc() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def length_range(value: int | tuple[int, int] | list[int] | None) -> LengthRange | None:
    """(LO, HI) from a single length N (→ (N, N)), a pair, or None."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, tuple | list) and len(value) == 2:
        return (value[0], value[1])
    raise InputError(f"a length range is LO:HI or one number, not {value!r}")


_RANGE = re.compile(r"^\s*(\d{1,9})\s*(?::\s*(\d{1,9})\s*)?$")


def parse_length_range(text: str, option: str) -> LengthRange:
    """``LO:HI`` or ``N`` from the command line (InputError naming the option otherwise)."""
    match = _RANGE.match(text)
    if not match:
        raise InputError(f"{option} must be LO:HI or one number of characters, not {text!r}")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) is not None else lo
    if lo < 1 or hi < lo:
        raise InputError(f"{option} must satisfy 1 ≤ LO ≤ HI, not {text!r}")
    return (lo, hi)


@dataclass(frozen=True)
class AcceptanceCriteria:
    """Limits set before the run; None: not a criterion."""

    max_cllr: float | None = None
    max_misleading: float | None = None  # both rates of misleading evidence at most this
    set_utc: str = ""

    @classmethod
    def now(
        cls, max_cllr: float | None = None, max_misleading: float | None = None
    ) -> AcceptanceCriteria:
        """Criteria set now (their time is recorded: before the run)."""
        return cls(max_cllr, max_misleading, now_utc())

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_cllr": self.max_cllr,
            "max_misleading": self.max_misleading,
            "set_utc": self.set_utc,
        }

    def judged_values(
        self,
        intervals: Mapping[str, tuple[float, float]],
        repeats: Mapping[str, Sequence[float | None]] | None = None,
    ) -> dict[str, float]:
        """The pessimistic value of each judged figure: the worse of its interval's pessimistic
        end (upper: lower is better) and its worst repeat (so that no repeat, i.e. no seed,
        fails a criterion the validation is said to meet)."""

        def worst(name: str) -> float:
            value = intervals[name][1]
            for figure in (repeats or {}).get(name, []):
                value = max(value, math.inf if figure is None else figure)
            return value

        values = {}
        if self.max_cllr is not None:
            values["cllr"] = worst("cllr")
        if self.max_misleading is not None:
            values["misleading"] = max(worst("misleading_y"), worst("misleading_n"))
        return values

    def assess(
        self,
        intervals: Mapping[str, tuple[float, float]],
        repeats: Mapping[str, Sequence[float | None]] | None = None,
    ) -> dict[str, bool]:
        """Each criterion given, met or not, on the pessimistic value (``judged_values``; a
        figure without an interval — NaN — does not meet its criterion)."""
        limits = {"cllr": self.max_cllr, "misleading": self.max_misleading}
        return {
            name: bool(math.isfinite(value) and value <= (limits[name] or 0.0))
            for name, value in self.judged_values(intervals, repeats).items()
        }


@dataclass(frozen=True)
class ValidationSettings:
    questioned_chars: LengthRange | None = None  # declared (LO, HI); None: the whole document
    known_chars: LengthRange | None = None
    folds: int = DEFAULT_FOLDS
    max_trials: int = DEFAULT_MAX_TRIALS  # the total over all repeats
    seed: int = 0
    method: str = "taveer"
    threshold_method: str = "median"
    bootstrap: int = DEFAULT_BOOTSTRAP
    criteria: AcceptanceCriteria = field(default_factory=AcceptanceCriteria)
    lambdag_order: int = 10  # the highest order tried (method lambdag or fusion)
    lambdag_samples: int = 30  # reference samples per trial
    repeats: int = DEFAULT_REPEATS  # cross-validation repeated with seeds seed, seed + 1, …
    compare: tuple[str, ...] = ()  # other methods validated beside ``method`` on the same trials
    choose_by: str | None = None  # a rule (``CHOICE_RULES``) picking the stated method
    fuse: tuple[str, ...] = DEFAULT_FUSE  # the methods the fusion combines, in column order
    # the declared topic relation of the case's known and questioned texts (``TOPIC_RELATIONS``;
    # None: not declared, trials drawn as before — ``core/trials/trial_topics.py``)
    topic: str | None = None

    def __post_init__(self) -> None:
        # a single length (a settings file, an older caller) means (N, N)
        for name in ("questioned_chars", "known_chars"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, length_range(value))
        for name in ("compare", "fuse"):  # a list from a settings file
            if not isinstance(getattr(self, name), tuple):
                object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def methods(self) -> tuple[str, ...]:
        """The stated method and those compared beside it, each once, in that order."""
        return tuple(dict.fromkeys((self.method, *self.compare)))

    @property
    def validated(self) -> tuple[str, ...]:
        """``methods`` and, where the fusion is among them, the methods it combines (each is
        cross-validated on the same trials before they are fused)."""
        fused = self.fuse if any(capabilities_of(m).fuses for m in self.methods) else ()
        return tuple(dict.fromkeys((*self.methods, *fused)))

    @property
    def named(self) -> tuple[str, ...]:
        """Every method the settings name: the stated one, those compared, those fused."""
        return (self.method, *self.compare, *self.fuse)

    def name_of(self, method: str) -> str:
        """A method's name as this validation states it: the registry's, or for the fusion
        the methods it combines ("TAVeer + COAV")."""
        if capabilities_of(method).fuses:
            return fusion_name(self.fuse)
        return method_name(method)

    @property
    def seeds(self) -> list[int]:
        return [self.seed + r for r in range(self.repeats)]

    def check(self) -> None:
        check_fuse(self.fuse)
        for method in self.named:
            if method not in METHODS:
                raise InputError(f"unknown validation method {method!r} (use {', '.join(METHODS)})")
        if self.topic is not None and self.topic not in TOPIC_RELATIONS:
            raise InputError(
                f"--topic must be {', '.join(TOPIC_RELATIONS[:-1])} or {TOPIC_RELATIONS[-1]}, "
                f"not {self.topic!r}"
            )
        if self.choose_by is not None and self.choose_by not in CHOICE_RULES:
            raise InputError(
                f"unknown rule {self.choose_by!r} to choose the stated method "
                f"(use {', '.join(CHOICE_RULES)})"
            )
        if self.choose_by is not None and not self.compare:
            raise InputError("a rule to choose the stated method needs methods to compare")
        if self.threshold_method not in THRESHOLD_METHODS:
            raise InputError(f"unknown threshold method {self.threshold_method!r}")
        if not 1 <= self.lambdag_order <= 16 or self.lambdag_samples < 1:
            raise InputError("--lambdag-order must be 1 to 16 and --lambdag-samples at least 1")
        for name in ("questioned_chars", "known_chars"):
            value = getattr(self, name)
            option = name.replace("_", "-")
            if value is None:
                continue
            if not (
                isinstance(value, tuple)
                and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise InputError(f"--{option} must be LO:HI or one whole number")
            if not 1 <= value[0] <= value[1]:
                raise InputError(f"--{option} must satisfy 1 ≤ LO ≤ HI")
        if self.seed < 0:
            raise InputError("--seed must be a whole number ≥ 0")
        if self.folds < 2:
            raise InputError("cross-validation needs at least 2 folds")
        if not 1 <= self.repeats <= MAX_REPEATS:
            raise InputError(f"--repeats must be 1 to {MAX_REPEATS}")
        for name, value in (
            ("--accept-cllr", self.criteria.max_cllr),
            ("--accept-misleading", self.criteria.max_misleading),
        ):
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise InputError(f"{name} must be a number ≥ 0")
        if self.max_trials < 2 * MIN_TRIALS_PER_CLASS:
            raise InputError(
                f"--max-trials must be at least {2 * MIN_TRIALS_PER_CLASS} "
                f"({MIN_TRIALS_PER_CLASS} per class)"
            )
        if self.max_trials // 2 // self.repeats < MIN_TRIALS_PER_CLASS:
            raise InputError(
                f"--max-trials {self.max_trials} shared out over {self.repeats} repeats leaves "
                f"fewer than {MIN_TRIALS_PER_CLASS} trials of each class to a repeat: raise "
                f"--max-trials to at least {2 * MIN_TRIALS_PER_CLASS * self.repeats} or lower "
                "--repeats"
            )

    def repeats_for(self, authors: int) -> int:
        """The repeats a population of ``authors`` is validated with: those asked for, raised
        to ``AUTHOR_REPEATS`` / authors (at most ``MAX_REPEATS``, and no more than leaves each
        repeat ``MIN_TRIALS_PER_CLASS`` trials of each class) for a population of casework size
        (smaller ones are too small for casework whatever their seed)."""
        return repeats_used(self.repeats, self.max_trials, authors)

    def pairs_of_repeat(self, repeat: int) -> int:
        """The cap on one repeat's pairs: ``max_trials`` shared out over the repeats."""
        pairs = self.max_trials // 2
        return pairs // self.repeats + (1 if repeat < pairs % self.repeats else 0)


def repeats_used(asked: int, max_trials: int, authors: int) -> int:
    """``ValidationSettings.repeats_for`` for settings not yet made (the desktop's wizard shows
    the repeats a population will get before it builds the settings)."""
    if authors < MIN_CASEWORK_AUTHORS:
        return asked
    # never raised so far that a repeat would keep fewer than MIN_TRIALS_PER_CLASS trials of
    # each class (``max_trials`` is shared out over the repeats; a fold needs both classes)
    room = max(1, max_trials // 2 // MIN_TRIALS_PER_CLASS)
    raised = min(MAX_REPEATS, math.ceil(AUTHOR_REPEATS / authors), room)
    return max(asked, raised)


def check_fuse(fuse: Sequence[str], option: str = "--fuse") -> None:
    """Refuse a list of fused methods that is not two or more distinct registered ids other
    than the fusion itself (one plain line naming ``option``)."""
    ids = list(fuse)
    unknown = [m for m in ids if m not in METHODS]
    if unknown:
        raise InputError(
            f"{option}: unknown method {', '.join(repr(m) for m in unknown)} "
            f"(known: {', '.join(m for m in METHODS if not capabilities_of(m).fuses)})"
        )
    if any(capabilities_of(m).fuses for m in ids):
        raise InputError(f"{option}: the fusion cannot combine itself; name the methods it fuses")
    twice = sorted({m for m in ids if ids.count(m) > 1})
    if twice:
        raise InputError(f"{option}: {', '.join(twice)} named more than once")
    if len(ids) < 2:
        raise InputError(f"{option}: a fusion combines at least two methods, not {len(ids)}")


def declared_bands(settings: ValidationSettings) -> list[tuple[int, int]] | None:
    """The questioned-length bands of a declared range (None: one length, or whole documents:
    the overall bound is the only one)."""
    q = settings.questioned_chars
    if q is None or q[0] == q[1]:
        return None
    return length_bands(q[0], q[1])
