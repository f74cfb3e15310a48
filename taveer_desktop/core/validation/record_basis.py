"""A validation record read as the basis of a conclusion (``core/gate/validation_basis``'s
``ValidationBasis``): the record's one typed reader with the strict checks a record a conclusion
rests on must pass.

``basis_from_record`` first holds the record's shape to what this program writes — one plain
line naming the record on any problem (``InputError``: "not a usable validation record: …") —
and, for a record FILE, holds the figures it states (Cllr, both rates of misleading evidence) to
the ones its own trials give: a record file is the user's declaration and is never taken on
trust. The basis is then built from the typed record (``core/validation/record_reader.py``),
the same reading the report, the screens and the command line show. A model file's own
``validation`` block is never read as a record.

Records written before the ``casework`` and ``conditions`` blocks existed are read too: their
size for casework is computed from ``population`` and ``protocol``, their conditions from the
protocol's single lengths (``tests/core/validation/test_record_basis.py`` holds the basis of
every stored record, field by field, to its dictionary read directly).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from taveer_desktop.core.calibration.calibration import cllr, misleading_rates
from taveer_desktop.core.gate.population_fit import FitProfile
from taveer_desktop.core.gate.record_ranges import check_record_ranges, check_record_sums
from taveer_desktop.core.gate.validation_basis import (
    BasisPopulation,
    BasisSource,
    Casework,
    ValidationBasis,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.safe_json import loads_limited, non_finite_at
from taveer_desktop.core.intake.file_reading import read_file_bytes
from taveer_desktop.core.trials.validation_settings import (
    MIN_CASEWORK_AUTHORS,
    MIN_CASEWORK_TRIALS,
)
from taveer_desktop.core.validation.record_json import part_json
from taveer_desktop.core.validation.record_reader import ValidationRecord, read_validation_record

CLLR_TOLERANCE = 5e-4  # the record's figures are rounded to 6 decimals, its trials' LRs too
ROUNDED_ZERO = 5e-7  # a trial's log10 LR this close to 0 is written as 0 (6 decimals)
MAX_RECORD_BYTES = 256 * 1024 * 1024
RECORD_FORMAT = "taveer-validation-record"  # as core/validation/validation.py writes it
_HEX = frozenset("0123456789abcdef")


def _fail(message: str, label: str) -> NoReturn:
    raise InputError(f"not a usable validation record: {message}", label)


def _object(data: Any, name: str, label: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        _fail(f"{name} is not an object", label)
    return data


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _sha256(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


def _count(data: dict[str, Any], key: str, name: str, label: str) -> None:
    if not _whole(data.get(key)):
        shown = json.dumps(data.get(key))[:40]
        _fail(f"{name}.{key} is {shown}, not a whole number ≥ 0", label)


def _range(value: Any, name: str, label: str) -> tuple[int, int] | None:
    """A declared length: null, a single number N (meaning N to N) or [LO, HI] with LO ≤ HI."""
    if value is None:
        return None
    if _whole(value) and value > 0:
        return (int(value), int(value))
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(_whole(v) and v > 0 for v in value)
        and value[0] <= value[1]
    ):
        return (int(value[0]), int(value[1]))
    _fail(f"{name} is not a length or a range [LO, HI]", label)


def _check_trials(record: dict[str, Any], label: str) -> None:
    """Every trial an object with its same/different truth and a finite log10 LR."""
    trials = record.get("trials")
    if not isinstance(trials, list) or not trials:
        _fail("it lists no trials, so its figures cannot be recomputed", label)
    for index, trial in enumerate(trials):
        if not isinstance(trial, dict) or not isinstance(trial.get("same"), bool):
            _fail(f"trial {index + 1} has no same/different truth", label)
        if not _number(trial.get("log10_lr")):
            _fail(f"trial {index + 1} has no finite log10_lr", label)


def trial_arrays(typed: ValidationRecord) -> tuple[np.ndarray, np.ndarray, set[str]]:
    """(log10 LR, truth, authors seen) of a record's trials (checked by ``_check_trials``)."""
    values = np.array([float(t.log10_lr or 0.0) for t in typed.trials])
    truth = np.array([t.same is True for t in typed.trials], dtype=bool)
    authors = {
        name
        for t in typed.trials
        for name in (t.known_author, t.questioned_author)
        if name is not None
    }
    return values, truth, authors


