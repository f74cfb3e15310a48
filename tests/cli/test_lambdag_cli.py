"""``taveer validate --method lambdag | fusion`` and ``taveer verify`` with the model it writes,
end to end as a script runs them, on the small demo population (skipped without the texts)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from taveer_desktop.core.methods.taveer.model import load_model
from tests.cli.test_cli import EVALUATE_KEYS, assert_bad_input, run, write_folder_corpus
from tests.core.validation_fixtures import make_demo_population

QUICK = ("--folds", 3, "--lambdag-order", 4, "--lambdag-samples", 5, "--seed", 1)
LENGTHS = ("--questioned-chars", 3000, "--known-chars", 9000)


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("lambdag-population"))


@pytest.fixture(scope="module")
def fused(demo_folder, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fused")
    model_path, record_path = folder / "fused.json", folder / "record.json"
    result = run(
        "validate", "--population", demo_folder, "-o", model_path, "--record", record_path,
        "--method", "fusion", *QUICK, *LENGTHS, "--json", timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), model_path, record_path


def test_fusion_validation_reports_every_method_side_by_side(fused):
    summary, model_path, record_path = fused
    assert set(summary["methods"]) == {"taveer", "lambdag", "fusion"}
    assert summary["cllr"] == summary["methods"]["fusion"]["cllr"]
    for figures in summary["methods"].values():
        assert 0.0 <= figures["auc"] <= 1.0 and figures["cllr"] > 0
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["protocol"]["method"] == "fusion"
    assert 1 <= record["lambdag"]["order"] <= 4 and record["lambdag"]["samples"] == 5
    trial = record["trials"][0]
    assert set(trial["log10_lr_by_method"]) == {"taveer", "lambdag", "fusion"}
    assert trial["log10_lr"] == trial["log10_lr_by_method"]["fusion"]
    model = load_model(model_path)
    assert model.extra["method"] == "fusion"
    assert model.extra["fusion"]["methods"] == ["taveer", "lambdag"]
    text = model_path.read_text(encoding="utf-8")
    for word in ("Huntingdon", "Wildfell", "Lowood", "confederacy"):  # no running text
        assert word not in text


def test_verify_with_the_fused_model_states_the_fused_lr_and_each_method_beside_it(
    fused, demo_folder
):
    _, model_path, _ = fused
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    hamilton = sorted((demo_folder / "Hamilton").glob("*.txt"))
    args = ("verify", model_path, "--known", *madison[:3], "--unknown")
    result = run(*args, madison[3], "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    methods = data["methods"]
    assert methods["method"] == "fusion"
    lrs = methods["log10_lr_by_method"]
    assert set(lrs) == {"taveer", "lambdag", "fusion"}
    assert all(isinstance(v, float) for v in lrs.values())
    assert data["repeats"]["final_log10_lr"] == pytest.approx(lrs["fusion"], abs=1e-6)
    if data["repeats"]["status"] == "disagree":  # its repeats' own fits point both ways: LR 1
        assert data["conclusion"]["log10_lr"] == 0.0
        assert "repeats_disagree" in {f["rule"] for f in data["conclusion"]["findings"]}
    elif data["conclusion"]["log10_lr"] is not None:
        assert data["conclusion"]["log10_lr"] == pytest.approx(lrs["fusion"], abs=1e-6)
    again = json.loads(run(*args, madison[3], "--json").stdout)
    assert again["methods"] == methods  # seeded by the model: the same case, the same ratios
    text = run(*args, hamilton[0])
    assert text.returncode == 0, text.stderr
    # the fusion's weights beside its ratio; each method's part in it (issue 23)
    assert "TAVeer + LambdaG (stated; weights TAVeer " in text.stdout
    assert "TAVeer alone (" in text.stdout and "LambdaG alone (" in text.stdout
    assert any(
        words in text.stdout
        for words in (
            "The two methods agree, and both carry weight",
            "The two methods disagree",
            "not two methods agreeing",
            "the stated ratio is",
        )
    )


@pytest.mark.slow
def test_lambdag_alone_states_lambdags_ratio(demo_folder, tmp_path):
    model_path = tmp_path / "lambdag.json"
    result = run(
        "validate", "--population", demo_folder, "-o", model_path, "--method", "lambdag",
        *QUICK, *LENGTHS, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "LambdaG: Cllr" in result.stdout and "(stated)" in result.stdout
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    verified = run("verify", model_path, "--known", *madison[:3], "--unknown", madison[4], "--json")
    assert verified.returncode == 0, verified.stderr
    lrs = json.loads(verified.stdout)["methods"]["log10_lr_by_method"]
    assert set(lrs) == {"taveer", "lambdag"}


def test_bad_lambdag_input_is_one_line_exit_2(fused, demo_folder, tmp_path):
    line = assert_bad_input(
        run("validate", "--population", demo_folder, "-o", tmp_path / "m.json",
            "--method", "lambdag", "--lambdag-order", 17),
        "--lambdag-order",
    )  # fmt: skip
    assert not (tmp_path / "m.json").exists() and "1 to 16" in line
    bad_report = tmp_path / "missing" / "r.pdf"  # a fused validation writes its report, but
    line = assert_bad_input(  # a target that cannot be written is refused before the run
        run("validate", "--population", demo_folder, "-o", tmp_path / "m.json",
            "--method", "fusion", "--report", bad_report),
        bad_report,
    )  # fmt: skip
    assert not (tmp_path / "m.json").exists() and not bad_report.exists()
    _, model_path, _ = fused
    data = json.loads(model_path.read_text(encoding="utf-8"))
    data["lambdag"]["reference"]["data"] = data["lambdag"]["reference"]["data"][:-40] + "A" * 40
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    line = assert_bad_input(
        run("verify", broken, "--known", madison[0], "--unknown", madison[1]), broken
    )
    assert "LambdaG reference" in line
    corpus = demo_corpus(demo_folder, tmp_path / "corpus", cases=4)
    line = assert_bad_input(run("evaluate", broken, corpus, "--json"), broken)
    assert "LambdaG reference" in line
    del data["fusion"]
    data["lambdag"] = json.loads(model_path.read_text(encoding="utf-8"))["lambdag"]
    no_fusion = tmp_path / "no-fusion.json"
    no_fusion.write_text(json.dumps(data), encoding="utf-8")
    line = assert_bad_input(run("evaluate", no_fusion, corpus), no_fusion)
    assert "fusion part is missing" in line


def demo_corpus(demo_folder, root, cases: int = 16, chars: int = 6000):
    """A PAN folder corpus of ``cases`` cases from the demo population's documents: two known
    documents of one author, the questioned one by the same author (even cases) or another."""
    authors = sorted(p.name for p in demo_folder.iterdir() if p.is_dir())
    documents = {a: sorted((demo_folder / a).glob("*.txt")) for a in authors}

    def text(path):
        return path.read_text(encoding="utf-8")[:chars]

    rows = []
    for i in range(cases):
        author = authors[i % len(authors)]
        known = [text(p) for p in documents[author][:2]]
        same = i % 2 == 0
        if same:
            unknown = text(documents[author][2 + (i // len(authors)) % 3])
        else:
            other = authors[(i + 1) % len(authors)]
            unknown = text(documents[other][-1 - (i // len(authors)) % 3])
        rows.append((f"EN{i + 1:03d}", known, unknown, same))
    return write_folder_corpus(root, rows)


@pytest.fixture(scope="module")
def evaluated(fused, demo_folder, tmp_path_factory):
    corpus = demo_corpus(demo_folder, tmp_path_factory.mktemp("evaluate") / "corpus")
    _, model_path, _ = fused
    result = run("evaluate", model_path, corpus, "--json", "--workers", 2, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), corpus


def test_evaluate_of_a_fused_model_measures_every_method_side_by_side(evaluated):
    data, _ = evaluated
    assert set(data) == EVALUATE_KEYS
    assert data["method"] == "fusion"
    methods = data["methods"]
    assert set(methods) == {"taveer", "lambdag", "fusion"}
    for name, figures in methods.items():
        assert figures["n"] == data["n"] == 16, name
        assert figures["tp"] + figures["fn"] + figures["fp"] + figures["tn"] == 16
        assert 0.0 <= figures["auc"] <= 1.0 and figures["cllr"] > 0, name
        assert figures["cllr_min"] <= figures["cllr"] + 1e-9, name
    # the headline measures are the stated method's, under today's keys
    for key in ("accuracy", "auc", "c_at_1", "f05u", "brier", "cllr", "cllr_min", "ece"):
        assert data[key] == methods["fusion"][key], key
    assert data["cllr_evaluative"] == methods["fusion"]["cllr_evaluative"]


def test_evaluate_gives_each_case_the_ratios_verify_gives_it(fused, evaluated):
    """Every case's LambdaG and fused ratio in an evaluation (two processes) is the one
    ``verify`` states for that case alone, and one process gives the same evaluation."""
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.validation.evaluation import evaluate
    from taveer_desktop.core.verification.method_verify import verify_with_method

    data, corpus_path = evaluated
    _, model_path, _ = fused
    model = load_model(model_path)
    corpus = open_corpus(corpus_path)
    one = evaluate(model, corpus, workers=1)
    two = evaluate(model, corpus, workers=2)
    assert one.method == two.method == "fusion"
    for method in ("taveer", "lambdag", "fusion"):
        np.testing.assert_array_equal(one.methods[method].log10_lr, two.methods[method].log10_lr)
        assert one.methods[method].to_dict() == two.methods[method].to_dict()
    for method, figures in one.report_dict()["methods"].items():  # the CLI's, in one process
        for key, value in figures.items():
            expected = data["methods"][method][key]
            assert value == (None if expected is None else pytest.approx(expected)), key
    for index, case in enumerate(corpus.iter_cases()):
        verified = verify_with_method(model, case.known_texts, case.unknown_text).methods
        assert verified is not None
        assert one.lambdag_raw[index] == pytest.approx(verified.lambdag_raw, abs=1e-12)
        for method in ("taveer", "lambdag", "fusion"):
            expected = verified.by_method[method]
            assert expected is not None  # every category abstaining is not expected here
            got = one.methods[method].log10_lr[index]
            assert got == pytest.approx(expected, abs=1e-9), (case.case_id, method)


def test_evaluate_text_names_each_method(fused, evaluated):
    _, corpus = evaluated
    _, model_path, _ = fused
    result = run("evaluate", model_path, corpus, "--workers", 1, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("By method (the same cases):")
    stated, *alone = lines[start + 1 : start + 4]
    assert stated.startswith("  TAVeer + LambdaG (stated): AUC ")
    assert alone[0].startswith("  TAVeer alone: AUC ") and alone[1].startswith("  LambdaG alone:")
    for line in (stated, *alone):
        assert "Cllr " in line and "c@1 " in line and "F0.5u " in line


def test_explain_lambdag_shows_the_strongest_sentences_and_where_both_methods_agree(
    fused, demo_folder
):
    _, model_path, _ = fused
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    args = ("explain", model_path, "--known", *madison[:3], "--unknown", madison[3])
    text = run(*args, "--category", "lambdag", "--top", "2")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("At order ") and "add up to λG = " in text.stdout
    assert "towards Hp" in text.stdout and "towards Hd" in text.stdout
    assert "strongest tokens:" in text.stdout
    data = json.loads(run(*args, "--category", "LambdaG", "--json").stdout)
    shares = [sum(t[3] for t in s["tokens"]) for s in data["sentences"]]
    assert sum(shares) == pytest.approx(data["lambdag_raw"], abs=1e-4 * len(shares) * 50)
    assert len(data["taveer_lean_by_sentence"]) == len(data["sentences"])
    for share, lean, both in zip(
        shares, data["taveer_lean_by_sentence"], data["both_point_same_way"], strict=True
    ):
        same = lean != 0 and share != 0 and (lean > 0) == (share > 0)
        assert both == (0 if not same else (1 if share > 0 else -1))


def test_explain_lambdag_with_a_taveer_model_is_one_line_exit_2(demo_folder):
    from taveer_desktop import paths

    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    model = paths.resource("models", "demo-formal-prose.json")
    line = assert_bad_input(
        run("explain", model, "--known", madison[0], "--unknown", madison[1],
            "--category", "lambdag"),
        model,
    )  # fmt: skip
    assert "has no LambdaG part" in line
