"""Same-author trials kept apart in time where the population's documents are dated
(``core/trials/document_dates.py``, ``core/trials/trial_dates.py``): the dates read and refused,
the intervals a day, month or year names, each same-author trial's known texts taken at least the
gap before (or after) its questioned text, the record's ``construction.dates`` block, only trials
apart in time counted for casework, and an undated population's trials exactly as before."""

from __future__ import annotations

import datetime

import numpy as np
import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.trials.document_dates import FROM_METADATA, interval
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.core.trials.topic_groups import FROM_TOPICS_FILE, topic_groups
from taveer_desktop.core.trials.trial_dates import (
    MIN_GAP_DAYS,
    NO_DATES,
    apart_side,
    dated_documents,
    keep_apart,
)
from taveer_desktop.core.validation.record_json import part_json
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.core.validation.validation import ValidationSettings, build_trials, validate
from taveer_desktop.presentation.trial_construction_text import (
    case_topic_sentence,
    matched_shortfalls,
    time_sentence,
)
from taveer_desktop.store.population_folder import read_population
from tests.cli.test_cli import assert_bad_input, run
from tests.core.trials.dated_population import demo_dates, write_dates
from tests.core.validation_fixtures import make_demo_population


def _day(text: str) -> int:
    return datetime.date.fromisoformat(text).toordinal()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_dates(make_demo_population(tmp_path_factory.mktemp("dated")))


def _population(folder):
    files = read_population(folder)
    return population_from_texts(files.texts(), "demo", str(folder), dates=files.dates)


@pytest.fixture(scope="module")
def population(folder):
    return _population(folder)


SETTINGS = ValidationSettings(1000, 2000, folds=3, seed=1, bootstrap=10)


def test_a_day_a_month_and_a_year_name_their_days():
    assert interval("1787-11-23") == (_day("1787-11-23"), _day("1787-11-23"))
    assert interval("1847-12") == (_day("1847-12-01"), _day("1847-12-31"))
    assert interval("1788-02") == (_day("1788-02-01"), _day("1788-02-29"))  # a leap year
    assert interval("1848") == (_day("1848-01-01"), _day("1848-12-31"))
    for bad in ("23/11/1787", "1788-02-30", "1847-13", "0000", "1847-1", "1847-12-01T10:00", ""):
        assert interval(bad) is None, bad


def test_every_dated_document_keeps_its_date_and_the_rest_are_undated(population):
    table = demo_dates()
    assert population.dates is not None and population.dates.source == FROM_METADATA
    for author, documents in population.documents.items():
        for document in documents:
            expected = table.get(document.name) or None
            assert population.dates.of.get((author, document.text_sha256)) == expected
    found = dated_documents(population)
    assert found is not None and 0 < found.dated < found.documents  # mixed: some undated


