"""How a validation record's figures hang together: intervals that run low to high and contain
their figure, ELUB bounds ordered around 0, trial counts that add up (the trials listed, the
bound's, the bands', the repeats', each method's), parts no larger than their whole, criteria
set before the record was made. ``record_ranges.check_record_ranges`` calls it after each
figure was held to its own range; ``refuse`` makes the one-line refusal naming the record.

A part a record lacks (an older record) is not checked, as in ``record_ranges``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeGuard

from taveer_desktop.core.ground.time_text import parsed_time

ROUNDING = 1e-6  # the record's figures and their intervals are rounded to 6 decimals

Refuse = Callable[[str], Exception]


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _block(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _bands(record: dict[str, Any], refuse: Refuse) -> list[dict[str, Any]]:
    """The record's length bands (objects); ``bands`` that is not a list is refused."""
    bands = record.get("bands")
    if bands is None:
        return []
    if not isinstance(bands, list):
        kinds = {bool: "true or false", int: "a number", float: "a number", str: "text"}
        kind = kinds.get(type(bands), "an object")
        raise refuse(f"bands is {kind}, not a list of length bands")
    return [band for band in bands if isinstance(band, dict)]


def _intervals(figures: Any, intervals: Any, where: str, refuse: Refuse) -> None:
    """Each interval two numbers, low to high, around its figure (within the rounding)."""
    if not isinstance(intervals, dict):
        return
    for name, pair in intervals.items():
        if pair is None:
            continue
        if not (isinstance(pair, list) and len(pair) == 2):
            raise refuse(f"{where}intervals.{name} is not a pair [low, high]")
        low, high = pair
        if not (_number(low) and _number(high)):
            continue  # an interval that could not be computed (null sides)
        if low > high + ROUNDING:
            raise refuse(f"{where}intervals.{name} runs from {low!r} down to {high!r}")
        figure = figures.get(name) if isinstance(figures, dict) else None
        if _number(figure) and not (low - ROUNDING <= figure <= high + ROUNDING):
            raise refuse(
                f"{where}figures.{name} is {figure!r}, outside its own interval [{low!r}, {high!r}]"
            )


def _bound(bound: Any, where: str, refuse: Refuse) -> None:
    """An ELUB bound: lower ≤ 0 ≤ upper (no bound claims every ratio points one way)."""
    if not isinstance(bound, dict):
        return
    low, high = bound.get("min_log10_lr"), bound.get("max_log10_lr")
    if _number(low) and low > 0:
        raise refuse(f"{where}bound.min_log10_lr is {low!r}, above 0")
    if _number(high) and high < 0:
        raise refuse(f"{where}bound.max_log10_lr is {high!r}, below 0")


def _same(stated: Any, total: int, what: str, whole: str, refuse: Refuse) -> None:
    if _count(stated) is not None and stated != total:
        raise refuse(f"{what} is {stated!r}, but {whole} is {total}")


def _at_most(part: Any, whole: Any, what: str, of: str, refuse: Refuse) -> None:
    if _count(part) is not None and _count(whole) is not None and part > whole:
        raise refuse(f"{what} is {part!r}, more than {of} ({whole!r})")


def _trial_counts(record: dict[str, Any], refuse: Refuse) -> None:
    protocol = _block(record, "protocol")
    same, different = _count(protocol.get("trials_same")), _count(protocol.get("trials_different"))
    trials = record.get("trials")
    if isinstance(trials, list) and trials and same is not None and different is not None:
        listed_same = sum(1 for t in trials if isinstance(t, dict) and t.get("same") is True)
        listed = sum(1 for t in trials if isinstance(t, dict))
        _same(same, listed_same, "protocol.trials_same", "the same-author trials listed", refuse)
        _same(
            different,
            listed - listed_same,
            "protocol.trials_different",
            "the different-author trials listed",
            refuse,
        )
    if same is None or different is None:
        return
    bound = _block(record, "bound")
    _same(bound.get("trials_same"), same, "bound.trials_same", "protocol.trials_same", refuse)
    _same(
        bound.get("trials_different"),
        different,
        "bound.trials_different",
        "protocol.trials_different",
        refuse,
    )
    bands = _bands(record, refuse)
    if bands and all(_count(b.get("trials_same")) is not None for b in bands):
        total = sum(b["trials_same"] for b in bands)
        _same(same, total, "protocol.trials_same", "the sum of the bands' trials_same", refuse)
    if bands and all(_count(b.get("trials_different")) is not None for b in bands):
        total = sum(b["trials_different"] for b in bands)
        _same(
            different,
            total,
            "protocol.trials_different",
            "the sum of the bands' trials_different",
            refuse,
        )
    _repeat_counts(_block(record, "repeats"), same + different, refuse)
    for method, block in _block(record, "methods").items():
        scored = _count(block.get("trials")) if isinstance(block, dict) else None
        if scored is None:
            continue
        skipped = _count(block.get("cannot_compare")) or 0
        _same(
            scored + skipped,
            same + different,
            f"methods.{method}.trials + cannot_compare",
            "the number of trials",
            refuse,
        )


