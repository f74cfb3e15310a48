"""The ``taveer`` engine commands as a user or a script runs them: a real process each time.

Checks the JSON contract of features / train / evaluate / verify / explain and that bad input
ends with exit status 2 and one line on stderr naming the file, never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEMO_TEXTS

from taveer_desktop import __version__
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.model import load_model

_SCRIPT = Path(sys.executable).with_name("taveer")
TAVEER = (
    [str(_SCRIPT)]
    if _SCRIPT.exists()
    else [sys.executable, "-c", "import sys; from taveer_desktop.cli import main; sys.exit(main())"]
)
EVALUATE_KEYS = {
    "validation",
    "n",
    "accuracy",
    "auc",
    "tp",
    "fn",
    "fp",
    "tn",
    "c_at_1",
    "f05u",
    "brier",
    "unanswered",
    "cllr",
    "cllr_min",
    "misleading_y",
    "misleading_n",
    "ece",
    "outside_conditions",
    "no_conclusion",
    "evaluative",
    "investigative",
    "cllr_evaluative",
    "gate_rules",
    "method",
    "methods",
    "seconds",
}
CATEGORY_RESULT_KEYS = {"distance", "threshold", "similarity", "abstained"}


def run(*args, env_home: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if env_home is not None:
        env["TAVEER_HOME"] = str(env_home)
    return subprocess.run(
        [*TAVEER, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def assert_bad_input(result: subprocess.CompletedProcess, names: str | Path) -> str:
    """Exit status 2, exactly one line on stderr, naming the file; no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("taveer: "), line
    assert str(names) in line or Path(names).name in line, (names, line)
    assert result.stdout == ""
    return line


# --- a tiny corpus made from the demo texts ---------------------------------------------------


def _bronte_texts() -> dict[str, list[str]]:
    folder = DEMO_TEXTS / "brontes"
    if not folder.is_dir():
        pytest.skip(f"demo texts {folder} are not available on this machine")
    by_author: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.txt")):
        author = "_".join(path.name.split("_")[:2])
        by_author.setdefault(author, []).append(path.read_text(encoding="utf-8")[:4000])
    return by_author


def _tiny_cases() -> list[tuple[str, tuple[str, ...], str, bool]]:
    texts = _bronte_texts()
    authors = sorted(texts)
    cases = []
    for a, author in enumerate(authors):
        other = authors[(a + 1) % len(authors)]
        own, others = texts[author], texts[other]
        cases.append((f"EN{len(cases) + 1:03d}", (own[0], own[1]), own[2], True))
        cases.append((f"EN{len(cases) + 1:03d}", (own[3],), others[4], False))
    return cases


def write_folder_corpus(root: Path, cases) -> Path:
    root.mkdir(parents=True)
    lines = []
    for case_id, known, unknown, same in cases:
        (root / case_id).mkdir()
        for k, text in enumerate(known, start=1):
            (root / case_id / f"known{k:02d}.txt").write_text(text, encoding="utf-8")
        (root / case_id / "unknown.txt").write_text(unknown, encoding="utf-8")
        lines.append(f"{case_id} {'Y' if same else 'N'}\n")
    (root / "truth.txt").write_text("".join(lines), encoding="utf-8")
    return root


def write_jsonl_corpus(root: Path, cases) -> Path:
    root.mkdir(parents=True)
    with (
        open(root / "pairs.jsonl", "w", encoding="utf-8") as pairs,
        open(root / "truth.jsonl", "w", encoding="utf-8") as truth,
    ):
        for case_id, known, unknown, same in cases:
            pairs.write(json.dumps({"id": case_id, "pair": ["\n\n".join(known), unknown]}))
            pairs.write("\n")
            truth.write(json.dumps({"id": case_id, "same": same}) + "\n")
    return root


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """The tiny corpora, a model trained on the folder one by ``taveer train``, and the run."""
    root = tmp_path_factory.mktemp("cli")
    home = tmp_path_factory.mktemp("cli-home")
    cases = _tiny_cases()
    folder = write_folder_corpus(root / "corpus", cases)
    jsonl = write_jsonl_corpus(root / "corpus-jsonl", cases)
    model = root / "model.json"
    train = run("train", folder, "-o", model, "--json", "--workers", "1", env_home=home)
    return {
        "root": root,
        "home": home,
        "cases": cases,
        "folder": folder,
        "jsonl": jsonl,
        "model": model,
        "train": train,
        "known": [folder / "EN001" / "known01.txt", folder / "EN001" / "known02.txt"],
        "unknown": folder / "EN001" / "unknown.txt",
    }


