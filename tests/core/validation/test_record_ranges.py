"""Every figure of a validation record held to its physical range, and its counts to how they
add up (issue 30: a record whose figures are finite but impossible was accepted and could back
a conclusion): ``core/gate/record_ranges.py`` and ``record_sums.py``, through the one strict
reader (``record_basis.read_record_file``) of a real record written by ``taveer validate``.

The real program (subprocess ``taveer``) refusing such records:
``tests/cli/test_record_ranges_cli.py``.
"""

from __future__ import annotations

import copy
import json
import math

import pytest

from taveer_desktop.core.gate.record_ranges import (
    MAX_ABS_LOG10_LR,
    MAX_CLLR,
    NEWEST_FORMAT,
    range_problem,
    sums_problem,
    values_at,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.validation.record_basis import read_record_file
from taveer_desktop.core.validation.validation import RECORD_FORMAT_VERSION
from tests.cli.test_cli import run
from tests.core.validation_fixtures import SHIPPED_POPULATION


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    """A real record: ``taveer validate`` on the shipped demo population, small (3 s)."""
    root = tmp_path_factory.mktemp("ranges")
    path = root / "record.json"
    done = run(
        "validate", "--population", SHIPPED_POPULATION, "-o", root / "model.json",
        "--record", path, "--folds", "3", "--repeats", "2", "--max-trials", "80",
        "--questioned-chars", "2000:8000", "--known-chars", "9000", "--accept-cllr", "1",
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text(encoding="utf-8"))


def _set(where: str, value):
    """A change setting the key path ``where`` (dots; ``name[i]`` an element) to ``value``."""

    def change(data: dict) -> None:
        *steps, last = where.split(".")
        for step in steps:
            key, _, index = step.partition("[")
            data = data[key] if not index else data[key][int(index.rstrip("]"))]
        key, _, index = last.partition("[")
        if index:
            data[key][int(index.rstrip("]"))] = value
        else:
            data[key] = value

    return change


# (change, the words of the one-line refusal): each figure outside its physical range
ABSURD = {
    "cllr-1e308": (_set("figures.cllr", 1e308), "figures.cllr is 1e+308, outside 0 to 332.19"),
    "cllr-negative": (_set("figures.cllr", -0.2), "figures.cllr is -0.2, outside 0 to"),
    "auc-7": (_set("figures.auc", 7), "figures.auc is 7, outside [0, 1]"),
    "eer-share-3": (_set("figures.eer", 3.0), "figures.eer is 3.0, outside [0, 1]"),
    "cllr-min-above-1": (_set("figures.cllr_min", 1.5), "figures.cllr_min is 1.5, outside [0, 1]"),
    "count-negative": (
        _set("protocol.trials_same", -5),
        "protocol.trials_same is -5, not a whole number ≥ 0",
    ),
    "count-fraction": (
        _set("population.documents", 60.5),
        "population.documents is 60.5, not a whole number",
    ),
    "bound-1e300": (
        _set("bound.max_log10_lr", 1e300),
        "bound.max_log10_lr is 1e+300, outside ±100 (a log10 LR)",
    ),
    "band-bound-minus-1e300": (
        _set("bands[0].bound.min_log10_lr", -1e300),
        "bands[0].bound.min_log10_lr is -1e+300, outside ±100",
    ),
    "trial-score-1e308": (_set("trials[3].score", 1e308), "trials[3].score is 1e+308, outside"),
    "trial-lr-1e300": (
        _set("trials[0].log10_lr", 1e300),
        "trials[0].log10_lr is 1e+300, outside ±100",
    ),
    "trial-length-0": (
        _set("trials[1].questioned_chars", 0),
        "trials[1].questioned_chars is 0, not a whole number ≥ 1",
    ),
    "seconds-1e308": (_set("seconds", 1e308), "seconds is 1e+308, outside 0 to a year"),
    "year-99999": (
        _set("created_utc", "99999-01-01T00:00:00+00:00"),
        'created_utc is "99999-01-01T00:00:00+00:00", not a date',
    ),
    "date-not-real": (
        _set("created_utc", "2026-02-30T00:00:00+00:00"),
        'created_utc is "2026-02-30T00:00:00+00:00", not a date',
    ),
    "criteria-cllr-negative": (
        _set("acceptance.criteria.max_cllr", -1),
        "acceptance.criteria.max_cllr is -1, outside 0 to",
    ),
    "interval-share-2": (_set("intervals.auc[1]", 2.0), "intervals.auc[1] is 2.0, outside [0, 1]"),
    "matched-share-3": (
        _set("protocol.trials.construction.matched_share", 3),
        "protocol.trials.construction.matched_share is 3, outside [0, 1]",
    ),
    "repeat-auc-7": (_set("repeats.auc[0]", 7), "repeats.auc[0] is 7, outside [0, 1]"),
    "method-cllr-1e308": (
        _set("methods.taveer.cllr", 1e308),
        "methods.taveer.cllr is 1e+308, outside 0 to",
    ),
    "conditions-reversed": (
        _set("conditions.questioned_chars", [8000, 2000]),
        "conditions.questioned_chars is [8000, 2000], a range running high to low",
    ),
    "conditions-length-1e300": (
        _set("conditions.known_chars", [9000, 1e300]),
        "conditions.known_chars is [9000, 1e+300], not a range of lengths",
    ),
    "format-version-newer": (
        _set("format_version", 99),
        f"format_version is 99, outside 1 to {NEWEST_FORMAT}",
    ),
}

# (change, words): figures each in range that do not hang together
INCONSISTENT = {
    "elub-lower-above-upper": (
        _set("bound.min_log10_lr", 0.5),
        "bound.min_log10_lr is 0.5, above 0",
    ),
    "interval-high-to-low": (
        _set("intervals.cllr", [0.9, 0.4]),
        "intervals.cllr runs from 0.9 down to 0.4",
    ),
    "figure-outside-its-interval": (
        _set("intervals.auc", [0.1, 0.2]),
        "figures.auc is",  # … outside its own interval [0.1, 0.2]
    ),
    "bound-trials-do-not-add-up": (
        _set("bound.trials_same", 7),
        "bound.trials_same is 7, but protocol.trials_same is",
    ),
    "bands-do-not-add-up": (
        _set("bands[0].trials_different", 0),
        "protocol.trials_different is 40, but the sum of the bands' trials_different is",
    ),
    "repeats-do-not-add-up": (
        _set("repeats.trials", [1, 1]),
        "the sum of repeats.trials is 2, but the number of trials is 80",
    ),
    "repeats-lists-too-short": (
        _set("repeats.cllr", [0.5]),
        "repeats.cllr lists 1 values for 2 repeats",
    ),
    "method-trials-do-not-add-up": (
        _set("methods.taveer.trials", 5),
        "methods.taveer.trials + cannot_compare is 5, but the number of trials is 80",
    ),
    "more-authors-than-documents": (
        _set("population.documents", 2),
        "population.authors is 6, more than its documents (2)",
    ),
    "casework-more-than-the-whole": (
        _set("casework.authors", 60),
        "casework.authors is 60, more than population.authors (6)",
    ),
    "criteria-set-after-the-record": (
        _set("acceptance.criteria.set_utc", "2099-01-01T00:00:00+00:00"),
        "acceptance.criteria.set_utc is",  # a date after today is no date either
    ),
}


def _written(tmp_path, record: dict, change) -> str:
    changed = copy.deepcopy(record)
    change(changed)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(changed), encoding="utf-8")
    return str(path)


