"""The validation record, typed: ``read_validation_record(data)`` is its one reader for what
the program shows of it (the report, the screens, the command line).

A record (``core/validation/validation.py`` writes it; ``docs/validation.md``, "The record",
lists every key) is read once, at the edge where it leaves the store or a file, into frozen
dataclasses whose attribute names are the record's keys: ``record.figures.cllr`` is
``data["figures"]["cllr"]``, ``record.protocol.seed`` is ``data["protocol"]["seed"]``. A model's
``validation`` summary (the record without its trials) reads the same way.

Every version the program has written reads: format 1 (no conditions, repeats, bands, casework
or judged_on; single lengths in the protocol), format 2, and the blocks added since (methods
compared, comparison, fusion, LambdaG, trial construction). A part a record lacks, or holds in a
shape this version does not know, reads as None (a mapping part as empty): the reader is as
lenient as the screens were when they indexed the dictionary, and never changes a value — a
number stays the int or float the JSON held, so every figure prints as before
(``tests/core/validation/test_record_reader.py`` walks every number of the shipped and test
records).
The gate's strict reading of a record it relies on is ``core/gate/validation_basis.py``; the
methods' blocks are ``core/validation/method_figures.py``'s ``MethodFigures``. ``raw`` keeps
the dictionary itself, for what must stay byte-identical (its SHA-256, the report's attachment).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from taveer_desktop.core.calibration.outcome import ResultFormatError
from taveer_desktop.core.validation.method_figures import MethodFigures, read_block
from taveer_desktop.core.validation.record_parts import (
    FIGURE_NAMES,
    Acceptance,
    Band,
    Bound,
    Comparison,
    Conditions,
    Construction,
    Criteria,
    Figures,
    FusionBlock,
    Intervals,
    LambdaGBlock,
    Number,
    Pair,
    Protocol,
    RecordCasework,
    RecordModel,
    RecordPopulation,
    Repeats,
    TopicGroups,
    Trial,
    TrialDates,
)

__all__ = [  # the parts, named here too: a consumer imports the record from one place
    "Bound",
    "Construction",
    "Figures",
    "LambdaGBlock",
    "RecordModel",
    "TrialDates",
    "ValidationRecord",
    "read_validation_record",
]


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _num(value: Any) -> Number | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _nums(value: Any) -> tuple[Number | None, ...] | None:
    return tuple(_num(v) for v in value) if isinstance(value, list) else None


def _pair(value: Any) -> Pair | None:
    if isinstance(value, list) and len(value) == 2:
        return (_num(value[0]), _num(value[1]))
    return None


def _declared(value: Any) -> Pair | None:
    """A declared range: [LO, HI], or a single number N meaning N to N (as the gate reads it)."""
    number = _num(value)
    return (number, number) if number is not None else _pair(value)


def _length(value: Any) -> Number | Pair | None:
    """A protocol's length: one number (format 1) or [LO, HI] (null sides: whole documents)."""
    return _num(value) if _pair(value) is None else _pair(value)


def _figures(data: Any) -> Figures:
    block = _obj(data)
    listed = tuple(str(name) for name in block if name in FIGURE_NAMES)
    return Figures(**{name: _num(block.get(name)) for name in FIGURE_NAMES}, names=listed)


def _intervals(data: Any) -> Intervals:
    block = _obj(data)
    listed = tuple(str(name) for name in block if name in FIGURE_NAMES)
    return Intervals(**{name: _pair(block.get(name)) for name in FIGURE_NAMES}, names=listed)


def _written(data: Any) -> tuple[str, ...] | None:
    """The keys of a block, in its order (None: the record holds no object there)."""
    return tuple(str(key) for key in data) if isinstance(data, dict) else None


@dataclass(frozen=True)
class ValidationRecord:
    """A validation record (or a model's validation summary), typed; see the module."""

    format_version: int | None
    created_utc: str | None
    software_version: str | None
    population: RecordPopulation
    conditions: Conditions | None
    protocol: Protocol
    figures: Figures
    intervals: Intervals
    acceptance: Acceptance
    bound: Bound | None
    bands: tuple[Band, ...]
    repeats: Repeats | None
    casework: RecordCasework | None
    methods: Mapping[str, MethodFigures]  # in the record's order; empty: none compared
    comparison: Comparison | None
    fusion: FusionBlock | None
    lambdag: LambdaGBlock | None
    model: RecordModel | None
    seconds: Number | None
    warnings: tuple[str, ...]
    trials: tuple[Trial, ...]
    # the population's fit profile as stored, for ``FitProfile.from_dict`` (its one reader,
    # ``core/gate/population_fit.py``); None: the record has none
    population_fit: dict[str, Any] | None
    objects: frozenset[str]  # the record's top-level keys that hold an object (a block)
    raw: dict[str, Any] = field(repr=False, compare=False)  # as read: hash it, attach it


