"""The real program refusing a validation record whose figures are finite but impossible, and
refusing an output it could not write before its work starts (issue 30). Every run is a
``taveer`` subprocess on files made in ``tmp_path``: one plain line naming the file (and, for a
record, the key and the value), exit 2, no traceback, nothing written.

The rule for each figure is tested in ``tests/core/validation/test_record_ranges.py``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from taveer_desktop.paths import resource
from tests.cli.test_cli import assert_bad_input, run
from tests.core.validation_fixtures import SHIPPED_POPULATION

DEMO = sorted(resource("demo", "federalist").glob("*.txt"))


@pytest.fixture(scope="module")
def validated(tmp_path_factory) -> dict[str, Path]:
    """A model and its record from ``taveer validate`` on the shipped demo population (3 s)."""
    root = tmp_path_factory.mktemp("validated")
    model, record = root / "model.json", root / "record.json"
    done = run(
        "validate", "--population", SHIPPED_POPULATION, "-o", model, "--record", record,
        "--folds", "3", "--repeats", "1", "--max-trials", "60", "--questioned-chars", "3000",
        "--known-chars", "9000", timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return {"model": model, "record": record}


def _forged(validated, tmp_path: Path, key: str, value) -> Path:
    data = json.loads(validated["record"].read_text(encoding="utf-8"))
    *steps, last = key.split(".")
    here = data
    for step in steps:
        here = here[step]
    here[last] = value
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _verify(validated, record: Path):
    known = [str(p) for p in DEMO[:3]]
    return run("verify", validated["model"], "--known", *known, "--unknown", DEMO[-1],
               "--record", record)  # fmt: skip


def test_verify_with_the_real_record_works(validated):
    done = _verify(validated, validated["record"])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("figures.auc", 7, "figures.auc is 7, outside [0, 1]"),
        ("figures.cllr", 1e308, "figures.cllr is 1e+308, outside 0 to 332.19"),
        ("bound.min_log10_lr", 0.4, "bound.min_log10_lr is 0.4, above 0"),
        ("created_utc", "99999-12-31T00:00:00+00:00", 'created_utc is "99999-12-31'),
    ],
)
def test_verify_refuses_a_record_with_an_impossible_figure(validated, tmp_path, key, value, words):
    record = _forged(validated, tmp_path, key, value)
    line = assert_bad_input(_verify(validated, record), record)
    assert f"{record}: not a usable validation record: {words}" in line, line


def test_evaluate_refuses_it_before_the_corpus_is_read(validated, tmp_path):
    record = _forged(validated, tmp_path, "repeats.trials", [1])
    answers = tmp_path / "answers.jsonl"
    done = run("evaluate", validated["model"], tmp_path, "--record", record, "--answers", answers)
    line = assert_bad_input(done, record)
    assert "the sum of repeats.trials is 1, but the number of trials is 60" in line, line
    assert not answers.exists()


# ---- outputs: refused before the work -----------------------------------------------------


def _validate(tmp_path: Path, *outputs):
    return run("validate", "--population", tmp_path / "does-not-exist", *outputs)


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder no new file can be made in: mode 500 for a user; as root (whom no mode bit
    stops), /sys, which takes no file."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
        return folder
    if not Path("/sys/kernel").is_dir() or os.access("/sys/kernel", os.W_OK) is False:
        pytest.skip("no folder that refuses root's files on this machine")
    return Path("/sys/kernel")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and devices")
@pytest.mark.parametrize(
    "kind", ["missing-folder", "folder", "fifo", "dev-full", "unwritable", "file-as-folder"]
)
def test_validate_refuses_a_record_or_report_it_could_not_write_before_it_starts(kind, tmp_path):
    model = tmp_path / "model.json"
    target = {
        "missing-folder": tmp_path / "nowhere" / "record.json",
        "folder": tmp_path,
        "fifo": tmp_path / "pipe",
        "dev-full": Path("/dev/full"),
        "unwritable": _unwritable_folder(tmp_path) / "record.json"
        if kind == "unwritable"
        else None,
        "file-as-folder": model.with_suffix(".txt") / "record.json",
    }[kind]
    if kind == "fifo":
        os.mkfifo(target)
    if kind == "file-as-folder":
        model.with_suffix(".txt").write_text("x", encoding="utf-8")
    if kind == "dev-full" and not target.exists():
        pytest.skip("no /dev/full here")
    option = "--report" if kind in ("fifo", "dev-full") else "--record"
    # the population does not exist: refused for the output, it was never read (the check
    # comes before any work; before, the output was found unwritable after the validation)
    done = _validate(tmp_path, "-o", model, option, target)
    line = assert_bad_input(done, target)
    assert "does-not-exist" not in line
    assert not model.exists()  # nothing written: the model neither
    assert not list(tmp_path.glob(".*partial"))
    if kind == "fifo":
        assert "is a named pipe (FIFO), not a regular file; it was not replaced" in line
    if kind == "dev-full":
        assert Path("/dev/full").is_char_device()  # still the device
    if kind == "missing-folder":
        assert "its folder" in line and "does not exist" in line


def test_two_outputs_naming_one_file_are_refused(tmp_path):
    model = tmp_path / "model.json"
    done = _validate(tmp_path, "-o", model, "--record", tmp_path / "." / "model.json")
    line = assert_bad_input(done, "model.json")
    assert "is named by both -o and --record" in line
    assert not model.exists()


@pytest.mark.slow  # two projects opened: 3 s
def test_save_copy_refuses_a_file_it_must_not_replace_before_opening(tmp_path):
    project, copy = tmp_path / "p.taveer", tmp_path / "copy.taveer"
    assert run("--project", project, "case", "create", "C1").returncode == 0
    copy.write_bytes(b"an earlier copy")
    line = assert_bad_input(run("--project", project, "save-copy", copy), copy)
    assert "already exists; it is not replaced without --overwrite" in line
    assert copy.read_bytes() == b"an earlier copy"
    assert run("--project", project, "save-copy", copy, "--overwrite").returncode == 0
    assert copy.read_bytes() != b"an earlier copy"


@pytest.mark.slow  # a project made and opened: 3 s
def test_report_and_receipt_outputs_are_checked_too(tmp_path):
    project = tmp_path / "p.taveer"
    assert run("--project", project, "case", "create", "C1").returncode == 0
    missing = tmp_path / "nowhere" / "r.pdf"
    assert_bad_input(run("--project", project, "report", "C1", "-o", missing), missing)
    receipt = tmp_path / "nowhere" / "receipt.json"
    assert_bad_input(run("--project", project, "receipt", "-o", receipt), receipt)


@pytest.mark.slow  # a small validation in the test's process: 3-6 s
def test_a_report_that_fails_at_the_end_leaves_no_model_or_record(tmp_path, monkeypatch, capsys):
    """The outputs are renamed together: a report that cannot be written after the validation
    (here: made to fail) leaves neither the model nor the record behind (before: the model was
    left, written, beside the missing record and report)."""
    from taveer_desktop.cli.main import main
    from taveer_desktop.core.ground.errors import TaveerError
    from taveer_desktop.report import validation_export

    def failing(record, output, source, progress=None):
        raise TaveerError("cannot be written (the disk is full)", output)

    monkeypatch.setattr(validation_export, "export_validation_report", failing)
    model, record, report = tmp_path / "m.json", tmp_path / "r.json", tmp_path / "v.pdf"
    code = main([
        "validate", "--population", str(SHIPPED_POPULATION), "-o", str(model), "--record",
        str(record), "--report", str(report), "--folds", "3", "--repeats", "1",
        "--max-trials", "60", "--questioned-chars", "3000", "--known-chars", "9000",
    ])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and err.strip() == f"taveer: {report}: cannot be written (the disk is full)"
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no model, record or temporary
