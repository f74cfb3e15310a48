"""End to end: a COAV model validated from the command line, then ``taveer case verify`` stores
the stability of COAV's stated ratio with the run (``store/case_verification.py``) and says
it, and ``taveer verify --stability`` reports it in its JSON."""

from __future__ import annotations

import json

import pytest

from taveer_desktop import paths
from taveer_desktop.cli.main import main
from taveer_desktop.store import ProjectStore
from tests.cli.test_comparison_cli import SMALL, run
from tests.core.validation_fixtures import make_demo_population

pytestmark = pytest.mark.slow  # a validation, then a case verified end to end (about 6 s)


@pytest.fixture(scope="module")
def coav_model(tmp_path_factory):
    """The real COAV validated on the demo population with the small settings (a second)."""
    root = tmp_path_factory.mktemp("coav")
    folder = make_demo_population(root)
    model = root / "coav.json"
    arguments = ["validate", "--population", folder, "-o", model, "--method", "coav", *SMALL]
    assert main([str(a) for a in arguments]) == 0
    return model


@pytest.fixture(scope="module")
def demo_case():
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    return [demo / name for name in entry["known"]], demo / entry["questioned"]


def test_case_verify_stores_and_says_the_stability_of_coavs_ratio(
    capsys, tmp_path, coav_model, demo_case
):
    known, questioned = demo_case
    project = tmp_path / "case.taveer"
    p = ("--project", project)
    assert run(capsys, *p, "case", "create", "CASE-1", "--title", "Demo")[0] == 0
    assert run(capsys, *p, "case", "add", "CASE-1", "--known", *known)[0] == 0
    assert run(capsys, *p, "case", "add", "CASE-1", "--questioned", questioned)[0] == 0
    assert run(capsys, *p, "model", "add", coav_model)[0] == 0
    with ProjectStore.open(project) as store:
        (stored,) = store.models.list_all()
    code, out, err = run(
        capsys, *p, "case", "verify", "CASE-1", "--model", stored.name, "--stability", "20"
    )
    assert code == 0, err
    assert "stability of the stated ratio (COAV's ratio): " in out
    assert "when COAV's ratio is recomputed from the sentences each kept" in out
    with ProjectStore.open(project) as store:
        case = store.cases.find("CASE-1")
        (run_,) = store.runs.list_for_case(case.id)
        (check,) = store.runs.stability_checks(run_.id)
        result = store.runs.verification(run_.id)
    assert result.methods is not None and result.methods.stated == "coav"
    ratio = check.ratio
    assert ratio is not None and ratio.method == "coav" and ratio.resamples == 20
    assert ratio.drawn_afresh == () and 0 <= ratio.agreeing <= 20
    low, high = ratio.log10_lr_interval
    assert low <= high


def test_verify_stability_json_carries_coavs_ratio(capsys, coav_model, demo_case):
    known, questioned = demo_case
    code, out, err = run(
        capsys,
        "verify",
        coav_model,
        "--known",
        *known,
        "--unknown",
        questioned,
        "--stability",
        "20",
        "--json",
    )
    assert code == 0, err
    detail = json.loads(out)["stability_detail"]
    assert detail["ratio"]["method"] == "coav" and detail["ratio"]["resamples"] == 20
