"""A case validated and verified with LambdaG or the fusion: the run keeps every method's ratio
and LambdaG's evidence in the text, and reads them back typed; ``case validate --method`` and
``case verify`` do it from the command line."""

from __future__ import annotations

import json
import math

import pytest

from taveer_desktop.core.calibration.method_findings import TokenKind
from taveer_desktop.store import ProjectStore
from tests.cli.test_cli import run
from tests.method_fixtures import POPULATION, POPULATION_DESCRIPTION, method_project_copy


@pytest.fixture(scope="module")
def fused(tmp_path_factory, built_once):
    return method_project_copy(built_once, tmp_path_factory.mktemp("fused-project"), "fusion")


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


def test_lambdag_alone_is_stored_and_read_back(tmp_path, built_once):
    result, _, _ = _only_run(method_project_copy(built_once, tmp_path, "lambdag"))
    assert result.methods is not None and result.methods.stated == "lambdag"
    assert set(result.methods.by_method) == {"taveer", "lambdag"}


@pytest.mark.slow
def test_case_validate_and_verify_with_the_fusion_from_the_command_line(tmp_path):
    project = tmp_path / "cli.taveer"
    # Madison papers of the demo case, not of the population (a case's own documents are left
    # out of the population its validation uses, which would leave too few long trials here)
    madison = [POPULATION.parent / "federalist" / f"federalist_{n}.txt" for n in (10, 14, 39, 45)]
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
    (check,) = stored["stability"]  # the stated ratio's stability beside the classification's
    assert check["ratio"]["method"] == "fusion" and check["ratio"]["resamples"] == 200
    text = run("--project", project, "case", "verify", "C-9", "--stability", "20", timeout=600)
    assert text.returncode == 0, text.stderr
    assert "stability of the stated ratio (the fused ratio): " in text.stdout
    assert "resamples give a ratio on the same side of 1 as the stated one" in text.stdout
    assert "stability of TAVeer's classification: " in text.stdout


def test_a_ratio_cut_to_its_validations_bound_says_so(fused):
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart, fusion_of
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

    from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
    from taveer_desktop.core.verification.method_verify import verify_with_method
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
    from taveer_desktop.core.calibration.outcome import ConclusionKind
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


# --- the stability of the stated ratio (issue 23) ---------------------------------------------


def test_a_fused_runs_stability_is_the_stated_ratios_too(fused):
    """The check stored with a fused run resamples λG with the same sentences left out and
    recomputes the fused ratio: its figures are stored with the check and read back."""
    _, _, (check,) = _only_run(fused)
    ratio = check.ratio
    assert ratio is not None and ratio.method == "fusion"
    assert ratio.resamples == check.resamples == 20
    assert 0 <= ratio.agreeing <= ratio.resamples
    low, high = ratio.log10_lr_interval
    assert math.isfinite(low) and low <= high
    assert "ratio" not in check.answers  # the answers stay the classification's counts


def test_resampled_lambda_g_keeping_every_sentence_is_the_runs_own(fused):
    """With every sentence kept, the resampled λG is exactly the run's (the same known model
    and the same seeded reference samples), so a resample differs only by what it leaves out."""
    import numpy as np

    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
    from taveer_desktop.core.methods.lambdag.lambdag_stability import (
        resampled_lambda_g,
        sentence_counts,
    )
    from taveer_desktop.core.verification.method_verify import LambdaGScorer
    from taveer_desktop.store.records import KNOWN

    result, text, _ = _only_run(fused)
    with ProjectStore.open(fused) as store:
        case = store.cases.find("M-1")
        (run_,) = store.runs.list_for_case(case.id)
        model = store.models.load(run_.model_id)
        known = [store.documents.text(d.id) for d in store.documents.in_use(case.id, KNOWN)]
    lexicon = default_lexicon()
    part = LambdaGPart.of(model, "test")
    scorer = LambdaGScorer(part, lexicon, "test")
    n_unknown, n_known = sentence_counts(known, text, lexicon)
    everything = (np.ones((2, n_unknown), bool), np.ones((2, n_known), bool))
    seed = scorer.sample_seed(known, text)  # the case's own (issue 30, item 4)
    raws = resampled_lambda_g(
        scorer.pool(), part.order, part.samples, seed, known, text, lexicon, *everything
    )
    assert result.methods is not None
    assert raws == pytest.approx([result.methods.lambdag_raw] * 2, abs=1e-5)


def test_a_taveer_runs_stability_has_no_ratio_part(tmp_path):
    """A TAVeer model's ratio is a function of the classification's score: its check is the
    classification's alone, as before."""
    from taveer_desktop import paths
    from taveer_desktop.core.methods.taveer.model import parse_model
    from taveer_desktop.core.stability.stated_stability import run_stability

    demo = paths.resource("demo", "federalist")
    known = [(demo / f"federalist_{n}.txt").read_text(encoding="utf-8") for n in ("10", "14")]
    questioned = (demo / "federalist_51_questioned.txt").read_text(encoding="utf-8")
    model_path = paths.resource("models", "demo-formal-prose.json")
    model = parse_model(model_path.read_text(encoding="utf-8"), "demo")
    stability = run_stability(model, known, questioned, "same-author", 0.5, resamples=10)
    assert stability.ratio is None and stability.resamples == 10
