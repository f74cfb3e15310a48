"""``evaluate`` passes every case through the repeat check ``verify`` passes (issue 30): a case
whose validation repeats disagree on its direction is stated as LR 1 with ``repeats_disagree`` in
``evaluate --cases`` exactly as ``verify`` states it, the Cllr over the evaluative cases is that
of the ratios stated, and the headline measures stay the final model's."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateRule
from taveer_desktop.core.calibration.repeat_agreement import RepeatStatus
from taveer_desktop.core.methods.taveer.model import parse_model
from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit, repeat_models_block
from taveer_desktop.core.validation import corpus_gate
from taveer_desktop.core.validation.evaluation import evaluate
from taveer_desktop.core.validation.record_basis import basis_from_record
from taveer_desktop.core.verification.method_verify import verify_with_method
from tests.basis_fixtures import STAND_IN_SOURCE, stand_in_record
from tests.core.validation.test_evaluate_any_method import corpus  # noqa: F401 (a fixture)
from tests.core.verification.test_repeat_check import unbounded_default_model

LN10 = math.log(10.0)
RULE = GateRule.REPEATS_DISAGREE.value


@pytest.fixture(scope="module")
def plain():
    return unbounded_default_model()


def _with_fits(model, shift: float):
    """The model with three repeat fits: two equal to it, one whose ratios are all ``shift``
    lower in log10 (so the cases between 0 and ``shift`` above it change side under it)."""
    cal = model.calibration
    moved = replace(cal, intercept=cal.intercept - shift * LN10)
    fits = [
        RepeatFit(seed, dict(model.thresholds), model.ensemble, c)
        for seed, c in ((0, cal), (1, moved), (2, cal))
    ]
    extra = {**model.extra, **repeat_models_block(fits)}
    return parse_model(replace(model, extra=extra).to_json(), "m.json")


@pytest.fixture(scope="module")
def checked(plain, corpus):  # noqa: F811 (the fixture imported above)
    before = evaluate(plain, corpus, workers=1)
    assert before.log10_lr is not None
    positive = np.sort(before.log10_lr[before.log10_lr > 0])
    assert len(positive) >= 2, "the corpus needs cases on the Hp side"
    shift = float(np.median(positive))  # about half the Hp side changes side under one fit
    model = _with_fits(plain, shift)
    record = stand_in_record(
        model, conditions={"questioned_chars": [1000, 6000], "known_chars": [2000, 20000]}
    )
    basis = basis_from_record(record, STAND_IN_SOURCE)
    return before, model, basis, evaluate(model, corpus, workers=1, basis=basis)


@pytest.mark.slow
def test_each_case_is_stated_as_verify_states_it(checked, corpus):  # noqa: F811
    _before, model, basis, after = checked
    lines = after.cases()
    withdrawn = 0
    for line, case in zip(lines, corpus.iter_cases(), strict=True):
        verified = verify_with_method(model, case.known_texts, case.unknown_text, basis=basis)
        rules = {f.rule.value for f in verified.conclusion.findings}
        assert line["kind"] == verified.conclusion.kind.value, case.case_id
        assert (RULE in line["rules"]) == (RULE in rules), case.case_id
        assert verified.repeats is not None
        if verified.repeats.status is RepeatStatus.DISAGREE:
            withdrawn += 1
            assert line["log10_lr"] == 0.0
        expected = verified.conclusion.log10_lr
        if verified.conclusion.kind is ConclusionKind.NONE:
            assert line["log10_lr"] is None
        else:
            assert line["log10_lr"] == pytest.approx(expected, abs=1e-6), case.case_id
    assert 0 < withdrawn < len(lines)  # some cases lose their direction, not all
    assert after.report_dict()["gate_rules"][RULE] == withdrawn


@pytest.mark.slow
def test_the_evaluative_cllr_is_of_the_stated_ratios_and_the_headline_the_models(
    checked,
    corpus,  # noqa: F811
    monkeypatch,
):
    before, model, basis, found = checked
    assert found.log10_lr is not None
    np.testing.assert_allclose(found.log10_lr, before.log10_lr)  # the final model's, unchanged
    assert found.report_dict()["cllr"] == before.report_dict()["cllr"]
    # the demo cases lie outside the stock model's conditions: let every case pass the other
    # rules, so that every case is evaluative and only the repeat check acts
    monkeypatch.setattr(corpus_gate, "assess", lambda *args, **kwargs: [])
    after = evaluate(model, corpus, workers=1, basis=basis)
    assert after.log10_lr is not None and after.stated_log10_lr is not None
    evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in after.kinds])
    truth = after.truth[evaluative]
    assert truth.any() and (~truth).any(), "the test needs evaluative cases of both truths"
    stated = after.stated_log10_lr[evaluative]
    assert (stated == 0).any()  # some evaluative case was withdrawn
    assert after.gate is not None
    assert after.gate.cllr_evaluative == pytest.approx(cllr(stated, truth))
    assert after.gate.cllr_evaluative != pytest.approx(cllr(after.log10_lr[evaluative], truth))
