"""The validation a conclusion rests on, typed: ``ValidationBasis``.

An evaluative conclusion needs a validation record of the model's own method, which produced the
model itself, on a population the examiner declared relevant to the case (docs/method.md, "The
fitness-for-purpose gate"). ``ValidationBasis`` is that record as the gate, the store, the
command line and the report read it: where it came from (a record stored in the project, with
its SHA-256, or a record file given with ``--record``, with the file's SHA-256), the method and
the model it produced, its population, its trials, its criteria and whether it met them, whether
it is large enough for casework, the conditions it declares, the population-fit profile it
carries and, for a record linked to a case by a declaration, the examiner's reason.

A record becomes a basis in one place, ``core/validation/record_basis.py``: the record's one
typed reader (``core/validation/record_reader.py``) with the strict checks a record a
conclusion rests on must pass (a malformed record refused in one line naming it; a record
file's figures recomputed from its own trials).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from taveer_desktop.core.gate.population_fit import FitProfile

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
