"""What an examiner reads about a model when choosing one (shared by the CLI and the desktop)."""

from __future__ import annotations

from taveer_desktop.core.model import Model
from taveer_desktop.presentation import numbers


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
            f"validated lengths: questioned {numbers.integer(q.low)}–{numbers.integer(q.high)}, "
            f"known {numbers.integer(k.low)}–{numbers.count(k.high, 'character')}",
        ]
    evaluations = model.extra.get("evaluations")
    if isinstance(evaluations, dict) and evaluations:
        for name, e in evaluations.items():
            if not isinstance(e, dict):
                continue
            cllr, my, mn = (e.get(key) for key in ("cllr", "misleading_y", "misleading_n"))
            auc = e.get("auc")
            figures = [f"AUC {numbers.decimal(auc)}" if isinstance(auc, float) else None]
            if isinstance(cllr, float):
                figures.append(f"Cllr {numbers.decimal(cllr)}")
            if isinstance(my, float) and isinstance(mn, float):
                figures.append(
                    f"misleading {numbers.percent(my, 0)} of same-author, "
                    f"{numbers.percent(mn, 0)} of different"
                )
            shown = ", ".join(f for f in figures if f) or "no figures"
            lines.append(f"held out on {name}: {shown}")
    elif isinstance(model.extra.get("validation"), dict):  # figures on held-out folds
        from taveer_desktop.presentation.validation_wizard_text import model_validation_line

        lines.append(model_validation_line(model.extra["validation"]))
    else:
        lines.append(
            "held-out figures: not measured (training accuracy "
            f"{numbers.decimal(model.training.accuracy)})"
        )
    return lines
