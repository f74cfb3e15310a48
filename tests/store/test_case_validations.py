"""A case's validations (issue 21): every attempt kept, a failed attempt never replacing a met
one as the case's model, a stored validation declared relevant to another case (store version
5, audited, held to the chain), the basis ``case verify`` rests on, and the commands."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_basis import DECLARED_USE, basis_for_case, case_attempts
from taveer_desktop.store.case_validation import use_validation, validate_case
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.errors import Conflict, StoreError
from tests.cli.test_cli import run
from tests.core.validation_fixtures import make_demo_population
from tests.store.test_reconciliation import _forge, _problems

REASON = "the same letters-to-the-editor register as the questioned letter, same decade"


def _settings(seed: int, max_cllr: float) -> ValidationSettings:
    return ValidationSettings(
        folds=3, bootstrap=10, seed=seed, criteria=AcceptanceCriteria.now(max_cllr=max_cllr)
    )


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("attempts-population"))


@pytest.fixture
def project(tmp_path, demo_folder):
    """Two cases with Madison's papers and the demo population."""
    path = tmp_path / "p.taveer"
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    with ProjectStore.create(path) as store:
        for number in ("C-1", "C-2"):
            case = store.cases.create(number)
            store.documents.add(case.id, KNOWN, madison[:2])
            store.documents.add(case.id, QUESTIONED, [madison[2]])
        store.populations.add_folder("demo", demo_folder, "Brontës and Federalist; too small")
    return path


