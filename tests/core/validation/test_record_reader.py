"""Every number of every validation record the tests and the program ship reads the same
through ``core/validation/record_reader.py``: a scripted walk over each record's JSON that
finds every leaf again in the typed record, by the same keys, with the same value and type
(an int stays an int, so it prints as before).

The records: the four project fixtures that hold one (store formats 4–7: record formats 1 and
2), the fused model's validation summary and LambdaG's pinned record (methods, LambdaG block),
a record ``validate`` writes now, and the same widened with compared methods and a rule.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest

from taveer_desktop.core.validation.method_figures import MethodFigures
from taveer_desktop.core.validation.record_reader import (
    Figures,
    ValidationRecord,
    read_validation_record,
)
from tests.comparison_fixtures import widened

TESTS = Path(__file__).resolve().parents[2]
STORE_FIXTURES = sorted((TESTS / "store" / "fixtures").glob("store_v*.taveer"))
DATA = Path(__file__).resolve().parents[1] / "data"

# keys the typed record holds elsewhere or not at all (each with why)
NOT_TYPED = {
    ("format",): "the format's name: checked where a file is read",
    ("population_fit",): "kept as stored for its own reader, FitProfile.from_dict",
}
MOVED = {("protocol", "trials", "construction"): ("protocol", "construction")}


def _stored_records() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in STORE_FIXTURES:
        with sqlite3.connect(path) as db:
            tables = {r[0] for r in db.execute("select name from sqlite_master")}
            if "validation_records" not in tables:
                continue
            for rid, text in db.execute("select id, record_json from validation_records"):
                yield f"{path.name}#{rid}", json.loads(text)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def _step(typed: Any, key: Any) -> Any:
    if isinstance(typed, MethodFigures):
        return typed.figures[key] if key in typed.figures else getattr(typed, key)
    if is_dataclass(typed):
        names = {f.name for f in fields(typed)}
        if key not in names:
            raise LookupError(key)
        return getattr(typed, key)
    if isinstance(typed, Mapping):
        return typed[key]
    if isinstance(typed, tuple):
        return typed[key]
    raise LookupError(key)


def _resolve(record: ValidationRecord, path: tuple[Any, ...]) -> Any:
    for old, new in MOVED.items():
        if path[: len(old)] == old:
            path = new + path[len(old) :]
    typed: Any = record
    for key in path:
        typed = _step(typed, key)
    return typed


def walk(raw: dict[str, Any]) -> tuple[int, list[str]]:
    """(numbers compared, differences) of ``raw`` against its typed reading."""
    record = read_validation_record(raw)
    numbers, problems = 0, []
    for path, value in _leaves(raw):
        if any(path[: len(skip)] == skip for skip in NOT_TYPED):
            continue
        try:
            typed = _resolve(record, path)
        except (LookupError, IndexError, TypeError):
            problems.append(f"{'.'.join(map(str, path))}: not in the typed record")
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            numbers += 1
        if typed != value or type(typed) is not type(value):
            problems.append(f"{'.'.join(map(str, path))}: {value!r} read as {typed!r}")
    return numbers, problems


def _check(name: str, raw: dict[str, Any]) -> int:
    numbers, problems = walk(raw)
    assert not problems, f"{name}: " + "; ".join(problems[:10])
    assert numbers > 0
    return numbers


def test_every_number_of_the_stored_records_reads_the_same():
    records = list(_stored_records())
    versions = {raw.get("format_version") for _, raw in records}
    assert versions == {1, 2}, versions  # both formats the program has written
    total = sum(_check(name, raw) for name, raw in records)
    assert total > 1000


def test_every_number_of_the_fused_summary_and_lambdag_pin_reads_the_same():
    model = json.loads((DATA / "fused_taveer_lambdag_model.json").read_text(encoding="utf-8"))
    _check("fused model's validation", model["validation"])
    pin = json.loads((DATA / "lambdag_demo_validation_pin.json").read_text(encoding="utf-8"))
    # the pin holds the test's own keys beside the record's: the settings, LambdaG's raw
    # values per order (also per trial) and the reference models' count; those are not a record's
    pinned = {k: v for k, v in pin.items() if k not in ("settings", "raw_lambdag_by_order")}
    pinned["trials"] = [
        {k: v for k, v in t.items() if k != "lambdag_raw"} for t in pinned["trials"]
    ]
    pinned.pop("reference_models")
    _check("lambdag pin", pinned)
    # a fused record with three more methods compared beside it and a rule (the shape
    # tests/comparison_fixtures.py gives the report's tests), its fusion block as written now
    fused = dict(next(raw for _, raw in _stored_records() if raw.get("format_version") == 2))
    fused.update(methods=pinned["methods"], lambdag=pinned["lambdag"])
    fused["trials"] = [
        {
            **t,
            "log10_lr_by_method": {
                "taveer": t["log10_lr"],
                "lambdag": round(0.6 * t["log10_lr"] - 0.1, 6),
                "fusion": round(0.8 * t["log10_lr"], 6),
            },
        }
        for t in fused["trials"]
    ]
    fused["protocol"] = {**fused["protocol"], "method": "fusion"}
    fused["fusion"] = {
        "methods": ["taveer", "lambdag"],
        "weights": {"taveer": 0.61, "lambdag": 0.0},
        "intercept": -0.02,
        "weights_meaning": "a weight of 0 …",
        "trials": len(fused["trials"]),
        "left_out": 0,
        "left_out_by_method": {"taveer": 0, "lambdag": 0},
        "fit": "per fold",
    }
    wide = widened(fused)
    _check("a fused record with methods compared", wide)
    typed = read_validation_record(wide)
    assert typed.comparison is not None and typed.comparison.methods == tuple(
        wide["comparison"]["methods"]
    )
    assert typed.methods["im"].seed_spread is not None
    summary = read_validation_record(model["validation"])
    assert summary.trials == () and summary.lambdag is not None
    assert list(summary.methods) == list(model["validation"]["methods"])


@pytest.mark.slow
def test_every_number_of_a_record_validate_writes_now_reads_the_same(tmp_path):
    from tests.core.validation_fixtures import demo_validation_record

    raw = demo_validation_record(tmp_path)
    assert raw["format_version"] == 2
    _check("a record written now", raw)


def test_a_part_missing_or_of_another_shape_reads_as_none_never_raises():
    record = read_validation_record(
        {"figures": {"cllr": "0.5", "auc": True}, "protocol": [], "methods": {"x": {}}}
    )
    assert record.figures == Figures(names=("cllr", "auc"))  # listed, neither a number
    assert record.protocol.method is None and record.methods == {}
    assert record.bound is None and record.repeats is None and record.trials == ()
    assert record.figures.value("cllr") is None and record.figures.value("nope") is None
