"""Synthetic inputs for the explanation-view tests, built with the engine's own code."""

from __future__ import annotations


def synthetic_interpretation(n_features: int, threshold: float = 1.0) -> dict:
    """An interpretation dict of one category with ``n_features`` features (engine code)."""
    from taveer_desktop.core.methods.taveer.interpret import interpret

    unknown = {f"feature {i:04d}": (i % 7) + 1 for i in range(n_features)}
    known = {f"feature {i:04d}": (i % 5) + (i % 3) for i in range(n_features)}
    known = {k: v for k, v in known.items() if v}
    return interpret("F9", unknown, known, threshold).to_dict()