def check_figures(record: dict[str, Any], typed: ValidationRecord, label: str) -> None:
    """Refuse a record whose stated Cllr or rates of misleading evidence are not the ones its
    own trials give (within the rounding of the record)."""
    _check_trials(record, label)
    log10_lr, truth, _authors = trial_arrays(typed)
    n_same, n_different = int(truth.sum()), int((~truth).sum())
    if not n_same or not n_different:
        _fail("its trials lack one class (same or different author)", label)
    figures = _object(record.get("figures"), "figures", label)
    misleading_y, misleading_n = misleading_rates(log10_lr, truth)
    recomputed = {"cllr": cllr(log10_lr, truth), "misleading_y": misleading_y}
    recomputed["misleading_n"] = misleading_n
    # a trial whose LR rounds to 1 (log10 LR ±0.0000005, written as 0) may have counted either
    # way: LambdaG at a low order on short texts gives many such trials (issue 30: a record the
    # program wrote was refused here)
    at_one = np.abs(log10_lr) <= ROUNDED_ZERO
    tolerance = {
        "cllr": CLLR_TOLERANCE,
        "misleading_y": (1 + int((at_one & truth).sum())) / n_same + 1e-6,
        "misleading_n": (1 + int((at_one & ~truth).sum())) / n_different + 1e-6,
    }
    for key, value in recomputed.items():
        stated = figures.get(key)
        if not isinstance(stated, int | float) or not _number(stated):
            stated_off = True
        else:
            stated_off = abs(float(stated) - value) > tolerance[key]
        if stated_off:
            shown = f"{stated:.4f}" if _number(stated) else repr(stated)
            raise InputError(
                f"the validation record states {key} {shown} but its own trials give "
                f"{value:.4f}: its figures do not belong to its trials, so it is refused",
                label,
            )


def _check_shape(record: dict[str, Any], label: str) -> None:
    """The strict checks of a record a conclusion rests on (one line naming it on failure)."""
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        _fail(f"its format is {record.get('format')!r}, not {RECORD_FORMAT!r}", label)
    model = _object(record.get("model"), "model", label)
    if not _sha256(model.get("sha256")):
        _fail("model.sha256 is not a SHA-256", label)
    population = _object(record.get("population"), "population", label)
    if not isinstance(population.get("name"), str):
        _fail("population.name is not text", label)
    protocol = _object(record.get("protocol"), "protocol", label)
    _object(record.get("figures"), "figures", label)
    acceptance = _object(record.get("acceptance"), "acceptance", label)
    criteria = acceptance.get("criteria") or {}
    results = acceptance.get("results") or {}
    if not isinstance(criteria, dict) or not isinstance(results, dict):
        _fail("acceptance.criteria or acceptance.results is not an object", label)
    if not all(isinstance(v, bool) for v in results.values()):
        _fail("acceptance.results holds something other than true or false", label)
    met = acceptance.get("met")
    if met is not None and not isinstance(met, bool):
        _fail("acceptance.met is not true, false or null", label)
    if not isinstance(protocol.get("method", "taveer"), str):
        _fail("protocol.method is not text", label)
    _count(protocol, "trials_same", "protocol", label)
    _count(protocol, "trials_different", "protocol", label)
    _count(population, "authors", "population", label)


def _check_ranges(record: dict[str, Any], label: str) -> None:
    conditions = record.get("conditions")
    if isinstance(conditions, dict):
        for side in ("questioned_chars", "known_chars"):
            _range(conditions.get(side), f"conditions.{side}", label)
    else:
        protocol = record["protocol"]
        for side in ("questioned_chars", "known_chars"):
            _range(protocol.get(side), f"protocol.{side}", label)


def _casework(typed: ValidationRecord, authors: int, trials: tuple[int, int]) -> Casework:
    """The record's size for casework: its own block (checked by ``_check_casework``), each
    count no more than what the record shows, or computed for a record without one."""
    block = typed.casework
    if block is not None:
        authors = min(authors, block.authors or 0)
        same = min(trials[0], block.trials_same or 0)
        different = min(trials[1], block.trials_different or 0)
        reasons, declared_small = block.reasons, block.too_small is True
    else:
        reasons, (same, different), declared_small = (), trials, False
    too_small = (
        declared_small
        or authors < MIN_CASEWORK_AUTHORS
        or min(same, different) < MIN_CASEWORK_TRIALS
    )
    return Casework(authors, same, different, too_small, tuple(reasons))


