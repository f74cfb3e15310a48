"""The fusion's face (``method_face.MethodFace``): a combination this program makes of other
methods' ratios, named by the methods it combines, its ratio "the fused ratio", recomputed in a
stability check from each fused method's own resampled ratio."""

from __future__ import annotations

from taveer_desktop.presentation.method_face import MethodFace

FUSED_STABILITY_METHOD = (
    "The stated ratio is recomputed in every resample with the same sentences left out: each "
    "method the fusion combines gives its own calibrated ratio from the sentences the resample "
    "kept (TAVeer's from its resampled similarity; λG with the known author's model rebuilt and "
    "the reference samples drawn once; a comparison system from the texts rebuilt), and these "
    "are fused with the model's weights; a resample one of them cannot score gives no ratio."
)

FACE = MethodFace(
    ratio_phrase="the fused ratio",
    stability_method=FUSED_STABILITY_METHOD,
    figures_owner="the fused likelihood ratio",
    statement="the fusion of the {fused} authorship verification methods",
    explanation=(
        "The methods ticked as Fused (TAVeer and LambdaG unless others are chosen) "
        "are validated on the same trials and their likelihood ratios combined by a logistic "
        "regression learned on those trials (the standard way of fusing forensic "
        "likelihood-ratio systems). The conclusion states the fused ratio; each "
        "method's own ratio is always shown beside it and any disagreement between them is "
        "stated. The fitted weights decide how much each method counts and are shown beside "
        "the fused ratio: a method at weight 0 adds nothing to it, and its agreeing with the "
        "other is then no evidence at all. Agreement is not evidence by itself; only the "
        "fitted weights, measured on the trials, say what the second method adds."
    ),
)