def _repeat_counts(repeats: dict[str, Any], total: int, refuse: Refuse) -> None:
    count = _count(repeats.get("count"))
    if count is None:
        return
    for key, values in repeats.items():
        if isinstance(values, list) and len(values) != count:
            raise refuse(f"repeats.{key} lists {len(values)} values for {count} repeats")
    per = repeats.get("trials")
    if isinstance(per, list) and all(_count(v) is not None for v in per):
        _same(sum(per), total, "the sum of repeats.trials", "the number of trials", refuse)


def _parts(record: dict[str, Any], refuse: Refuse) -> None:
    population, protocol = _block(record, "population"), _block(record, "protocol")
    _at_most(
        population.get("authors"),
        population.get("documents"),
        "population.authors",
        "its documents",
        refuse,
    )
    casework = _block(record, "casework")
    _at_most(
        casework.get("authors"),
        population.get("authors"),
        "casework.authors",
        "population.authors",
        refuse,
    )
    for side in ("same", "different"):
        whole, of = protocol.get(f"trials_{side}"), f"protocol.trials_{side}"
        _at_most(casework.get(f"trials_{side}"), whole, f"casework.trials_{side}", of, refuse)
        construction = _block(_block(protocol, "trials"), "construction")
        _at_most(
            construction.get(f"matched_{side}"),
            whole,
            f"protocol.trials.construction.matched_{side}",
            of,
            refuse,
        )
    dates = _block(_block(_block(protocol, "trials"), "construction"), "dates")
    where = "protocol.trials.construction.dates"
    _at_most(
        dates.get("dated_documents"),
        dates.get("documents"),
        f"{where}.dated_documents",
        f"{where}.documents",
        refuse,
    )
    _at_most(
        dates.get("apart_same"),
        dates.get("same_author_trials"),
        f"{where}.apart_same",
        f"{where}.same_author_trials",
        refuse,
    )
    fusion = _block(record, "fusion")
    left_out, fused = fusion.get("left_out"), fusion.get("trials")
    _at_most(left_out, fused, "fusion.left_out", "fusion.trials", refuse)
    lambdag = _block(record, "lambdag")
    order, most = lambdag.get("order"), lambdag.get("max_order")
    _at_most(order, most, "lambdag.order", "lambdag.max_order", refuse)


def _criteria_first(record: dict[str, Any], refuse: Refuse) -> None:
    """Acceptance criteria are set before the exercise: never after the record was made."""
    criteria = _block(_block(record, "acceptance"), "criteria")
    made, set_at = parsed_time(record.get("created_utc")), parsed_time(criteria.get("set_utc"))
    if made is not None and set_at is not None and set_at > made:
        raise refuse(
            f"acceptance.criteria.set_utc is {criteria['set_utc']!r}, after the record was "
            f"made ({record['created_utc']!r})"
        )


def check_sums(record: dict[str, Any], refuse: Refuse) -> None:
    """Raise ``refuse(message)`` where the record's figures do not hang together (the module)."""
    _intervals(record.get("figures"), record.get("intervals"), "", refuse)
    _bound(record.get("bound"), "", refuse)
    for index, band in enumerate(_bands(record, refuse)):
        where = f"bands[{index}]."
        _intervals(band.get("figures"), band.get("intervals"), where, refuse)
        _bound(band.get("bound"), where, refuse)
    for method, block in _block(record, "methods").items():
        spread = _block(block, "seed_spread") if isinstance(block, dict) else {}
        for name in ("auc", "cllr"):
            pair = spread.get(name)
            if (
                isinstance(pair, list)
                and len(pair) == 2
                and all(_number(v) for v in pair)
                and pair[0] > pair[1]
            ):
                raise refuse(f"methods.{method}.seed_spread.{name} runs high to low")
    _trial_counts(record, refuse)
    _parts(record, refuse)
    _criteria_first(record, refuse)
