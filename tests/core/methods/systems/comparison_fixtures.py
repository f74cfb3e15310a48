"""The demo population and a small validation comparing the test methods
(``trigram_methods.py``), shared by the engine's tests."""

from __future__ import annotations

from pathlib import Path

from taveer_desktop.core.trials.population import Population, population_from_texts
from taveer_desktop.core.validation.validation import AcceptanceCriteria, ValidationSettings
from taveer_desktop.store.population_folder import read_population_folder
from tests.core.validation_fixtures import make_demo_population


def demo_population(root: Path) -> Population:
    folder = make_demo_population(root)
    files = read_population_folder(folder)
    return population_from_texts(files.texts(), "demo", str(folder), "Brontës and Federalist")


def small_settings(method: str, compare: tuple[str, ...] = (), **more) -> ValidationSettings:
    """Two repeats of 50 trials on three folds, a declared questioned range (length terms and
    bands in the calibration): seconds, not minutes."""
    values = dict(
        questioned_chars=(1500, 4000),
        known_chars=9000,
        folds=3,
        repeats=2,
        max_trials=100,
        bootstrap=30,
        seed=3,
        method=method,
        compare=compare,
        lambdag_order=3,
        lambdag_samples=3,
        criteria=AcceptanceCriteria.now(max_cllr=2.0),
    )
    values.update(more)
    return ValidationSettings(**values)