def _small_folder(root, dates: list[str]):
    """Four authors of two short documents each, and a ``topics.csv`` dating them."""
    rows = ["author,document,date"]
    for a in range(4):
        for d in range(2):
            path = root / f"author{a}" / f"doc{d}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"Author {a} wrote document {d}. It has two sentences.", "utf-8")
            rows.append(f"author{a},doc{d}.txt,{dates[(2 * a + d) % len(dates)]}")
    (root / "topics.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def test_a_bad_date_refuses_the_population_naming_the_file_row_and_value(tmp_path):
    folder = _small_folder(tmp_path / "p", ["1787-11-23", "", "1847-12", "30/11/1787"])
    with pytest.raises(InputError) as refused:
        read_population(folder)
    message = str(refused.value)
    assert "topics.csv" in message and "row 5" in message and "'30/11/1787'" in message
    line = assert_bad_input(
        run("validate", "--population", folder, "-o", tmp_path / "m.json"), "topics.csv"
    )
    assert "row 5" in line and "30/11/1787" in line and not (tmp_path / "m.json").exists()


def test_a_row_naming_no_document_is_noted_and_a_dates_only_file_names_no_topics(tmp_path):
    folder = _small_folder(tmp_path / "p", ["1787-11-23", "", "1848"])
    with (folder / "topics.csv").open("a", encoding="utf-8") as handle:
        handle.write("Nobody,federalist_99.txt,1788-01-01\n")
    files = read_population(folder)
    assert any("Nobody/federalist_99.txt" in note for note in files.notes)
    assert sorted(files.dates.of.values()) == ["1787-11-23"] * 3 + ["1848"] * 2
    population = population_from_texts(files.texts(), "demo", str(folder), dates=files.dates)
    assert population.dates == files.dates
    assert topic_groups(population).source != FROM_TOPICS_FILE  # no topic column: the texts


def test_known_texts_are_taken_the_gap_before_or_else_after_the_questioned_one():
    days = [interval(v) for v in ("1787-10-01", "1787-11-20", "1787-12-30", "1788-03")] + [None]
    everything = lambda chosen: True  # noqa: E731
    # questioned 1787-12-30: the two earlier ones are a month or more before it
    assert keep_apart([4, 1, 0, 3], days, 2, everything) == [1, 0]
    assert apart_side([1, 0], days, 2) == -1
    # questioned 1787-10-01: nothing before; March 1788 (and 30 Dec) after it, in drawn order
    assert keep_apart([3, 2, 1], days, 0, everything) == [3, 2, 1]
    assert apart_side([3, 2], days, 0) == 1
    # too short on the earlier side: the later side is taken
    assert keep_apart([0, 1, 3], days, 2, lambda chosen: 3 in chosen) == [3]
    assert keep_apart([0, 1, 3], days, 2, lambda chosen: False) is None
    # an undated questioned text, or known texts on both sides, or closer than the gap: not apart
    assert keep_apart([0, 1], days, 4, everything) is None
    assert apart_side([0, 3], days, 1) == 0 and apart_side([4], days, 0) == 0
    near = [interval("1787-11-20"), interval("1787-12-01")]
    assert apart_side([0], near, 1) == 0  # 11 days apart, fewer than the gap


def test_same_author_trials_are_apart_in_time_where_they_can_be(population):
    trials = build_trials(population, SETTINGS)
    found = trials.dated
    assert found is not None
    same = np.flatnonzero(trials.truth)
    apart = [i for i in same if trials.time_side[i]]
    assert apart and len(apart) < len(same)
    assert not trials.time_side[~trials.truth].any()  # different-author rows are not marked
    for i in same:  # the mark says the truth about the documents the known text was cut from
        author = trials.known_author[i]
        q = int(trials.questioned_document[i].split("/")[1])
        q_days = found.of[author][q]
        index = {id(d.coded): j for j, d in enumerate(population.documents[author])}
        known = [index[id(doc)] for doc, _a, _b in trials.known_cuts[i]]
        sides = set()
        for j in known:
            k = found.of[author][j]
            if q_days is None or k is None:
                sides.add(0)
            elif q_days[0] - k[1] >= MIN_GAP_DAYS:
                sides.add(-1)
            elif k[0] - q_days[1] >= MIN_GAP_DAYS:
                sides.add(1)
            else:
                sides.add(0)
        assert trials.time_side[i] == (sides.pop() if len(sides) == 1 else 0)


@pytest.mark.slow
def test_an_undated_population_or_one_of_a_single_date_draws_exactly_as_before(folder, population):
    undated = population_from_texts(read_population(folder).texts(), "demo", str(folder))
    before = build_trials(undated, SETTINGS)
    assert undated.dates is None and before.dated is None and not before.time_side.any()
    one_day = {key: "1800-01-01" for key in population.dates.of}
    same_day = population_from_texts(
        read_population(folder).texts(),
        "demo",
        str(folder),
        dates=type(population.dates)(population.dates.source, one_day),
    )
    after = build_trials(same_day, SETTINGS)
    assert after.questioned_document == before.questioned_document
    assert np.array_equal(after.distances, before.distances, equal_nan=True)
    assert not after.time_side.any()


def test_the_record_says_what_was_done_about_time_and_counts_only_trials_apart(population):
    result = validate(population, SETTINGS)
    construction = result.record["protocol"]["trials"]["construction"]
    block = construction["dates"]
    n_same = result.record["protocol"]["trials_same"]
    assert block["used"] is True and block["source"] == FROM_METADATA
    assert block["gap_days"] == MIN_GAP_DAYS and block["same_author_trials"] == n_same
    assert 0 < block["apart_same"] < n_same
    assert block["apart_share_same"] == round(block["apart_same"] / n_same, 4)
    assert 0 <= block["questioned_later"] <= block["apart_same"]
    assert block["dated_documents"] < block["documents"] == population.n_documents
    casework = result.record["casework"]
    assert casework["trials_same"] <= block["apart_same"]  # distinct trials apart, no others
    assert any("same-author trials apart in time" in r for r in casework["reasons"])
    record = R(result.record)
    assert record.protocol.construction.dates.apart_same == block["apart_same"]
    assert part_json(record.protocol.construction) == construction  # as validate --json prints
    sentence = time_sentence(record)
    assert sentence.startswith("Apart in time.") and f"{MIN_GAP_DAYS} days" in sentence
    assert "days apart (the population's documents were dated)" in case_topic_sentence(record)
    assert any("apart in time" in r for r in matched_shortfalls(record, 10_000))


def test_an_undated_record_says_so_and_adds_no_sentence(folder):
    undated = population_from_texts(read_population(folder).texts(), "demo", str(folder))
    trials = build_trials(undated, SETTINGS)
    from taveer_desktop.core.validation.validation_record import protocol_of

    block = protocol_of(SETTINGS, trials)["trials"]["construction"]["dates"]
    assert block == {"used": False, "built": NO_DATES}
    record = R({"protocol": {"trials": {"construction": {"topic": None, "dates": block}}}})
    assert time_sentence(record) is None
    old = R({"protocol": {"trials": {"construction": {"topic": None, "dates": "not used"}}}})
    assert old.protocol.construction.dates == "not used" and time_sentence(old) is None


def test_the_shortfall_names_both_conditions_where_topic_was_declared_and_documents_dated():
    dates = {"used": True, "gap_days": MIN_GAP_DAYS, "apart_share_same": 0.5}
    record = R(
        {
            "protocol": {
                "trials": {
                    "construction": {
                        "topic": "same",
                        "same_author": "same",
                        "different_author": "same",
                        "dates": dates,
                    }
                }
            },
            "casework": {"trials_same": 50, "trials_different": 150, "too_small": True},
        }
    )
    (reason,) = matched_shortfalls(record, 100)
    assert reason.startswith(
        "50 distinct same-author trials in the declared topic relation and apart in time (fewer "
        "than 100"
    )
    assert case_topic_sentence(record).endswith(
        "50 % of its same-author trials kept known and questioned texts at least 30 days apart "
        "(the population's documents were dated)."
    )


def test_a_row_may_give_only_a_date_and_the_topic_comes_from_the_authors_row(tmp_path):
    folder = _small_folder(tmp_path / "p", ["1787-11-23", "1848"])
    rows = (folder / "topics.csv").read_text(encoding="utf-8").splitlines()
    lines = ["author,document,topic,date"]
    lines += [f"{r.split(',')[0]},{r.split(',')[1]},,{r.split(',')[2]}" for r in rows[1:]]
    lines += [f"author{a},,{('river', 'harbour')[a % 2]}," for a in range(4)]
    (folder / "topics.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = read_population(folder)
    population = population_from_texts(files.texts(), "demo", str(folder), dates=files.dates)
    groups = topic_groups(population)
    assert groups.source == FROM_TOPICS_FILE and groups.count == 2
    assert len(population.dates.of) == 8


def test_a_pan_split_is_dated_by_the_topics_csv_in_its_folder(tmp_path):
    from tests.store.test_population_reader import _pan_split

    split = _pan_split(tmp_path)
    (split / "topics.csv").write_text(
        "author,document,date\nsite:0,EN001/known01.txt,2015-03\nsite:1,,2016\n", encoding="utf-8"
    )
    files = read_population(split)
    by_name = {
        (author, name): files.dates.of.get((author, sha))
        for author, documents in files.documents.items()
        for name, sha in ((d.file_name, d.text_sha256) for d in documents)
    }
    assert by_name[("site:0", "EN001/known01.txt")] == "2015-03"
    assert by_name[("site:0", "EN001/known02.txt")] is None
    assert {v for (a, _n), v in by_name.items() if a == "site:1"} == {"2016"}
