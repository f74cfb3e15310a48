"""The words over each stack of the importance chart (desktop and report alike).

A stack holds every feature of one side (L_Y or L_N) of a category; only the most important get
a labelled rectangle, the rest are grouped into one. How much of the side's importance the
labelled features carry is said plainly, so a chart whose few labels carry 1 % is not read as
if they decided it.
"""

from __future__ import annotations

from collections.abc import Sequence

from taveer_desktop.presentation.numbers import count, decimal, integer, percent


def labelled_share(total: float, labelled: Sequence[float]) -> float | None:
    """The share of ``total`` importance carried by the labelled features (None if no total)."""
    return sum(labelled) / total if total > 0 else None


def stack_heading(side_name: str, total: float, features: int, labelled: Sequence[float]) -> str:
    """``L_N: different authors`` / ``Σλ = 0.1089 over 1,058 features`` / ``the 8 labelled
    carry 1.2 %`` (the last line only when some features are grouped)."""
    lines = [side_name, f"Σλ = {decimal(total, 4)} over {count(features, 'feature')}"]
    share = labelled_share(total, labelled)
    if share is not None and len(labelled) < features:
        lines.append(
            f"the {integer(len(labelled))} labelled carry {percent(share)}"
            if labelled
            else "none is labelled"
        )
    return "\n".join(lines)
