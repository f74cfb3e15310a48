"""A validation never writes a record its own reader refuses (issue 30): the real writers — the
engine's ``validate`` for every method, a comparison of all of them with their fusion, declared
ranges, a declared topic relation, a choice rule; ``taveer validate --record`` and a project's
``case validate`` — on the shipped demo population, each record held to every range and sum of
``core/gate/record_ranges.py`` and read by the strict reader as a record file is (its figures
recomputed from its trials), and each model's validation summary read back by the model reader.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from taveer_desktop.core.gate.record_ranges import MAX_ABS_LOG10_LR, range_problem, sums_problem
from taveer_desktop.core.gate.validation_basis import BasisSource
from taveer_desktop.core.ground.registry import COMPARISON_IDS
from taveer_desktop.core.methods.systems.catalogue import comparison_method
from taveer_desktop.core.methods.taveer.model import model_from_dict
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.trials.validation_settings import (
    LOWEST_PESSIMISTIC_CLLR,
    AcceptanceCriteria,
    ValidationSettings,
)
from taveer_desktop.core.validation.record_basis import basis_from_record
from taveer_desktop.core.validation.validation import validate
from taveer_desktop.paths import resource
from taveer_desktop.store.population_folder import read_population_folder
from tests.cli.test_cli import run
from tests.core.methods.systems.test_every_method import QUICK
from tests.core.validation_fixtures import SHIPPED_POPULATION

pytestmark = pytest.mark.slow  # validations: seconds to a minute each

FILE = BasisSource("file", "0" * 64, "/writers/record.json")


@pytest.fixture(scope="module")
def population():
    files = read_population_folder(SHIPPED_POPULATION)
    return population_from_texts(files.texts(), "demo", str(SHIPPED_POPULATION), "shipped demo")


def _settings(**more) -> ValidationSettings:
    values = dict(folds=3, repeats=2, max_trials=80, bootstrap=30, seed=5, lambdag_order=3,
                  lambdag_samples=3)  # fmt: skip
    values.update(more)
    return ValidationSettings(**values)


WRITERS = {
    "taveer-whole-documents": {},
    "taveer-ranges-criteria-topic": dict(
        questioned_chars=(1500, 6000),
        known_chars=(6000, 20000),
        criteria=AcceptanceCriteria.now(max_cllr=0.9, max_misleading=0.3),
        topic="same",
    ),
    "lambdag": dict(method="lambdag", questioned_chars=(2000, 5000), known_chars=9000),
    "fusion-taveer-lambdag": dict(method="fusion", fuse=("taveer", "lambdag")),
    "every-system-compared-and-chosen": dict(
        repeats=1,
        max_trials=40,
        compare=("taveer", *COMPARISON_IDS),
        choose_by=LOWEST_PESSIMISTIC_CLLR,
        criteria=AcceptanceCriteria.now(max_cllr=1.5),
    ),
    "fusion-taveer-coav-topic-different": dict(
        method="fusion", fuse=("taveer", "coav"), compare=("coav",), topic="different"
    ),
}


def _extremes(record: dict) -> tuple[float, float]:
    """The largest |log10 LR| and |raw score| of a record's trials (for docs/reliability.md)."""
    lrs, scores = [0.0], [0.0]
    for trial in record["trials"]:
        lrs += [abs(v) for v in trial.get("log10_lr_by_method", {}).values() if v is not None]
        scores += [abs(v) for k, v in trial.items() if k.endswith("_raw") and v is not None]
        scores.append(abs(trial["score"]))
    return max(lrs), max(scores)


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writers_record_passes_its_reader(writer, population, monkeypatch):
    for method_id, params in QUICK.items():  # the slow systems at a small configuration
        monkeypatch.setattr(type(comparison_method(method_id)), "DEFAULTS", params)
    result = validate(population, _settings(**WRITERS[writer]))
    record = json.loads(json.dumps(result.record))  # as written: JSON, nothing else
    assert range_problem(record) is None and sums_problem(record) is None
    basis = basis_from_record(record, FILE)  # figures recomputed from its trials, too
    assert basis.trials_same == record["protocol"]["trials_same"] > 0
    model = model_from_dict(json.loads(result.model.to_json()), writer)  # its summary too
    assert model.extra["validation"]["figures"] == record["figures"]
    largest_lr, _largest_score = _extremes(record)
    assert largest_lr < MAX_ABS_LOG10_LR / 10  # far inside the bound, not at it


def test_the_command_lines_records_pass_their_readers(tmp_path):
    """``taveer validate --record`` and a project's ``case validate``: ``verify --record`` and
    ``case verify`` read them (exit 0), and the stored record passes every rule."""
    model, record = tmp_path / "m.json", tmp_path / "r.json"
    done = run(
        "validate", "--population", SHIPPED_POPULATION, "-o", model, "--record", record,
        "--compare", "taveer,coav", "--fuse", "taveer,coav", "--method", "fusion",
        "--folds", "3", "--repeats", "2", "--max-trials", "80", "--questioned-chars",
        "3000:9000", "--known-chars", "9000", "--accept-cllr", "1", timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    federalist = sorted(resource("demo", "federalist").glob("*.txt"))
    verified = run("verify", model, "--known", *federalist[:3], "--unknown", federalist[-1],
                   "--record", record)  # fmt: skip
    assert verified.returncode == 0, verified.stderr

    project = tmp_path / "p.taveer"
    steps = [
        ("case", "create", "C1"),
        ("case", "add", "C1", "--known", *federalist[:3]),
        ("case", "add", "C1", "--questioned", federalist[-1]),
        ("population", "add", "demo", SHIPPED_POPULATION, "--description", "demo texts"),
        ("case", "validate", "C1", "--population", "demo", "--name", "M1"),
        ("case", "verify", "C1", "--model", "M1"),
    ]
    for step in steps:
        done = run("--project", project, *step, timeout=600)
        assert done.returncode == 0, (step, done.stderr)
    with sqlite3.connect(f"file:{project}?mode=ro", uri=True) as db:
        (stored,) = db.execute("SELECT record_json FROM validation_records").fetchone()
    stored_record = json.loads(stored)
    assert range_problem(stored_record) is None and sums_problem(stored_record) is None
