"""The examiner's declaration and the technical review (store version 7): kept, audited,
sealed and replayed; a review of the case as it stood goes stale when the case changes; bad
input refused in one sentence; a forged review is found by the integrity check."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop.store import KNOWN, ProjectStore
from taveer_desktop.store.declaration_repository import DEFAULT_STATEMENT_OF_TRUTH
from taveer_desktop.store.errors import StoreError
from taveer_desktop.store.schema import SCHEMA_VERSION
from tests.store.test_forgeries import append, forge

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "p.taveer"
    with ProjectStore.create(path) as store:
        case = store.cases.create("C-1", examiner="Ann Example", agency="Lab")
        store.declarations.declare(case.id, "Ann Example", "forensic linguist")
        store.declarations.review(case.id, "Bob Second", "approved", "checked every step")
    return path


def _check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", str(path), "check", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_declaration_and_review_are_kept_audited_and_make_a_report_final(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        standing = store.declarations.standing(case.id)
        assert standing.final and standing.missing == ()
        declaration, review = standing.declaration, standing.review
        assert declaration.statement_of_truth == DEFAULT_STATEMENT_OF_TRUTH
        assert "my own and within my expertise" in declaration.declaration
        assert declaration.declaration.endswith(DEFAULT_STATEMENT_OF_TRUTH)
        assert (review.reviewer, review.outcome, review.declaration_id) == (
            "Bob Second",
            "approved",
            declaration.id,
        )
        actions = [e.action for e in store.audit.entries(case.id)]
        assert actions[-2:] == ["case_declared", "case_reviewed"]
        entry = store.audit.entries(case.id)[-1]
        assert len(entry.details["row_sha256"]) == 64  # sealed like every record
        assert entry.details["case_state_sha256"] == review.case_state_sha256
        report = store.check_integrity()
        assert report.ok and report.sealed


def test_a_later_change_of_the_case_makes_the_review_stale(project, tmp_path):
    text = tmp_path / "k.txt"
    text.write_text("A known text of a few words. It has two sentences.", "utf-8")
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        store.documents.add(case.id, KNOWN, [text])
        standing = store.declarations.standing(case.id)
        assert not standing.final and not standing.review_current
        assert any("review is stale" in m and "document added" in m for m in standing.missing)
        # a new declaration alone is not enough: the review was of the earlier one
        store.declarations.declare(case.id, "Ann Example", "forensic linguist")
        assert "no technical review of the latest declaration" in (
            store.declarations.standing(case.id).missing
        )
        store.declarations.review(case.id, "Bob Second", "changes-required", "redo section 3")
        assert any("asks for changes" in m for m in store.declarations.standing(case.id).missing)
        store.declarations.review(case.id, "Bob Second", "approved")
        assert store.declarations.standing(case.id).final


def test_a_case_without_agency_or_declaration_says_what_is_missing(tmp_path):
    with ProjectStore.create(tmp_path / "q.taveer") as store:
        case = store.cases.create("C-2")
        assert store.declarations.standing(case.id).missing == (
            "the case names no examiner",
            "the case names no agency",
            "no examiner's declaration",
            "no technical review",
        )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s, c: s.declarations.declare(c, " ", "role"), "examiner's name is empty"),
        (lambda s, c: s.declarations.declare(c, "A\u202eB", "r"), "control or invisible"),
        (lambda s, c: s.declarations.declare(c, "A", "r", "x\x1by"), "control or invisible"),
        (lambda s, c: s.declarations.declare(c, "A" * 301, "r"), "longer than 300"),
        (lambda s, c: s.declarations.review(c, "B", "approved"), "no examiner's declaration"),
    ],
)
def test_bad_input_is_refused_in_one_sentence(tmp_path, call, message):
    with ProjectStore.create(tmp_path / "r.taveer") as store:
        case = store.cases.create("C-3")
        with pytest.raises(StoreError, match=message):
            call(store, case.id)
        assert store.declarations.latest_declaration(case.id) is None


def test_the_reviewer_is_not_the_declaring_examiner(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        with pytest.raises(StoreError, match="made by another examiner"):
            store.declarations.review(case.id, "  ann   EXAMPLE ", "approved")
        with pytest.raises(StoreError, match="needs comments"):
            store.declarations.review(case.id, "Carol", "changes_required", "  ")
        with pytest.raises(StoreError, match="outcome"):
            store.declarations.review(case.id, "Carol", "fine")


def test_a_review_edited_outside_the_program_is_found(project):
    forge(project, "UPDATE technical_reviews SET outcome = 'approved', reviewer = 'Mallory'")
    result = _check(project)
    assert result.returncode == 1
    found = json.loads(result.stdout)["problems"]
    assert any(
        p["subject"] == "technical review 1" and "differs from its seal" in p["message"]
        for p in found
    ), found


def test_a_review_inserted_outside_the_program_is_found(project):
    forge(
        project,
        "INSERT INTO technical_reviews (case_id, declaration_id, reviewer, outcome, comments,"
        " case_state_sha256, reviewed_utc) SELECT case_id, declaration_id, 'Mallory',"
        " 'approved', '', case_state_sha256, reviewed_utc FROM technical_reviews",
    )
    found = json.loads(_check(project).stdout)["problems"]
    assert any(
        p["subject"] == "technical review 2" and "not in the audit chain" in p["message"]
        for p in found
    ), found


def test_a_review_appended_with_an_entry_the_program_would_write_names_its_actor(project):
    """The limit, as for every record: a forger who appends a row and a well-formed entry
    passes the check without a receipt; the entry's actor and time are then the forger's, and
    the report prints who recorded the review."""
    forge(
        project,
        "INSERT INTO technical_reviews (case_id, declaration_id, reviewer, outcome, comments,"
        " case_state_sha256, reviewed_utc) SELECT case_id, declaration_id, 'Mallory',"
        " 'approved', '', case_state_sha256, reviewed_utc FROM technical_reviews",
    )
    append(project, "case_reviewed", 1, {"review_id": 2, "case_id": 1})
    assert _check(project).returncode == 0
    with ProjectStore.open(project) as store:
        review = store.declarations.latest_review(1)
        assert (review.reviewer, review.actor) == ("Mallory", "forger@host")


def test_the_v6_fixture_migrates_to_v7_with_empty_tables(tmp_path):
    path = tmp_path / "v6.taveer"
    shutil.copyfile(FIXTURES / "store_v6.taveer", path)
    with ProjectStore.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 7
        assert store.last_integrity_report.ok, store.last_integrity_report.problems
        assert store.migration_backup is not None
        case = store.cases.find("FIXTURE-1")
        assert store.declarations.latest_declaration(case.id) is None
        migrated = [e for e in store.audit.entries() if e.action == "store_migrated"]
        assert [e.details["to_version"] for e in migrated][-(SCHEMA_VERSION - 6) :] == list(
            range(7, SCHEMA_VERSION + 1)
        )
        store.declarations.declare(case.id, "Test", "examiner")
        store.declarations.review(case.id, "Other", "approved")
        assert store.declarations.standing(case.id).final
        assert store.check_integrity().ok


def test_a_final_report_names_on_its_title_page_the_examiner_who_declared_it(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        store.declarations.declare(case.id, "Dora Other", "forensic linguist")
        store.declarations.review(case.id, "Bob Second", "approved")
        assert store.declarations.standing(case.id).missing == (
            "the case names Ann Example as its examiner, but Dora Other declared the report",
        )


def _cli(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "taveer_desktop.cli", "--project", str(project), *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["declare", "C-1", "--examiner", "A\u202eB", "--role", "r"], "control or invisible"),
        (["declare", "C-1", "--examiner", " ", "--role", "r"], "examiner's name is empty"),
        (["review", "C-1", "--reviewer", "ann example", "--outcome", "approved"], "another"),
        (["review", "C-1", "--reviewer", "B", "--outcome", "changes-required"], "comments"),
        (["declare", "C-9", "--examiner", "A", "--role", "r"], "has no case numbered"),
    ],
)
def test_cli_refusals_are_one_line_and_exit_2(project, args, words):
    done = _cli(project, "case", *args)
    assert done.returncode == 2 and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_cli_declare_review_and_show_agree(project, tmp_path):
    statement = tmp_path / "truth.txt"
    statement.write_text("The lab's own statement of truth.\n", "utf-8")
    declared = _cli(project, "case", "declare", "C-1", "--examiner", "Ann Example", "--role",
                    "linguist", "--statement-file", str(statement), "--json")  # fmt: skip
    assert declared.returncode == 0, declared.stderr
    standing = json.loads(declared.stdout)["report_standing"]
    assert standing["declaration"]["statement_of_truth"] == "The lab's own statement of truth."
    assert standing["missing"] == ["no technical review of the latest declaration"]
    reviewed = _cli(project, "case", "review", "C-1", "--reviewer", "Bob", "--outcome",
                    "approved")  # fmt: skip
    assert reviewed.returncode == 0 and "a report can be final" in reviewed.stdout
    shown = json.loads(_cli(project, "case", "show", "C-1", "--json").stdout)
    assert shown["report_standing"]["final"] is True
    assert shown["report_standing"]["review"]["reviewer"] == "Bob"
