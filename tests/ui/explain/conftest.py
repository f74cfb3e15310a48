"""Fixtures of the explanation-view tests: real verification cases with their interpretation.

- ``federalist``: the demo case DEMO-001 (four known Madison papers, the questioned No. 51)
  verified with the bundled formal-prose model and a stand-in validation record of it
  (``tests/basis_fixtures.py``: the model itself carries none), so that its conclusion is
  evaluative;
- ``federalist_investigative``: the same texts verified with the bundled default (Stack
  Exchange) model, far outside its validated text lengths: for investigation only;
- ``no_conclusion``: an 11-character questioned text against the same known papers: none;
- ``stackexchange``: case EN137 of the shared Stack Exchange test split verified with the
  bundled default model (trained on that corpus's train split); skipped where it is absent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

import taveer_desktop.ui.explain.result_view  # noqa: F401  (the views and pyqtgraph loaded before Qt runs)
from taveer_desktop import paths
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.methods.taveer.model import Model, load_model
from taveer_desktop.core.methods.taveer.verify import verify
from tests.basis_fixtures import stand_in_basis


@dataclass
class CaseData:
    model: Model
    known: list[str]
    unknown: str
    result: dict


def _verified(
    model: Model, known: list[str], unknown: str, basis: ValidationBasis | None = None
) -> CaseData:
    result = verify(model, known, unknown, explain=True, basis=basis).to_dict()
    return CaseData(model, known, unknown, result)


@pytest.fixture(scope="session")
def lexicon():
    return default_lexicon()


@pytest.fixture(scope="session")
def federalist() -> CaseData:
    demo = paths.resource("demo")
    spec = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))
    case = spec["cases"][0]
    known = [(demo / name).read_text(encoding="utf-8") for name in case["known"]]
    unknown = (demo / case["questioned"]).read_text(encoding="utf-8")
    model = load_model(paths.resource(*spec["model"].split("/")))
    return _verified(model, known, unknown, stand_in_basis(model))


@pytest.fixture(scope="session")
def federalist_investigative(federalist) -> CaseData:
    model = load_model(paths.resource("models", "default.json"))
    return _verified(model, federalist.known, federalist.unknown)


@pytest.fixture(scope="session")
def no_conclusion(federalist) -> CaseData:
    return _verified(
        federalist.model, federalist.known, "Hello there", stand_in_basis(federalist.model)
    )


@pytest.fixture(scope="session")
def stackexchange() -> CaseData:
    from conftest import corpus_path

    folder = corpus_path("stackexchange", "test") / "EN137"
    known = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("known*.txt"))]
    unknown = (folder / "unknown.txt").read_text(encoding="utf-8")
    return _verified(load_model(paths.resource("models", "default.json")), known, unknown)
