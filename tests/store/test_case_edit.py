"""``taveer case edit`` (issue 33, item 5): a case's examiner, agency, title and description
changed after ``case create``, through the store's one write path with its audit entry; bad
input is one plain line and exit 2 with nothing written; and the lock message's time is a
person's time, not a raw ISO stamp."""

from __future__ import annotations

import json
import re

import pytest

from taveer_desktop.cli.main import main
from taveer_desktop.store import ProjectStore
from taveer_desktop.store.records import LockHolder


def _run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, capsys):
    path = tmp_path / "p.taveer"
    code, _, err = _run(capsys, "--project", path, "case", "create", "C-1", "--title", "T")
    assert code == 0, err
    return path


def _audit(path) -> list[tuple[str, dict]]:
    with ProjectStore.open(path) as store:
        return [(e.action, e.details) for e in store.audit.entries(None)]


def test_edit_changes_only_the_given_fields_and_audits_them(project, capsys):
    code, out, err = _run(
        capsys, "--project", project, "case", "edit", "C-1", "--examiner", "A. Examiner",
        "--agency", "Lab",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out.strip() == "case C-1: changed examiner, agency (audited)"
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
    assert (case.title, case.examiner, case.agency) == ("T", "A. Examiner", "Lab")
    action, details = _audit(project)[-1]
    assert action == "case_updated" and details["changed"] == ["agency", "examiner"]


def test_an_edit_that_changes_nothing_writes_nothing(project, capsys):
    before = len(_audit(project))
    code, out, _ = _run(capsys, "--project", project, "case", "edit", "C-1", "--title", "T")
    assert code == 0 and out.strip() == "case C-1: nothing changed"
    code, out, _ = _run(capsys, "--project", project, "case", "edit", "C-1")
    assert code == 0 and out.strip() == "case C-1: nothing changed"
    assert len(_audit(project)) == before


def test_json_gives_the_case_and_what_changed(project, capsys):
    code, out, _ = _run(
        capsys, "--project", project, "case", "edit", "C-1", "--title", "", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["changed"] == ["title"] and data["case"]["title"] == ""


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (("NOPE", "--title", "x"), "has no case numbered 'NOPE'"),
        (("C-1", "--examiner", "A\u202eB"), "case examiner holds control or invisible"),
        (("C-1", "--agency", "x" * 20_000), "case agency is longer than"),
    ],
)
def test_bad_input_is_one_plain_line_exit_2_nothing_written(project, capsys, args, problem):
    before = _audit(project)
    code, out, err = _run(capsys, "--project", project, "case", "edit", *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and problem in err and "Traceback" not in err
    assert str(project) in err
    assert _audit(project) == before


def test_the_lock_message_gives_a_persons_time():
    holder = LockHolder(41, "host", "user", "2026-12-04T20:01:03.604960Z", "taveer-desktop")
    text = holder.describe()
    assert "open since 2026-12-04 20:01:03 UTC" in text
    assert not re.search(r"\d{4}-\d\d-\d\dT", text)
