"""Corpus import: the two PAN layouts, truth, encodings, duplicate ids and streaming."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.corpus import PAN_FOLDER, PAN_JSONL, open_corpus
from taveer_desktop.core.methods.taveer.training import train

TEXT_A = "So that's the way it goes. We did it again, and then we left. Of course it rained."
TEXT_B = "However, nobody came. It was late; they had gone home. Then again, who knows?"


def folder_corpus(root: Path, cases: dict[str, tuple[list[bytes], bytes]], truth: str | None):
    root.mkdir(parents=True)
    for case_id, (known, unknown) in cases.items():
        (root / case_id).mkdir()
        for k, data in enumerate(known, start=1):
            (root / case_id / f"known{k:02d}.txt").write_bytes(data)
        (root / case_id / "unknown.txt").write_bytes(unknown)
    if truth is not None:
        (root / "truth.txt").write_text(truth, encoding="utf-8")
    return root


def jsonl_corpus(root: Path, records: list[dict], truth: list[dict] | None) -> Path:
    root.mkdir(parents=True)
    (root / "pairs.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    if truth is not None:
        (root / "truth.jsonl").write_text(
            "".join(json.dumps(t) + "\n" for t in truth), encoding="utf-8"
        )
    return root


def simple_folder(tmp_path: Path, truth: str | None = "EN001 Y\nEN002 N\n") -> Path:
    a, b = TEXT_A.encode(), TEXT_B.encode()
    return folder_corpus(tmp_path / "corpus", {"EN001": ([a, b], a), "EN002": ([b], a)}, truth)


def test_folder_layout_is_detected_and_truth_parsed(tmp_path):
    corpus = open_corpus(simple_folder(tmp_path))
    assert corpus.layout == PAN_FOLDER
    assert corpus.case_ids == ["EN001", "EN002"]
    assert corpus.truth == {"EN001": True, "EN002": False}
    assert corpus.has_truth
    cases = list(corpus.iter_cases())
    assert [c.case_id for c in cases] == ["EN001", "EN002"]
    assert cases[0].known_texts == (TEXT_A, TEXT_B)  # known01, known02 in order
    assert cases[0].unknown_text == TEXT_A
    assert [c.truth for c in cases] == [True, False]
    assert len(corpus.sha256) == 64


def test_jsonl_layout_is_detected_and_truth_parsed(tmp_path):
    root = jsonl_corpus(
        tmp_path / "pairs",
        [{"id": "p1", "pair": [TEXT_A, TEXT_B]}, {"id": "p2", "pair": [TEXT_B, TEXT_B]}],
        [{"id": "p1", "same": False}, {"id": "p2", "same": True}],
    )
    corpus = open_corpus(root)
    assert corpus.layout == PAN_JSONL
    assert corpus.case_ids == ["p1", "p2"]
    assert corpus.truth == {"p1": False, "p2": True}
    cases = list(corpus.iter_cases())
    assert cases[0].known_texts == (TEXT_A,) and cases[0].unknown_text == TEXT_B
    assert [c.truth for c in cases] == [False, True]


@pytest.mark.parametrize(
    "lines, expected",
    [
        ("EN001 Y\nEN002 N\n", {"EN001": True, "EN002": False}),
        ("EN001 y\r\nEN002 n\r\n", {"EN001": True, "EN002": False}),
        ("\nEN001\tY\n\nEN002  N", {"EN001": True, "EN002": False}),
    ],
)
def test_truth_lines_in_several_spellings(tmp_path, lines, expected):
    assert open_corpus(simple_folder(tmp_path, lines)).truth == expected


@pytest.mark.parametrize("bad", ["EN002 X", "EN002", "EN002 Y extra"])
def test_a_malformed_truth_line_is_named(tmp_path, bad):
    root = simple_folder(tmp_path, f"EN001 Y\n{bad}\n")
    with pytest.raises(InputError) as info:
        open_corpus(root)
    message = str(info.value)
    assert "truth.txt" in message and "line 2" in message


def test_missing_truth_for_a_problem_is_named_by_id(tmp_path):
    corpus = open_corpus(simple_folder(tmp_path, "EN001 Y\n"))
    assert not corpus.has_truth
    with pytest.raises(InputError, match="EN002"):
        corpus.require_truth()
    with pytest.raises(InputError, match="EN002"):
        train(corpus, workers=1)


def test_missing_truth_in_jsonl_is_named_by_id(tmp_path):
    root = jsonl_corpus(
        tmp_path / "pairs",
        [{"id": "p1", "pair": [TEXT_A, TEXT_B]}, {"id": "p2", "pair": [TEXT_B, TEXT_B]}],
        [{"id": "p1", "same": False}],
    )
    with pytest.raises(InputError, match="p2"):
        open_corpus(root).require_truth()


def test_jsonl_with_duplicate_ids_is_rejected(tmp_path):
    root = jsonl_corpus(
        tmp_path / "pairs",
        [{"id": "p1", "pair": [TEXT_A, TEXT_B]}, {"id": "p1", "pair": [TEXT_B, TEXT_A]}],
        [{"id": "p1", "same": False}],
    )
    with pytest.raises(InputError) as info:
        open_corpus(root)
    assert "p1" in str(info.value) and "pairs.jsonl" in str(info.value)


def test_jsonl_with_a_broken_line_names_the_line(tmp_path):
    root = jsonl_corpus(tmp_path / "pairs", [{"id": "p1", "pair": [TEXT_A, TEXT_B]}], None)
    with open(root / "pairs.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"id": "p2", "pair": [\n')
    with pytest.raises(InputError, match="line 2"):
        open_corpus(root)


@pytest.mark.parametrize("where", ["known", "unknown", "id"])
def test_jsonl_text_with_a_lone_surrogate_names_the_line(tmp_path, where):
    """Found by the soak's probes: a JSON escape ``\\ud800`` in a pair's text (no character:
    a lone surrogate) reached the feature scan, and `taveer train` and `evaluate` ended in an
    internal error (UnicodeEncodeError). The line is refused as not valid Unicode text
    (``core/ground/safe_json.py``, which reads every JSON file a user gives)."""
    record = {"id": "p1", "pair": [TEXT_A, TEXT_B]}
    if where == "id":
        record["id"] = "p\ud8001"
    else:
        record["pair"][0 if where == "known" else 1] = "Half \udc00 a character. " + TEXT_A
    good = {"id": "p2", "pair": [TEXT_B, TEXT_A]}
    root = jsonl_corpus(tmp_path / "pairs", [good, record], [{"id": "p2", "same": False}])
    with pytest.raises(InputError) as refused:
        list(open_corpus(root).iter_cases())
    message = str(refused.value)
    assert "pairs.jsonl line 2: is not a usable JSON file: it holds a lone surrogate" in message
    assert "not valid Unicode text" in message and "\n" not in message


def test_cp1252_text_is_decoded_with_a_reported_fallback(tmp_path):
    cp1252 = b"It\x92s \x93quoted\x94 text, isn\x92t it? Yes."
    root = folder_corpus(
        tmp_path / "corpus",
        {"EN001": ([TEXT_A.encode()], cp1252), "EN002": ([TEXT_B.encode()], TEXT_A.encode())},
        "EN001 Y\nEN002 N\n",
    )
    corpus = open_corpus(root)
    cases = list(corpus.iter_cases())
    assert cases[0].unknown_text == "It\u2019s \u201cquoted\u201d text, isn\u2019t it? Yes."
    assert len(corpus.warnings) == 1
    warning = corpus.warnings[0]
    assert "EN001" in warning and "unknown.txt" in warning and "1252" in warning


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be-bom", "utf-8-sig"])
def test_unicode_with_a_byte_order_mark_is_decoded(tmp_path, codec):
    text = "Naïve café, isn’t it? “Yes.”"
    if codec == "utf-16-be-bom":
        data = b"\xfe\xff" + text.encode("utf-16-be")
    else:
        data = text.encode(codec)
    root = folder_corpus(
        tmp_path / "corpus",
        {"EN001": ([data], TEXT_A.encode()), "EN002": ([TEXT_B.encode()], TEXT_A.encode())},
        "EN001 Y\nEN002 N\n",
    )
    corpus = open_corpus(root)
    case = next(corpus.iter_cases())
    assert case.known_texts == (text,)
    assert corpus.warnings == []


def test_iter_cases_streams_one_case_at_a_time(tmp_path):
    root = simple_folder(tmp_path)
    corpus = open_corpus(root)
    iterator = corpus.iter_cases()
    assert isinstance(iterator, types.GeneratorType)
    # texts are read when a case is reached, not when the corpus is opened
    (root / "EN002" / "unknown.txt").write_text("Changed after opening. It is so.")
    first = next(iterator)
    assert first.case_id == "EN001"
    (root / "EN002" / "unknown.txt").unlink()  # a later case's file vanishes
    with pytest.raises(InputError, match="EN002"):
        next(iterator)


def test_iter_cases_reads_changed_texts_lazily(tmp_path):
    root = simple_folder(tmp_path)
    corpus = open_corpus(root)
    (root / "EN002" / "unknown.txt").write_text("Changed after opening. It is so.")
    cases = list(corpus.iter_cases())
    assert cases[1].unknown_text == "Changed after opening. It is so."


def test_problem_without_known_file_is_named(tmp_path):
    root = simple_folder(tmp_path)
    for known in (root / "EN002").glob("known*.txt"):
        known.unlink()
    with pytest.raises(InputError, match="EN002"):
        open_corpus(root)


def test_folder_that_is_not_a_corpus(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("hello")
    with pytest.raises(InputError, match="not a PAN corpus"):
        open_corpus(tmp_path / "docs")
    with pytest.raises(InputError):
        open_corpus(tmp_path / "missing")


def test_corpus_hash_changes_with_any_text(tmp_path):
    root = simple_folder(tmp_path)
    before = open_corpus(root).sha256
    assert open_corpus(root).sha256 == before
    (root / "EN001" / "known02.txt").write_text(TEXT_B + " More.")
    assert open_corpus(root).sha256 != before


def test_a_worker_process_that_dies_is_reported_plainly(monkeypatch):
    """A killed extraction process (e.g. by the out-of-memory killer) gives one plain message."""
    from conftest import corpus_path

    from taveer_desktop.core.ground.errors import TaveerError
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer import training

    corpus = open_corpus(corpus_path("stackexchange", "train"))
    monkeypatch.setattr(training, "_worker_cases", _die)
    with pytest.raises(TaveerError, match="ended unexpectedly"):
        training.corpus_distances(corpus, workers=2)


def _die(*_args):
    import os

    os._exit(9)
