"""What a comparison system is given in a validation trial: its texts and its impostors.

A trial's texts are the very sentences TAVeer counted: a cut (document, first, stop) is the
prepared text from the start of sentence ``first`` to the end of sentence ``stop - 1``
(``cut_text``; ``CodedDocument.text`` is the prepared text its spans point into). A trial's
impostors are the population's documents by the authors of the *other* folds of the trial's
repeat, the folds dealt as ``build_trials`` dealt them — never a document of the trial's own
authors (``comparison_validation.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.features.feature_stream import CodedDocument
from taveer_desktop.core.methods.systems.comparison import CaseTexts
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.validation_settings import ValidationSettings
from taveer_desktop.core.trials.validation_trials import TrialSet, assign_folds

PoolKey = tuple[int, int]  # (repeat, fold)


def cut_text(document: CodedDocument, first: int, stop: int) -> str:
    """The prepared text of sentences ``first`` … ``stop - 1`` of a document."""
    return document.text[document.spans[first][0] : document.spans[stop - 1][1]]


def trial_case(trials: TrialSet, row: int) -> CaseTexts:
    """The texts of one trial, as TAVeer cut them."""
    return CaseTexts(
        known=tuple(cut_text(*cut) for cut in trials.known_cuts[row]),
        questioned=cut_text(*trials.questioned_cuts[row]),
    )


@dataclass(frozen=True)
class Impostors:
    """The population's prepared documents, their authors, and each (repeat, fold)'s pool:
    the indices of the documents by authors of the repeat's other folds."""

    texts: tuple[str, ...]
    authors: tuple[str, ...]
    pools: dict[PoolKey, tuple[int, ...]]

    def of(self, key: PoolKey | None) -> tuple[str, ...]:
        return () if key is None else tuple(self.texts[i] for i in self.pools[key])


def impostors_of(
    population: Population, trials: TrialSet, settings: ValidationSettings
) -> Impostors:
    """Every repeat's folds, as ``build_trials`` drew them, and their impostor pools."""
    documents = [d for a in population.authors for d in population.documents[a]]
    authors = tuple(d.author for d in documents)
    pools: dict[PoolKey, tuple[int, ...]] = {}
    for repeat in sorted({int(r) for r in trials.repeat}):
        fold_of, k = assign_folds(population.authors, settings.folds, settings.seed + repeat)
        for fold in range(k):
            pools[(repeat, fold)] = tuple(i for i, a in enumerate(authors) if fold_of[a] != fold)
    return Impostors(tuple(d.coded.text for d in documents), authors, pools)
