"""The validation a conclusion rests on: one typed reading of a validation record.

An evaluative conclusion needs a validation record of the model's own method, which produced the
model itself, on a population the examiner declared relevant to the case (docs/method.md, "The
fitness-for-purpose gate"). ``ValidationBasis`` is that record as the gate, the store, the
command line and the report read it: where it came from (a record stored in the project, with
its SHA-256, or a record file given with ``--record``, with the file's SHA-256), the method and
the model it produced, its population, its trials, its criteria and whether it met them, whether
it is large enough for casework, the conditions it declares, the population-fit profile it
carries (opaque here) and, for a record linked to a case by a declaration, the examiner's reason.

``basis_from_record`` is the one reader: it checks the shape and, for a record FILE, that the
figures recomputed from the record's own trials (Cllr, both rates of misleading evidence) are the
figures it states — a record file is the user's declaration and is never taken on trust. A model
file's own ``validation`` block is never read as a record.

Records written before the ``casework`` and ``conditions`` blocks existed are read too: their
size for casework is computed from ``population`` and ``protocol``, their conditions from the
protocol's single lengths.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn

import numpy as np

from taveer_desktop.core.calibration.calibration import cllr, misleading_rates
from taveer_desktop.core.gate.population_fit import FitProfile
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.file_reading import read_file_bytes
from taveer_desktop.core.trials.validation_settings import (
    MIN_CASEWORK_AUTHORS,
    MIN_CASEWORK_TRIALS,
)

CLLR_TOLERANCE = 5e-4  # the record's figures are rounded to 6 decimals, its trials' LRs too
MAX_RECORD_BYTES = 256 * 1024 * 1024
RECORD_FORMAT = "taveer-validation-record"  # as core/validation/validation.py writes it
_HEX = frozenset("0123456789abcdef")

SourceKind = Literal["project", "file"]


@dataclass(frozen=True)
class BasisSource:
    """Where a validation record came from: ``project`` (record ``record_id`` of the project
    ``path``) or ``file`` (the record file ``path``); ``sha256`` of the record's bytes."""

    kind: SourceKind
    sha256: str
    path: str
    record_id: int | None = None

    def describe(self) -> str:
        if self.kind == "project":
            return f"validation record {self.record_id} of the project"
        return f"the record file {Path(self.path).name}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "record_id": self.record_id,
            "path": self.path,
            "sha256": self.sha256,
        }


@dataclass(frozen=True)
class BasisPopulation:
    name: str
    description: str
    authors: int
    documents: int
    sha256: str


@dataclass(frozen=True)
class Casework:
    """Whether the validation is large enough to rely on in casework (fewer than
    ``MIN_CASEWORK_AUTHORS`` authors or ``MIN_CASEWORK_TRIALS`` trials of a class: too small)."""

    authors: int
    trials_same: int
    trials_different: int
    too_small: bool
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValidationBasis:
    source: BasisSource
    method: str
    model_name: str
    model_sha256: str
    population: BasisPopulation
    trials_same: int
    trials_different: int
    criteria: dict[str, Any]  # max_cllr, max_misleading, set_utc (None: not a criterion)
    results: dict[str, bool]  # each criterion set, met or not
    met: bool | None  # as the record judged it (None: no criteria were set)
    judged_on: str  # "point" (the figures) or "pessimistic" (the worse end of each interval)
    figures: dict[str, float | None]
    intervals: dict[str, tuple[float | None, float | None]]
    casework: Casework
    questioned_chars: tuple[int, int] | None  # the declared range (None: whole documents)
    known_chars: tuple[int, int] | None
    seed: int | None
    created_utc: str
    # the population's fit profile (``core/population_fit``), read strictly from the record;
    # None: the record has none (made before the check existed)
    fit_profile: FitProfile | None = field(default=None, repr=False, compare=False)
    declaration: str | None = None  # the examiner's reason the population is relevant
    # the value each criterion was judged on ("cllr", "misleading"), where the record says
    judged_values: dict[str, float] = field(default_factory=dict)
    warnings: tuple[str, ...] = field(default=())
    # the methods a stated fusion combines, from the record's "fusion" block (None: not a
    # fusion, or a record made before the block, which fused TAVeer and LambdaG)
    fused: tuple[str, ...] | None = field(default=None, compare=False)

    @property
    def has_criteria(self) -> bool:
        return bool(self.results)

    def reference(self) -> BasisReference:
        """What a result records of the basis it used (traceable to its record)."""
        return BasisReference(
            source=self.source,
            method=self.method,
            population=self.population.name,
            met=self.met,
            too_small=self.casework.too_small,
            declaration=self.declaration,
        )


