"""The bad-input sweep of the doors added after the first sweeps (issue: hostile input at every
door): validation records (``--record``), receipts (``check --receipt``), evaluation records
(``report --evaluation``), statement files (``case declare --statement-file``), a PAN split's
``cases.csv`` and the project path itself. (``topics.csv`` is in ``test_door_sweep.py``.)

Each refusal is one line naming the file, exit 2, nothing stored. Before the fixes each test
names: a 100,000-digit number in a record ended in an internal error (exit 70); a record
holding NaN or a key twice was used; an evaluation record that is a FIFO blocked forever; an
empty statement file was refused without naming the file; a project path that is a link
leading nowhere was replaced by a new empty project.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.cli.main import main
from taveer_desktop.paths import resource
from tests.fuzz import door_inputs as door

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and FIFOs")

DEMO = sorted(resource("demo", "federalist").glob("*.txt"))
DEFAULT_MODEL = resource("models", "default.json")


def run(args, capsys) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def assert_refused(code: int, err: str, *words: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    assert code == 2, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("taveer: "), err
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


def verify_with_record(record: Path, capsys) -> tuple[int, str]:
    args = ["verify", DEFAULT_MODEL, "--known", *DEMO[:2], "--unknown", DEMO[-1]]
    return run([*args, "--record", record], capsys)


# ---- JSON: one parser with limits for every file a user gives --------------------------------


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("huge-number", '{"x": 1' + "0" * 100_000 + "}", "a number of 100,001 characters"),
        ("key-twice", '{"model": {}, "model": {"a": 1}}', "names the key 'model' twice"),
        ("nan", '{"trials": [{"score": 1.0}, {"score": NaN}]}', "trials[1].score is not a finite"),
        ("infinity", '{"figures": {"cllr": -Infinity}}', "figures.cllr is not a finite number"),
        ("deep", "[" * 100_000 + "]" * 100_000, "nested 100,000 levels deep"),
    ],
)
def test_a_hostile_validation_record_is_refused_naming_it(name, text, words, tmp_path, capsys):
    record = tmp_path / f"{name}.json"
    record.write_text(text, encoding="utf-8")
    assert_refused(*verify_with_record(record, capsys), record.name, words)


def test_a_receipt_naming_a_key_twice_is_refused(tmp_path, capsys):
    project = tmp_path / "p.taveer"
    assert run(["--project", project, "case", "create", "C1"], capsys)[0] == 0
    receipt = tmp_path / "r.receipt.json"
    receipt.write_text('{"format": "x", "format": "taveer-receipt"}', encoding="utf-8")
    code, err = run(["--project", project, "check", "--quick", "--receipt", receipt], capsys)
    assert_refused(code, err, receipt.name, "names the key 'format' twice")


def test_an_evaluation_record_that_is_a_fifo_is_refused_without_opening_it(tmp_path):
    from taveer_desktop.report.export import load_evaluations
    from taveer_desktop.report.inputs import ReportError

    fifo = tmp_path / "model.training.json"
    os.mkfifo(fifo)  # before: read_bytes() blocked here forever
    with pytest.raises(ReportError, match="is a named pipe"):
        load_evaluations(fifo)
    nan = tmp_path / "nan.training.json"
    entry = {"accuracy": float("nan"), "tp": 1, "fn": 1, "fp": 1, "tn": 1}
    nan.write_text(json.dumps({"evaluations": {"test": entry}}), encoding="utf-8")
    with pytest.raises(ReportError, match="lacks accuracy"):
        load_evaluations(nan)


# ---- statement files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "holds no text"),
        (b"  \n\n ", "holds no text"),
        (b"I declare\x00 this.", "holds control or invisible characters (\\x00)"),
        ("I declare \u202etsurt".encode(), "holds control or invisible characters (\\u202e)"),
    ],
)
def test_a_bad_statement_file_is_refused_naming_it(data, words, tmp_path, capsys):
    project = tmp_path / "p.taveer"
    assert run(["--project", project, "case", "create", "C1"], capsys)[0] == 0
    statement = tmp_path / "statement.txt"
    statement.write_bytes(data)
    args = ["--project", project, "case", "declare", "C1", "--examiner", "A. Examiner"]
    code, err = run([*args, "--role", "linguist", "--statement-file", statement], capsys)
    assert_refused(code, err, "statement.txt", words)
    with sqlite3.connect(project) as conn:
        assert conn.execute("SELECT COUNT(*) FROM declarations").fetchone()[0] == 0


# ---- the project path ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_a_project_path_that_is_a_broken_link_is_never_replaced(kind, tmp_path, capsys):
    link = tmp_path / "case.taveer"
    target = link if kind == "loop" else tmp_path / "unmounted" / "case.taveer"
    os.symlink(target, link)
    words = "loops back on itself" if kind == "loop" else "which does not exist"
    for args in (["case", "create", "C1"], ["case", "list"], ["check", "--quick"]):
        assert_refused(*run(["--project", link, *args], capsys), "case.taveer", words)
    assert link.is_symlink() and os.readlink(link) == str(target)  # left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.taveer"]  # nothing beside it


# ---- a PAN split's cases.csv -------------------------------------------------------------------


def _split_with_cases(root: Path, write) -> Path:
    corpus = door.good_folder_corpus(root / "corpus")
    write(corpus / "cases.csv")
    return corpus


@pytest.mark.parametrize(
    ("name", "write", "words"),
    [
        ("fifo", os.mkfifo, "cases.csv: is a named pipe (FIFO)"),
        ("folder", Path.mkdir, "cases.csv: is a folder, not a regular file"),
        (
            "column-twice",
            lambda p: p.write_text("id,known_author,known_author,unknown_author\n"),
            "names the column 'known_author' twice",
        ),
        (
            "escape-in-author",
            lambda p: p.write_text("id,known_author,unknown_author\nEN001,a\x1b[2J,a\n"),
            "line 2: a cell holds control or invisible characters (\\x1b)",
        ),
    ],
)
def test_a_bad_cases_file_is_refused_naming_it(name, write, words, tmp_path):
    corpus = _split_with_cases(tmp_path, write)
    model = tmp_path / "never.json"
    command = ["validate", "--population", str(corpus), "-o", str(model)]
    result = subprocess.run(  # a FIFO read would block: the timeout fails the test
        [sys.executable, "-m", "taveer_desktop.cli", *command],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TAVEER_DEBUG": ""},
    )
    assert_refused(result.returncode, result.stderr, words)
    assert not model.exists()


# ---- output names ------------------------------------------------------------------------------


def test_an_output_name_held_by_a_fifo_is_refused_before_any_work(tmp_path, capsys):
    """Before: the model was trained, then renamed over the FIFO (and over `/dev/full` as
    root, replacing the device with a regular file)."""
    corpus = door.good_folder_corpus(tmp_path / "corpus")
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)
    code, err = run(["train", corpus, "-o", fifo, "--workers", 1], capsys)
    assert_refused(code, err, "model.json: is a named pipe (FIFO), not a regular file")
    assert "training:" not in err  # refused before the work
    assert os.path.exists(fifo) and not os.path.isfile(fifo)
    code, err = run(["evaluate", DEFAULT_MODEL, corpus, "--answers", tmp_path], capsys)
    assert_refused(code, err, "is a folder, not a regular file; it was not replaced")


@pytest.mark.slow  # a validation, a stored population and a training: about 5 s
def test_a_folder_name_that_is_not_utf8(tmp_path, capsys):
    """Found by the soak's probes: a population folder or corpus whose name is not valid UTF-8
    (its odd bytes reach Python as lone surrogates) ended `validate --population`, `population
    add` and `train` in an internal error (UnicodeEncodeError writing the model or the store).
    The name is kept as text with its odd bytes escaped (``caf\\xe9``), as evidence names are."""
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9"))
    population = Path(shutil.copytree(resource("demo", "population"), odd))
    model, record = tmp_path / "m.json", tmp_path / "r.json"
    args = ["validate", "--population", population, "-o", model, "--record", record]
    code, err = run([*args, "--max-trials", "40", "--repeats", "1"], capsys)
    assert code == 0, err
    assert json.loads(record.read_text())["population"]["source"].endswith("caf\\xe9")
    code, err = verify_with_record(record, capsys)
    assert code in (0, 2) and "internal error" not in err, err
    project = tmp_path / "p.taveer"
    code, err = run(
        ["--project", project, "population", "add", "x", population, "--description", "d"], capsys
    )
    assert code == 0, err
    corpus = door.good_folder_corpus(Path(os.fsdecode(bytes(tmp_path) + b"/corpus\xff")))
    code, err = run(["train", corpus, "-o", tmp_path / "t.json", "--workers", "1"], capsys)
    assert code == 0, err
    assert "corpus\\xff" in json.loads((tmp_path / "t.json").read_text())["name"]
