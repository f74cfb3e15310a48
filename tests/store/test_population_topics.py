"""Store version 8: a stored population keeps the topic labels its files gave (a PAN split's
``cases.csv`` group column, a folder's ``topics.csv``), and a validation from the project groups
its trials by them — not by groups recomputed from the texts (``store/population_topics.py``)."""

from __future__ import annotations

import csv
import shutil
import sqlite3
from pathlib import Path

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.trials.topic_groups import (
    FROM_CASES_FILE,
    FROM_TEXTS,
    FROM_TOPICS_FILE,
    topic_groups,
)
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials
from taveer_desktop.store import ProjectStore
from taveer_desktop.store.population_folder import read_population
from taveer_desktop.store.schema import SCHEMA_VERSION
from tests.core.validation_fixtures import make_demo_population
from tests.store.test_population_reader import _pan_split
from tests.store.test_reconciliation import _forge, _problems

FIXTURES = Path(__file__).parent / "fixtures"
DESCRIPTION = "a population for the topic labels' tests"


def _with_groups(root: Path) -> Path:
    """A PAN split whose cases file names each case's group (as the shared Stack Exchange
    corpus does: ``group``, the site)."""
    split = _pan_split(root)
    with (root / "cases.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    with (root / "cases.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["id", "group", "known_author", "unknown_author"])
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "group": ("cooking", "music")[int(row["id"][2:]) % 2]})
    return split


def _by_text(population, groups) -> dict[tuple[str, str], str]:
    """Each document's group by (author, text SHA-256), whichever way it was read."""
    return {
        (author, doc.text_sha256): groups.group(author, i)
        for author, docs in population.documents.items()
        for i, doc in enumerate(docs)
    }


@pytest.fixture(scope="module")
def topics_folder(tmp_path_factory):
    """The demo population with a ``topics.csv``: each author's documents alternate between
    two topics (so no grouping of the texts could give these groups by chance)."""
    folder = make_demo_population(tmp_path_factory.mktemp("labelled"))
    rows = ["author,document,topic"]
    for author in sorted(p.name for p in folder.iterdir() if p.is_dir()):
        for i, path in enumerate(sorted((folder / author).iterdir())):
            rows.append(f"{author},{path.name},{('river', 'harbour')[i % 2]}")
    (folder / "topics.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_the_groups_of_a_cases_file_are_kept_with_the_stored_population(tmp_path):
    split = _with_groups(tmp_path / "corpus")
    from_folder = population_from_texts(read_population(split).texts(), "p", str(split))
    expected = topic_groups(from_folder)
    assert expected.source == FROM_CASES_FILE and expected.count == 2
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        stored, _warnings = store.populations.add_folder("sites", split, DESCRIPTION)
    shutil.rmtree(tmp_path / "corpus")  # the store keeps no folder: the labels must be its own
    with ProjectStore.open(path) as store:
        loaded = store.populations.load(stored.id)
        groups = topic_groups(loaded)
        entry = [e for e in store.audit.entries() if e.action == "population_topics_added"][-1]
    assert groups.source == FROM_CASES_FILE and groups.count == 2
    assert _by_text(loaded, groups) == _by_text(from_folder, expected)
    # and the trials of a validation from the project are grouped by them
    settings = ValidationSettings(1000, 2000, folds=2, seed=1, bootstrap=10, topic="same")
    trials = build_trials(loaded, settings)
    assert trials.groups is not None and trials.groups.source == FROM_CASES_FILE
    assert _by_text(loaded, trials.groups) == _by_text(from_folder, expected)
    assert entry.details["population_id"] == stored.id and entry.details["topics"] == 2
    assert len(entry.details["row_sha256"]) == 64  # sealed like every record
    assert _problems(path) == []


@pytest.mark.slow
def test_a_validation_from_the_project_uses_the_groups_of_a_topics_file(tmp_path, topics_folder):
    from_folder = population_from_texts(
        read_population(topics_folder).texts(), "demo", str(topics_folder)
    )
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        stored, _warnings = store.populations.add_folder("demo", topics_folder, DESCRIPTION)
        loaded = store.populations.load(stored.id)
    settings = ValidationSettings(3000, 9000, folds=2, seed=4, bootstrap=30, topic="same")
    trials = build_trials(loaded, settings)
    assert trials.groups is not None and trials.groups.source == FROM_TOPICS_FILE
    assert _by_text(loaded, trials.groups) == _by_text(from_folder, topic_groups(from_folder))
    assert {trials.groups.group(a, 0) for a in loaded.authors} == {"river"}


def test_a_population_whose_files_name_no_topics_stores_none(tmp_path):
    split = _pan_split(tmp_path / "corpus")  # its cases file has no group column
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        stored, _warnings = store.populations.add_folder("plain", split, DESCRIPTION)
        loaded = store.populations.load(stored.id)
    assert loaded.labels is None and _stored_labels(path) == 0
    assert topic_groups(loaded).source == FROM_TEXTS


def _stored_labels(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM population_topics").fetchone()[0])


def test_stored_labels_cannot_be_changed_and_a_forgery_is_found(tmp_path):
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        store.populations.add_folder("sites", _with_groups(tmp_path / "corpus"), DESCRIPTION)
    for statement in (
        "UPDATE population_topics SET source = 'x'",
        "DELETE FROM population_topics",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="topic labels of a population cannot"):
            _forge(path, statement)
    _forge(
        path,
        "UPDATE population_topics SET labels_json = replace(labels_json, 'cooking', 'music')",
        unguard="population_topics_immutable",
    )
    assert any(
        p.startswith("the topic labels 1: differs from its seal") for p in _problems(path)
    ), _problems(path)


def test_a_version_7_store_migrates_and_its_population_groups_its_texts(tmp_path):
    path = tmp_path / "v7.taveer"
    shutil.copyfile(FIXTURES / "store_v7.taveer", path)
    with ProjectStore.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 8
        assert store.last_integrity_report.ok, store.last_integrity_report.problems
        (population,) = store.populations.list_all()
        assert store.populations.load(population.id).labels is None  # added before version 8
        assert store.check_integrity().ok
    assert _stored_labels(path) == 0


def test_a_topics_file_that_leaves_a_document_out_refuses_the_population(tmp_path):
    split = _pan_split(tmp_path / "corpus")
    (split / "topics.csv").write_text("author,document,topic\nsite:0,,cooking\n", "utf-8")
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        with pytest.raises(InputError, match="names no topic for site:1/") as refused:
            store.populations.add_folder("sites", split, DESCRIPTION)
        assert "topics.csv" in str(refused.value)
        assert store.populations.list_all() == []  # nothing half-written
    assert _stored_labels(path) == 0
