"""Validation records that compare methods, for the tests of the comparison views.

``fused_record`` is a real record: the demo case validated with the fusion on the shipped demo
population (``tests/method_fixtures.py``), which keeps ``record["methods"]`` for TAVeer, LambdaG
and the fusion. ``widened`` adds methods in the shape the design note gives E's comparison
records (``record["methods"][id]`` with every figure, ``trials``, ``cannot_compare``,
``seconds_per_trial``, ``deterministic``, ``seed_spread``; ``record["comparison"]``): each added
method's per-trial log10 LRs are derived from the real ones (so that the figures differ from
method to method), one method refuses some trials (no ratio), and every figure is computed
from those trials by the validation's own ``figures_of`` — a record consistent in itself, not
a measurement of those methods.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from taveer_desktop.core.validation.validation_figures import figures_of

# (method, how its log10 LR derives from TAVeer's and LambdaG's, seconds a trial, seeded?)
_ADDED = (
    ("coav", lambda t, g: 0.6 * t + 0.2 * g, 0.041, False),
    ("im", lambda t, g: 0.3 * t + 0.5 * g - 0.1, 0.82, True),
    ("unmasking", lambda t, g: 0.5 * g + 0.05, 1.9, True),
)
REFUSED_EVERY = 7  # unmasking refuses every 7th trial (too short to chunk, say)


def _figures(log10_lr: np.ndarray, truth: np.ndarray) -> dict[str, float | None]:
    scores = 1.0 / (1.0 + 10.0 ** (-log10_lr))
    found = figures_of(scores, log10_lr, truth)
    return {k: round(float(v), 6) if math.isfinite(v) else None for k, v in found.items()}


def widened(record: dict[str, Any], rule: bool = True) -> dict[str, Any]:
    """The fused ``record`` with COAV, IM and Unmasking compared beside its methods (see the
    module); ``rule``: the lowest-pessimistic-Cllr rule registered."""
    wide = copy.deepcopy(record)
    trials = wide["trials"]
    taveer = np.array([t["log10_lr_by_method"]["taveer"] for t in trials])
    lambdag = np.array([t["log10_lr_by_method"]["lambdag"] for t in trials])
    truth = np.array([bool(t["same"]) for t in trials])
    for block in wide["methods"].values():  # the existing methods, in the note's shape
        block.update(trials=len(trials), cannot_compare=0, deterministic=True)
    for method, derive, seconds, seeded in _ADDED:
        values = derive(taveer, lambdag)
        kept = np.ones(len(trials), dtype=bool)
        if method == "unmasking":
            kept[::REFUSED_EVERY] = False
        for i, trial in enumerate(trials):
            trial["log10_lr_by_method"][method] = round(float(values[i]), 6) if kept[i] else None
        block: dict[str, Any] = _figures(values[kept], truth[kept])
        block.update(
            trials=int(kept.sum()),
            cannot_compare=int((~kept).sum()),
            seconds_per_trial=seconds,
            deterministic=not seeded,
        )
        if seeded:
            auc, cllr = block["auc"] or 0.0, block["cllr"] or 0.0
            low_auc, high_auc = max(0.5, auc - 0.03), min(1.0, auc + 0.01)
            block["seed_spread"] = {"auc": [low_auc, high_auc], "cllr": [cllr - 0.03, cllr + 0.02]}
        wide["methods"][method] = block
    wide["comparison"] = {
        "methods": ["fusion", "taveer", "lambdag", "coav", "im", "unmasking"],
        "stated": wide["protocol"]["method"],
        "rule": "lowest_pessimistic_cllr" if rule else None,
        "rule_set_utc": "2026-11-28T22:30:00+00:00" if rule else None,
    }
    return wide
