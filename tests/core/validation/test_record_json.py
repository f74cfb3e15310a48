"""Every block a command prints of a validation record, from the typed record
(``core/validation/record_json.part_json``), is the record's own JSON byte for byte — on the
stored records (formats 1 and 2), the fused summary and LambdaG's pin, a record widened with
compared methods (COAV, IM with its seed spread, Unmasking) and a record ``validate`` writes
now — and ``taveer validate --json``'s summary built from the typed record is the summary the
command built from the record's dictionary before (written out here as the reference)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taveer_desktop.cli.validate_command import validation_summary
from taveer_desktop.core.validation.record_json import part_json
from taveer_desktop.core.validation.record_reader import ValidationRecord, read_validation_record
from taveer_desktop.core.validation.validation import FIGURES
from tests.comparison_fixtures import widened
from tests.core.validation.test_record_reader import DATA, _stored_records


def _blocks(record: ValidationRecord) -> dict[tuple[str, ...], Any]:
    """The printed blocks of the typed record, by their path in the record."""
    acceptance = record.acceptance
    return {
        ("intervals",): record.intervals,
        ("bands",): record.bands,
        ("casework",): record.casework,
        ("repeats",): record.repeats,
        ("conditions",): record.conditions,
        ("methods",): record.methods,
        ("acceptance", "criteria"): acceptance.criteria,
        ("acceptance", "results"): acceptance.results,
        ("acceptance", "judged_values"): acceptance.judged_values,
        ("protocol", "trials", "construction"): record.protocol.construction,
        ("protocol", "questioned_chars"): record.protocol.questioned_chars,
        ("protocol", "known_chars"): record.protocol.known_chars,
    }


def _text(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _check_blocks(name: str, raw: dict[str, Any]) -> int:
    typed, compared, problems = read_validation_record(raw), 0, []
    for path, part in _blocks(typed).items():
        value: Any = raw
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is None and path[-1] not in raw.get(path[0], {}):
            continue  # not in this record (an older format)
        compared += 1
        if _text(part_json(part)) != _text(value):
            problems.append(".".join(path))
    assert not problems, f"{name}: printed otherwise than held: {problems}"
    return compared


def _old_summary(raw: dict[str, Any]) -> dict[str, Any]:
    """``validation_summary`` as it was, indexing the record's dictionary (the reference)."""
    return {
        "authors": raw["population"]["authors"],
        "trials": {
            "same": raw["protocol"]["trials_same"],
            "different": raw["protocol"]["trials_different"],
            "construction": raw["protocol"]["trials"]["construction"],
        },
        **{key: raw["figures"][key] for key in FIGURES},
        "intervals": raw["intervals"],
        "bound": {k: raw["bound"][k] for k in ("min_log10_lr", "max_log10_lr")},
        "acceptance": {
            "criteria": raw["acceptance"]["criteria"],
            "met": raw["acceptance"]["met"],
            "results": raw["acceptance"]["results"],
            "judged_on": raw["acceptance"]["judged_on"],
            "judged_values": raw["acceptance"]["judged_values"],
        },
        "model": "model.json",
        "record": "record.json",
        "conditions": raw["conditions"],
        "repeats": raw["repeats"],
        "bands": raw["bands"],
        "casework": raw["casework"],
        **({"methods": raw["methods"]} if "methods" in raw else {}),
    }


def _same_summary(raw: dict[str, Any]) -> None:
    typed = validation_summary(read_validation_record(raw), "model.json", "record.json")
    assert _text(typed) == _text(_old_summary(raw))


def test_every_printed_block_of_the_stored_and_test_records_is_the_records_own():
    records = list(_stored_records())
    assert {raw.get("format_version") for _, raw in records} == {1, 2}
    compared = sum(_check_blocks(name, raw) for name, raw in records)
    model = json.loads((DATA / "fused_taveer_lambdag_model.json").read_text(encoding="utf-8"))
    compared += _check_blocks("fused model's validation", model["validation"])
    newest = dict(next(raw for _, raw in _stored_records() if raw.get("format_version") == 2))
    pin = json.loads((DATA / "lambdag_demo_validation_pin.json").read_text(encoding="utf-8"))
    newest.update(methods=pin["methods"])
    for trial in newest["trials"]:
        trial["log10_lr_by_method"] = {
            "taveer": trial["log10_lr"],
            "lambdag": round(0.6 * trial["log10_lr"] - 0.1, 6),
            "fusion": round(0.8 * trial["log10_lr"], 6),
        }
    wide = widened(newest)
    wide["methods"]["im"]["seed_spread"].update(seeds=4, trials=60)  # as validate writes it
    wide["methods"]["coav"]["cannot_compare_reasons"] = {"too short": 2}
    compared += _check_blocks("a record with methods compared", wide)
    assert compared > 40


def test_a_band_of_one_class_prints_null_figures_intervals_and_bound():
    raw = {
        "bands": [
            {
                "questioned_chars": [500, 1000],
                "trials_same": 3,
                "trials_different": 0,
                "figures": None,
                "intervals": None,
                "bound": None,
            }
        ]
    }
    assert part_json(read_validation_record(raw).bands) == raw["bands"]


@pytest.mark.slow
def test_validate_json_from_the_typed_record_is_the_summary_it_printed_before(tmp_path):
    from tests.core.validation_fixtures import demo_validation_record

    raw = demo_validation_record(tmp_path)
    assert _check_blocks("a record written now", raw) >= 10
    _same_summary(raw)
    _same_summary(widened_now(raw))


def widened_now(raw: dict[str, Any]) -> dict[str, Any]:
    """A record written now with compared methods beside it (one with a seed spread and
    trials it could not compare), as ``validate --compare`` writes their blocks."""
    record = json.loads(json.dumps(raw))
    for trial in record["trials"]:
        trial["log10_lr_by_method"] = {
            "taveer": trial["log10_lr"],
            "lambdag": round(0.6 * trial["log10_lr"] - 0.1, 6),
        }
    record["methods"]["lambdag"] = dict(record["methods"]["taveer"])
    record["fusion"] = None
    wide = widened(record)
    wide["methods"]["im"]["seed_spread"].update(seeds=4, trials=60)
    wide["methods"]["coav"]["cannot_compare_reasons"] = {"too short": 2}
    return wide


def test_validate_json_of_a_stored_record_is_the_summary_it_printed_before():
    newest = next(raw for _, raw in _stored_records() if raw.get("format_version") == 2)
    if "construction" not in newest["protocol"].get("trials", {}):
        newest = {
            **newest,
            "protocol": {**newest["protocol"], "trials": {"construction": {"topic": None}}},
        }
    _same_summary(newest)
