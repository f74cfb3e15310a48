"""The one-line corpus description and the trained model's name, without Qt."""

from __future__ import annotations

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.model_names import checked_model_name, model_file_name
from taveer_desktop.core.intake.corpus_description import describe_corpus
from tests.core.intake.test_corpus import TEXT_A, jsonl_corpus, simple_folder


def test_a_folder_corpus_is_described_with_its_truth(tmp_path):
    assert describe_corpus(simple_folder(tmp_path)) == (
        "PAN 2013–2015 problem folders: 2 cases (1 same author, 1 different)"
    )


def test_a_pairs_corpus_is_described_with_its_truth(tmp_path):
    records = [{"id": f"p{i}", "pair": [TEXT_A, TEXT_A]} for i in range(3)]
    truth = [{"id": "p0", "same": True}, {"id": "p1", "same": False}, {"id": "p2", "same": True}]
    root = jsonl_corpus(tmp_path / "pairs", records, truth)
    assert describe_corpus(root) == "PAN pairs.jsonl: 3 cases (2 same author, 1 different)"


def test_a_corpus_without_truth_cannot_be_used(tmp_path):
    text = describe_corpus(simple_folder(tmp_path, truth=None))
    assert text == "PAN 2013–2015 problem folders, 2 cases, but only 0 have a truth: cannot be used"


def test_a_folder_that_is_not_a_corpus_says_why(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here", encoding="utf-8")
    text = describe_corpus(tmp_path)
    assert text.startswith("Cannot use this folder: ")
    assert "not a PAN corpus" in text
    assert describe_corpus(tmp_path / "missing").startswith("Cannot use this folder: ")


def test_a_model_name_loses_its_blanks_and_cannot_be_empty():
    assert checked_model_name("  Essays 2024 \n") == "Essays 2024"
    with pytest.raises(InputError, match="needs a name"):
        checked_model_name(" \t ")


@pytest.mark.parametrize(
    ("name", "file_name"),
    [
        ("Essays 2024", "Essays-2024.json"),
        ("a/b\\c:d", "a-b-c-d.json"),
        ("..hidden..", "hidden.json"),
        ("Käse_v1.2", "Käse_v1.2.json"),
        ("///", "model.json"),
    ],
)
def test_a_model_file_name_is_safe(name, file_name):
    assert model_file_name(name) == file_name
