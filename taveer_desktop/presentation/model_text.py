"""What an examiner reads about a model when choosing one (shared by the CLI and the desktop).

Figures a model file carries about itself — its validation summary, held-out evaluations — are
the file's own statement (``core/methods/taveer/model_claims.py``), never a record of the project:
they are always shown with ``STATED_BY_FILE``.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.taveer.model import Model, method_of
from taveer_desktop.core.validation.record_reader import read_validation_record
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import is_seed
from taveer_desktop.presentation.method_names import model_fused, stated_name

STATED_BY_FILE = "stated by the model file, not a record of this project"


def model_method_name(model: Model) -> str:
    """The name of the method whose ratio the model states; a fusion by the methods it
    combines ("TAVeer + COAV"), as its model part lists them."""
    return stated_name(method_of(model), model_fused(model.extra))


def model_method_line(model: Model) -> str:
    """Whose likelihood ratio the model states, with LambdaG's order and samples if it uses
    LambdaG."""
    method = method_of(model)
    line = f"method: {model_method_name(model)}"
    lambdag = model.extra.get(MethodId.LAMBDAG)  # its part, by its key
    if is_seed(method) or not isinstance(lambdag, dict):
        return line
    order, samples = lambdag.get("order"), lambdag.get("samples")
    if isinstance(order, int) and isinstance(samples, int):
        line += f" (LambdaG of order {order}, {numbers.count(samples, 'reference sample')})"
    return line


def model_method_sentence(model: Model) -> str:
    """``model_method_line`` at the start of a sentence: "Method: LambdaG (…)"."""
    line = model_method_line(model)
    return line[:1].upper() + line[1:]


def model_summary_lines(model: Model) -> list[str]:
    """What an examiner needs to choose a model: its method, population, genre, validated
    lengths and held-out error rates (not only its training accuracy)."""
    lines = [model_method_line(model)]
    conditions = model.conditions
    if conditions is None:
        lines.append("validated conditions: not recorded (conclusions are for investigation only)")
    else:
        q, k = conditions.questioned_chars, conditions.known_chars
        lines += [
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
            lines.append(f"held out on {name}: {shown} ({STATED_BY_FILE})")
    elif isinstance(model.extra.get("validation"), dict):  # figures on held-out folds
        lines.append(stated_validation_line(model.extra["validation"]))
    else:
        lines.append(
            "held-out figures: not measured (training accuracy "
            f"{numbers.decimal(model.training.accuracy)})"
        )
    return lines


def stated_validation_line(summary: dict[str, Any]) -> str:
    """The validation summary a model file carries, as the file's statement (read here, at
    the file's edge: ``core/validation/record_reader.py``)."""
    from taveer_desktop.presentation.validation_wizard_text import model_validation_line

    line = model_validation_line(read_validation_record(summary))
    return f"{line} ({STATED_BY_FILE.capitalize()}.)"


def unusable_model_line(problem: str | None) -> str:
    """A stored model that today's checks refuse (stored by an older version, or damaged)."""
    return f"cannot be used: {problem or 'unreadable'} (refused where it would be used)"
