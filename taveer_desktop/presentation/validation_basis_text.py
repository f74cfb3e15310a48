"""What a person reads about the validation a conclusion rests on and a case's attempts.

Shared by the command line (``case attempts``, ``case validate``, ``case use-validation``,
``verify --record``), the desktop and the report, so that they say the same thing:

- ``basis_line(basis)``: one line naming a validation — where its record is, the method, the
  population, the trials, the seed, Cllr, the acceptance verdict and whether it is too small;
- ``attempt_line(...)``: one attempt of a case (``store/case_basis.ValidationAttempt``'s
  values) with when it was run or declared, its model and whether that model is the case's;
- ``model_choice_sentence(...)``: after an attempt or a declared use, which model the case now
  uses — and, when a failed attempt did not replace a model whose validation met its criteria,
  that it did not and why.
"""

from __future__ import annotations

from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.method_names import stated_name
from taveer_desktop.presentation.validation_figures_text import acceptance_verdict


def basis_line(basis: ValidationBasis) -> str:
    """One line naming a validation and what it found (see the module)."""
    cllr = basis.figures.get("cllr")
    parts = [
        f"{basis.source.describe()}: {stated_name(basis.method, basis.fused)} on the population "
        f"“{basis.population.name}” ({numbers.count(basis.casework.authors, 'author')}, "
        f"{numbers.integer(basis.casework.trials_same)} same-author and "
        f"{numbers.integer(basis.casework.trials_different)} different-author trials)",
        f"seed {basis.seed}" if basis.seed is not None else "seed not recorded",
        f"Cllr {numbers.decimal(cllr)}" if cllr is not None else "Cllr not measured",
        acceptance_verdict(basis.met),
    ]
    if basis.casework.too_small:
        parts.append("too small for casework")
    return "; ".join(parts)


def attempt_line(
    basis: ValidationBasis,
    when: str,
    model_name: str,
    chosen: bool,
    declared: bool = False,
    reason: str | None = None,
) -> str:
    """One validation of a case: run for it (an attempt) or declared relevant to it."""
    how = f"declared {when}" if declared else f"run {when}"
    line = f"{how}: {basis_line(basis)}; model “{model_name}”"
    if chosen:
        line += " (the case's model)"
    if declared and reason:
        line += f"; relevant because: {reason}"
    return line


def model_choice_sentence(
    chosen: bool, new_model: str, case_model: str | None, met: bool | None
) -> str:
    """Which model the case uses after an attempt (or a declared use) with ``new_model``."""
    if chosen:
        return f"model “{new_model}” is now the case's model"
    kept = f"model “{case_model}”" if case_model else "no model"
    why = (
        "no acceptance criteria were set"
        if met is None
        else "its validation did not meet its acceptance criteria"
    )
    return (
        f"model “{new_model}” is kept but NOT chosen for the case: {why}, and another "
        f"validation of the case met them; the case keeps {kept}"
    )
