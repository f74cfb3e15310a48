"""What an examiner reads about a model when choosing one (shared by the CLI and the desktop)."""

from __future__ import annotations

from taveer_desktop.core.model import Model


def model_summary_lines(model: Model) -> list[str]:
    """What an examiner needs to choose a model: its population, genre, validated lengths and
    held-out error rates (not only its training accuracy)."""
    conditions = model.conditions
    if conditions is None:
        lines = ["validated conditions: not recorded (conclusions are for investigation only)"]
    else:
        q, k = conditions.questioned_chars, conditions.known_chars
        lines = [
            f"genre: {conditions.genre}",
            f"population (Hd): {conditions.population}",
            f"validated lengths: questioned {q.low:,}–{q.high:,}, known {k.low:,}–{k.high:,} "
            "characters",
        ]
    evaluations = model.extra.get("evaluations")
    if isinstance(evaluations, dict) and evaluations:
        for name, e in evaluations.items():
            if not isinstance(e, dict):
                continue
            cllr, my, mn = (e.get(key) for key in ("cllr", "misleading_y", "misleading_n"))
            figures = [f"AUC {e['auc']:.3f}" if isinstance(e.get("auc"), float) else None]
            if isinstance(cllr, float):
                figures.append(f"Cllr {cllr:.3f}")
            if isinstance(my, float) and isinstance(mn, float):
                figures.append(f"misleading {my:.0%} of same-author, {mn:.0%} of different")
            shown = ", ".join(f for f in figures if f) or "no figures"
            lines.append(f"held out on {name}: {shown}")
    else:
        lines.append(
            f"held-out figures: not measured (training accuracy {model.training.accuracy:.3f})"
        )
    return lines
