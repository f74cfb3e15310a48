"""A stand-in validation record of a model, for tests of what is shown or computed once a
conclusion has a validation basis (issue 21: no validation, no evaluative conclusion).

``stand_in_record(model, …)`` has the shape ``core/validation/validation.py`` writes with the
numbers a test asks for (by default 30 authors, 150 trials of each class, criteria met): the record
a lab would have made for the model, without running it. It is read as a project record (its trials
are not recomputed); its population-fit profile is the demo population's (a real one); tests of
real records and of the record-file check make them with
``taveer validate`` (tests/core/gate/test_validation_basis.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from taveer_desktop import paths
from taveer_desktop.core.gate.population_fit import fit_profile
from taveer_desktop.core.gate.validation_basis import BasisSource, ValidationBasis
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.validation.record_basis import basis_from_record

STAND_IN_SOURCE = BasisSource("project", "2" * 64, "/cases/stand-in.taveer", 1)


@cache
def demo_fit_profile() -> dict[str, Any]:
    """A real population-fit profile: that of the demo population's 60 public-domain documents
    (Federalist papers and Brontë chapters), so the demo's cases fit the stand-in population."""
    folder = paths.resource("demo", "population")
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*/*.txt"))]
    return fit_profile(texts).to_dict()


def stand_in_record(
    model: Model,
    authors: int = 30,
    same: int = 150,
    different: int = 150,
    met: bool | None = True,
    method: str = "taveer",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "format": "taveer-validation-record",
        "model": {"name": model.name, "sha256": model.sha256},
        "population": {
            "name": "relevant letters",
            "description": "letters of the case's kind",
            "authors": authors,
            "documents": 4 * authors,
            "sha256": "1" * 64,
        },
        "protocol": {
            "method": method,
            "trials_same": same,
            "trials_different": different,
            "seed": 3,
            "questioned_chars": 2000,
            "known_chars": None,
        },
        "figures": {"cllr": 0.5 if met else 1.2, "misleading_y": 0.1, "misleading_n": 0.3},
        "intervals": {"cllr": [0.4, 1.3], "misleading_n": [0.2, 0.45]},
        "acceptance": {
            "criteria": {"max_cllr": 0.9, "max_misleading": 0.4, "set_utc": "2025-01-01"},
            "results": {} if met is None else {"cllr": met, "misleading": met},
            "met": met,
        },
        "population_fit": demo_fit_profile(),
        **extra,
    }


def stand_in_basis(model: Model, **kwargs: Any) -> ValidationBasis:
    return basis_from_record(stand_in_record(model, **kwargs), STAND_IN_SOURCE)
