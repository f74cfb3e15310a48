"""Synthetic inputs for the explanation-view tests, built with the engine's own code."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taveer_desktop.core.methods.taveer.interpret import Interpretation


def synthetic_interpretation(n_features: int, threshold: float = 1.0) -> dict:
    """An interpretation dict of one category with ``n_features`` features (engine code)."""
    from taveer_desktop.core.methods.taveer.interpret import interpret

    unknown = {f"feature {i:04d}": (i % 7) + 1 for i in range(n_features)}
    known = {f"feature {i:04d}": (i % 5) + (i % 3) for i in range(n_features)}
    known = {k: v for k, v in known.items() if v}
    return interpret("F9", unknown, known, threshold).to_dict()


def typed(data: dict) -> Interpretation:
    """An interpretation dict (a result's ``interpretation[category]``) as the typed
    ``Interpretation`` the views take (what ``read_result`` gives for a whole result)."""
    from taveer_desktop.core.methods.taveer.interpret import Interpretation, PhiEntry

    return Interpretation(
        category=str(data.get("category", "")),  # a hand-made dict may give the lists only
        threshold=float(data.get("threshold", 1.0)),
        theta_prime=float(data.get("theta_prime", 1.0)),
        phi=tuple(PhiEntry(**entry) for entry in data["phi"]),
        l_y=tuple((str(f), float(v)) for f, v in data["l_y"]),
        l_n=tuple((str(f), float(v)) for f, v in data["l_n"]),
        abstained=bool(data.get("abstained", False)),
    )