def _check_casework(record: dict[str, Any], label: str) -> None:
    block = record.get("casework")
    if isinstance(block, dict):
        reasons = block.get("reasons") or []
        if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
            _fail("casework.reasons is not a list of text", label)
        for key in ("authors", "trials_same", "trials_different"):
            _count(block, key, "casework", label)


def _float(value: Any) -> float | None:
    return float(value) if _number(value) else None


def basis_from_record(
    record: Any, source: BasisSource, declaration: str | None = None
) -> ValidationBasis:
    """The typed basis of a validation record (see the module); a record file's figures are
    recomputed from its trials first. ``InputError`` names the record on any problem."""
    label = source.path if source.kind == "file" else source.describe()
    record = _object(record, "the record", label)
    _check_shape(record, label)
    check_record_ranges(record, label)  # every figure in its physical range
    typed = read_validation_record(record)
    population, protocol, acceptance = typed.population, typed.protocol, typed.acceptance
    trials = (protocol.trials_same or 0, protocol.trials_different or 0)
    authors = population.authors or 0
    if source.kind == "file":  # a declaration: hold it to what its trials show
        check_figures(record, typed, label)
        _lr, truth, seen = trial_arrays(typed)
        trials = (min(trials[0], int(truth.sum())), min(trials[1], int((~truth).sum())))
        authors = min(authors, len(seen))
    check_record_sums(record, label)  # its intervals, bounds and counts hang together
    _check_ranges(record, label)
    conditions = typed.conditions
    if conditions is not None:
        questioned = _range(conditions.questioned_chars, "conditions.questioned_chars", label)
        known = _range(conditions.known_chars, "conditions.known_chars", label)
    else:
        questioned = _range(protocol.questioned_chars, "protocol.questioned_chars", label)
        known = _range(protocol.known_chars, "protocol.known_chars", label)
    # the profile as stored, for its own strict reader (a shape it refuses, too)
    stored_fit = (
        record.get("population_fit") if typed.population_fit is None else typed.population_fit
    )
    fit = (
        None if stored_fit is None else FitProfile.from_dict(stored_fit, f"{label}: population_fit")
    )
    _check_casework(record, label)
    fusion = typed.fusion
    return ValidationBasis(
        source=source,
        method=protocol.method if protocol.method is not None else "taveer",
        model_name=(typed.model.name if typed.model else None) or "",
        model_sha256=typed.model.sha256 if typed.model and typed.model.sha256 else "",
        population=BasisPopulation(
            name=population.name,
            description=population.description,
            authors=authors,
            documents=population.documents or 0,
            sha256=population.sha256 or "",
        ),
        trials_same=trials[0],
        trials_different=trials[1],
        criteria=part_json(acceptance.criteria) or {},
        results=dict(acceptance.results),
        met=acceptance.met,
        judged_on=acceptance.judged_on if acceptance.judged_on is not None else "point",
        judged_values={
            k: float(v)
            for k, v in acceptance.judged_values.items()
            if k in ("cllr", "misleading") and _number(v)
        },
        figures={name: _float(typed.figures.value(name)) for name in typed.figures.names},
        intervals={
            name: (_float(pair[0]), _float(pair[1]))
            for name in typed.intervals.names
            if (pair := typed.intervals.value(name)) is not None
        },
        casework=_casework(typed, authors, trials),
        questioned_chars=questioned,
        known_chars=known,
        seed=protocol.seed,
        created_utc=typed.created_utc or "",
        fit_profile=fit,
        declaration=declaration,
        warnings=typed.warnings,
        fused=fusion.methods if fusion is not None else None,
    )


def read_record_file(path: str | Path) -> ValidationBasis:
    """A record file given with ``--record``: read, hashed, parsed and checked (see the module)."""
    label = str(path)
    # a regular file only, opened without blocking: a FIFO is refused before it is opened
    data = read_file_bytes(path, MAX_RECORD_BYTES, kind="validation record")
    try:
        record = loads_limited(data.decode("utf-8-sig"), label, "validation record")
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError("is not a validation record (not JSON)", label) from None
    odd = non_finite_at(record)
    if odd:  # the program writes records with finite numbers only
        raise InputError(f"is not a usable validation record: {odd} is not a finite number", label)
    source = BasisSource("file", hashlib.sha256(data).hexdigest(), str(Path(path).resolve()))
    return basis_from_record(record, source)
