"""The words of a passing population-fit check quote the power measured for the version of
the profile it was judged against (``presentation/population_fit_text.FIT_POWER_FIGURES``)."""

from __future__ import annotations

import json
from pathlib import Path

from taveer_desktop.core.gate.population_fit import CaseFit
from taveer_desktop.presentation.population_fit_text import fit_check_of, fit_consequence

FIXTURE = Path(__file__).parents[1] / "core" / "gate" / "fixtures" / "fit_profile_v1.json"


def test_a_passing_check_quotes_the_power_measured_for_its_version() -> None:
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    old = CaseFit.from_dict(stored["cases"][0]["case"], "run")  # stored by version 1
    assert old.fits and old.profile_version == 1
    new = CaseFit(old.parts, old.population_documents, old.alpha, old.combination, 2)
    old_words = fit_consequence(fit_check_of(old, "forum"))
    new_words = fit_consequence(fit_check_of(new, "forum"))
    assert "89 of 100 newswire cases" in old_words and "10 of 204" in old_words
    assert "44 of 50" in new_words and "7 of 204" in new_words
    assert "89 of 100" not in new_words
    assert "not proof" in new_words  # a pass is never said to show the texts are alike