# --- the contract -------------------------------------------------------------------------------


def test_version():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"taveer {__version__}"


def test_features_json_has_every_category(workspace):
    result = run("features", workspace["unknown"], "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"categories"}
    assert list(data["categories"]) == list(CATEGORY_IDS)
    for category, counts in data["categories"].items():
        assert counts, category  # 4,000 characters of prose give features in every category
        assert all(isinstance(v, int) and v > 0 for v in counts.values())
    assert data["categories"]["F1"].get(".", 0) > 0


@pytest.mark.parametrize("spelling", ["F2", "f2"])
def test_features_of_one_category(workspace, spelling):
    result = run("features", workspace["unknown"], "--category", spelling, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data["categories"]) == ["F2"]
    assert all(len(feature) == 2 for feature in data["categories"]["F2"])


def test_features_rejects_an_unknown_category(workspace):
    result = run("features", workspace["unknown"], "--category", "F12", "--json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "F12" in result.stderr


def test_train_writes_a_valid_model_and_keeps_stdout_clean(workspace):
    result = workspace["train"]
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)  # nothing but the JSON summary on stdout
    assert "training" in result.stderr  # progress goes to stderr
    model = load_model(workspace["model"])
    assert summary["ensemble"] == list(model.ensemble)
    assert summary["cases"] == model.training.cases == len(workspace["cases"])
    assert set(model.thresholds) == set(CATEGORY_IDS)
    assert model.training.corpus_sha256 == open_corpus(workspace["folder"]).sha256
    assert 0.0 <= model.training.accuracy <= 1.0


def test_train_without_json_prints_one_summary_line(workspace, tmp_path):
    result = run("train", workspace["folder"], "-o", tmp_path / "m.json", "--name", "Tiny")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1 and "model written to" in result.stdout
    assert "\r" not in result.stdout
    assert load_model(tmp_path / "m.json").name == "Tiny"


def test_evaluate_json_keys_and_folder_answers(workspace, tmp_path):
    answers = tmp_path / "answers.txt"
    result = run(
        "evaluate", workspace["model"], workspace["folder"], "--json", "--answers", answers
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == EVALUATE_KEYS
    assert data["method"] == "taveer" and set(data["methods"]) == {"taveer"}
    for key, value in data["methods"]["taveer"].items():  # TAVeer's model: the same figures
        assert data[key] == value, key
    n = len(workspace["cases"])
    assert data["n"] == n
    assert data["tp"] + data["fn"] + data["fp"] + data["tn"] == n
    assert data["accuracy"] == pytest.approx((data["tp"] + data["tn"]) / n)
    for key in ("accuracy", "auc", "c_at_1", "f05u", "brier"):
        assert 0.0 <= data[key] <= 1.0, key
    lines = answers.read_text(encoding="utf-8").splitlines()
    assert [line.split(" ")[0] for line in lines] == [c[0] for c in workspace["cases"]]
    for line in lines:
        assert re.fullmatch(r"EN\d{3} [01]\.\d{6}", line), line
        assert 0.0 <= float(line.split(" ")[1]) <= 1.0


def test_evaluate_jsonl_answers_and_same_metrics(workspace, tmp_path):
    answers = tmp_path / "answers.jsonl"
    folder = run("evaluate", workspace["model"], workspace["folder"], "--json")
    jsonl = run("evaluate", workspace["model"], workspace["jsonl"], "--json", "--answers", answers)
    assert jsonl.returncode == 0, jsonl.stderr
    data = json.loads(jsonl.stdout)
    assert set(data) == EVALUATE_KEYS
    records = [json.loads(line) for line in answers.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == [c[0] for c in workspace["cases"]]
    for record in records:
        assert set(record) == {"id", "value"}
        assert isinstance(record["value"], float) and 0.0 <= record["value"] <= 1.0
    # the same cases as one known text joined by a blank line give the same decisions
    folder_data = json.loads(folder.stdout)
    for key in ("n", "tp", "fn", "fp", "tn"):
        assert data[key] == folder_data[key], key


def test_verify_json_contract(workspace):
    result = run(
        "verify",
        workspace["model"],
        "--known",
        *workspace["known"],
        "--unknown",
        workspace["unknown"],
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"prediction", "similarity", "categories"} <= set(data)
    assert data["prediction"] in {"Y", "N", "insufficient"}
    assert 0.0 <= data["similarity"] <= 1.0
    assert list(data["categories"]) == list(CATEGORY_IDS)
    model = load_model(workspace["model"])
    member_similarities = []
    for category, entry in data["categories"].items():
        assert set(entry) >= CATEGORY_RESULT_KEYS, category
        assert entry["threshold"] == model.thresholds[category]
        if entry["abstained"]:
            assert entry["distance"] is None and entry["similarity"] is None
        else:
            assert 0.0 <= entry["distance"] <= 2.0
            assert 0.0 <= entry["similarity"] <= 1.0
            if category in model.ensemble:
                member_similarities.append(entry["similarity"])
    # the decision is the median over the ensemble's answering categories, Y iff > 0.5
    member_similarities.sort()
    k = len(member_similarities)
    median = (member_similarities[(k - 1) // 2] + member_similarities[k // 2]) / 2
    assert data["similarity"] == pytest.approx(median)
    assert data["prediction"] == ("Y" if median > 0.5 else "N")
    # every model's JSON names its method and its own ratio (a TAVeer model: TAVeer's alone)
    assert data["methods"]["method"] == "taveer"
    assert set(data["methods"]["log10_lr_by_method"]) == {"taveer"}
    # a model without repeat fits (``taveer train``): the repeat check said not possible
    assert data["repeats"]["status"] in {"not_possible"}
    assert data["repeats"]["reason"] in {"no_repeat_fits", "no_ratio"}


def test_explain_json_contract(workspace):
    result = run(
        "explain",
        workspace["model"],
        "--known",
        *workspace["known"],
        "--unknown",
        workspace["unknown"],
        "--category",
        "F4",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"phi", "l_y", "l_n"} <= set(data)
    assert data["phi"], "F4 of 4,000 characters of prose is not empty"
    for name in ("l_y", "l_n"):
        entries = data[name]
        for entry in entries:
            assert isinstance(entry, list) and len(entry) == 2
            assert isinstance(entry[0], str) and isinstance(entry[1], float) and entry[1] >= 0
        importances = [entry[1] for entry in entries]
        assert importances == sorted(importances, reverse=True), name
    l_y = {e[0] for e in data["l_y"]}
    l_n = {e[0] for e in data["l_n"]}
    assert not l_y & l_n
    assert l_y | l_n == {entry["feature"] for entry in data["phi"]}


def test_explain_without_json_lists_both_sides(workspace):
    result = run(
        "explain",
        workspace["model"],
        "--known",
        workspace["known"][0],
        "--unknown",
        workspace["unknown"],
        "--category",
        "F5",
    )
    assert result.returncode == 0, result.stderr
    assert "L_Y" in result.stdout and "L_N" in result.stdout


# --- bad input: exit status 2, one line naming the file, no traceback ---------------------------


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


BAD_DOCUMENTS = {
    "missing": None,
    "empty": b"",
    "whitespace": b" \n\t\n",
    "binary": b"PK\x03\x04\x00\x00\x00\x08\x00binary\x00data\xff\xfe" * 20,
    "folder": "dir",
}


def _bad_document(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"bad-{kind}.txt"
    if kind == "folder":
        path.mkdir()
    elif BAD_DOCUMENTS[kind] is not None:
        _write(path, BAD_DOCUMENTS[kind])
    return path


@pytest.mark.parametrize("kind", sorted(BAD_DOCUMENTS))
def test_features_of_a_bad_document(tmp_path, kind):
    path = _bad_document(tmp_path, kind)
    assert_bad_input(run("features", path, "--json"), path)


@pytest.mark.parametrize("kind", ["missing", "binary", "folder"])
@pytest.mark.parametrize("side", ["known", "unknown"])
def test_verify_with_a_bad_document(workspace, tmp_path, kind, side):
    bad = _bad_document(tmp_path, kind)
    known = bad if side == "known" else workspace["known"][0]
    unknown = bad if side == "unknown" else workspace["unknown"]
    result = run("verify", workspace["model"], "--known", known, "--unknown", unknown, "--json")
    assert_bad_input(result, bad)


def _model_variants(model_text: str) -> dict[str, bytes]:
    data = json.loads(model_text)
    newer = dict(data, format_version=99)
    no_thresholds = {k: v for k, v in data.items() if k != "thresholds"}
    bad_threshold = dict(data, thresholds=dict(data["thresholds"], F3=7.5))
    bad_ensemble = dict(data, ensemble=["F1", "F99"])
    return {
        "truncated": model_text[: len(model_text) // 2].encode(),
        "newer": json.dumps(newer).encode(),
        "no-thresholds": json.dumps(no_thresholds).encode(),
        "threshold-out-of-range": json.dumps(bad_threshold).encode(),
        "unknown-category": json.dumps(bad_ensemble).encode(),
        "not-an-object": b"[1, 2, 3]",
        "not-utf8": b"\xff\xfe\x00{",
        "empty": b"",
        "pickle": b"\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00}\x94.",
    }


@pytest.mark.parametrize(
    "variant",
    [
        "truncated",
        "newer",
        "no-thresholds",
        "threshold-out-of-range",
        "unknown-category",
        "not-an-object",
        "not-utf8",
        "empty",
        "pickle",
    ],
)
def test_verify_with_a_bad_model(workspace, tmp_path, variant):
    text = workspace["model"].read_text(encoding="utf-8")
    bad = _write(tmp_path / f"model-{variant}.json", _model_variants(text)[variant])
    result = run(
        "verify", bad, "--known", workspace["known"][0], "--unknown", workspace["unknown"], "--json"
    )
    line = assert_bad_input(result, bad)
    if variant == "newer":
        assert "99" in line and "newer" in line


def test_evaluate_with_a_missing_model(workspace, tmp_path):
    missing = tmp_path / "nope.json"
    assert_bad_input(run("evaluate", missing, workspace["folder"], "--json"), missing)


def test_corpus_that_is_not_a_corpus(workspace, tmp_path):
    folder = tmp_path / "holiday-photos"
    _write(folder / "readme.txt", b"just some text")
    _write(folder / "sub" / "a.txt", b"more text")
    assert_bad_input(run("train", folder, "-o", tmp_path / "m.json"), folder)
    assert_bad_input(run("evaluate", workspace["model"], folder, "--json"), folder)
    assert not (tmp_path / "m.json").exists()


def test_corpus_given_as_a_file_or_missing(workspace, tmp_path):
    missing = tmp_path / "missing-corpus"
    assert_bad_input(run("train", missing, "-o", tmp_path / "m.json"), missing)
    assert_bad_input(
        run("train", workspace["unknown"], "-o", tmp_path / "m.json"), workspace["unknown"]
    )


def test_truth_file_with_a_bad_line(workspace, tmp_path):
    corpus = write_folder_corpus(tmp_path / "corpus", workspace["cases"])
    truth = corpus / "truth.txt"
    truth.write_text(truth.read_text() + "EN002 maybe\n", encoding="utf-8")
    line = assert_bad_input(run("train", corpus, "-o", tmp_path / "m.json"), truth)
    assert "maybe" in line
    line = assert_bad_input(run("evaluate", workspace["model"], corpus, "--json"), truth)
    assert "line" in line


def test_truth_missing_for_a_problem_is_named(workspace, tmp_path):
    corpus = write_folder_corpus(tmp_path / "corpus", workspace["cases"])
    truth = corpus / "truth.txt"
    truth.write_text(
        "".join(line for line in truth.read_text().splitlines(True) if "EN004" not in line)
    )
    line = assert_bad_input(run("train", corpus, "-o", tmp_path / "m.json"), corpus)
    assert "EN004" in line


@pytest.mark.parametrize("broken", ['{"id": "EN009", "pair": ["a", ', "not json at all"])
def test_pairs_jsonl_with_a_broken_line(workspace, tmp_path, broken):
    corpus = write_jsonl_corpus(tmp_path / "corpus", workspace["cases"])
    pairs = corpus / "pairs.jsonl"
    with open(pairs, "a", encoding="utf-8") as handle:
        handle.write(broken + "\n")
    line = assert_bad_input(run("train", corpus, "-o", tmp_path / "m.json"), pairs)
    assert "line 7" in line
    assert_bad_input(run("evaluate", workspace["model"], corpus, "--json"), pairs)


def test_binary_document_inside_a_corpus_gives_one_clear_line(workspace, tmp_path):
    """An unreadable text met during training: the error starts its own line after progress."""
    corpus = write_folder_corpus(tmp_path / "corpus", workspace["cases"])
    bad = _write(corpus / "EN005" / "unknown.txt", BAD_DOCUMENTS["binary"])
    result = run("train", corpus, "-o", tmp_path / "m.json", "--workers", "1")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.split("\n") if line.strip()]
    # progress may precede, but the error is a line of its own that starts with "taveer: "
    assert lines and lines[-1].startswith("taveer: "), repr(result.stderr)
    assert str(bad) in lines[-1] or "EN005" in lines[-1]
    assert not (tmp_path / "m.json").exists()
