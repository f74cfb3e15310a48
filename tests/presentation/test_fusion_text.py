"""How a fusion of any methods is named and described (``presentation/fusion_text.py`` and
where it is shown): the registry's names, every weight, a weight of 0 said to carry nothing, and
a record or model made before ``--fuse`` (TAVeer and LambdaG) described as before."""

from __future__ import annotations

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation.fusion_text import (
    fusion_sentence,
    listed_method_label,
    record_fusion,
    record_method_label,
    record_method_name,
)
from taveer_desktop.presentation.method_agreement import (
    agreement_sentence,
    method_lines,
    result_method_lines,
)
from taveer_desktop.presentation.method_comparison_text import comparison_note
from taveer_desktop.presentation.method_directions import fused_directions_sentence
from taveer_desktop.presentation.method_report_text import fusion_head, fusion_pairs
from taveer_desktop.presentation.validation_report_text import validated_method
from taveer_desktop.presentation.validation_wizard_text import method_plan_words

THREE = {"taveer": 0.496, "coav": 0.0, "nncd": 2.807}


def _record(fusion: dict | None) -> dict:
    figures = {"cllr": 0.5, "auc": 0.9, "trials": 10, "cannot_compare": 0}
    record = {
        "protocol": {"method": "fusion"},
        "methods": {m: dict(figures) for m in ("taveer", "fusion", "coav", "nncd")},
    }
    if fusion is not None:
        record["fusion"] = fusion
    return record


def test_a_record_names_its_fusion_by_the_methods_it_combines_with_their_weights():
    record = _record({"methods": list(THREE), "weights": THREE, "left_out": 3, "trials": 7})
    assert record_fusion(R(record)) == THREE
    assert record_method_name(R(record)) == "TAVeer + COAV + NNCD"
    assert validated_method(R(record)) == (
        "the fusion of the TAVeer, COAV and NNCD authorship verification methods"
    )
    note = comparison_note(R(record))
    assert "The fusion combines TAVeer, COAV and NNCD" in note
    assert "TAVeer 0.496, COAV 0.000, NNCD 2.807" in note
    assert "a weight of 0 means the method carried no weight" in note
    assert "3 trials that a fused method could not compare were left out" in note


def test_a_record_made_before_fuse_is_the_fusion_of_taveer_and_lambdag():
    record = _record(None)
    assert record_fusion(R(record)) == {"taveer": None, "lambdag": None}
    assert record_method_name(R(record)) == "TAVeer + LambdaG"
    assert validated_method(R(record)) == (
        "the fusion of the TAVeer and LambdaG authorship verification methods"
    )


def test_the_fusion_sentence_gives_every_weight_and_says_which_carry_none():
    sentence = fusion_sentence(THREE, "fusion")
    assert sentence is not None
    assert "calibrated ratios of TAVeer, COAV and NNCD" in sentence
    assert "0.496 × ln LR(TAVeer) + 0.000 × ln LR(COAV) + 2.807 × ln LR(NNCD)" in sentence
    assert "The fusion gives COAV no weight" in sentence
    assert fusion_sentence(THREE, "coav") is None
    fusion = Fusion(("taveer", "coav"), -0.3, (0.7, 0.5), 0.0, -1.0, 1.2)
    assert fusion_head(fusion) == "The fusion (TAVeer + COAV)"
    assert dict(fusion_pairs(fusion))["Weights"] == "TAVeer 0.700, COAV 0.500"


def test_a_verification_lists_each_fused_method_with_its_weight():
    findings = MethodFindings("fusion", {"taveer": 0.3, "coav": -0.2, "nncd": 0.5, "fusion": 0.4})
    lines = method_lines(findings, THREE)
    assert lines[0].startswith("  TAVeer + COAV + NNCD (stated; weights TAVeer 0.496, COAV 0.000")
    assert any("COAV alone (no weight in the stated ratio)" in line for line in lines)
    agreement = agreement_sentence(findings, THREE)
    assert agreement == fused_directions_sentence(findings, THREE)
    assert agreement is not None and "point different ways" in agreement
    assert "COAV supports Hd" in agreement and "The fusion gives COAV no weight." in agreement
    none = result_method_lines(findings, ConclusionKind.NONE, THREE)
    assert none == [
        "  This model states the likelihood ratio of TAVeer + COAV + NNCD. With no conclusion, "
        "no method's likelihood ratio is reported."
    ]


def test_the_wizard_plan_names_the_fusion_and_offers_lambdag_options_only_if_fused():
    assert method_plan_words("fusion", 10, 30, ("taveer", "coav")) == "Method: TAVeer + COAV."
    assert method_plan_words("fusion", 10, 30).startswith(
        "Method: TAVeer + LambdaG, LambdaG's order"
    )


def test_every_list_names_a_fusion_by_what_it_combines():
    """The registry calls the fusion just "Fusion": a record, a model or a listing at hand
    names it by its methods, so a TAVeer + COAV fusion is never shown as TAVeer + LambdaG."""
    from taveer_desktop.core.ground.registry import method_name

    assert method_name("fusion") == "Fusion"
    record = _record({"methods": ["taveer", "coav"], "weights": {"taveer": 0.3, "coav": 1.4}})
    assert record_method_label(R(record), "fusion") == "TAVeer + COAV"
    assert record_method_label(R(record), "coav") == method_name("coav")
    assert record_method_label(R(_record(None)), "fusion") == "TAVeer + LambdaG"  # before --fuse
    assert listed_method_label("fusion", '["taveer", "coav", "nncd"]') == "TAVeer + COAV + NNCD"
    assert listed_method_label("fusion", None) == "TAVeer + LambdaG"
    assert listed_method_label("fusion", "not json") == "TAVeer + LambdaG"
    assert listed_method_label("coav", None) == method_name("coav")
    assert listed_method_label("fusion", '["taveer", "unknown"]') == "fusion"
