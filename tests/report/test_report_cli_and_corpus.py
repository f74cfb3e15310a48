"""``taveer report`` end to end (exit codes, one-line errors) and a report of a real shared-corpus
case verified with the default model."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import corpus_path

from taveer_desktop import paths
from taveer_desktop.report.export import export_report
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case

from .conftest import HEADINGS_CHECK, demo_store, read_report


def taveer(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    path = demo_store(folder)
    with ProjectStore.open(path) as store:
        store.cases.create("EMPTY-1", "A case without runs")
    return path


@pytest.mark.slow
def test_cli_writes_the_report_and_prints_json(project, tmp_path):
    target = tmp_path / "out.pdf"
    done = taveer(
        "--project", str(project), "report", "DEMO-001", "-o", str(target), "--json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["report"] == str(target) and target.read_bytes().startswith(b"%PDF")
    assert data["pages"] > 8 and re.fullmatch(r"[0-9a-f]{64}", data["sha256"])
    done = taveer("--project", str(project), "audit", "DEMO-001", "--json", cwd=tmp_path)
    entries = json.loads(done.stdout)["entries"]
    assert entries[-1]["action"] == "report_exported"
    assert entries[-1]["details"]["sha256"] == data["sha256"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, message",
    [
        (["NOPE-9"], "has no case numbered 'NOPE-9'"),
        (["EMPTY-1"], "has no verification run yet"),
        (["DEMO-001", "--run", "99"], "has no run 99"),
        (["DEMO-001", "--evaluation", "missing.json"], "no such evaluation record"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(project, tmp_path, args, message):
    target = tmp_path / "never.pdf"
    done = taveer("--project", str(project), "report", *args, "-o", str(target), cwd=tmp_path)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.startswith("taveer:")]
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["missing-folder", "folder", "under-a-file"])
def test_cli_unwritable_target_is_refused(project, tmp_path, where):
    target = {
        "missing-folder": tmp_path / "no" / "such" / "r.pdf",
        "folder": tmp_path,
        "under-a-file": tmp_path / "file.txt" / "r.pdf",
    }[where]
    (tmp_path / "file.txt").write_text("x")
    done = taveer("--project", str(project), "report", "DEMO-001", "-o", str(target), cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and ("cannot be written" in lines[0] or "is a folder" in lines[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.slow
@pytest.mark.corpus
def test_report_of_a_shared_corpus_case(tmp_path, qapp):
    case_dir = corpus_path("stackexchange", "test") / "EN137"
    project = tmp_path / "corpus.taveer"
    with ProjectStore.create(project) as store:
        case = store.cases.create("SE-EN137", "Stack Exchange test case EN137", "Tester")
        store.documents.add(case.id, KNOWN, sorted(case_dir.glob("known*.txt")))
        store.documents.add(case.id, QUESTIONED, [case_dir / "unknown.txt"])
        model = store.models.add_file(paths.resource("models", "default.json"))
        verify_case(store, case.id, model.name)
        exported = export_report(store, "SE-EN137", tmp_path / "EN137.pdf")
    report = read_report(project, tmp_path / "EN137.pdf", exported)
    positions = [report.text.find(h) for h in HEADINGS_CHECK]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    for digest in report.document_hashes:
        assert digest in report.text
    assert len(report.reader.pages) == exported.page_count
    assert f"Page {exported.page_count} of {exported.page_count}" in report.page_texts[-1]


def test_report_progress_redraws_a_line_only_on_a_terminal(project, tmp_path, monkeypatch):
    """``taveer report`` into a pipe or a log writes no carriage returns (issue 23); on a
    terminal its progress redraws one line."""
    import io

    from taveer_desktop.cli.output import StderrProgress

    target = tmp_path / "piped.pdf"
    done = taveer("--project", str(project), "report", "DEMO-001", "-o", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "\r" not in done.stdout
    progress_lines = [line for line in done.stderr.splitlines() if line.startswith("report:")]
    assert len(progress_lines) == 1 and "4/4" in progress_lines[0]

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, carriage in ((Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr(sys, "stderr", stream)
        progress = StderrProgress("report", min_interval=0)
        for step in range(5):
            progress.step(step, 4, "writing")
        assert ("\r" in stream.getvalue()) is carriage
        assert stream.getvalue().endswith("]\n")
