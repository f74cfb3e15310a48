"""The command line's contract for methods (docs/cli.md): ``taveer methods [--json]``,
``validate --method ID`` / ``--compare ID,…`` / ``--choose-by`` (and the same on ``case
validate``, from one settings builder), ``evaluate --json``'s ``methods``, bad ids one plain
line with exit status 2."""

from __future__ import annotations

import json

import pytest

from taveer_desktop.cli.main import build_parser, main
from taveer_desktop.cli.validate_command import settings_from_args
from taveer_desktop.core.ground.registry import listing
from tests.cli.test_cli import _tiny_cases, write_folder_corpus
from tests.core.methods.systems.trigram_methods import installed
from tests.core.validation_fixtures import make_demo_population


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    return make_demo_population(tmp_path_factory.mktemp("population"))


SMALL = ("--questioned-chars", "1500:4000", "--known-chars", "9000", "--folds", "3")
SMALL += ("--repeats", "1", "--max-trials", "60", "--seed", "2")


def test_methods_json_is_the_registry_listing(capsys):
    code, out, _ = run(capsys, "methods", "--json")
    assert code == 0 and json.loads(out) == listing()
    code, out, _ = run(capsys, "methods")
    assert code == 0 and out.count("\n") == 2 * len(listing())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--method", "bogus"), "--method: unknown method 'bogus'"),
        (("--method", "taveer,lambdag"), "--method takes one id"),
        (("--compare", "taveer,,im"), "--compare: unknown method"),
        (("--compare", "taveer,nope"), "--compare: unknown method 'nope'"),
        (("--compare", "taveer,lambdag", "--choose-by", "best"), "--choose-by must be"),
        (("--choose-by", "lowest-pessimistic-cllr"), "needs methods to compare"),
    ],
)
def test_bad_methods_are_one_plain_line_exit_2(capsys, tmp_path, options, message):
    code, out, err = run(
        capsys, "validate", "--population", tmp_path, "-o", tmp_path / "m", *options
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_validate_and_case_validate_build_the_same_settings():
    parser = build_parser()
    common = ["--compare", "lambdag,taveer,im", "--choose-by", "lowest-pessimistic-cllr"]
    common += ["--seed", "7", "--questioned-chars", "1000:3000"]
    with installed():
        plain = settings_from_args(
            parser.parse_args(["validate", "--population", "p", "-o", "m", *common])
        )
        case = settings_from_args(
            parser.parse_args(["case", "validate", "C-1", "--population", "p", *common])
        )
    assert plain.method == case.method == "lambdag"
    assert plain.compare == case.compare == ("taveer", "im")
    assert plain.choose_by == case.choose_by == "lowest_pessimistic_cllr"
    assert (
        (plain.seed, plain.questioned_chars)
        == (case.seed, case.questioned_chars)
        == (7, (1000, 3000))
    )


@pytest.mark.slow
def test_validate_compare_writes_one_record_with_every_methods_figures(
    capsys, demo_folder, tmp_path
):
    model, record = tmp_path / "m.json", tmp_path / "r.json"
    with installed():
        code, out, err = run(
            capsys,
            "validate",
            "--population",
            demo_folder,
            "-o",
            model,
            "--record",
            record,
            "--compare",
            "profav,taveer,lambdag",
            "--lambdag-order",
            "2",
            "--lambdag-samples",
            "2",
            *SMALL,
            "--json",
        )
    assert code == 0, err
    data, written = json.loads(out), json.loads(record.read_text(encoding="utf-8"))
    assert list(data["methods"]) == list(written["methods"]) == ["taveer", "profav", "lambdag"]
    assert written["comparison"]["stated"] == "profav" == written["protocol"]["method"]
    assert json.loads(model.read_text(encoding="utf-8"))["method"] == "profav"
    for block in data["methods"].values():
        assert {"cllr", "auc", "trials", "cannot_compare", "seconds_per_trial"} <= set(block)
    with installed():  # the text output lists every method, the stated one marked
        code, out, err = run(
            capsys,
            "validate",
            "--population",
            demo_folder,
            "-o",
            model,
            "--method",
            "im",
            "--compare",
            "profav",
            *SMALL,
        )
    assert code == 0, err
    assert "Impostors Method (IM): Cllr" in out and "(stated)" in out and "ProfAV: Cllr" in out


@pytest.mark.slow
def test_evaluate_json_keeps_methods_for_a_comparison_model(capsys, demo_folder, tmp_path):
    model = tmp_path / "m.json"
    corpus = write_folder_corpus(tmp_path / "corpus", _tiny_cases())
    with installed():
        code, _, err = run(
            capsys,
            "validate",
            "--population",
            demo_folder,
            "-o",
            model,
            "--method",
            "profav",
            *SMALL,
        )
        assert code == 0, err
        code, out, err = run(capsys, "evaluate", model, corpus, "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["method"] == "profav" and set(data["methods"]) == {"taveer", "profav"}
    assert data["methods"]["profav"]["auc"] == data["auc"]
