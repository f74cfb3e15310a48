"""The one population reader (``store/population_folder.read_population``): a PAN split by the
authors its provenance names, never a problem folder as an author; what names no author is
refused in one line that says how to build a population."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from conftest import corpus_path

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.trials.population import population_from_texts
from taveer_desktop.store.population_folder import read_population
from tests.core.intake.test_near_duplicates import _text


def _pan_split(root: Path, with_cases: bool = True) -> Path:
    """Four authors, each with a Y case (two known, one unknown) and an N case whose unknown is
    the next author's."""
    split = root / "train"
    split.mkdir(parents=True)
    rows, truth = [], []
    authors = [f"site:{n}" for n in range(4)]
    for index, author in enumerate(authors):
        for label, offset in (("Y", 0), ("N", 1)):
            case_id = f"EN{2 * index + (label == 'N') + 1:03d}"
            folder = split / case_id
            folder.mkdir()
            for k in (1, 2):
                (folder / f"known0{k}.txt").write_text(_text(100 * index + 10 * offset + k))
            other = authors[(index + offset) % len(authors)]
            (folder / "unknown.txt").write_text(_text(1000 * index + 7 * offset))
            rows.append({"id": case_id, "known_author": author, "unknown_author": other})
            truth.append(f"{case_id} {label}")
    (split / "truth.txt").write_text("\n".join(truth) + "\n")
    if with_cases:
        with (root / "cases.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, ["id", "known_author", "unknown_author"])
            writer.writeheader()
            writer.writerows(rows)
    return split


def test_a_pan_split_is_read_by_its_authors_not_its_problem_folders(tmp_path: Path) -> None:
    files = read_population(_pan_split(tmp_path))
    assert sorted(files.documents) == ["site:0", "site:1", "site:2", "site:3"]
    # each author: 4 known texts and 2 unknown texts (their own Y one, the one given to an N)
    assert {len(docs) for docs in files.documents.values()} == {6}
    assert "EN001/known01.txt" in {d.file_name for d in files.documents["site:0"]}
    population = population_from_texts(files.texts(), "p", str(tmp_path))
    assert len(population.authors) == 4


def test_what_names_no_author_is_refused_saying_how_to_build_a_population(tmp_path) -> None:
    split = _pan_split(tmp_path, with_cases=False)
    with pytest.raises(InputError) as refused:
        read_population(split)
    message = str(refused.value)
    assert "problem folders are cases, not authors" in message
    assert "one sub-folder per author" in message and "\n" not in message
    (split / "truth.txt").unlink()  # problem folders without a truth file: still PAN
    with pytest.raises(InputError, match="cases, not authors"):
        read_population(split)
    with pytest.raises(InputError, match=r"holding the splits train; give one split"):
        read_population(tmp_path)


def test_the_shared_corpus_reads_its_68_authors_in_both_layouts() -> None:
    folder = read_population(corpus_path("stackexchange", "train"))
    jsonl = read_population(corpus_path("stackexchange-jsonl", "train"))
    assert len(folder.documents) == len(jsonl.documents) == 68
    assert set(folder.documents) == set(jsonl.documents)
    assert all(":" in author for author in folder.documents)  # SITE:ID, never EN001


def test_a_jsonl_split_without_authors_is_refused(tmp_path: Path) -> None:
    source = corpus_path("stackexchange-jsonl", "train")
    split = tmp_path / "train"
    split.mkdir()
    shutil.copy(source / "pairs.jsonl", split / "pairs.jsonl")
    lines = (source / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    stripped = [{k: v for k, v in json.loads(line).items() if k != "authors"} for line in lines]
    (split / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in stripped) + "\n")
    with pytest.raises(InputError, match="its texts have no authors; build a population"):
        read_population(split)
