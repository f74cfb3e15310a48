"""What each method costs per validation trial, measured, and how the wizard says it.

``SECONDS_PER_TRIAL`` holds one figure per method id: the seconds one cross-validated trial of
a validation took, from the one benchmark named in ``COST_SOURCE`` (all thirteen methods in the
same runs, so the figures compare). A method without a figure is shown as "cost not measured" —
never guessed.

``benchmarks/method_cost.py --runs 3``, 2026-11-28 (docs/performance.md, "Every method's cost
per validation trial"): the shipped demo population, one repeat of 122 trials (questioned
1,500–4,000 characters, known 9,000, 3 folds), each run in a fresh process, the median of 3, on
a shared two-core machine — a ranking and an order of magnitude. A comparison system's figure is
its features of every trial plus its per-fold learning and calibration; the methods that draw at
random pay about as much again for their seed spread.
"""

from __future__ import annotations

from collections.abc import Sequence

from taveer_desktop.core.ground.registry import MethodId, method_name
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.method_names import is_fusion

COST_SOURCE = (
    "benchmarks/method_cost.py, 2026-11-28: the demo population, 122 trials, median of 3 runs"
)
SECONDS_PER_TRIAL: dict[str, float] = {
    MethodId.TAVEER: 0.0052,
    MethodId.LAMBDAG: 0.239,
    MethodId.FUSION: 0.244,
    MethodId.COAV: 0.0076,
    MethodId.OCCAV: 0.0106,
    MethodId.NNCD: 0.121,
    MethodId.PROFAV: 0.0036,
    MethodId.IM: 0.030,
    MethodId.SPATIUM: 0.029,
    MethodId.UNMASKING: 0.112,
    MethodId.GENUNMASKING: 0.977,
    MethodId.DYNAMICAV: 0.0123,
    MethodId.BAFF: 0.0041,
}
NOT_MEASURED = "cost not measured"


def seconds_per_trial(method: str, fused: Sequence[str] | None = None) -> float | None:
    """The measured seconds per trial of ``method`` (None: not measured). A fusion of
    ``fused`` costs what its parts cost together (each part is validated on the same trials;
    fitting the fusion's weights is negligible beside them: the measured fusion of TAVeer and
    LambdaG, 0.244 s, is their 0.0052 s + 0.239 s); None if a part was not measured."""
    if is_fusion(method) and fused and len(fused) >= 2:
        parts = [SECONDS_PER_TRIAL.get(m) for m in fused]
        return None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
    return SECONDS_PER_TRIAL.get(method)


def per_trial_text(seconds: float | None) -> str:
    """ "320 ms per trial", "1.9 s per trial" (or "cost not measured")."""
    if seconds is None:
        return NOT_MEASURED
    if seconds < 1:
        return f"{numbers.significant(seconds * 1000, 2)} ms per trial"
    return f"{numbers.significant(seconds, 2)} s per trial"


def cost_text(method: str, fused: Sequence[str] | None = None) -> str:
    """A method's measured cost per trial (a fusion's: its parts'), or that it was not
    measured."""
    return per_trial_text(seconds_per_trial(method, fused))


def relative_cost_text(
    method: str, to: str = MethodId.TAVEER, fused: Sequence[str] | None = None
) -> str:
    """How many times ``to``'s cost per trial ``method`` takes, to one significant figure like the
    figures it compares ('about 50 times', 'about 0.7 times', 'about as much as' where it rounds
    to 1; '' if either is unmeasured or
    ``method`` is ``to``)."""
    mine, theirs = seconds_per_trial(method, fused), seconds_per_trial(to)
    if method == to or mine is None or not theirs:
        return ""
    ratio = numbers.significant(mine / theirs, 1)
    if ratio == "1":
        return f"about as much as {method_name(to)}'s"
    return f"about {ratio} times {method_name(to)}'s"
