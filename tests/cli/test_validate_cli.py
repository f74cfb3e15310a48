"""``taveer validate`` as a script runs it: the JSON contract, the model it writes working with
``verify`` and ``evaluate``, the record, and one line with exit status 2 on bad input."""

from __future__ import annotations

import json

import pytest

from taveer_desktop.core.methods.taveer.model import load_model
from tests.cli.test_cli import assert_bad_input, run
from tests.core.validation_fixtures import make_demo_population

CONTRACT_KEYS = {
    "authors",
    "trials",
    "cllr",
    "cllr_min",
    "eer",
    "auc",
    "accuracy",
    "misleading_y",
    "misleading_n",
    "acceptance",
    "model",
    "record",
}


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("cli-population"))


@pytest.mark.slow
def test_validate_prints_the_contract_and_writes_model_and_record(demo_folder, tmp_path):
    model_path, record_path = tmp_path / "m.json", tmp_path / "r.json"
    result = run(
        "validate",
        "--population",
        demo_folder,
        "-o",
        model_path,
        "--record",
        record_path,
        "--questioned-chars",
        3000,
        "--known-chars",
        9000,
        "--folds",
        3,
        "--seed",
        3,
        "--accept-cllr",
        2.0,
        "--accept-misleading",
        0.6,
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= CONTRACT_KEYS
    assert data["authors"] == 6
    assert data["trials"]["same"] == data["trials"]["different"] >= 20
    assert set(data["acceptance"]) >= {"criteria", "met"}
    assert data["acceptance"]["criteria"]["max_cllr"] == 2.0
    assert isinstance(data["acceptance"]["met"], bool)
    assert data["model"] == str(model_path) and data["record"] == str(record_path)
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["figures"]["cllr"] == data["cllr"]
    assert len(record["trials"]) == data["trials"]["same"] + data["trials"]["different"]
    model = load_model(model_path)
    assert model.extra["validation"]["population"]["name"] == "demo-population"
    # the model works like any model
    madison = sorted((demo_folder / "Madison").glob("*.txt"))
    verified = run("verify", model_path, "--known", *madison[:3], "--unknown", madison[3], "--json")
    assert verified.returncode == 0, verified.stderr
    assert "demo-population" in json.loads(verified.stdout)["conclusion"]["population"]


@pytest.mark.slow
def test_the_same_seed_gives_the_same_validation(demo_folder, tmp_path):
    outputs = []
    for name in ("a", "b"):
        result = run(
            "validate",
            "--population",
            demo_folder,
            "-o",
            tmp_path / f"{name}.json",
            "--questioned-chars",
            2500,
            "--known-chars",
            6000,
            "--folds",
            2,
            "--json",
        )
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        data.pop("model")
        data["acceptance"]["criteria"].pop("set_utc")
        for block in data["methods"].values():  # a measured cost, not a result
            block.pop("seconds_per_trial")
        outputs.append(data)
    assert outputs[0] == outputs[1]
    assert outputs[0]["acceptance"]["met"] is None  # no criteria set


@pytest.mark.slow
def test_bad_population_is_one_line_exit_2(demo_folder, tmp_path):
    missing = tmp_path / "nowhere"
    assert_bad_input(run("validate", "--population", missing, "-o", tmp_path / "m.json"), missing)
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "a.txt").write_text("Just one file.", encoding="utf-8")
    assert_bad_input(run("validate", "--population", flat, "-o", tmp_path / "m.json"), flat)
    line = assert_bad_input(
        run(
            "validate",
            "--population",
            demo_folder,
            "-o",
            tmp_path / "m.json",
            "--questioned-chars",
            40000,
        ),
        demo_folder,
    )
    assert "at least 20" in line
    assert not (tmp_path / "m.json").exists()


@pytest.mark.slow
def test_a_validated_model_is_added_to_a_project_like_any_model(demo_folder, tmp_path):
    model_path = tmp_path / "validated.json"
    result = run(
        "validate", "--population", demo_folder, "-o", model_path, "--folds", 2,
        "--questioned-chars", 2500, "--known-chars", 6000, "--workers", 2,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("validated on 6 authors")
    added = run("--project", tmp_path / "p.taveer", "model", "add", model_path, "--json")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["corpus_name"] == "demo-population"
    listed = run("--project", tmp_path / "p.taveer", "model", "list", "--json")
    (model,) = json.loads(listed.stdout)["models"]
    assert (
        model["conditions"]["known_chars"]["low"]
        <= 6000
        <= model["conditions"]["known_chars"]["high"]
    )


def test_a_corpus_without_authors_is_refused(tmp_path):
    corpus = tmp_path / "pairs"
    corpus.mkdir()
    pairs = [{"id": f"p{i}", "pair": ["A text. Two.", "B text. Two."]} for i in range(4)]
    (corpus / "pairs.jsonl").write_text(
        "".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8"
    )
    (corpus / "truth.jsonl").write_text(
        "".join(json.dumps({"id": p["id"], "same": True}) + "\n" for p in pairs),
        encoding="utf-8",
    )
    line = assert_bad_input(
        run("validate", "--population", corpus, "-o", tmp_path / "m.json"), "truth.jsonl"
    )
    assert "authors" in line


def test_the_text_output_states_the_bound_and_that_six_authors_are_too_few(tmp_path):
    """On the population the demo ships (runs everywhere): what a person reads."""
    from taveer_desktop import paths

    result = run(
        "validate",
        "--population",
        paths.resource("demo", "population"),
        "-o",
        tmp_path / "m.json",
        "--questioned-chars",
        3000,
        "--known-chars",
        9000,
        "--folds",
        3,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("validated on 6 authors")
    assert any(line.startswith("The likelihood ratio is bounded") for line in lines)
    assert any(line.startswith("Too small for casework: 6 authors") for line in lines)
    model = load_model(tmp_path / "m.json")
    bound = model.extra["validation"]["bound"]
    assert f"1/{10 ** -bound['min_log10_lr']:.3g}" in result.stdout


@pytest.mark.slow
def test_a_declared_range_with_repeats_gives_conditions_repeats_bands_and_casework(
    demo_folder, tmp_path
):
    result = run(
        "validate",
        "--population",
        demo_folder,
        "-o",
        tmp_path / "m.json",
        "--questioned-chars",
        "1500:6000",
        "--known-chars",
        "4000:16000",
        "--folds",
        3,
        "--repeats",
        2,
        "--max-trials",
        400,
        "--accept-cllr",
        0.9,
        "--json",
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["conditions"] == {
        "questioned_chars": [1500, 6000],
        "known_chars": [4000, 16000],
    }
    assert summary["repeats"]["seeds"] == [0, 1] and len(summary["repeats"]["cllr"]) == 2
    assert len(summary["bands"]) == 3 and summary["casework"]["too_small"] is True
    assert summary["acceptance"]["judged_on"] == "pessimistic"
    for name, (low, high) in summary["intervals"].items():
        assert low <= summary[name] <= high, name
    model = load_model(tmp_path / "m.json")
    assert model.conditions.lengths_basis == "declared_range"
    assert model.calibration.quality is not None


@pytest.mark.parametrize("value", ["6000:1500", "abc", "0", "1500:"])
def test_a_bad_length_range_is_one_line_exit_2(demo_folder, tmp_path, value):
    result = run(
        "validate",
        "--population",
        demo_folder,
        "-o",
        tmp_path / "m.json",
        "--questioned-chars",
        value,
    )
    assert_bad_input(result, value)
    assert not (tmp_path / "m.json").exists()
