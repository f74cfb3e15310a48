"""TAVeer's face (``method_face.MethodFace``): the method of the paper this program implements,
named plainly where a validation states it — the method a validation states unless told
otherwise. Its ratio is a function of its classification's score, so a stability check quotes
the classification's stability for it (``face_registry.quotes_classification``)."""

from __future__ import annotations

from dataclasses import replace

from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.presentation.method_face import plain_face

FACE = replace(
    plain_face(MethodId.TAVEER),
    statement="the TAVeer authorship verification method",
    subject="the TAVeer method",
    limit=(
        "One method. The figures describe the TAVeer method with the settings stated here; "
        "they say nothing about other methods or settings."
    ),
    explanation=(
        "TAVeer compares how the known and the questioned texts use topic-free "
        "features (function words and phrases of its word list, punctuation, and what they "
        "form): eleven kinds of feature whose similarities decide together, the score "
        "calibrated to a likelihood ratio on the trials. Its conclusion can be explained "
        "feature by feature."
    ),
)
