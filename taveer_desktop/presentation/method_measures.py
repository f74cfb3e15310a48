"""Each method's evaluation measures side by side, in words (``taveer evaluate`` of a model
validated with another method than TAVeer).

The headline measures are the stated method's; these lines repeat them for every method the
model carries — the stated one first, the others in the registry's order — so that the
methods can be compared on the same cases. A fusion is named by the methods it combines
("TAVeer + COAV").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.method_agreement import method_label
from taveer_desktop.presentation.method_directions import registry_order


def method_measure_lines(
    methods: dict[str, dict[str, Any]], stated: str, fused: Sequence[str] = ()
) -> list[str]:
    """One line per method (the stated one first): its discrimination, its likelihood ratios'
    quality and the PAN measures of its decisions; ``fused``: the methods the fusion combines."""
    lines = ["By method (the same cases):"]
    order = [stated, *registry_order(m for m in methods if m != stated)]
    for method in order:
        m = methods[method]
        role = " (stated)" if method == stated else " alone"
        label = method_label(method, fused or None)
        lines.append(
            f"  {label}{role}: AUC {numbers.decimal(m['auc'])}, "
            f"Cllr {numbers.decimal(m['cllr'])} (Cllr_min {numbers.decimal(m['cllr_min'])}; "
            f"over the evaluative cases {numbers.decimal(m['cllr_evaluative'])}), "
            f"accuracy {numbers.decimal(m['accuracy'])}, c@1 {numbers.decimal(m['c_at_1'])}, "
            f"F0.5u {numbers.decimal(m['f05u'])}, Brier (complement) "
            f"{numbers.decimal(m['brier'])}"
        )
    return lines