@dataclass(frozen=True)
class BasisReference:
    """The validation a stored result rested on: its source and SHA-256 (to find the record
    again and check it is the same), the method, the population and what it was found to be."""

    source: BasisSource
    method: str
    population: str
    met: bool | None
    too_small: bool
    declaration: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.source.to_dict(),
            "method": self.method,
            "population": self.population,
            "met": self.met,
            "too_small": self.too_small,
            "declaration": self.declaration,
        }


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


def _count(data: dict[str, Any], key: str, name: str, label: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or not _whole(value):
        _fail(f"{name}.{key} is not a whole number", label)
    return value


def _range(value: Any, name: str, label: str) -> tuple[int, int] | None:
    """A declared length: null, a single number N (meaning N to N) or [LO, HI] with LO ≤ HI."""
    if value is None:
        return None
    if _whole(value) and value > 0:
        return (int(value), int(value))
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(_whole(v) and v > 0 for v in value)
        and value[0] <= value[1]
    ):
        return (int(value[0]), int(value[1]))
    _fail(f"{name} is not a length or a range [LO, HI]", label)


def trial_arrays(record: dict[str, Any], label: str) -> tuple[np.ndarray, np.ndarray, set[str]]:
    """(log10 LR, truth, authors seen) of the record's trials, each trial checked."""
    trials = record.get("trials")
    if not isinstance(trials, list) or not trials:
        _fail("it lists no trials, so its figures cannot be recomputed", label)
    values, truth, authors = [], [], set()
    for index, trial in enumerate(trials):
        if not isinstance(trial, dict) or not isinstance(trial.get("same"), bool):
            _fail(f"trial {index + 1} has no same/different truth", label)
        if not _number(trial.get("log10_lr")):
            _fail(f"trial {index + 1} has no finite log10_lr", label)
        values.append(float(trial["log10_lr"]))
        truth.append(trial["same"])
        for side in ("known_author", "questioned_author"):
            if isinstance(trial.get(side), str):
                authors.add(trial[side])
    return np.array(values), np.array(truth, dtype=bool), authors


def check_figures(record: dict[str, Any], label: str) -> None:
    """Refuse a record whose stated Cllr or rates of misleading evidence are not the ones its
    own trials give (within the rounding of the record)."""
    log10_lr, truth, _authors = trial_arrays(record, label)
    n_same, n_different = int(truth.sum()), int((~truth).sum())
    if not n_same or not n_different:
        _fail("its trials lack one class (same or different author)", label)
    figures = _object(record.get("figures"), "figures", label)
    misleading_y, misleading_n = misleading_rates(log10_lr, truth)
    recomputed = {"cllr": cllr(log10_lr, truth), "misleading_y": misleading_y}
    recomputed["misleading_n"] = misleading_n
    tolerance = {
        "cllr": CLLR_TOLERANCE,
        "misleading_y": 1.0 / n_same + 1e-6,  # one trial at LR 1 may round either way
        "misleading_n": 1.0 / n_different + 1e-6,
    }
    for key, value in recomputed.items():
        stated = figures.get(key)
        if (
            not isinstance(stated, int | float)
            or not _number(stated)
            or (abs(float(stated) - value) > tolerance[key])
        ):
            shown = f"{stated:.4f}" if _number(stated) else repr(stated)
            raise InputError(
                f"the validation record states {key} {shown} but its own trials give "
                f"{value:.4f}: its figures do not belong to its trials, so it is refused",
                label,
            )


def _casework(
    record: dict[str, Any], authors: int, trials: tuple[int, int], label: str
) -> Casework:
    block = record.get("casework")
    if isinstance(block, dict):
        reasons = block.get("reasons") or []
        if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
            _fail("casework.reasons is not a list of text", label)
        authors = min(authors, _count(block, "authors", "casework", label))
        same = min(trials[0], _count(block, "trials_same", "casework", label))
        different = min(trials[1], _count(block, "trials_different", "casework", label))
        declared_small = block.get("too_small") is True
    else:
        reasons, (same, different), declared_small = [], trials, False
    too_small = (
        declared_small
        or authors < MIN_CASEWORK_AUTHORS
        or min(same, different) < MIN_CASEWORK_TRIALS
    )
    return Casework(authors, same, different, too_small, tuple(reasons))


