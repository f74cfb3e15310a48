"""What each method costs per validation trial, measured, and how the wizard says it.

``SECONDS_PER_TRIAL`` holds one figure per method id: the wall-clock seconds one cross-validated
trial of a validation took, from the benchmark named in ``COST_SOURCE``. A method without a
figure is shown as "cost not measured" — never guessed. The ten comparison systems' figures come
from ``benchmarks/method_cost.py`` (issue 24) and are filled in here when that benchmark has run.

TAVeer, LambdaG and the fusion: ``benchmarks/validation_method_cost.py``, measured 2026-11-26 on a
quiet two-core machine (docs/performance.md, "What the wizard's method choice costs"): the shipped
demo population (6 authors, 60 documents) at demo case DEMO-001's lengths, 98 trials, the
wizard's defaults (LambdaG's order up to 10, 30 reference samples), through the store as the
wizard runs it; the median validation took 0.58 s (TAVeer), 31.7 s (LambdaG) and 31.2 s (the
fusion), divided here by the 98 trials. The whole run is counted (population read back, model
and record stored), so TAVeer's figure is an upper bound of its scoring alone.
"""

from __future__ import annotations

from taveer_desktop.core.methods.registry import MethodId, method_name
from taveer_desktop.presentation import numbers

COST_SOURCE = (
    "benchmarks/validation_method_cost.py, 2026-11-26: the demo population, 98 trials, two cores"
)
_DEMO_TRIALS = 98
# the ten comparison systems' figures are added here from benchmarks/method_cost.py, with that
# benchmark's name and date beside COST_SOURCE
SECONDS_PER_TRIAL: dict[str, float] = {
    MethodId.TAVEER: 0.58 / _DEMO_TRIALS,
    MethodId.LAMBDAG: 31.7 / _DEMO_TRIALS,
    MethodId.FUSION: 31.2 / _DEMO_TRIALS,
}
NOT_MEASURED = "cost not measured"


def seconds_per_trial(method: str) -> float | None:
    """The measured seconds per trial of ``method`` (None: not measured)."""
    return SECONDS_PER_TRIAL.get(method)


def per_trial_text(seconds: float | None) -> str:
    """ "320 ms per trial", "1.9 s per trial" (or "cost not measured")."""
    if seconds is None:
        return NOT_MEASURED
    if seconds < 1:
        return f"{numbers.significant(seconds * 1000, 2)} ms per trial"
    return f"{numbers.significant(seconds, 2)} s per trial"


def cost_text(method: str) -> str:
    """A method's measured cost per trial, or that it was not measured."""
    return per_trial_text(seconds_per_trial(method))


def relative_cost_text(method: str, to: str = MethodId.TAVEER) -> str:
    """How many times ``to``'s cost per trial ``method`` takes ('' if either is unmeasured or
    ``method`` is ``to``)."""
    mine, theirs = seconds_per_trial(method), seconds_per_trial(to)
    if method == to or mine is None or not theirs:
        return ""
    return f"about {mine / theirs:.0f} times {method_name(to)}'s"
