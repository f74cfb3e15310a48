"""Trials built like the case in topic (``core/trials/trial_topics.py``,
``core/trials/topic_groups.py``): the groups from labels or from the texts, each declared
relation applied to both kinds of trial, the matched share in the record, and only matched trials
counted for casework."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import corpus_path

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.trials.population import population_from_corpus, population_from_texts
from taveer_desktop.core.trials.topic_groups import (
    FROM_CASES_FILE,
    FROM_TEXTS,
    FROM_TOPICS_FILE,
    text_groups,
    topic_groups,
)
from taveer_desktop.core.trials.trial_topics import TAKES
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials, validate
from taveer_desktop.presentation.trial_construction_text import (
    case_topic_sentence,
    topic_sentence,
)
from taveer_desktop.presentation.validation_text import casework_shortfalls
from taveer_desktop.store.population_folder import read_population_folder
from tests.cli.test_cli import assert_bad_input, run
from tests.core.validation_fixtures import make_demo_population

SPLIT = {"Hamilton", "Madison"}  # authors whose documents alternate between two topics


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = make_demo_population(tmp_path_factory.mktemp("topics"))
    rows = ["author,document,topic"]
    for author in sorted(p.name for p in folder.iterdir() if p.is_dir()):
        if author in SPLIT:
            for i, path in enumerate(sorted((folder / author).iterdir())):
                rows.append(f"{author},{path.name},{('defence', 'commerce')[i % 2]}")
        else:
            kind = "politics" if author == "Jay" else "novel"
            rows.append(f"{author},,{kind}")
    (folder / "topics.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def population(folder):
    files = read_population_folder(folder)
    return population_from_texts(files.texts(), "demo", str(folder), "Brontës and Federalist")


def _settings(topic: str | None) -> ValidationSettings:
    return ValidationSettings(3000, 9000, folds=2, seed=4, bootstrap=30, topic=topic)


def _trial_groups(population, trials, groups, row):
    """The questioned document's group and the known text's groups of one trial."""
    author, index = trials.questioned_document[row].rsplit("/", 1)
    known_author = trials.known_author[row]
    coded = [d.coded for d in population.documents[known_author]]
    known = {
        groups.group(known_author, next(i for i, c in enumerate(coded) if c is cut[0]))
        for cut in trials.known_cuts[row]
    }
    return groups.group(author, int(index)), known


def test_groups_come_from_the_topics_file(population):
    groups = topic_groups(population)
    assert groups.source == FROM_TOPICS_FILE
    assert groups.count == 4  # novel, politics, defence, commerce
    assert groups.group("Emily_Bronte", 0) == "novel"
    assert {groups.group("Hamilton", i) for i in range(2)} == {"defence", "commerce"}


@pytest.mark.slow
def test_a_topics_file_that_leaves_a_document_out_is_refused(population, folder, tmp_path):
    (tmp_path / "topics.csv").write_text("author,document,topic\nJay,,politics\n", "utf-8")
    moved = population_from_texts(
        {a: [(d.name, d.coded.text) for d in docs] for a, docs in population.documents.items()},
        "demo",
        str(tmp_path),
    )
    with pytest.raises(InputError, match="names no topic for") as raised:
        topic_groups(moved)
    assert "topics.csv" in str(raised.value)


@pytest.mark.parametrize("topic", ["same", "different", "unknown"])
def test_every_matched_trial_stands_in_the_relation_its_kind_takes(population, topic):
    trials = build_trials(population, _settings(topic))
    groups = trials.groups
    assert groups is not None and trials.topic == topic
    same_takes, different_takes = TAKES[topic]
    for row in range(len(trials)):
        questioned, known = _trial_groups(population, trials, groups, row)
        takes = same_takes if trials.truth[row] else different_takes
        holds = (questioned in known) == (takes == "same")
        assert trials.matched[row] == holds, (row, questioned, known)
    same = trials.truth
    if same_takes == "different":  # only the authors whose documents differ in topic can
        authors = {trials.known_author[r] for r in np.flatnonzero(same & trials.matched)}
        assert authors and authors <= SPLIT
    else:
        assert trials.matched[same].all()
    assert trials.matched[~same].any()


def test_no_declared_topic_draws_the_trials_exactly_as_before(population):
    plain = build_trials(population, _settings(None))
    assert plain.groups is None and not plain.matched.any()
    again = build_trials(population, ValidationSettings(3000, 9000, folds=2, seed=4, bootstrap=30))
    np.testing.assert_array_equal(plain.distances, again.distances)
    assert plain.questioned_document == again.questioned_document


@pytest.mark.slow
def test_the_record_states_the_construction_and_casework_counts_matched_trials(population):
    result = validate(population, _settings("unknown"))
    assert result.record["protocol"]["repeats_asked"] == result.record["protocol"]["repeats"] == 3
    block = result.record["protocol"]["trials"]["construction"]
    assert block["topic"] == "unknown"
    assert (block["same_author"], block["different_author"]) == ("different", "same")
    assert block["groups"] == {"source": FROM_TOPICS_FILE, "count": 4}
    matched = [t["matched"] for t in result.record["trials"]]
    assert block["matched_share"] == pytest.approx(np.mean(matched), abs=1e-4)
    casework = result.record["casework"]
    assert casework["counted"] == "trials in the declared topic relation"
    rows = np.flatnonzero(result.trials.truth & result.trials.matched)
    keys = {(result.trials.known_author[r], result.trials.questioned_document[r]) for r in rows}
    assert casework["trials_same"] == len(keys)
    assert any("declared topic relation" in r for r in casework_shortfalls(R(result.record)))
    sentence = topic_sentence(R(result.record))
    assert sentence.startswith("Topic like the case.") and "of unknown topic relation" in sentence
    assert "topics.csv" in sentence
    assert "stood in that relation" in case_topic_sentence(R(result.record))
    # the model carries the same block for the case report
    summary = result.model.extra["validation"]
    assert summary["protocol"]["trials"]["construction"] == block
    assert json.dumps(block)  # plain JSON


def test_a_record_without_the_block_reads_as_the_old_construction():
    assert topic_sentence(R({"protocol": {}})).startswith("Topic not declared.")
    assert "declared no topic relation" in case_topic_sentence(R({}))
    assert casework_shortfalls(R({"population": {"authors": 30}, "protocol": {}})) != []


def test_texts_on_two_subjects_fall_into_two_groups():
    rng = np.random.default_rng(1)
    subjects = {
        "kitchen": "butter flour oven recipe dough sugar bake whisk pastry onion garlic simmer",
        "football": "goal striker referee penalty midfield league stadium keeper tackle match",
    }
    texts, truth = [], []
    for label, words in subjects.items():
        vocabulary = words.split()
        for _ in range(15):
            chosen = rng.choice(vocabulary, size=60)
            texts.append(" ".join(f"The {w} was there and it is what we had." for w in chosen))
            truth.append(label)
    found = text_groups(texts)
    assert len(set(found.tolist())) == 2
    for label in subjects:
        assert len({int(g) for g, t in zip(found, truth, strict=True) if t == label}) == 1


def test_a_bad_topic_is_one_line_exit_2(folder, tmp_path):
    line = assert_bad_input(
        run("validate", "--population", folder, "-o", tmp_path / "m.json", "--topic", "sideways"),
        "--topic",
    )
    assert "same, different or unknown" in line
    assert not (tmp_path / "m.json").exists()


@pytest.mark.slow
def test_the_shared_stack_exchange_sites_are_the_groups_and_the_texts_find_them():
    population = population_from_corpus(open_corpus(corpus_path("stackexchange", "train")))
    groups = topic_groups(population)
    assert groups.source == FROM_CASES_FILE and groups.count == 6
    keys = sorted(groups.of)
    sites = [groups.of[k] for k in keys]
    found = text_groups([population.documents[a][i].coded.text for a, i in keys])
    assert _adjusted_rand(sites, found.tolist()) >= 0.7  # measured 0.81 (docs/validation.md)
    assert FROM_TEXTS.startswith("texts:")


def _adjusted_rand(a: list, b: list) -> float:
    from math import comb

    _, x = np.unique(np.array(a, dtype=object).astype(str), return_inverse=True)
    _, y = np.unique(np.array(b), return_inverse=True)
    table = np.zeros((x.max() + 1, y.max() + 1), dtype=np.int64)
    np.add.at(table, (x, y), 1)
    pairs = sum(comb(int(v), 2) for v in table.ravel())
    rows = sum(comb(int(v), 2) for v in table.sum(axis=1))
    cols = sum(comb(int(v), 2) for v in table.sum(axis=0))
    expected = rows * cols / comb(len(a), 2)
    return (pairs - expected) / ((rows + cols) / 2 - expected)


@pytest.mark.parametrize(
    ("authors", "asked", "used"),
    [(6, 3, 3), (19, 3, 3), (20, 3, 10), (40, 3, 5), (67, 3, 3), (200, 3, 3), (20, 12, 12),
     (25, 1, 8)],
)  # fmt: skip
def test_a_population_of_casework_size_gets_repeats_enough_for_its_size(authors, asked, used):
    """At least 200 author-repeats from 20 authors up (docs/validation.md, "A decision no seed
    can flip"); smaller populations are too small for casework and keep what was asked."""
    settings = ValidationSettings(repeats=asked)
    assert settings.repeats_for(authors) == used


@pytest.mark.parametrize(("max_trials", "used"), [(40, 1), (80, 2), (200, 5), (400, 10)])
def test_repeats_are_never_raised_past_what_the_trial_cap_can_fill(max_trials, used):
    """A repeat keeps at least MIN_TRIALS_PER_CLASS trials of each class: 40 trials in all stay
    one repeat (ten repeats of two pairs left folds with one class, and calibration failed)."""
    settings = ValidationSettings(repeats=1, max_trials=max_trials)
    assert settings.repeats_for(20) == used
