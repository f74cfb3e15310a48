"""Each method's face and what it can do, asked of ``presentation/face_registry.py``: every
registered method has words for its ratio and its stability; the answers come from the
registry's capabilities and origin, so a method added with other capabilities or another
origin is worded by them, not by its id; no method claims a paper that is not its own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taveer_desktop.core.ground import registry
from taveer_desktop.core.ground.registry import REGISTRY, MethodId, Origin
from taveer_desktop.core.methods.taveer.stability import RatioStability
from taveer_desktop.presentation import face_registry
from taveer_desktop.presentation.face_registry import (
    face,
    fuses,
    gives_text_evidence,
    is_seed,
    quotes_classification,
    scores_by_classification,
)
from taveer_desktop.presentation.method_choice_text import method_explanation
from taveer_desktop.presentation.method_face import plain_face
from taveer_desktop.presentation.method_report_text import comparison_sentence
from taveer_desktop.presentation.ratio_stability_text import (
    ratio_stability_method,
    stability_owner,
)

TEN = "one of the ten systems the TAVeer paper compares itself with"


@pytest.mark.parametrize("method", list(MethodId))
def test_every_method_has_words_for_its_ratio_and_its_stability(method: MethodId) -> None:
    look = face(method)
    assert look.ratio_phrase and look.stability_method
    stability = ratio_stability_method(RatioStability(method, 10, 9, (0.1, 0.4)))
    assert stability == look.stability_method


def test_the_ten_systems_show_the_face_built_from_the_registry() -> None:
    for method in registry.COMPARISON_IDS:
        info = REGISTRY[MethodId(method)]
        assert face(method) == plain_face(method)
        assert face(method).ratio_phrase == f"{info.short_name}'s ratio"
        assert f"{info.short_name} scores the questioned and known texts" in (
            face(method).stability_method
        )
    assert face("fusion").ratio_phrase == "the fused ratio"
    assert stability_owner("fusion") == "the stated ratio (the fused ratio)"
    assert stability_owner("coav") == "the stated ratio (COAV's ratio)"


def test_an_unknown_id_has_the_plain_face_and_no_capability() -> None:
    assert face("later-method").ratio_phrase == "later-method's ratio"
    for ask in (fuses, gives_text_evidence, scores_by_classification, quotes_classification):
        assert ask("later-method") is False
    assert is_seed("later-method") is False
    assert is_seed(None) is False and fuses(None) is False


def test_the_answers_follow_the_capabilities_not_the_id(monkeypatch: pytest.MonkeyPatch) -> None:
    assert fuses("fusion") and not fuses("taveer") and not fuses("coav")
    assert gives_text_evidence("lambdag") and not gives_text_evidence("F1")
    assert quotes_classification("taveer") and not quotes_classification("lambdag")
    assert scores_by_classification("taveer") and not scores_by_classification("fusion")
    assert is_seed("taveer") and not is_seed("lambdag")
    # COAV given the fusion's capability and LambdaG's origin, as a later method might have
    coav = REGISTRY[MethodId.COAV]
    changed = replace(
        coav,
        origin=Origin.PUBLISHED,
        capabilities=replace(coav.capabilities, fuses=True, evidence_in_text=True),
    )
    monkeypatch.setitem(REGISTRY, MethodId.COAV, changed)
    assert fuses("coav") and gives_text_evidence("coav")
    assert face_registry.face("coav") == plain_face("coav")
    assert TEN not in comparison_sentence("coav")
    assert "a published method the TAVeer paper does not evaluate" in comparison_sentence("coav")
    assert TEN.capitalize() not in method_explanation("coav")


def test_only_the_ten_say_they_are_one_of_the_ten() -> None:
    for method in MethodId:
        said = TEN.capitalize() in method_explanation(method) or TEN in comparison_sentence(method)
        assert said == (REGISTRY[method].origin is Origin.BASELINE), method
