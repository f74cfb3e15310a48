"""A model file's figures held to their physical ranges (issue 30): its validation summary to
the validation record's own rules (``core/gate/record_ranges.py``: a bound of 1e300, an interval
running high to low, counts that do not add up), its date to a real one, its training time to a
year, a fusion's training Cllr to 100, its evaluations' counts to the cases they split. Before,
of every number of a validated model set to ±1e300 (whole numbers also to -5) and its dates to
the year 99999, 213 of 618 such models were accepted (docs/reliability.md).

The models are the shipped default and the validated model stored in the newest store fixture
(written by ``taveer validate`` through a project).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.fusion.fusion_model import fusion_from
from taveer_desktop.core.methods.taveer.model import model_from_dict
from taveer_desktop.paths import resource

FIXTURE = Path(__file__).resolve().parents[3] / "store" / "fixtures" / "store_v9.taveer"


@pytest.fixture(scope="module")
def validated() -> dict:
    """The fixture project's validated model (it carries the validation's summary)."""
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro&immutable=1", uri=True) as db:
        rows = [json.loads(row[0]) for row in db.execute("SELECT model_json FROM models")]
    (model,) = [m for m in rows if "validation" in m]
    return model


@pytest.fixture(scope="module")
def shipped() -> dict:
    return json.loads(resource("models", "default.json").read_text(encoding="utf-8"))


def _refused(data: dict, where: str, value, words: str) -> None:
    changed = copy.deepcopy(data)
    *steps, last = where.split(".")
    here = changed
    for step in steps:
        here = here[int(step)] if step.isdigit() else here[step]
    here[int(last) if last.isdigit() else last] = value
    with pytest.raises(InputError) as refused:
        model_from_dict(changed, "m.json")
    assert words in str(refused.value) and "\n" not in str(refused.value), str(refused.value)


def test_the_models_read(validated, shipped):
    model_from_dict(validated, "validated")
    model_from_dict(shipped, "shipped")


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        ("validation.bound.max_log10_lr", 1e300, "validation.bound.max_log10_lr is 1e+300"),
        ("validation.bound.min_log10_lr", 0.5, "validation.bound.min_log10_lr is 0.5, above 0"),
        ("validation.intervals.cllr", [0.9, 0.1], "validation.intervals.cllr runs from 0.9"),
        ("validation.repeats.seeds.0", -5, "validation.repeats.seeds[0] is -5, not a whole"),
        ("validation.repeats.trials", [1, 1, 1], "validation.the sum of repeats.trials is 3"),
        ("validation.conditions.questioned_chars", [9000, 10], "a range running high to low"),
        ("validation.casework.authors", 10**6, "validation.casework.authors is 1000000, more"),
        ("validation.protocol.folds", 0, "validation.protocol.folds is 0, not a whole number ≥ 1"),
        ("created_utc", "99999-01-01T00:00:00+00:00", "'created_utc' is '99999-01-01"),
        ("training.seconds", 1e300, "training.seconds must be at most a year"),
    ],
)
def test_a_validated_models_impossible_figure_is_refused(validated, where, value, words):
    _refused(validated, where, value, words)


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        ("evaluations.stackexchange/test.gate_rules.validated_conditions", -5, "gate_rules"),
        ("evaluations.stackexchange/test.tp", 56, "tp + fn + fp + tn must be n"),
        (
            "evaluations.reuters-c50/test.evaluative",
            1,
            "evaluative + investigative + no_conclusion",
        ),
        ("training.cases_y", 1, "training.cases must be training.cases_y + training.cases_n"),
    ],
)
def test_the_shipped_models_claims_must_add_up(shipped, where, value, words):
    _refused(shipped, where, value, words)


FUSION = {
    "methods": ["taveer", "coav"],
    "intercept": -0.23,
    "weights": [1.25, 1.88],
    "prior_log_odds": 0.0,
    "min_log10_lr": -1.36,
    "max_log10_lr": 1.28,
    "training_cllr": 0.50274,
}


def test_a_fusions_training_cllr_is_bounded():
    assert fusion_from(dict(FUSION), "m.json").training_cllr == 0.50274
    with pytest.raises(InputError, match=r"fusion\.training_cllr must be a number from 0 to 100"):
        fusion_from({**FUSION, "training_cllr": 1e300}, "m.json")
