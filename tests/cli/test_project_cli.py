"""The project commands of ``taveer``: JSON output, exit codes and one-line errors."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from taveer_desktop.cli.main import main
from tests.store.evidence_builders import demo_text_paths, model_bytes, write


@pytest.fixture
def project(tmp_path):
    return tmp_path / "cli.taveer"


def run(capsys, project, *args) -> tuple[int, object, str]:
    code = main(["--project", str(project), *map(str, args)])
    captured = capsys.readouterr()
    try:
        output = json.loads(captured.out) if "--json" in args else captured.out
    except json.JSONDecodeError:
        output = captured.out
    return code, output, captured.err


def test_full_case_workflow(capsys, project, tmp_path):
    code, case, _ = run(
        capsys, project, "case", "create", "FED-51", "--title", "Paper 51", "--json"
    )
    assert code == 0 and case["number"] == "FED-51" and case["title"] == "Paper 51"

    known, questioned = demo_text_paths()
    code, added, _ = run(capsys, project, "case", "add", "FED-51", "--known", *known, "--json")
    assert code == 0 and len(added["added"]) == len(known) and added["rejected"] == []
    assert added["added"][0]["sha256"] and added["added"][0]["encoding"]
    code, added, _ = run(capsys, project, "case", "add", "FED-51", "--questioned", questioned)
    assert code == 0 and "added document" in added

    model_file = write(tmp_path / "model.json", model_bytes("CLI model"))
    code, model, _ = run(capsys, project, "model", "add", model_file, "--json")
    assert code == 0 and model["name"] == "CLI model"
    code, models, _ = run(capsys, project, "model", "list", "--json")
    assert [m["name"] for m in models["models"]] == ["CLI model"]

    code, verified, _ = run(
        capsys, project, "case", "verify", "FED-51", "--model", "CLI model", "--json"
    )
    assert code == 0
    (stored,) = verified["runs"]
    assert stored["prediction"] in ("Y", "N", "insufficient")
    assert set(stored["result"]["categories"]) == {f"F{i}" for i in range(1, 12)}

    code, shown, _ = run(capsys, project, "case", "show", "FED-51", "--json")
    assert shown["case"]["known_count"] == len(known) and shown["case"]["run_count"] == 1
    assert [r["id"] for r in shown["runs"]] == [stored["id"]] and "result" not in shown["runs"][0]

    code, listed, _ = run(capsys, project, "case", "list", "--json")
    assert [c["number"] for c in listed["cases"]] == ["FED-51"]

    code, audit, _ = run(capsys, project, "audit", "FED-51", "--json")
    actions = [e["action"] for e in audit["entries"]]
    assert actions == ["case_created"] + ["document_added"] * (len(known) + 1) + [
        "case_model_chosen",
        "run_stored",
        "stability_stored",
    ]
    assert audit["head_hash"] == audit["entries"][-1]["entry_hash"]

    code, report, _ = run(capsys, project, "check", "--json")
    assert code == 0 and report["ok"] is True and report["runs_checked"] == 1

    code, text, _ = run(capsys, project, "case", "show", "FED-51")
    # the run line names the conclusion's kind first, the classification as secondary
    assert code == 0 and "for investigation only  classification same-author side" in text
    # times as the desktop shows them (presentation/audit_text.recorded_time), never raw ISO
    assert re.search(r"  run 1  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC  model ", text)
    assert not re.search(r"\d\dT\d\d:", text)


@pytest.mark.slow
def test_case_exclude_model_choice_and_verify_text(capsys, project, tmp_path):
    """case verify needs a chosen model; exclusion leaves a document out of later runs;
    the text output leads with the conclusion, never with the classification."""
    known, questioned = demo_text_paths()
    model_file = write(tmp_path / "m.json", model_bytes("CLI model"))
    run(capsys, project, "case", "create", "C-2")
    run(capsys, project, "model", "add", str(model_file))
    run(capsys, project, "case", "add", "C-2", "--known", *map(str, known))
    run(capsys, project, "case", "add", "C-2", "--questioned", str(questioned))
    code, _, err = run(capsys, project, "case", "verify", "C-2")
    assert code == 2 and "has no model chosen for case C-2" in err
    code, shown, _ = run(capsys, project, "case", "model", "C-2", "CLI model", "--json")
    assert code == 0 and shown["conditions"]["population"]
    code, text, _ = run(capsys, project, "case", "verify", "C-2", "--stability", "50")
    first = text.splitlines()[0]
    assert code == 0 and first.startswith("run 1: questioned document ")
    assert "No evaluative conclusion:" in first or "Likelihood ratio" in first
    assert "the method's classification" in text and "of 50 (" in text
    code, listed, _ = run(capsys, project, "case", "show", "C-2", "--json")
    first_known = next(d for d in listed["documents"] if d["role"] == "known")
    code, _, err = run(
        capsys, project, "case", "exclude", "C-2", str(first_known["id"]), "--reason", "  "
    )
    assert code == 2 and "needs a reason" in err
    code, out, _ = run(
        capsys,
        project,
        "case",
        "exclude",
        "C-2",
        str(first_known["id"]),
        "--reason",
        "by another writer",
    )
    assert code == 0 and "excluded: by another writer" in out
    code, verified, _ = run(capsys, project, "case", "verify", "C-2", "--json")
    second = verified["runs"][0]
    assert first_known["id"] not in second["known_document_ids"]
    assert second["conclusion"]["kind"] in ("evaluative", "investigative", "none")
    assert second["conclusion"]["statement"]
    code, shown, _ = run(capsys, project, "case", "show", "C-2", "--json")
    excluded = [d for d in shown["documents"] if d["excluded_reason"]]
    assert [d["id"] for d in excluded] == [first_known["id"]]
    assert len(shown["runs"]) == 2  # the earlier run keeps its record
    assert first_known["id"] in shown["runs"][0]["known_document_ids"]
    code, text, _ = run(capsys, project, "case", "show", "C-2")
    assert re.search(r"excluded \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: by another", text)
    assert not re.search(r"\d\dT\d\d:", text)  # no raw ISO time anywhere (issue 23)
    code, audit, _ = run(capsys, project, "audit", "C-2", "--json")
    assert "document_excluded" in [e["action"] for e in audit["entries"]]


def test_refused_evidence_is_one_line_and_exit_2(capsys, project, tmp_path):
    run(capsys, project, "case", "create", "C-1")
    empty = write(tmp_path / "empty.txt", b"")
    good = write(tmp_path / "good.txt", "Good text here.")
    code, _, err = run(capsys, project, "case", "add", "C-1", "--known", good, empty)
    assert code == 2
    assert err.strip().splitlines() == [
        f"taveer: {empty}: is empty (0 bytes); nothing was imported"
    ]
    code, added, err = run(
        capsys, project, "case", "add", "C-1", "--known", good, empty, "--skip-rejected", "--json"
    )
    assert code == 0
    assert [d["file_name"] for d in added["added"]] == ["good.txt"]
    assert added["rejected"][0]["reason"] == "empty"


@pytest.mark.parametrize(
    "args",
    [
        ("case", "show", "NOPE"),
        ("case", "add", "NOPE", "--known", "x.txt"),
        ("case", "verify", "NOPE", "--model", "m"),
        ("audit", "NOPE"),
    ],
)
def test_unknown_case_is_exit_2(capsys, project, args):
    run(capsys, project, "case", "create", "C-1")
    code, _, err = run(capsys, project, *args)
    assert code == 2
    assert err.strip().splitlines() == [f"taveer: {project}: has no case numbered 'NOPE'"]


def test_missing_project_is_exit_2_and_not_created(capsys, project):
    code, _, err = run(capsys, project, "case", "list")
    assert code == 2 and "no such project file" in err
    assert not project.exists()


def test_not_a_project_is_exit_2(capsys, tmp_path):
    other = write(tmp_path / "letter.txt", "Dear sir")
    code, _, err = run(capsys, other, "check")
    assert code == 2 and err.count("\n") == 1 and "not a TAVeer project" in err
    assert other.read_text() == "Dear sir"


def test_check_exits_1_and_names_the_problem(capsys, project):
    run(capsys, project, "case", "create", "C-1", "--title", "Before")
    conn = sqlite3.connect(project)
    conn.execute("UPDATE cases SET title = 'After'")
    conn.commit()
    conn.close()
    code, report, _ = run(capsys, project, "check", "--json")
    assert code == 1 and report["ok"] is False
    assert report["problems"][0]["subject"] == "case 1"
    code, text, _ = run(capsys, project, "check")
    assert code == 1 and "case 1:" in text
    code, _, err = run(capsys, project, "case", "create", "C-2")  # read-only after the failure
    assert code == 2 and "read-only" in err and "warning" in err


def test_save_copy_command(capsys, project, tmp_path):
    run(capsys, project, "case", "create", "C-1")
    code, out, _ = run(capsys, project, "save-copy", tmp_path / "copy.taveer", "--json")
    assert code == 0 and out["copy"] == str(tmp_path / "copy.taveer")
    code, listed, _ = run(capsys, tmp_path / "copy.taveer", "case", "list", "--json")
    assert [c["number"] for c in listed["cases"]] == ["C-1"]


def test_default_project_is_used_without_the_option(capsys, monkeypatch, tmp_path):
    assert main(["case", "create", "DEFAULT-1"]) == 0
    assert main(["case", "list", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{") :])["cases"][0]["number"] == "DEFAULT-1"
