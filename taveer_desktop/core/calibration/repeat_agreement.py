"""Whether a case's stated ratio keeps its direction under every repeat of its validation.

A validated model keeps, beside the final model fitted on all repeats' trials, each repeat's own
fit (``core/methods/taveer/repeat_models.py``). A verification computes the case's log10 LR under
each of them (the stated method's seam, ``MethodSeam.repeat_case_ratio``) and records here what
it found:

- ``agree``: the final model's ratio and every repeat's point the same way; the stated ratio is
  the final model's;
- ``disagree``: they do not (or a repeat gives no ratio): which way the ratio points depends on
  the seed that drew the trials, so the conclusion is given no direction — its ratio is stated
  as 1 (log10 LR 0), "no support for either proposition" on every verbal scale, with the
  ``GateRule.REPEATS_DISAGREE`` finding saying why (``core/calibration/outcome.py``);
- ``not_possible``: the check could not be made (``reason``: a model file from before repeat
  fits were kept, a stated method whose repeat fits are not kept, a validation drawn only once,
  or no ratio to check).

The words a person reads are made in ``presentation/repeat_agreement_text.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from taveer_desktop.core.calibration.outcome import ResultFormatError, parse_enum


class RepeatStatus(StrEnum):
    AGREE = "agree"
    DISAGREE = "disagree"
    NOT_POSSIBLE = "not_possible"


class NotPossible(StrEnum):
    """Why the check could not be made."""

    NO_REPEAT_FITS = "no_repeat_fits"  # a model file from before repeat fits were kept
    METHOD_KEEPS_NONE = "method_keeps_none"  # the stated method's repeat fits are not kept
    NO_RATIO = "no_ratio"  # the final model gives the case no ratio
    ONE_REPEAT = "one_repeat"  # the validation drew its trials once: no second draw to compare


@dataclass(frozen=True)
class RepeatAgreement:
    """The case's log10 LR under each repeat's own fit (None: that fit gives none), the seeds
    of the repeats, the final model's ratio, and what they show (see the module)."""

    status: RepeatStatus
    final_log10_lr: float | None = None
    log10_lrs: tuple[float | None, ...] = ()
    seeds: tuple[int, ...] = ()
    reason: NotPossible | None = None

    @property
    def lowest(self) -> float | None:
        values = [v for v in self.log10_lrs if v is not None]
        return min(values) if values else None

    @property
    def highest(self) -> float | None:
        values = [v for v in self.log10_lrs if v is not None]
        return max(values) if values else None

    @property
    def towards_hp(self) -> int:
        """How many repeats' ratios point towards Hp (above 1)."""
        return sum(1 for v in self.log10_lrs if v is not None and v > 0)

    @property
    def towards_hd(self) -> int:
        """How many repeats' ratios point towards Hd (below 1)."""
        return sum(1 for v in self.log10_lrs if v is not None and v < 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "reason": None if self.reason is None else self.reason.value,
            "final_log10_lr": self.final_log10_lr,
            "log10_lr": list(self.log10_lrs),
            "seeds": list(self.seeds),
            "lowest": self.lowest,
            "highest": self.highest,
        }


def not_possible(reason: NotPossible, final: float | None = None) -> RepeatAgreement:
    return RepeatAgreement(RepeatStatus.NOT_POSSIBLE, final, reason=reason)


def agreement_of(
    final: float, log10_lrs: tuple[float | None, ...], seeds: tuple[int, ...]
) -> RepeatAgreement:
    """``agree`` when the final ratio and every repeat's lie strictly on one side of 1."""
    signs = {math.copysign(1.0, v) if v != 0 else 0.0 for v in (final, *log10_lrs) if v is not None}
    agree = None not in log10_lrs and len(signs) == 1 and 0.0 not in signs
    status = RepeatStatus.AGREE if agree else RepeatStatus.DISAGREE
    return RepeatAgreement(status, final, log10_lrs, seeds)


def _number(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise ResultFormatError(f"repeats.{name} is not a finite number")
    return float(value)


def agreement_from_dict(data: Any) -> RepeatAgreement | None:
    """A stored result's ``repeats`` block, checked (None: a result from before it existed)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ResultFormatError("repeats is not an object")
    status = parse_enum(RepeatStatus, data.get("status"), "repeats.status")
    reason = data.get("reason")
    values, seeds = data.get("log10_lr", []), data.get("seeds", [])
    if not isinstance(values, list) or not isinstance(seeds, list) or len(values) != len(seeds):
        raise ResultFormatError("repeats.log10_lr and repeats.seeds must be lists of one length")
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise ResultFormatError("repeats.seeds must be whole numbers")
    return RepeatAgreement(
        status,
        _number(data.get("final_log10_lr"), "final_log10_lr"),
        tuple(_number(v, "log10_lr") for v in values),
        tuple(seeds),
        None if reason is None else parse_enum(NotPossible, reason, "repeats.reason"),
    )
