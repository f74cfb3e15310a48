"""The demo project: seeding an empty project with the demo cases and the bundled models.

Plain store writes reporting to a ``Progress`` (whose ``step`` also raises on cancel);
the desktop runs ``seed_demo_project`` on its job runner at first start.

The demo cases come from ``resources/demo/demo_case.json``: real public-domain texts (the
Federalist Papers) with their sources named in each case's description. The bundled models are
``resources/models/default.json`` (the project's default model) and the model the demo manifest
names for its cases, which is recorded (audited) as each demo case's chosen model, as the demo
manifest explains why it suits them; cases the examiner creates have no model until chosen.

The demo also shows a validation (``DemoPopulationSpec``): the manifest's public-domain
population (``resources/demo/population``, one folder per author; its description says that it
is far too small, and partly of another genre, for casework) is imported as a named population,
and the case the manifest names is validated on it through ``store/case_validation.py`` — the
path of ``taveer case validate`` — which stores the validated model, the record linked to case,
population and model, and chooses that model for the case. That step takes a few seconds; its
steps are reported as "validating demo case DEMO-001: …".

What the demo concludes (issue 21): DEMO-001's validation has six authors, too small for
casework (``validation_too_small``), so its conclusion is investigative whatever the seed;
DEMO-002 uses the shipped model, which has no validation record on a population declared
relevant to it (``no_validation``): investigative too, with that reason. Neither shipped model
carries a record of its own.

Each step is one store transaction (the validation three) and the seeding is idempotent: what
is already there is left alone, so an interrupted first start is completed on the next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taveer_desktop import paths
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.store.errors import NotFound
from taveer_desktop.store.project_store import ProjectStore
from taveer_desktop.store.records import KNOWN, QUESTIONED

DEFAULT_MODEL_FILE = "default.json"


@dataclass(frozen=True)
class DemoCaseSpec:
    case_number: str
    title: str
    description: str
    known: tuple[Path, ...]
    questioned: Path


@dataclass(frozen=True)
class DemoPopulationSpec:
    """The demo's relevant population and the validation of one demo case on it."""

    name: str
    description: str
    folder: Path
    case_number: str
    genre: str
    settings: ValidationSettings


@dataclass(frozen=True)
class SeedResult:
    """What the demo consists of; ``case_model`` is the model the demo cases are verified with
    unless validated (the validated case's model is the one its validation produced)."""

    case_numbers: tuple[str, ...]
    default_model: str
    case_model: str
    added_anything: bool
    population: str
    validated_case: str


def demo_manifest() -> dict[str, Any]:
    """The shipped description of the demo cases and models (``resources/demo``)."""
    manifest = json.loads((paths.resource("demo") / "demo_case.json").read_text(encoding="utf-8"))
    if not isinstance(manifest, dict):
        raise ValueError("resources/demo/demo_case.json is not a JSON object")
    return manifest


def demo_cases(manifest: dict[str, Any] | None = None) -> list[DemoCaseSpec]:
    manifest = manifest or demo_manifest()
    demo_dir = paths.resource("demo")
    source = manifest.get("source", "")
    cases = []
    for entry in manifest["cases"]:
        description = entry["description"]
        if source:
            description += (
                f"\n\nSource of the texts: {source.split(';')[0].strip()} (Project Gutenberg "
                "transcriptions, shipped unchanged with their SHA-256 in resources/demo/README.md)."
            )
        cases.append(
            DemoCaseSpec(
                case_number=entry["case_number"],
                title=entry["title"],
                description=description,
                known=tuple(demo_dir / name for name in entry["known"]),
                questioned=demo_dir / entry["questioned"],
            )
        )
    return cases


def demo_population(manifest: dict[str, Any] | None = None) -> DemoPopulationSpec:
    """The manifest's population and the settings of the demo validation (criteria set now)."""
    entry = (manifest or demo_manifest())["population"]
    return DemoPopulationSpec(
        name=entry["name"],
        description=entry["description"],
        folder=paths.resource("demo") / entry["folder"],
        case_number=entry["case"],
        genre=entry["genre"],
        settings=ValidationSettings(
            seed=int(entry.get("seed", 0)),
            criteria=AcceptanceCriteria.now(
                entry.get("accept_cllr"), entry.get("accept_misleading")
            ),
        ),
    )


def bundled_model_files(manifest: dict[str, Any] | None = None) -> tuple[Path, Path]:
    """(the default model, the demo cases' model) as shipped."""
    manifest = manifest or demo_manifest()
    return paths.resource("models", DEFAULT_MODEL_FILE), paths.resources_dir() / manifest["model"]


def is_empty(store: ProjectStore) -> bool:
    return not store.cases.list_all() and not store.models.list_all()


def _ensure_model(store: ProjectStore, path: Path) -> tuple[str, bool]:
    from taveer_desktop.core.methods.taveer.model import load_model

    name = load_model(path).name
    try:
        store.models.find(name)
        return name, False
    except NotFound:
        store.models.add_file(path)
        return name, True


def seed_demo_project(store: ProjectStore, progress: Progress = NO_PROGRESS) -> SeedResult:
    """Add the demo cases with their documents and both bundled models (what is missing)."""
    manifest = demo_manifest()
    cases = demo_cases(manifest)
    default_file, case_model_file = bundled_model_files(manifest)
    population = demo_population(manifest)
    total = len(cases) + 4
    step = 0
    added = False

    def tick(message: str) -> None:
        nonlocal step
        progress.step(step, total, message)
        step += 1

    tick("adding the bundled models")
    default_name, new = _ensure_model(store, default_file)
    added |= new
    tick("adding the demo model")
    case_model_name, new = _ensure_model(store, case_model_file)
    added |= new
    for spec in cases:
        tick(f"adding demo case {spec.case_number}")
        try:
            case = store.cases.find(spec.case_number)
        except NotFound:
            case = store.cases.create(
                spec.case_number, title=spec.title, description=spec.description
            )
            added = True
        if case.known_count == 0:
            store.documents.add(case.id, KNOWN, spec.known)
            added = True
        if case.questioned_count == 0:
            store.documents.add(case.id, QUESTIONED, [spec.questioned])
            added = True
        if case.model_id is None:
            store.cases.choose_model(case.id, store.models.find(case_model_name).id)
            added = True
    tick("adding the demo population")
    try:
        store.populations.find(population.name)
    except NotFound:
        store.populations.add_folder(population.name, population.folder, population.description)
        added = True
    tick(f"validating demo case {population.case_number}")
    case = store.cases.find(population.case_number)
    if not store.validations.for_case(case.id):
        prefix = f"validating demo case {population.case_number}"
        validate_case(
            store,
            case.id,
            population.name,
            population.settings,
            progress=Progress(
                lambda done, count, what: progress.step(done, count, f"{prefix}: {what}")
            ),
            genre=population.genre,
        )
        added = True
    progress.step(total, total, "demo ready")
    return SeedResult(
        tuple(spec.case_number for spec in cases),
        default_name,
        case_model_name,
        added,
        population.name,
        population.case_number,
    )
