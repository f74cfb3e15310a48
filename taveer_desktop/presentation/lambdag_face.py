"""LambdaG's face (``method_face.MethodFace``): this program's variant of a published method
(masked with its lexicon, not with a part-of-speech tagger), its stated ratio recomputed from
the kept sentences in a stability check, and its settings (order, reference samples) in the
wizard's plan and in a record's ``"lambdag"`` block."""

from __future__ import annotations

from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.presentation.method_face import MethodFace

LAMBDAG_METHOD = (
    "LambdaG (Nini, Halvani, Graner, Gherardi and Ishihara) compares how well two grammar models "
    "predict the questioned text: a model of the known author's texts, and models of samples of "
    "the same size from other authors of the relevant population. Here the texts are first "
    "reduced to their topic-free skeleton — function words and phrases of the lexicon and "
    "punctuation kept, every other word replaced by one placeholder — which is a variant of the "
    "published method (that masks with a part-of-speech tagger). Its score, λG, is the sum over "
    "the questioned text of how much better the known author's model predicted each token, and "
    "is calibrated to a likelihood ratio on the validation trials."
)

RATIO_STABILITY_METHOD = (
    "The stated ratio is recomputed in every resample with the same sentences left out: "
    "λG from the kept sentences (the known author's model rebuilt from the known sentences kept; "
    "the reference samples drawn once, of the same size, and shared by every resample), "
    "calibrated as in the run."
)

FACE = MethodFace(
    ratio_phrase="LambdaG's ratio",
    stability_method=RATIO_STABILITY_METHOD,
    variant=" (a variant masked with the program's lexicon)",
    variant_note=(
        "LambdaG in this program's variant (masked with its lexicon, not with a "
        "part-of-speech tagger as published)"
    ),
    plan_settings="LambdaG's order chosen by validation up to {order}, {samples} per comparison",
    settings_key=MethodId.LAMBDAG.value,
    explanation=LAMBDAG_METHOD,
)
