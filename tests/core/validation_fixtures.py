"""A small public-domain population for the validation tests: the Brontës' chapters and the
Federalist papers of undisputed single authorship, one folder per author (the header line that
names a paper's author is dropped). Too small for casework; big enough for 20+ trials a class."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import DEMO_TEXTS

_AUTHOR_LINE = re.compile(
    r"^(HAMILTON AND MADISON|HAMILTON OR MADISON|HAMILTON|MADISON|JAY)\s*$", re.M
)


SHIPPED_POPULATION = Path(__file__).resolve().parents[2] / "resources" / "demo" / "population"


def make_demo_population(root: Path, federalist_per_author: int = 12) -> Path:
    """Write the population folder under ``root`` and return it. Without the shared demo
    texts, the demo project's shipped population (the same authors, more Federalist papers)
    is copied instead."""
    brontes, federalist = DEMO_TEXTS / "brontes", DEMO_TEXTS / "federalist"
    folder = root / "demo-population"
    if not brontes.is_dir() or not federalist.is_dir():
        if not SHIPPED_POPULATION.is_dir():
            pytest.skip(f"neither the demo texts ({DEMO_TEXTS}) nor the shipped population")
        shutil.copytree(SHIPPED_POPULATION, folder)
        return folder
    folder.mkdir()
    for path in sorted(brontes.glob("*.txt")):
        author = "_".join(path.name.split("_")[:2])
        (folder / author).mkdir(exist_ok=True)
        shutil.copy(path, folder / author / path.name)
    counts: dict[str, int] = {}
    for path in sorted(federalist.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        match = _AUTHOR_LINE.search(text)
        if not match or " " in match.group(1):
            continue
        author = match.group(1).title()
        if counts.get(author, 0) >= federalist_per_author:
            continue
        counts[author] = counts.get(author, 0) + 1
        (folder / author).mkdir(exist_ok=True)
        (folder / author / path.name).write_text(text.replace(match.group(0), ""), encoding="utf-8")
    return folder


def demo_validation_record(root: Path, seed: int = 7) -> dict:
    """A real validation record of the demo population (whole documents, 3 folds, a light
    bootstrap; criteria set so that one is met and one is not), as ``validate`` writes it."""
    from taveer_desktop.core.trials.population import population_from_texts
    from taveer_desktop.core.validation.validation import (
        AcceptanceCriteria,
        ValidationSettings,
        validate,
    )
    from taveer_desktop.store.population_folder import read_population_folder

    folder = make_demo_population(root)
    files = read_population_folder(folder)
    population = population_from_texts(
        files.texts(), "demo", str(folder), "Brontë chapters and Federalist papers"
    )
    settings = ValidationSettings(
        questioned_chars=3000,
        known_chars=9000,
        folds=3,
        seed=seed,
        bootstrap=50,
        criteria=AcceptanceCriteria.now(max_cllr=5.0, max_misleading=0.01),
    )
    return validate(population, settings).record
