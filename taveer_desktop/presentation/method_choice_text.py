"""The words of the validation wizard's method page (plain text, no Qt): every registered
method with its name, family, reference, whether it draws at random and its measured cost per
trial (``core/ground/registry.py``, ``presentation/method_costs.py``); the stated method, the
methods compared beside it on the same trials, the rule that may pick the stated method from the
results (registered before the run), and LambdaG's options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.ground.registry import REGISTRY, method_info, method_name
from taveer_desktop.core.trials.validation_settings import LOWEST_PESSIMISTIC_CLLR
from taveer_desktop.presentation.face_registry import face
from taveer_desktop.presentation.method_costs import (
    COST_SOURCE,
    SECONDS_PER_TRIAL,
    cost_text,
    relative_cost_text,
    seconds_per_trial,
)
from taveer_desktop.presentation.method_names import and_joined, is_fusion, stated_name

COMPARISON_EXPLANATION = (  # {origin}: the registry's, so no method claims a paper not its own
    "{origin}, implemented from its original "
    "paper. Its raw score is calibrated to a likelihood ratio on the validation's trials, as "
    "TAVeer's is. It gives no evidence in the text: a conclusion states its ratio, with no "
    "view of which words or sentences led to it."
)
IMPOSTORS_NOTE = (
    "It compares the texts with impostors: documents of other authors of the validation "
    "population, never the case's."
)


@dataclass(frozen=True)
class MethodChoice:
    """One method the wizard offers: its id, the registry's name, family and reference, whether
    it draws at random, and its measured cost per trial."""

    method: str
    name: str
    family: str
    reference: str
    randomness: str
    cost: str

    @property
    def cost_cell(self) -> str:
        """The cost as the grid's "Cost per trial" column shows it: "5.9 ms", "not measured"."""
        return _cell(self.cost)

    @property
    def explanation(self) -> str:
        """What the method does, its reference and its cost, for the page's detail box."""
        return method_explanation(self.method)


def method_choices() -> tuple[MethodChoice, ...]:
    """Every registered method, in the registry's order."""
    return tuple(
        MethodChoice(
            info.id.value,
            info.name,
            info.family.value,
            info.reference,
            DETERMINISTIC if info.deterministic else SEEDED,
            cost_text(info.id),
        )
        for info in REGISTRY.values()
    )


def _cell(cost: str) -> str:
    return cost.removesuffix(" per trial").removeprefix("cost ")


def cost_cell(method: str, fused: Sequence[str] = ()) -> str:
    """A method's cost in the grid's column; the fusion's, its fused parts' together."""
    return _cell(cost_text(method, tuple(fused) if len(fused) >= 2 else None))


DETERMINISTIC = "deterministic"
SEEDED = "seeded"
RANDOMNESS_MEANING = {
    DETERMINISTIC: "the same texts always give the same score",
    SEEDED: "draws at random (features, impostors or chunks) from the validation's seed: the "
    "same seed gives the same score, and the record reports the spread across seeds",
}


def method_explanation(method: str, fused: Sequence[str] = ()) -> str:
    """A method's explanation for the wizard: what it does, how it draws, what it costs, and
    the publication it comes from (a fusion named, and costed, by the methods it fuses)."""
    info = method_info(method)
    origin = info.origin.value[:1].upper() + info.origin.value[1:]
    what = face(info.id).explanation or COMPARISON_EXPLANATION.format(origin=origin)
    if info.comparison and info.needs_impostors:
        what += " " + IMPOSTORS_NOTE
    randomness = DETERMINISTIC if info.deterministic else SEEDED
    parts = tuple(fused) if is_fusion(method) and len(fused) >= 2 else None
    relative = relative_cost_text(info.id, fused=parts)
    cost = cost_text(info.id, parts) + (f", {relative}" if relative else "")
    if parts and seconds_per_trial(info.id, parts) is not None:
        cost += f": the cost of its parts together ({COST_SOURCE})"
    elif info.id in SECONDS_PER_TRIAL:
        cost += f" ({COST_SOURCE})"
    name = stated_name(method, parts) if parts else info.name
    return (
        f"{name} — {info.family.value}. {what}\n"
        f"{randomness.capitalize()}: {RANDOMNESS_MEANING[randomness]}.\n"
        f"Cost: {cost}.\nReference: {info.reference}."
    )


COST_NOTE = f"Measured cost per validation trial ({COST_SOURCE}); not measured: no figure yet"
CHOOSE_BY_TEXT = "Register a r&ule now: state the method with the lowest pessimistic Cllr"
CHOOSE_BY_TIP = (
    "Among the stated and the compared methods, the model will state the one whose Cllr is "
    "lowest on its pessimistic end (the upper end of its interval, or its worst repeat). The "
    "rule and its time are recorded before the run."
)
COMPARE_NOTE = (
    "Tick Compare for methods to validate beside the stated one on the same trials: the record "
    "then holds each method's figures side by side. Without the rule, the method chosen as "
    "stated is the one the model states, whatever the comparison shows; with it, the rule — "
    "recorded before the run — picks the stated method from the results."
)


def comparison_plan_words(
    stated: str, compare: Sequence[str], choose_by: str | None, fused: Sequence[str] = ()
) -> str:
    """What the run page's plan says about the compared methods ('' when none; a fusion named
    by ``fused``, the methods it combines)."""
    if not compare:
        return ""
    parts = tuple(fused) or None
    names = ", ".join(stated_name(m, parts) for m in compare)
    if choose_by == LOWEST_PESSIMISTIC_CLLR:
        return (
            f" Compared on the same trials: {stated_name(stated, parts)}, {names}; the method "
            "with the lowest pessimistic Cllr will be stated (a rule registered now, before the "
            "run)."
        )
    return f" Compared on the same trials, not stated: {names}."


ADVANCED_NOTE = (
    "LambdaG's options. The highest order is the longest context (in tokens) its grammar "
    "models may condition on; each fold's trials choose the order, up to this one, whose "
    "likelihood ratios cost least. The reference samples are how many samples of other authors "
    "of the population, each the size of the known text, every comparison is made against. "
    "The defaults are the published ones (order up to 10, 30 samples); fewer samples or a lower "
    "order run faster and give a noisier or weaker score, and the record states the values used."
)
NO_LAMBDAG_OPTIONS = "No method chosen uses LambdaG's options."
UNFUSED_NAME = "A fusion (tick two or more methods as Fused)"
FUSE_TIP = "Combine {name} in the fusion (counts while the fusion is stated or compared)"


def fuse_note(fusing: bool, fused: tuple[str, ...]) -> str:
    """Beneath the grid: which methods the fusion will combine, or why it cannot."""
    if not fusing:
        return "The Fused boxes count only when the fusion is stated or compared."
    if len(fused) < 2:
        return "Tick at least two methods as Fused: a fusion combines two or more methods."
    listed = and_joined([method_name(m) for m in fused])
    return (
        f"The fusion will combine {listed}; each is validated on the same trials and its "
        "weight in the fused ratio is learned there (a weight of 0: it carries none)."
    )