@pytest.mark.slow
def test_attempts_are_kept_and_a_failed_one_never_replaces_a_met_one(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        met = validate_case(store, case.id, "demo", _settings(0, max_cllr=9.0))
        assert met.chosen and met.case_model == met.model
        failed = validate_case(store, case.id, "demo", _settings(1, max_cllr=0.0))
        assert failed.validation.criteria_met is False
        assert not failed.chosen and failed.case_model == met.model
        assert store.cases.get(case.id).model_id == met.model.id
        attempts = case_attempts(store, case.id)
        assert [a.validation.id for a in attempts] == [met.validation.id, failed.validation.id]
        assert [a.chosen for a in attempts] == [True, False]
        assert [a.basis.seed for a in attempts] == [0, 1]
        data = attempts[1].to_dict()
        assert data["met"] is False and data["criteria"]["max_cllr"] == 0.0
        assert data["model"] == failed.model.name and data["link"] == "attempt"
        again = validate_case(store, case.id, "demo", _settings(2, max_cllr=9.0))
        assert again.chosen  # a met attempt may replace a met one: the examiner's latest
        assert len(case_attempts(store, case.id)) == 3
        other = store.cases.find("C-2")  # a case whose only attempt failed still gets it
        alone = validate_case(store, other.id, "demo", _settings(3, max_cllr=0.0))
        assert alone.chosen and store.cases.get(other.id).model_id == alone.model.id
    assert _problems(project) == []


@pytest.mark.slow
def test_a_validation_declared_relevant_to_another_case(project):
    with ProjectStore.open(project) as store:
        first, second = store.cases.find("C-1"), store.cases.find("C-2")
        done = validate_case(store, first.id, "demo", _settings(0, max_cllr=9.0))
        assert basis_for_case(store, second.id, done.model.id) is None
        used = use_validation(store, second.id, done.validation.id, f"  {REASON} ")
        assert used.chosen and used.case_model == done.model and used.use.reason == REASON
        basis = basis_for_case(store, second.id, done.model.id)
        assert basis is not None and basis.declaration == REASON
        assert basis.source.record_id == done.validation.id
        assert basis.source.sha256 == done.validation.record_sha256
        (attempt,) = case_attempts(store, second.id)
        assert attempt.link == DECLARED_USE and attempt.reason == REASON and attempt.chosen
        entry = store.audit.entries(second.id)[-2]
        assert entry.action == "validation_used"
        assert entry.details["record_sha256"] == done.validation.record_sha256
        assert entry.details["reason"] == REASON
        with pytest.raises(Conflict, match="already links"):
            use_validation(store, second.id, done.validation.id, REASON)
        with pytest.raises(Conflict, match="attempt of this case"):
            use_validation(store, first.id, done.validation.id, REASON)
        with pytest.raises(StoreError, match="reason"):
            use_validation(store, second.id, done.validation.id, "   ok ")
        # a declared use of a failed validation does not replace the met one chosen
        failed = validate_case(store, first.id, "demo", _settings(1, max_cllr=0.0))
        kept = use_validation(store, second.id, failed.validation.id, REASON)
        assert not kept.chosen and kept.case_model == done.model
    assert _problems(project) == []


def test_declared_uses_are_immutable_and_held_to_the_chain(project):
    with ProjectStore.open(project) as store:
        first, second = store.cases.find("C-1"), store.cases.find("C-2")
        done = validate_case(store, first.id, "demo", _settings(0, max_cllr=9.0))
        use_validation(store, second.id, done.validation.id, REASON)
    for statement in ("UPDATE validation_uses SET reason = 'x'", "DELETE FROM validation_uses"):
        with pytest.raises(sqlite3.IntegrityError, match="cannot be"):
            _forge(project, statement)
    _forge(project, "UPDATE validation_uses SET reason = 'because I say so'",
           unguard="validation_uses_immutable")  # fmt: skip
    assert any(p.startswith("declared use 1: differs from its seal") for p in _problems(project))
    _forge(project, "DELETE FROM validation_uses", unguard="validation_uses_no_delete")
    assert any(p.startswith("declared use 1: is missing") for p in _problems(project))
    _forge(
        project,
        "INSERT INTO validation_uses (id, case_id, validation_id, reason, declared_utc)"
        f" VALUES (7, 2, 1, '{REASON}', '2025-01-01T00:00:00Z')",
    )
    assert any(
        p.startswith("declared use 7: is not in the audit chain") for p in _problems(project)
    )


def test_case_verify_rests_on_the_cases_validation(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        done = validate_case(store, case.id, "demo", _settings(0, max_cllr=9.0))
        (run_,) = verify_case(store, case.id, stability_resamples=None)
        result = store.runs.verification(run_.id)
        assert result.validation is not None
        assert result.validation.source.record_id == done.validation.id
        assert result.validation.source.sha256 == done.validation.record_sha256
        rules = {f.rule.value for f in result.conclusion.findings}
        assert "validation_too_small" in rules and "no_validation" not in rules
        assert result.conclusion.kind is not ConclusionKind.EVALUATIVE
        shipped = store.models.add_file(_shipped_model())
        (bare,) = verify_case(store, case.id, shipped.name, stability_resamples=None)
        typed = store.runs.verification(bare.id)
        assert typed.validation is None
        assert "no_validation" in {f.rule.value for f in typed.conclusion.findings}


def _shipped_model():
    from taveer_desktop import paths

    return paths.resource("models", "demo-formal-prose.json")


@pytest.mark.slow
def test_case_attempts_and_use_validation_commands(project):
    for seed, cllr in ((0, "9"), (1, "0")):
        done = run(
            "--project", project, "case", "validate", "C-1", "--population", "demo",
            "--folds", "3", "--seed", str(seed), "--accept-cllr", cllr, "--json",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["chosen"] is False and data["case_model"].endswith("seed 0)")
    text = run("--project", project, "case", "validate", "C-1", "--population", "demo",
               "--folds", "3", "--seed", "4", "--accept-cllr", "0")  # fmt: skip
    assert "NOT chosen for the case" in text.stdout and "the case keeps model" in text.stdout
    listed = run("--project", project, "case", "attempts", "C-1", "--json")
    attempts = json.loads(listed.stdout)["attempts"]
    assert [a["met"] for a in attempts] == [True, False, False]
    assert [a["chosen"] for a in attempts] == [True, False, False]
    assert {"id", "when", "method", "population", "seed", "criteria", "met", "cllr", "model",
            "chosen"} <= set(attempts[0])  # fmt: skip
    used = run("--project", project, "case", "use-validation", "C-2", str(attempts[0]["id"]),
               "--reason", REASON, "--json")  # fmt: skip
    assert used.returncode == 0, used.stderr
    assert json.loads(used.stdout)["chosen"] is True
    shown = run("--project", project, "case", "attempts", "C-2")
    assert "declared" in shown.stdout and REASON in shown.stdout
    # times as the desktop shows them, never raw ISO (issue 23)
    assert re.search(r"declared \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: ", shown.stdout)
    assert not re.search(r"\d\dT\d\d:", shown.stdout)
    bad = run("--project", project, "case", "use-validation", "C-2", "99", "--reason", REASON)
    assert bad.returncode == 2 and "no validation record with id 99" in bad.stderr
    assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_new_attempt_never_fails_on_its_name_after_the_work(project):
    """The same conditions and seed with other criteria make a new attempt with a numbered
    automatic name; a name given that is already used is refused before any work."""
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        first = validate_case(store, case.id, "demo", _settings(0, max_cllr=0.0))
        second = validate_case(store, case.id, "demo", _settings(0, max_cllr=9.0))
        assert second.model.name == f"{first.model.name}, attempt 2"
        assert second.chosen  # a met attempt replaces a failed one
        audit_before = len(store.audit.entries(case.id))
        with pytest.raises(StoreError, match="already holds a model named"):
            validate_case(
                store, case.id, "demo", _settings(1, max_cllr=9.0), model_name=first.model.name
            )
        assert len(store.audit.entries(case.id)) == audit_before  # nothing was written
        assert len(case_attempts(store, case.id)) == 2


def test_a_validation_that_gives_no_model_is_kept_as_a_failed_attempt(project, monkeypatch):
    """Issue 30 item 5: the engine's refusal is kept (audited, with its reason), listed by
    ``failed_attempts`` and ``case attempts``, the chain still whole, nothing else stored."""
    from taveer_desktop.core.ground.errors import InputError
    from taveer_desktop.store import case_validation

    reason = "NNCD could compare too few trials of one class to calibrate"

    def refuse(population, settings, **_):
        raise InputError(reason, population.source)

    monkeypatch.setattr(case_validation, "validate", refuse)
    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        models = len(store.models.list_all())
        with pytest.raises(InputError, match="too few trials"):
            validate_case(store, case.id, "demo", _settings(5, max_cllr=9.0))
        assert len(store.models.list_all()) == models and case_attempts(store, case.id) == []
        [failed] = case_validation.failed_attempts(store, case.id)
        assert failed.details["reason"] == reason and failed.details["seed"] == 5
        assert failed.details["population"] == "demo" and failed.details["method"] == "taveer"
        assert store.audit.head().action == "validation_failed"
        assert case_validation.failed_attempts(store, store.cases.find("C-2").id) == []
    assert _problems(project) == []
    listed = run("--project", project, "case", "attempts", "C-1", "--json")
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    assert data["attempts"] == [] and data["failed"][0]["reason"] == reason
    text = run("--project", project, "case", "attempts", "C-1")
    assert "failed, no model — TAVeer on population “demo”, seed 5: " + reason in text.stdout
    # the desktop's attempts list, the wizard's first line and the case report word it the same
    from taveer_desktop.presentation.validation_wizard_text import earlier_attempts_line
    from taveer_desktop.report.validation_attempts import failed_lines

    with ProjectStore.open(project) as store:
        case = store.cases.find("C-1")
        [line] = failed_lines(store, case)
    assert line in text.stdout
    assert earlier_attempts_line([], "C-1", 1) == (
        "Case C-1 has no validation record yet: 1 attempt failed and gave no model. The last "
        "page lists every attempt with its reason."
    )
