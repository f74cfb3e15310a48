"""Store version 9: a stored population keeps the dates its ``topics.csv`` gave its documents
(``store/population_dates.py``), so a validation from the project keeps its same-author trials
apart in time as one from the folder does; the dates are sealed, audited, cannot be changed, and
an older store migrates with none."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import DEMO_TEXTS

from taveer_desktop.core.trials.document_dates import FROM_METADATA
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials
from taveer_desktop.store import ProjectStore
from taveer_desktop.store.errors import DamagedStore
from taveer_desktop.store.population_folder import read_population
from taveer_desktop.store.schema import SCHEMA_VERSION
from tests.cli.test_cli import assert_bad_input, run
from tests.core.trials.dated_population import make_dated_demo_population
from tests.store.test_reconciliation import _forge, _problems

FIXTURES = Path(__file__).parent / "fixtures"
DESCRIPTION = "a population for the dates' tests"
SETTINGS = ValidationSettings(1000, 2000, folds=3, seed=2, bootstrap=10)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The dated demo population added to a project (its folder removed afterwards) and the
    same population read from its folder."""
    root = tmp_path_factory.mktemp("dated")
    folder = make_dated_demo_population(root)
    files = read_population(folder)
    from_folder = population_from_texts(files.texts(), "demo", str(folder), dates=files.dates)
    path = root / "p.taveer"
    with ProjectStore.create(path) as store:
        added, _warnings = store.populations.add_folder("dated", folder, DESCRIPTION)
    shutil.rmtree(folder)  # the store keeps no folder: the dates must be its own
    return path, added.id, from_folder


@pytest.mark.slow
def test_the_dates_are_kept_with_the_stored_population_and_its_trials_are_the_same(stored):
    path, population_id, from_folder = stored
    with ProjectStore.open(path) as store:
        loaded = store.populations.load(population_id)
        entry = [e for e in store.audit.entries() if e.action == "population_dates_added"][-1]
    assert loaded.dates is not None and loaded.dates.source == FROM_METADATA
    assert dict(loaded.dates.of) == dict(from_folder.dates.of)
    assert entry.details["population_id"] == population_id
    assert entry.details["documents"] == len(from_folder.dates.of)
    assert len(entry.details["row_sha256"]) == 64  # sealed like every record
    project, folder = build_trials(loaded, SETTINGS), build_trials(from_folder, SETTINGS)
    assert project.questioned_document == folder.questioned_document
    assert np.array_equal(project.time_side, folder.time_side) and project.time_side.any()
    assert _problems(path) == []


def _small_dated_folder(root: Path) -> Path:
    """Four authors of two public-domain texts each (chapters and papers), dated."""
    if not DEMO_TEXTS.is_dir():
        pytest.skip(f"the shared demo texts are absent ({DEMO_TEXTS})")
    picks = {
        "Anne": ("brontes/Anne_Bronte_Agnes_Grey_ch01.txt", "1847-12"),
        "Anne2": ("brontes/Anne_Bronte_Tenant_of_Wildfell_Hall_ch01.txt", "1848-06"),
        "Charlotte": ("brontes/Charlotte_Bronte_Jane_Eyre_ch01.txt", "1847-10"),
        "Madison": ("federalist/federalist_10.txt", "1787-11-23"),
    }
    rows = ["author,document,date"]
    for author, (name, date) in picks.items():
        text = (DEMO_TEXTS / name).read_text(encoding="utf-8")
        half = len(text) // 2
        for i, part in enumerate((text[:half], text[half:])):
            (root / author).mkdir(parents=True, exist_ok=True)
            (root / author / f"part{i}.txt").write_text(part, encoding="utf-8")
            rows.append(f"{author},part{i}.txt,{date}")
    (root / "topics.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def test_stored_dates_cannot_be_changed_and_a_forgery_is_found(tmp_path):
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        store.populations.add_folder("small", _small_dated_folder(tmp_path / "f"), DESCRIPTION)
    for statement in ("UPDATE population_dates SET source = 'x'", "DELETE FROM population_dates"):
        with pytest.raises(sqlite3.IntegrityError, match="document dates of a population cannot"):
            _forge(path, statement)
    _forge(
        path,
        "UPDATE population_dates SET dates_json = replace(dates_json, '1787-11-23', '1786-11-23')",
        unguard="population_dates_immutable",
    )
    assert any(p.startswith("the document dates 1: differs from its seal") for p in _problems(path))
    _forge(
        path,
        "UPDATE population_dates SET dates_json = replace(dates_json, '1786-11-23', '1786-11-31')",
        unguard="population_dates_immutable",
    )
    with ProjectStore.open(path, verify=False) as store:
        (population,) = store.populations.list_all()
        with pytest.raises(DamagedStore, match="document dates of population"):
            store.populations.load(population.id)


@pytest.mark.slow
def test_a_population_without_dates_stores_none(tmp_path):
    from tests.core.validation_fixtures import make_demo_population

    folder = make_demo_population(tmp_path)
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        store.populations.add_folder("plain", folder, DESCRIPTION)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM population_dates").fetchone()[0] == 0
    with ProjectStore.open(path) as store:
        assert not any(e.action == "population_dates_added" for e in store.audit.entries())


def test_a_version_8_store_migrates_and_its_population_has_no_dates(tmp_path):
    path = tmp_path / "v8.taveer"
    shutil.copyfile(FIXTURES / "store_v8.taveer", path)
    with ProjectStore.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 9
        assert store.last_integrity_report.ok, store.last_integrity_report.problems
        assert store.migration_backup is not None
        (population,) = store.populations.list_all()
        loaded = store.populations.load(population.id)
        assert loaded.dates is None and loaded.labels is not None  # added before version 9
        migrated = [
            e.details["to_version"] for e in store.audit.entries() if e.action == "store_migrated"
        ]
        assert migrated[-1] == SCHEMA_VERSION
        assert store.check_integrity().ok
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM population_dates").fetchone()[0] == 0


@pytest.mark.slow
def test_population_add_says_how_many_documents_are_dated_and_refuses_a_bad_date(tmp_path):
    folder = _small_dated_folder(tmp_path / "f")
    project = tmp_path / "p.taveer"
    result = run(
        "--project", project, "population", "add", "small", folder,
        "--description", DESCRIPTION, "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    added = json.loads(result.stdout)
    assert added["dated_documents"] == 8 and added["author_count"] == 4
    csv_file = folder / "topics.csv"
    csv_file.write_text(csv_file.read_text().replace("1847-10", "1847-10-32"), encoding="utf-8")
    line = assert_bad_input(
        run("--project", project, "population", "add", "bad", folder, "--description", "x"),
        "topics.csv",
    )
    assert "'1847-10-32'" in line and "row " in line
    with ProjectStore.open(project) as store:
        assert [p.name for p in store.populations.list_all()] == ["small"]  # nothing stored
