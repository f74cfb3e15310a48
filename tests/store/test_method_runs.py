"""A case validated and verified with LambdaG or the fusion: the run keeps every method's ratio
and LambdaG's evidence in the text, and reads them back typed; ``case validate --method`` and
``case verify`` do it from the command line."""

from __future__ import annotations

import json
import math

import pytest

from taveer_desktop.core.method_findings import TokenKind
from taveer_desktop.store import ProjectStore
from tests.core.test_cli import run
from tests.method_fixtures import POPULATION, POPULATION_DESCRIPTION, method_project


@pytest.fixture(scope="module")
def fused(tmp_path_factory):
    return method_project(tmp_path_factory.mktemp("fused-project"), "fusion")


def _only_run(project):
    with ProjectStore.open(project) as store:
        case = store.cases.find("M-1")
        (run_,) = store.runs.list_for_case(case.id)
        result = store.runs.verification(run_.id)
        questioned = store.documents.list_for_case(case.id)[-1]
        text = store.documents.text(questioned.id)
        stability = store.runs.stability_checks(run_.id)
    return result, text, stability


def test_a_fused_run_keeps_each_methods_ratio_and_lambdags_evidence(fused):
    result, text, stability = _only_run(fused)
    findings = result.methods
    assert findings is not None and findings.stated == "fusion"
    assert set(findings.by_method) == {"taveer", "lambdag", "fusion"}
    assert all(v is None or math.isfinite(v) for v in findings.by_method.values())
    if result.log10_lr is not None:
        assert result.log10_lr == pytest.approx(findings.by_method["fusion"], abs=1e-6)
    evidence = findings.evidence
    assert evidence is not None and evidence.order == findings.lambdag_order
    assert evidence.total == pytest.approx(findings.lambdag_raw, abs=1e-3 * len(text) / 100)
    tokens = [t for s in evidence.sentences for t in s.tokens]
    kinds = {t.kind for t in tokens}
    assert kinds == {TokenKind.KEPT, TokenKind.MASKED, TokenKind.END}
    assert sum(t.kind is TokenKind.END for t in tokens) == len(evidence.sentences)
    assert stability  # TAVeer's classification's stability is kept beside the run


def test_lambdag_alone_is_stored_and_read_back(tmp_path):
    result, _, _ = _only_run(method_project(tmp_path, "lambdag"))
    assert result.methods is not None and result.methods.stated == "lambdag"
    assert set(result.methods.by_method) == {"taveer", "lambdag"}


def test_case_validate_and_verify_with_the_fusion_from_the_command_line(tmp_path):
    project = tmp_path / "cli.taveer"
    madison = sorted((POPULATION / "Madison").glob("*.txt"))
    steps = [
        ("case", "create", "C-9", "--title", "Madison?"),
        ("case", "add", "C-9", "--known", *madison[:3]),
        ("case", "add", "C-9", "--questioned", madison[3]),
        ("population", "add", "demo", POPULATION, "--description", POPULATION_DESCRIPTION),
    ]
    for step in steps:
        done = run("--project", project, *step)
        assert done.returncode == 0, (step, done.stderr)
    validated = run(
        "--project", project, "case", "validate", "C-9", "--population", "demo",
        "--method", "fusion", "--folds", "3", "--lambdag-order", "3", "--lambdag-samples", "4",
        timeout=600,
    )  # fmt: skip
    assert validated.returncode == 0, validated.stderr
    assert "(stated)" in validated.stdout and "LambdaG: Cllr" in validated.stdout
    verified = run("--project", project, "case", "verify", "C-9", "--json", timeout=600)
    assert verified.returncode == 0, verified.stderr
    (stored,) = json.loads(verified.stdout)["runs"]
    assert stored["result"]["methods"]["method"] == "fusion"


def test_a_ratio_cut_to_its_validations_bound_says_so(fused):
    from taveer_desktop.core.lambdag_model import LambdaGPart, fusion_of
    from taveer_desktop.presentation.method_agreement import AT_BOUND, method_lines

    result, _, _ = _only_run(fused)
    findings = result.methods
    with ProjectStore.open(fused) as store:
        model = store.models.load(store.models.list_all()[-1].id)
    bounds = {
        "taveer": (model.calibration.min_log10_lr, model.calibration.max_log10_lr),
        "lambdag": (
            LambdaGPart.of(model, "m").calibration.min_log10_lr,
            LambdaGPart.of(model, "m").calibration.max_log10_lr,
        ),
        "fusion": (fusion_of(model, "m").min_log10_lr, fusion_of(model, "m").max_log10_lr),
    }
    expected = {
        m
        for m, v in findings.by_method.items()
        if v is not None and any(b is not None and v == pytest.approx(b) for b in bounds[m])
    }
    assert set(findings.at_bound) == expected
    for line in method_lines(findings):
        method = next((m for m in ("fusion", "taveer", "lambdag") if m in line.lower()), None)
        if "LR " in line and method in expected and "agree" not in line:
            assert AT_BOUND in line


def test_a_lambdag_score_outside_its_validated_range_leaves_an_investigative_conclusion(fused):
    from dataclasses import replace

    from taveer_desktop.core.method_verify import verify_with_method
    from taveer_desktop.core.outcome import ConclusionKind, GateRule
    from taveer_desktop.store import KNOWN, QUESTIONED

    with ProjectStore.open(fused) as store:
        model = store.models.load(store.models.list_all()[-1].id)
        case = store.cases.find("M-1")
        known = [store.documents.text(d.id) for d in store.documents.in_use(case.id, KNOWN)]
        (questioned,) = store.documents.in_use(case.id, QUESTIONED)
        text = store.documents.text(questioned.id)
    low, high = model.extra["lambdag"]["raw_range"]  # the validation's trials' λG
    assert low <= high
    inside = verify_with_method(model, known, text)
    raw = inside.methods.lambdag_raw
    assert not any("LambdaG: its score" in r for r in inside.conclusion.reasons)
    narrowed = {**model.extra["lambdag"], "raw_range": [raw + 1.0, raw + 2.0]}
    outside = verify_with_method(
        replace(model, extra={**model.extra, "lambdag": narrowed}), known, text
    )
    (finding,) = [f for f in outside.conclusion.findings if "LambdaG: its score" in f.message]
    assert finding.rule is GateRule.VALIDATED_CONDITIONS and finding.limit == raw + 1.0
    assert outside.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert outside.log10_lr == pytest.approx(outside.methods.by_method["fusion"])


def test_method_lines_under_a_conclusion_say_what_kind_it_is(fused):
    from taveer_desktop.core.outcome import ConclusionKind
    from taveer_desktop.presentation.method_agreement import (
        INVESTIGATIVE_METHODS,
        method_lines,
        result_method_lines,
    )

    findings = _only_run(fused)[0].methods
    assert result_method_lines(findings, ConclusionKind.EVALUATIVE) == method_lines(findings)
    investigative = result_method_lines(findings, ConclusionKind.INVESTIGATIVE)
    assert investigative[:-1] == method_lines(findings)
    assert investigative[-1].strip() == INVESTIGATIVE_METHODS
    (none,) = result_method_lines(findings, ConclusionKind.NONE)
    assert "no method's likelihood ratio is reported" in none and "LR " not in none
