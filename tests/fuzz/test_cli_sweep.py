"""The bad-input sweep: every hostile input of ``tests/fuzz`` through the CLI's entry points.

Each run must end with exit status 0 (accepted) or 2 (refused); a refusal is exactly one line
on stderr, ``taveer: <file>: <problem>``, and nothing anywhere is a traceback or the CLI's own
"internal error" line (which only a bug reaches). Inputs that once broke the program have an
expected refusal naming the limit. Runs that could hang (FIFOs) run in a subprocess with a
timeout. Before these limits the same inputs ended in RecursionError, ValueError,
OverflowError, UnicodeEncodeError, AssertionError tracebacks, or blocked forever.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.cli.main import main
from taveer_desktop.paths import resource
from tests.fuzz.hostile_corpora import KINDS, build
from tests.fuzz.hostile_inputs import EVIDENCE, MODEL_FILES, base_model, spoiled_models

DEMO = sorted(resource("demo", "federalist").glob("*.txt"))
DEFAULT_MODEL = resource("models", "default.json")

# inputs that broke the program before; each must now be refused naming its limit
EXPECTED_REFUSAL = {
    "nested-mime-30.eml": "nested more than 20 levels",
    "nested-mime-200.eml": "over the limit",
    "nested-mime-2000.eml": "over the limit",
    "many-parts-5000.eml": "more than 1,000 MIME parts",
    "encoded-words-5000.eml": "encoded words",
    "header-2mb.eml": "header of 2,097,190 bytes",
    "docx-metadata-4mb.docx": "limit of 1 MiB",
    "docx-metadata-2mb-incompressible.docx": "limit of 1 MiB",
    "digits-100k.json": "number of 100,001 characters",
    "number-5000-digits.json": "over the limit of 40",
    "deep-json.json": "nested 100,001 levels",
}


def run_cli(args, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_clean_end(code: int, err: str, name: str) -> None:
    assert "Traceback" not in err, err
    assert "internal error" not in err, err
    assert code in (0, 2), (code, err)
    lines = [line for line in err.splitlines() if line.startswith("taveer:")]
    if code == 2:
        assert len(lines) == 1, err
        assert name in lines[0], f"the refusal does not name {name}: {lines[0]}"


@pytest.fixture
def project(tmp_path, capsys):
    path = tmp_path / "sweep.taveer"
    code, _out, err = run_cli(["--project", path, "case", "create", "C1"], capsys)
    assert code == 0, err
    return path


@pytest.mark.parametrize("name", sorted(EVIDENCE))
def test_hostile_evidence_through_case_add(name, project, tmp_path, capsys):
    evidence = tmp_path / name
    evidence.write_bytes(EVIDENCE[name]())
    code, _out, err = run_cli(
        ["--project", project, "case", "add", "C1", "--known", evidence], capsys
    )
    assert_clean_end(code, err, name)
    if name in EXPECTED_REFUSAL:
        assert code == 2 and EXPECTED_REFUSAL[name] in err, err


def _model_files(tmp_path: Path) -> dict[str, Path]:
    files = {}
    for name, make in MODEL_FILES.items():
        files[name] = tmp_path / name
        files[name].write_bytes(make())
    for index, (name, data) in enumerate(sorted(spoiled_models().items())):
        model = json.loads(data) if not name.endswith("4000-digits.json") else None
        if model is not None:
            model["name"] = f"spoiled {index}"
            data = json.dumps(model).encode()
        files[name] = tmp_path / name
        files[name].write_bytes(data)
    return files


@pytest.mark.slow
def test_hostile_models_through_model_add_and_verify(project, tmp_path, capsys):
    files = _model_files(tmp_path)
    assert len(files) >= 20
    known, unknown = DEMO[:3], DEMO[-1]
    for name, path in files.items():
        code, _out, err = run_cli(["--project", project, "model", "add", path], capsys)
        assert_clean_end(code, err, name)
        if name in EXPECTED_REFUSAL:
            assert code == 2 and EXPECTED_REFUSAL[name] in err, err
        code, _out, err = run_cli(["verify", path, "--known", *known, "--unknown", unknown], capsys)
        assert_clean_end(code, err, name)
        absurd = name.endswith(("-huge.json", "-tiny.json"))
        arithmetic = any(key in name for key in ("slope", "intercept", "prior_log_odds"))
        if absurd and arithmetic:
            assert code == 2 and ("outside ±100" in err or "must be ≥ 0" in err), err


def _subprocess(args, timeout: float = 60) -> tuple[int, str]:
    result = subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "TAVEER_DEBUG": ""},
    )
    return result.returncode, result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("kind", KINDS)
def test_hostile_corpora_through_train_and_evaluate(kind, tmp_path):
    corpus = build(kind, tmp_path / "corpus")
    for args in (
        ["train", corpus, "-o", tmp_path / "m.json", "--workers", "1"],
        ["evaluate", DEFAULT_MODEL, corpus, "--workers", "1"],
    ):
        code, err = _subprocess(args)  # a FIFO read would block: the timeout fails the test
        assert_clean_end(code, err, "corpus")
        assert code == 2, err
    assert not (tmp_path / "m.json").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifo_as_evidence_is_refused_without_blocking_or_holding_the_lock(project, tmp_path):
    fifo = tmp_path / "evidence.txt"
    os.mkfifo(fifo)
    code, err = _subprocess(["--project", project, "case", "add", "C1", "--known", fifo], 20)
    assert code == 2 and "named pipe (FIFO)" in err and "evidence.txt" in err, err
    code, err = _subprocess(["--project", project, "case", "list"], 20)  # the lock was released
    assert code == 0, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_file_name_that_is_not_utf8(project, tmp_path, capsys):
    evidence = Path(os.fsdecode(tmp_path / os.fsdecode(b"caf\xe9-letter.txt")))
    evidence.write_text(DEMO[0].read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run_cli(
        ["--project", project, "case", "add", "C1", "--known", evidence], capsys
    )
    assert_clean_end(code, err, "caf")
    assert code == 0 and "caf\\xe9-letter.txt" in out
    code, out, err = run_cli(["--project", project, "case", "show", "C1", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["documents"][0]["file_name"] == "caf\\xe9-letter.txt"


def test_case_add_with_unknown_encoding_names_the_option(project, tmp_path, capsys):
    evidence = tmp_path / "a.txt"
    evidence.write_text("Some words. More words.", encoding="utf-8")
    args = ["--project", project, "case", "add", "C1", "--known", evidence, "--encoding", "x-no"]
    code, _out, err = run_cli(args, capsys)
    assert (
        code == 2
        and err.strip() == "taveer: --encoding: is not an encoding this program knows ('x-no')"
    )


def test_base_model_is_a_valid_model(tmp_path, capsys):
    """The spoiled models differ from a valid one only where they are spoiled."""
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(base_model()))
    code, _out, err = run_cli(["verify", path, "--known", *DEMO[:2], "--unknown", DEMO[-1]], capsys)
    assert code == 0, err
