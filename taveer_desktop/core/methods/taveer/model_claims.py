"""What a model file states about itself: its ``validation`` summary and ``evaluations``.

A model written by ``taveer validate`` carries a summary of the validation that produced it, and
a shipped model may carry held-out ``evaluations`` on test corpora. Both are the file's own
claims: anyone can write a model file with an invented block ("EER 500 %"). The program shows
them only as *stated by the model file* (``presentation/model_text.py``), never as a record of
the project — a conclusion rests only on a validation record stored in the project or given with
``--record`` (``core/gate/validation_basis.py``).

``check_claims`` refuses, at the door, blocks whose shape or figures are nonsense — a share
outside [0, 1], a negative or non-finite Cllr, a count that is not a whole number, an object
where text belongs, and the validation record's own range rules (``core/gate/record_ranges``:
a bound of 1e300, an interval running high to low, counts that do not add up) — so that whatever
is shown is at least well-formed; it proves nothing else.
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.calibration.model_checks import (
    MAX_CALIBRATION_MAGNITUDE,
    is_number,
    is_whole,
    refuse,
    require,
)
from taveer_desktop.core.gate.record_ranges import range_problem, sums_problem
from taveer_desktop.core.methods.taveer.model_fields import STATED_METHODS

SHARE_KEYS = frozenset(
    {"accuracy", "auc", "eer", "misleading_y", "misleading_n", "ece", "c_at_1", "f05u", "brier"}
)
CLLR_KEYS = frozenset({"cllr", "cllr_min", "cllr_cal", "cllr_evaluative"})
COUNT_KEYS = frozenset(
    {
        "n",
        "tp",
        "fn",
        "fp",
        "tn",
        "unanswered",
        "outside_conditions",
        "no_conclusion",
        "evaluative",
        "investigative",
        "authors",
        "documents",
        "trials_same",
        "trials_different",
    }
)
MAX_COUNT = 10**9


def _check_value(key: str, value: Any, where: str, source: str) -> None:
    if value is None:
        return
    if key in SHARE_KEYS:
        require(is_number(value) and 0 <= value <= 1, f"{where}.{key} must lie in [0, 1]", source)
    elif key in CLLR_KEYS:
        require(
            is_number(value) and 0 <= value <= MAX_CALIBRATION_MAGNITUDE,
            f"{where}.{key} must be a number from 0 to {MAX_CALIBRATION_MAGNITUDE:g}",
            source,
        )
    elif key in COUNT_KEYS:
        require(is_whole(value, 0, MAX_COUNT), f"{where}.{key} must be a whole number ≥ 0", source)


def _check_object(data: Any, where: str, source: str) -> dict[str, Any]:
    """A JSON object whose known figures and counts lie in their ranges."""
    if not isinstance(data, dict):
        refuse(f"{where} must be an object", source)
    for key, value in data.items():
        _check_value(key, value, where, source)
    return data


def _check_validation(block: Any, source: str) -> None:
    block = _check_object(block, "validation", source)
    for part in ("population", "protocol", "figures", "acceptance", "casework", "bound"):
        if block.get(part) is not None:
            _check_object(block[part], f"validation.{part}", source)
    name = (block.get("population") or {}).get("name")
    require(
        name is None or isinstance(name, str), "validation.population.name must be text", source
    )
    method = (block.get("protocol") or {}).get("method")
    require(
        method is None or method in STATED_METHODS,
        f"validation.protocol.method must be one of {STATED_METHODS}",
        source,
    )
    met = (block.get("acceptance") or {}).get("met")
    require(
        met is None or isinstance(met, bool),
        "validation.acceptance.met must be true, false or null",
        source,
    )
    intervals = block.get("intervals")
    if intervals is not None:
        require(isinstance(intervals, dict), "validation.intervals must be an object", source)
        for key, pair in intervals.items():
            require(
                pair is None or (isinstance(pair, list) and len(pair) == 2),
                f"validation.intervals.{key} must be [low, high]",
                source,
            )
            for value in pair or ():
                _check_value(key, value, "validation.intervals", source)
    methods = block.get("methods")
    if methods is not None:
        require(isinstance(methods, dict), "validation.methods must be an object", source)
        for method_name, figures in methods.items():
            _check_object(figures, f"validation.methods.{method_name}", source)
    # the record's own rules (the summary is the record without its trials): every figure in
    # its physical range, intervals and bounds ordered, counts adding up
    problem = range_problem(block) or sums_problem(block)
    require(problem is None, f"validation.{problem}", source)


def _adds_up(figures: dict[str, Any], parts: tuple[str, ...], where: str, source: str) -> None:
    """Counts that split the cases: together they are ``n`` (where all are stated)."""
    values = [figures.get(key) for key in ("n", *parts)]
    if all(is_whole(v, 0, MAX_COUNT) for v in values):
        total = sum(int(v) for v in values[1:] if v is not None)
        require(total == values[0], f"{where}: {' + '.join(parts)} must be n", source)


def _check_evaluations(block: Any, source: str) -> None:
    require(isinstance(block, dict), "evaluations must be an object", source)
    for corpus, figures in block.items():
        where = f"evaluations.{corpus}"
        _check_object(figures, where, source)
        rules = figures.get("gate_rules")
        if rules is not None:
            require(isinstance(rules, dict), f"{where}.gate_rules must be an object", source)
            for rule, count in rules.items():
                require(
                    is_whole(count, 0, MAX_COUNT),
                    f"{where}.gate_rules.{rule} must be a whole number ≥ 0",
                    source,
                )
        _adds_up(figures, ("tp", "fn", "fp", "tn"), where, source)
        _adds_up(figures, ("evaluative", "investigative", "no_conclusion"), where, source)


def check_claims(extra: dict[str, Any], source: str) -> None:
    """Refuse a model file whose ``validation`` or ``evaluations`` block is malformed (see
    the module); absent or null blocks are fine."""
    if extra.get("validation") is not None:
        _check_validation(extra["validation"], source)
    if extra.get("evaluations") is not None:
        _check_evaluations(extra["evaluations"], source)
