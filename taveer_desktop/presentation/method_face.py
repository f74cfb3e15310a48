"""What a method shows a person where its words differ from another method's (pure, no Qt).

A method brings its own face, as a learner in Orange brings its own report block: the phrase
for its stated ratio, how a stability check recomputes that ratio, and the few sentences of the
validation report, the limits and the wizard that are its own. TAVeer, LambdaG and the fusion
declare theirs in ``taveer_face``, ``lambdag_face`` and ``fusion_face``; every other method —
the ten comparison systems and any method added after them — shows ``plain_face``, built from
its registry entry (``core/ground/registry.py``). Generic code looks a face up through
``face_registry.face`` and never asks which method it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.ground.registry import method_info


@dataclass(frozen=True)
class MethodFace:
    """The words a method brings; a field left at its default says nothing of its own."""

    ratio_phrase: str  # its stated ratio in a sentence: "COAV's ratio", "the fused ratio"
    stability_method: str  # how a stability check's resample recomputes its stated ratio
    figures_owner: str | None = None  # whose a record's figures are, where not its name
    statement: str | None = None  # the validation report's name for it ({fused}: its parts)
    subject: str | None = None  # the validation report's PDF subject names it so
    limit: str | None = None  # the limits' sentence on the methods, where it has its own
    variant: str = ""  # after its name in the validation report's statement
    variant_note: str = ""  # how this program's variant differs from the published method
    plan_settings: str = ""  # its settings in the wizard's plan ({order}, {samples})
    settings_key: str | None = None  # its settings block in a validation record
    explanation: str | None = None  # what it does, for the wizard's choice (None: from its origin)


COMPARISON_STABILITY_METHOD = (
    "The stated ratio is recomputed in every resample with the same sentences left out: "
    "{method} scores the questioned and known texts rebuilt from the sentences the resample "
    "kept (with the model's comparison texts of other authors where it uses them), and the "
    "score is calibrated as in the run; a resample it cannot compare gives no ratio."
)


def short_name(method: str) -> str:
    """The registry's short name of a method; an id it does not know, as it is."""
    try:
        return method_info(method).short_name
    except KeyError:
        return str(method)


def plain_face(method: str) -> MethodFace:
    """The face of a method that brings none of its own: its short name's ratio, its texts
    rebuilt and scored again in each resample."""
    name = short_name(method)
    return MethodFace(
        ratio_phrase=f"{name}'s ratio",
        stability_method=COMPARISON_STABILITY_METHOD.format(method=name),
    )