def _fields(cls: type, data: Any, **special: Any) -> Any:
    """``cls`` from the plain fields of ``data`` (each read by its annotation's kind)."""
    block = _obj(data)
    values: dict[str, Any] = {}
    for name, spec in cls.__dataclass_fields__.items():  # type: ignore[attr-defined]
        if name in special:
            values[name] = special[name]
            continue
        if name == "written":
            values[name] = _written(data)
            continue
        kind = str(spec.type)
        value = block.get(name)
        if kind.startswith("str"):
            values[name] = _str(value)
        elif kind.startswith("int"):
            values[name] = _int(value)
        elif kind.startswith("bool"):
            values[name] = _bool(value)
        elif kind.startswith("Number"):
            values[name] = _num(value)
        elif kind.startswith("tuple[str"):
            absent = kind.endswith("| None") and not isinstance(value, list)
            values[name] = None if absent else _strs(value)
        elif kind.startswith("tuple[Number"):
            values[name] = _nums(value)
        elif kind.startswith("Mapping[str, Number"):
            values[name] = {str(k): _num(v) for k, v in _obj(value).items()}
        else:
            raise TypeError(f"{cls.__name__}.{name}: no plain reading of {kind}")
    return cls(**values)


def _optional(cls: type, data: Any, **special: Any) -> Any:
    return _fields(cls, data, **special) if isinstance(data, dict) else None


def _construction(protocol: Mapping[str, Any]) -> Construction | None:
    block = _obj(protocol.get("trials")).get("construction")
    if not isinstance(block, dict):
        return None
    groups = block.get("groups")
    read_groups = (
        TopicGroups(_str(groups.get("source")), _int(groups.get("count")), _written(groups))
        if isinstance(groups, dict)
        else None
    )
    dates = block.get("dates")
    read_dates = _fields(TrialDates, dates) if isinstance(dates, dict) else _str(dates)
    built: Construction = _fields(Construction, block, groups=read_groups, dates=read_dates)
    return built


def _protocol(data: Any) -> Protocol:
    block = _obj(data)
    protocol: Protocol = _fields(
        Protocol,
        block,
        questioned_chars=_length(block.get("questioned_chars")),
        known_chars=_length(block.get("known_chars")),
        construction=_construction(block),
    )
    return protocol


def _acceptance(data: Any) -> Acceptance:
    block = _obj(data)
    results = {str(k): v for k, v in _obj(block.get("results")).items() if isinstance(v, bool)}
    judged = {str(k): v for k, v in _obj(block.get("judged_values")).items() if _num(v) is not None}
    return Acceptance(
        criteria=_fields(Criteria, block.get("criteria")),
        results=results,
        met=_bool(block.get("met")),
        judged_on=_str(block.get("judged_on")),
        judged_values=judged,
    )


def _band(data: Any) -> Band:
    block = _obj(data)
    return Band(
        questioned_chars=_pair(block.get("questioned_chars")),
        trials_same=_int(block.get("trials_same")),
        trials_different=_int(block.get("trials_different")),
        figures=_figures(block.get("figures")),
        intervals=_intervals(block.get("intervals")),
        bound=_fields(Bound, block.get("bound")),
        written=_written(data),
    )


def _methods(data: Any) -> dict[str, MethodFigures]:
    methods = {}
    for method, block in _obj(data).items():
        try:
            methods[str(method)] = read_block(str(method), block)
        except ResultFormatError:  # a method this version does not know, or a bad block
            continue
    return methods


def _trial(data: Any) -> Trial:
    by_method = {str(k): _num(v) for k, v in _obj(_obj(data).get("log10_lr_by_method")).items()}
    trial: Trial = _fields(Trial, data, log10_lr_by_method=by_method)
    return trial


def read_validation_record(data: dict[str, Any]) -> ValidationRecord:
    """The record ``data`` (a parsed record, or a model's validation summary), typed."""
    repeats = data.get("repeats")
    conditions = data.get("conditions")
    trials = data.get("trials")
    bands = data.get("bands")
    return ValidationRecord(
        format_version=_int(data.get("format_version")),
        created_utc=_str(data.get("created_utc")),
        software_version=_str(data.get("software_version")),
        population=_fields(
            RecordPopulation,
            data.get("population"),
            name=_str(_obj(data.get("population")).get("name")) or "",
            description=_str(_obj(data.get("population")).get("description")) or "",
        ),
        conditions=Conditions(
            _declared(_obj(conditions).get("questioned_chars")),
            _declared(_obj(conditions).get("known_chars")),
            _written(conditions),
        )
        if isinstance(conditions, dict)
        else None,
        protocol=_protocol(data.get("protocol")),
        figures=_figures(data.get("figures")),
        intervals=_intervals(data.get("intervals")),
        acceptance=_acceptance(data.get("acceptance")),
        bound=_optional(Bound, data.get("bound")),
        bands=tuple(_band(b) for b in bands if isinstance(b, dict))
        if isinstance(bands, list)
        else (),
        repeats=_optional(Repeats, repeats, spread=_figures(_obj(repeats).get("spread"))),
        casework=_optional(RecordCasework, data.get("casework")),
        methods=_methods(data.get("methods")),
        comparison=_optional(Comparison, data.get("comparison")),
        fusion=_optional(FusionBlock, data.get("fusion")),
        lambdag=_optional(LambdaGBlock, data.get("lambdag")),
        model=_optional(RecordModel, data.get("model")),
        seconds=_num(data.get("seconds")),
        warnings=_strs(data.get("warnings")),
        trials=tuple(_trial(t) for t in trials if isinstance(t, dict))
        if isinstance(trials, list)
        else (),
        population_fit=fit if isinstance(fit := data.get("population_fit"), dict) else None,
        objects=frozenset(str(k) for k, v in data.items() if isinstance(v, dict)),
        raw=data,
    )
