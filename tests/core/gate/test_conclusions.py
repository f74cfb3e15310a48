"""Conclusions a court can rely on: the outcome vocabulary, the fitness-for-purpose gate, the
typed result reader, the words of a conclusion and the command-line contract (issue 11)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from taveer_desktop import paths
from taveer_desktop.cli.main import main
from taveer_desktop.core.calibration.outcome import (
    Classification,
    ConclusionKind,
    GateFinding,
    GateRule,
    ResultFormatError,
    conclusion_kind,
)
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.gate.gate import MIN_LEXICON_SHARE, MIN_WORDS, measure_case
from taveer_desktop.core.methods.taveer.model import load_model, model_from_dict, save_model
from taveer_desktop.core.methods.taveer.verify import verify
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation.conclusion_text import headline, lr_sentence, share_text

FEDERALIST = paths.resource("demo", "federalist")


def _paper(number: int) -> str:
    return (FEDERALIST / f"federalist_{number:02d}.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def demo_model():
    return load_model(paths.resource("models", "demo-formal-prose.json"))


@pytest.fixture(scope="module")
def default_model():
    return load_model(paths.resource("models", "default.json"))


def _random_printable(n: int, seed: int = 7) -> str:
    rnd = random.Random(seed)
    return "".join(chr(rnd.randint(33, 126)) if rnd.random() > 0.15 else " " for _ in range(n))


# -- the vocabulary ------------------------------------------------------------------------------
def test_the_weakest_finding_sets_the_kind():
    assert conclusion_kind(()) is ConclusionKind.EVALUATIVE
    outside = GateFinding(GateRule.VALIDATED_CONDITIONS, "outside")
    short = GateFinding(GateRule.ENOUGH_TEXT, "short")
    assert conclusion_kind((outside,)) is ConclusionKind.INVESTIGATIVE
    assert conclusion_kind((outside, short)) is ConclusionKind.NONE


def test_exact_shares_never_round_to_all():
    assert share_text(199, 200) == "199 of 200 (99.5 %)"
    assert share_text(1999, 2000) == "1,999 of 2,000 (99.95 %)"
    assert share_text(200, 200) == "200 of 200 (100 %)"
    assert share_text(1, 3000) == "1 of 3,000 (0.03 %)"


def test_lr_sentence_puts_the_number_first_and_keeps_weak_support_in_its_direction():
    sentence = lr_sentence(0.3385, "enfsi2015")  # LR 2.18
    assert sentence.startswith("Likelihood ratio 2.18: the findings are 2.18 times more probable")
    assert "weak support for Hp (ENFSI 2015)" in sentence
    assert "never support for the other one" in sentence
    against = lr_sentence(-1.17, "enfsi2015")
    assert "14.8 times more probable if Hd is true than if Hp is true" in against
    assert "moderate support for Hd" in against
    # the band comes from the unrounded value: 1.9999 is below 2, so no support
    assert "no support for either proposition" in lr_sentence(0.30101, "enfsi2015")


# -- the gate ------------------------------------------------------------------------------------
def test_random_bytes_get_no_conclusion_and_no_likelihood_ratio(default_model):
    result = verify(default_model, [_paper(10)], _random_printable(20_000))
    assert result.conclusion.kind is ConclusionKind.NONE
    usable = [f for f in result.conclusion.findings if f.rule is GateRule.USABLE_TEXT]
    assert usable and usable[0].measured < MIN_LEXICON_SHARE
    assert usable[0].limit == MIN_LEXICON_SHARE and usable[0].document == "questioned"
    assert result.log10_lr is None and result.conclusion.log10_lr is None


def test_an_eleven_character_text_gets_no_conclusion(default_model):
    result = verify(default_model, [_paper(10)], "Who did it?")
    assert result.conclusion.kind is ConclusionKind.NONE
    enough = [f for f in result.conclusion.findings if f.rule is GateRule.ENOUGH_TEXT]
    assert any(f.limit == MIN_WORDS and f.document == "questioned" for f in enough)


def test_a_tiny_known_document_is_not_silent(demo_model):
    known = [_paper(10), _paper(14), "Yours, J."]
    result = verify(demo_model, known, _paper(39))
    messages = [f.message for f in result.conclusion.findings if f.document == "known"]
    assert any("known document 3 has 2 words" in m for m in messages)
    assert result.conclusion.kind is ConclusionKind.NONE


def test_the_same_text_is_refused(demo_model):
    text = _paper(10)
    for questioned in (text, text[: len(text) // 2]):  # identical, and contained in a known one
        result = verify(demo_model, [_paper(14), text], questioned)
        same = [f for f in result.conclusion.findings if f.rule is GateRule.SAME_TEXT]
        assert same and "known document 2" in same[0].message
        assert result.conclusion.kind is ConclusionKind.NONE


def test_different_papers_share_few_word_sequences():
    measures = measure_case([_paper(10), _paper(14)], _paper(39), default_lexicon())
    assert measures.overlap < 0.1


def test_long_essays_are_outside_the_forum_models_conditions(default_model):
    """Federalist No. 51 against Madison and against Hamilton: the Stack Exchange model was
    trained on texts several times shorter; neither case gets an evaluative conclusion."""
    questioned = (FEDERALIST / "federalist_51_questioned.txt").read_text(encoding="utf-8")
    for known in ([10, 14, 39, 45], [1, 6, 15, 23]):
        result = verify(default_model, [_paper(n) for n in known], questioned)
        assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
        assert result.conditions_within is False
        lengths = [
            f
            for f in result.conclusion.findings
            if f.rule is GateRule.VALIDATED_CONDITIONS and f.document
        ]
        assert {f.document for f in lengths} == {"questioned", "known"}
        assert result.log10_lr is not None  # kept, for investigation only


def test_a_case_like_the_training_cases_without_a_validation_record(demo_model):
    """Three of Hamilton's papers against a fourth, with the model of their genre: inside its
    conditions, but the shipped model has no validation record on a population declared
    relevant to the case, so it is investigative for that reason alone (with a record:
    tests/core/gate/test_validation_basis.py)."""
    result = verify(demo_model, [_paper(n) for n in (6, 15, 23)], _paper(1))
    assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert [f.rule for f in result.conclusion.findings] == [GateRule.NO_VALIDATION]
    assert result.conditions_within is True
    assert headline(result.conclusion, "enfsi2015").startswith("No evaluative conclusion")


def test_models_without_conditions_are_investigative(demo_model):
    old = replace(demo_model, conditions=None, format_version=2)
    reloaded = model_from_dict(json.loads(old.to_json()), "old.json")
    assert reloaded.conditions is None
    result = verify(reloaded, [_paper(n) for n in (6, 15, 23)], _paper(1))
    assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert result.conditions_within is None
    assert [f.rule for f in result.conclusion.findings] == [
        GateRule.CONDITIONS_UNKNOWN,
        GateRule.NO_VALIDATION,
    ]


def test_malformed_conditions_are_refused(demo_model):
    data = json.loads(demo_model.to_json())
    data["conditions"]["questioned_chars"]["low"] = 10**9
    with pytest.raises(Exception, match=r"conditions\.questioned_chars"):
        model_from_dict(data, "bad.json")


# -- the typed reader ----------------------------------------------------------------------------
def test_results_round_trip_through_the_one_reader(demo_model):
    result = verify(demo_model, [_paper(n) for n in (6, 15, 23)], _paper(1), explain=True)
    data = json.loads(json.dumps(result.to_dict()))
    assert read_result(data).to_dict() == result.to_dict()


def test_the_reader_refuses_what_this_program_never_writes(demo_model):
    data = verify(demo_model, [_paper(6)], _paper(1)).to_dict()
    for change in (
        {"prediction": "maybe"},
        {"similarity": "high"},
        {"conclusion": {**data["conclusion"], "kind": "certain"}},
        {"conclusion": {**data["conclusion"], "kind": "evaluative"}},  # stronger than findings
    ):
        with pytest.raises(ResultFormatError):
            read_result({**data, **change})


def test_a_result_from_before_the_gate_is_never_more_than_investigative(demo_model):
    data = verify(demo_model, [_paper(n) for n in (6, 15, 23)], _paper(1)).to_dict()
    del data["conclusion"], data["conditions"]
    typed = read_result(data)
    assert typed.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert typed.conclusion.findings[0].rule is GateRule.NOT_ASSESSED
    data["prediction"] = "insufficient"
    assert read_result(data).conclusion.kind is ConclusionKind.NONE


def test_the_reader_keeps_what_a_stored_result_says_of_its_calibration(demo_model):
    """``calibrated`` as the stored result states it: False for a model without a calibrated
    ratio, True where it had one, and True for a result stored before the key existed (the
    explanation window says "no score to calibrate" there, as it always did)."""
    data = verify(demo_model, [_paper(n) for n in (6, 15, 23)], _paper(1)).to_dict()
    assert read_result(data).calibrated is (data["log10_lr"] is not None) is True
    assert read_result({**data, "calibrated": False, "log10_lr": None}).calibrated is False
    del data["calibrated"]
    assert read_result(data).calibrated is True
    assert verify(demo_model, [_paper(6)], _paper(1)).calibrated is None  # not read: unstated


def test_a_banded_model_classifies_inconclusive(demo_model):
    data = json.loads(demo_model.to_json())
    data["inconclusive_band"] = {"low": 0.0, "high": 1.0, "training_c_at_1": 0.5}
    banded = model_from_dict(data, "banded.json")
    result = verify(banded, [_paper(n) for n in (6, 15, 23)], _paper(1))
    assert result.prediction is Classification.INCONCLUSIVE
    assert read_result(result.to_dict()).prediction is Classification.INCONCLUSIVE


# -- the command line ----------------------------------------------------------------------------
def _cli(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_verify_contract_keys_and_first_line(capsys, demo_model):
    model = str(paths.resource("models", "demo-formal-prose.json"))
    known = [str(FEDERALIST / f"federalist_{n}.txt") for n in (10, 14)]
    known.append(str(FEDERALIST / "federalist_39.txt"))
    questioned = str(FEDERALIST / "federalist_51_questioned.txt")
    code, out, _ = _cli(capsys, "verify", model, "--known", *known, "--unknown", questioned)
    first = out.splitlines()[0]
    assert code == 0
    assert first.startswith(("Likelihood ratio ", "No evaluative conclusion: "))
    assert "same author" not in first and "written by" not in first
    code, out, _ = _cli(
        capsys, "verify", model, "--known", *known, "--unknown", questioned, "--json"
    )
    data = json.loads(out)
    assert data["conclusion"]["kind"] in ("evaluative", "investigative", "none")
    assert data["conclusion"]["statement"] and isinstance(data["conclusion"]["reasons"], list)
    assert set(data["conditions"]) == {"within", "reasons"}
    assert data["prediction"] in ("Y", "N", "inconclusive", "insufficient")  # kept keys


def test_verify_of_unusable_text_is_one_line_and_exit_2(capsys, tmp_path):
    model = str(paths.resource("models", "default.json"))
    noise = tmp_path / "noise.txt"
    noise.write_text(_random_printable(20_000), encoding="utf-8")
    known = str(FEDERALIST / "federalist_10.txt")
    code, out, err = _cli(capsys, "verify", model, "--known", known, "--unknown", str(noise))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"taveer: {noise}: No conclusion: ")
    code, out, _ = _cli(
        capsys, "verify", model, "--known", known, "--unknown", str(noise), "--json"
    )
    assert code == 0 and json.loads(out)["conclusion"]["kind"] == "none"


def test_banded_model_through_case_verify_and_report(capsys, tmp_path, demo_model, qapp):
    """A model with an inconclusive band used to crash case verify; now it is stored and
    reported like any other classification."""
    data = json.loads(demo_model.to_json())
    data["inconclusive_band"] = {"low": 0.0, "high": 1.0, "training_c_at_1": 0.5}
    data["name"] = "Banded demo model"
    model_file = tmp_path / "banded.json"
    save_model(model_from_dict(data, "banded.json"), model_file)
    project = str(tmp_path / "p.taveer")
    known = [str(FEDERALIST / f"federalist_{n}.txt") for n in (10, 14, 39)]
    _cli(capsys, "--project", project, "case", "create", "B-1")
    _cli(capsys, "--project", project, "model", "add", str(model_file))
    _cli(capsys, "--project", project, "case", "add", "B-1", "--known", *known)
    q = str(FEDERALIST / "federalist_51_questioned.txt")
    _cli(capsys, "--project", project, "case", "add", "B-1", "--questioned", q)
    code, out, err = _cli(
        capsys, "--project", project, "case", "verify", "B-1", "--model", "Banded demo model"
    )
    assert code == 0, err
    assert "the method's classification: inconclusive" in out
    code, out, err = _cli(
        capsys, "--project", project, "report", "B-1", "-o", str(tmp_path / "b.pdf")
    )
    assert code == 0, err
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")