def basis_from_record(
    record: Any, source: BasisSource, declaration: str | None = None
) -> ValidationBasis:
    """The typed basis of a validation record (see the module); a record file's figures are
    recomputed from its trials first. ``InputError`` names the record on any problem."""
    label = source.path if source.kind == "file" else source.describe()
    record = _object(record, "the record", label)
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        _fail(f"its format is {record.get('format')!r}, not {RECORD_FORMAT!r}", label)
    model = _object(record.get("model"), "model", label)
    if not _sha256(model.get("sha256")):
        _fail("model.sha256 is not a SHA-256", label)
    population = _object(record.get("population"), "population", label)
    if not isinstance(population.get("name"), str):
        _fail("population.name is not text", label)
    protocol = _object(record.get("protocol"), "protocol", label)
    figures = _object(record.get("figures"), "figures", label)
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
    method = protocol.get("method", "taveer")
    if not isinstance(method, str):
        _fail("protocol.method is not text", label)
    trials = (
        _count(protocol, "trials_same", "protocol", label),
        _count(protocol, "trials_different", "protocol", label),
    )
    authors = _count(population, "authors", "population", label)
    if source.kind == "file":  # a declaration: hold it to what its trials show
        check_figures(record, label)
        _lr, truth, seen = trial_arrays(record, label)
        trials = (min(trials[0], int(truth.sum())), min(trials[1], int((~truth).sum())))
        authors = min(authors, len(seen))
    conditions = record.get("conditions")
    if isinstance(conditions, dict):
        questioned = _range(
            conditions.get("questioned_chars"), "conditions.questioned_chars", label
        )
        known = _range(conditions.get("known_chars"), "conditions.known_chars", label)
    else:
        questioned = _range(protocol.get("questioned_chars"), "protocol.questioned_chars", label)
        known = _range(protocol.get("known_chars"), "protocol.known_chars", label)
    intervals = record.get("intervals") or {}
    seed = protocol.get("seed")
    fit = record.get("population_fit")
    fit_profile = None if fit is None else FitProfile.from_dict(fit, f"{label}: population_fit")
    warnings = record.get("warnings") or []
    return ValidationBasis(
        source=source,
        method=method,
        model_name=str(model.get("name", "")),
        model_sha256=model["sha256"],
        population=BasisPopulation(
            name=population["name"],
            description=str(population.get("description", "")),
            authors=authors,
            documents=int(population.get("documents") or 0),
            sha256=str(population.get("sha256", "")),
        ),
        trials_same=trials[0],
        trials_different=trials[1],
        criteria=dict(criteria),
        results=dict(results),
        met=met,
        judged_on=str(acceptance.get("judged_on", "point")),
        judged_values={
            k: float(v)
            for k, v in (acceptance.get("judged_values") or {}).items()
            if k in ("cllr", "misleading") and _number(v)
        },
        figures={k: float(v) if _number(v) else None for k, v in figures.items()},
        intervals={
            k: (
                float(v[0]) if _number(v[0]) else None,
                float(v[1]) if _number(v[1]) else None,
            )
            for k, v in (intervals.items() if isinstance(intervals, dict) else ())
            if isinstance(v, list) and len(v) == 2
        },
        casework=_casework(record, authors, trials, label),
        questioned_chars=questioned,
        known_chars=known,
        seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
        created_utc=str(record.get("created_utc", "")),
        fit_profile=fit_profile,
        declaration=declaration,
        warnings=tuple(w for w in warnings if isinstance(w, str)),
        fused=_fused(record),
    )


def _fused(record: dict[str, Any]) -> tuple[str, ...] | None:
    """The methods the record's fusion block lists (None: no such block)."""
    block = record.get("fusion")
    listed = block.get("methods") if isinstance(block, dict) else None
    if isinstance(listed, list) and all(isinstance(m, str) for m in listed):
        return tuple(listed)
    return None


def read_record_file(path: str | Path) -> ValidationBasis:
    """A record file given with ``--record``: read, hashed, parsed and checked (see the module)."""
    label = str(path)
    # a regular file only, opened without blocking: a FIFO is refused before it is opened
    data = read_file_bytes(path, MAX_RECORD_BYTES, kind="validation record")
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise InputError("is not a validation record (not JSON)", label) from None
    source = BasisSource("file", hashlib.sha256(data).hexdigest(), str(Path(path).resolve()))
    return basis_from_record(record, source)