def test_the_real_record_passes_every_rule(record, tmp_path):
    assert range_problem(record) is None and sums_problem(record) is None
    basis = read_record_file(_written(tmp_path, record, lambda r: None))
    assert basis.trials_same == record["protocol"]["trials_same"] == 40


@pytest.mark.parametrize("name", sorted(ABSURD))
def test_an_impossible_figure_is_refused_naming_the_key_and_value(name, record, tmp_path):
    change, words = ABSURD[name]
    path = _written(tmp_path, record, change)
    with pytest.raises(InputError) as refused:
        read_record_file(path)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path}: not a usable validation record")
    assert words in message, message


@pytest.mark.parametrize("name", sorted(INCONSISTENT))
def test_figures_that_do_not_hang_together_are_refused(name, record, tmp_path):
    change, words = INCONSISTENT[name]
    path = _written(tmp_path, record, change)
    with pytest.raises(InputError) as refused:
        read_record_file(path)
    assert words in str(refused.value) and "\n" not in str(refused.value), str(refused.value)


def test_criteria_set_after_the_record_was_made(record):
    changed = copy.deepcopy(record)
    changed["created_utc"] = "2026-01-01T00:00:00+00:00"
    changed["acceptance"]["criteria"]["set_utc"] = "2026-01-02T00:00:00+00:00"
    assert range_problem(changed) is None
    assert sums_problem(changed) == (
        "acceptance.criteria.set_utc is '2026-01-02T00:00:00+00:00', after the record was made "
        "('2026-01-01T00:00:00+00:00')"
    )


def test_every_number_of_the_record_set_absurd_is_refused(record, tmp_path):
    """The probe of docs/reliability.md: every number of the record (the first two trials' for
    the trials) set to ±1e300, and every whole number to -5: none is accepted (before: 331 of
    358 such records of the demo validation were)."""
    accepted, tried = [], 0

    def numbers(data, path=()):
        if isinstance(data, dict):
            for key, value in data.items():
                if key != "population_fit":
                    yield from numbers(value, (*path, key))
        elif isinstance(data, list):
            for index, value in enumerate(data[:2] if path == ("trials",) else data):
                yield from numbers(value, (*path, index))
        elif isinstance(data, int | float) and not isinstance(data, bool):
            yield path, data

    for path, value in numbers(record):
        for bad in (1e300, -1e300, *((-5,) if isinstance(value, int) else ())):
            changed = copy.deepcopy(record)
            here = changed
            for step in path[:-1]:
                here = here[step]
            here[path[-1]] = bad
            tried += 1
            if range_problem(changed) is None and sums_problem(changed) is None:
                accepted.append((path, bad))
    assert tried > 300 and not accepted, accepted


def test_the_bounds_are_what_the_docs_say():
    assert MAX_ABS_LOG10_LR == 100
    assert math.isclose(MAX_CLLR, 100 * math.log2(10), rel_tol=1e-9)  # log2(1 + 10^100)
    assert NEWEST_FORMAT == RECORD_FORMAT_VERSION  # a newer writer must widen the reader too


def test_values_at_walks_lists_and_objects():
    data = {"a": [{"b": 1}, {"b": None}, {"c": 2}], "m": {"x": {"v": 3}, "y": {"v": 4}}}
    assert list(values_at(data, "a[].b")) == [("a[0].b", 1)]
    assert list(values_at(data, "m.*.v")) == [("m.x.v", 3), ("m.y.v", 4)]
    assert list(values_at(data, "missing.key")) == []
