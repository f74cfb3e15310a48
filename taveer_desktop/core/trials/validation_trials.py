"""A validation's trials: folds by author, same- and different-author pairs, cut across the
declared range of lengths (``docs/validation.md``, "Protocol").

- **Folds by author** (``assign_folds``): the authors shuffled with the repeat's seed and dealt
  into at most one fold per two authors; every trial is built within one fold.
- **Pairs**: a same-author trial takes one document of an author as the questioned text and the
  author's other documents (in a seeded order) as the known text; its different-author partner
  keeps that known text and takes a document of another author of the fold as questioned text.
- **Lengths across the range.** Each pair draws its questioned target T and known target K
  **log-uniformly** within the declared ranges (LO, HI): lengths act multiplicatively on what a
  text shows (a count's noise falls like 1/√length), the calibration's quality measure is the
  log length, and the figures are reported per log-spaced band, so a log-uniform draw gives each
  band an equal share of trials; a uniform draw would spend most trials on the long end. A
  document stands for T only if it has at least ``MIN_LENGTH_SHARE`` (80 %) of T, so T is drawn
  below the longest length the pair's documents can give (``min(HI, chars / 0.8)``, never below
  LO) and the band counts show where the population ran short. With LO = HI nothing is drawn
  (and the random stream is exactly as before ranges existed).
- **Cuts** at the sentence boundary nearest the target, as before; features are counted from
  slices of the documents' integer streams (``CodedDocument.features``).
- **Topic like the case** (``settings.topic``): with a declared topic relation, each pair's
  known documents and the different-author trial's questioned document are chosen so that both
  trials stand in that relation (``core/trials/trial_topics.py``; the groups from
  ``core/trials/topic_groups.py``), and ``matched`` says which did. Undeclared (None), the draw
  is exactly as before.
- **Apart in time** where the population's documents are dated (``core/trials/trial_dates.py``):
  each same-author trial's known documents are taken at least a month before (or after) the
  questioned one where they can be; ``time_side`` says which trials are. Undated, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from taveer_desktop.core.features.feature_vectors import DocumentFeatures
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.trials.population import Population
from taveer_desktop.core.trials.topic_groups import TopicGroups, topic_groups
from taveer_desktop.core.trials.trial_cuts import (
    Cut,
    draw_target,
    known_cut,
    known_part,
    long_enough,
    nearest_cut,
    questioned_cut,
    questioned_part,
)
from taveer_desktop.core.trials.trial_dates import (
    DatedDocuments,
    apart_side,
    dated_documents,
    keep_apart,
)
from taveer_desktop.core.trials.trial_topics import (
    TAKES,
    matching_rivals,
    order_known,
    pick,
    relation_holds,
)
from taveer_desktop.core.trials.validation_settings import (
    MIN_TRIALS_PER_CLASS,
    LengthRange,
    ValidationSettings,
)


@dataclass
class TrialSet:
    """The trials: who is on each side, the truth, the fold, the lengths and the distances."""

    known_author: list[str]
    questioned_author: list[str]
    truth: np.ndarray
    fold: np.ndarray
    questioned_chars: np.ndarray
    known_chars: np.ndarray
    distances: np.ndarray  # trials × 11, NaN where a category abstains
    folds: int
    candidates_same: int  # same-author trials the population allowed before the cap
    # the cut of each trial, for methods that read the texts' streams (LambdaG): questioned
    # (document, first, stop); known [(document, first, stop), …]
    questioned_cuts: list[Cut] = field(default_factory=list)
    known_cuts: list[list[Cut]] = field(default_factory=list)
    known_documents: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    questioned_document: list[str] = field(default_factory=list)  # "author/index"
    repeat: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    seed: int = 0
    fold_of_author: dict[str, int] = field(default_factory=dict)
    # whether each trial stands in the declared topic relation (all False when none declared)
    matched: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    topic: str | None = None  # the declared relation (``core/trials/trial_topics.py``)
    groups: TopicGroups | None = None  # the population's topic groups, when one was declared
    # −1/1: a same-author trial's questioned text after/before its known texts by the gap, 0: not
    time_side: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    dated: DatedDocuments | None = None  # the documents' dates, where the population has them

    def __len__(self) -> int:
        return len(self.truth)

    def subset(self, rows: np.ndarray) -> TrialSet:
        """The trials at these rows (a repeat's, say), folds and counts kept."""
        picked = [int(i) for i in rows]
        return TrialSet(
            known_author=[self.known_author[i] for i in picked],
            questioned_author=[self.questioned_author[i] for i in picked],
            truth=self.truth[rows],
            fold=self.fold[rows],
            questioned_chars=self.questioned_chars[rows],
            known_chars=self.known_chars[rows],
            distances=self.distances[rows],
            folds=self.folds,
            candidates_same=self.candidates_same,
            questioned_cuts=[self.questioned_cuts[i] for i in picked],
            known_cuts=[self.known_cuts[i] for i in picked],
            known_documents=self.known_documents[rows],
            questioned_document=[self.questioned_document[i] for i in picked],
            repeat=self.repeat[rows],
            seed=self.seed,
            fold_of_author=self.fold_of_author,
            matched=self.matched[rows],
            topic=self.topic,
            groups=self.groups,
            time_side=self.time_side[rows],
            dated=self.dated,
        )


def pool_trials(sets: list[TrialSet]) -> TrialSet:
    """The trials of several repeats, one after the other (``repeat`` says whose)."""
    first = sets[0]
    return TrialSet(
        known_author=[a for s in sets for a in s.known_author],
        questioned_author=[a for s in sets for a in s.questioned_author],
        truth=np.concatenate([s.truth for s in sets]),
        fold=np.concatenate([s.fold for s in sets]),
        questioned_chars=np.concatenate([s.questioned_chars for s in sets]),
        known_chars=np.concatenate([s.known_chars for s in sets]),
        distances=np.concatenate([s.distances for s in sets]),
        folds=max(s.folds for s in sets),
        candidates_same=first.candidates_same,
        questioned_cuts=[c for s in sets for c in s.questioned_cuts],
        known_cuts=[c for s in sets for c in s.known_cuts],
        known_documents=np.concatenate([s.known_documents for s in sets]),
        questioned_document=[d for s in sets for d in s.questioned_document],
        repeat=np.concatenate([s.repeat for s in sets]),
        seed=first.seed,
        fold_of_author=first.fold_of_author,
        matched=np.concatenate([s.matched for s in sets]),
        topic=first.topic,
        groups=first.groups,
        time_side=np.concatenate([s.time_side for s in sets]),
        dated=first.dated,
    )


def trial_set(
    population: Population, settings: ValidationSettings, progress: Progress = NO_PROGRESS
) -> TrialSet:
    """Every repeat's trials, pooled; the topic groups found once first, when a topic relation
    was declared."""
    groups = None if settings.topic is None else topic_groups(population)
    return pool_trials(
        [build_trials(population, settings, progress, r, groups) for r in range(settings.repeats)]
    )


__all__ = [  # the cutting functions are reached from here too (``core/trials/trial_cuts.py``)
    "Cut",
    "TrialSet",
    "assign_folds",
    "build_trials",
    "draw_target",
    "known_cut",
    "known_part",
    "nearest_cut",
    "pool_trials",
    "questioned_cut",
    "questioned_part",
    "trial_set",
]

# --- trials ----------------------------------------------------------------------------------


def assign_folds(authors: list[str], folds: int, seed: int) -> tuple[dict[str, int], int]:
    """Authors shuffled with the seed and dealt round-robin into at most ``len // 2`` folds."""
    k = min(folds, len(authors) // 2)
    if k < 2:
        raise InputError(
            f"the population has {len(authors)} authors; cross-validation by author needs at "
            "least 4 (two folds of two)"
        )
    order = np.random.default_rng(seed).permutation(len(authors))
    return {authors[i]: position % k for position, i in enumerate(order)}, k


def _refuse(population: Population, settings: ValidationSettings, n_pairs: int) -> None:
    def words(value: LengthRange | None) -> str:
        if value is None:
            return "whole"
        return f"{value[0]}" if value[0] == value[1] else f"{value[0]}–{value[1]}"

    raise InputError(
        f"the population gives {n_pairs} same-author and {n_pairs} different-author trials "
        f"under these conditions (questioned {words(settings.questioned_chars)}, known "
        f"{words(settings.known_chars)} characters); at least {MIN_TRIALS_PER_CLASS} of each "
        "are needed: add authors or documents, or validate for shorter texts",
        population.source,
    )


def build_trials(
    population: Population,
    settings: ValidationSettings,
    progress: Progress = NO_PROGRESS,
    repeat: int = 0,
    groups: TopicGroups | None = None,
) -> TrialSet:
    """One repeat's balanced trials (seed ``settings.seed + repeat``; at most its share of
    ``max_trials``) cut across the declared lengths and, with a declared topic relation, like
    the case in topic (see the module; ``groups`` found here when not given)."""
    seed = settings.seed + repeat
    rng = np.random.default_rng(seed)
    authors = population.authors
    fold_of, k = assign_folds(authors, settings.folds, seed)
    docs = population.documents
    q_range, k_range = settings.questioned_chars, settings.known_chars
    q_low = None if q_range is None else q_range[0]
    k_low = None if k_range is None else k_range[0]

    def questioned_ok(chars: int, target: int | None = q_low) -> bool:
        return long_enough(chars, target)

    candidates = []  # (author, index of the questioned document)
    for author in authors:
        total = sum(d.coded.n_chars for d in docs[author])
        for index, document in enumerate(docs[author]):
            chars = document.coded.n_chars
            if questioned_ok(chars) and long_enough(total - chars, k_low):
                candidates.append((author, index))
    by_fold: dict[int, list[str]] = {f: [] for f in range(k)}
    for author in authors:
        if any(questioned_ok(d.coded.n_chars) for d in docs[author]):
            by_fold[fold_of[author]].append(author)
    usable = [
        c for c in candidates if len(by_fold[fold_of[c[0]]]) - (c[0] in by_fold[fold_of[c[0]]]) > 0
    ]
    n_candidates = len(usable)
    if min(n_candidates, settings.max_trials // 2) < MIN_TRIALS_PER_CLASS:
        _refuse(population, settings, min(n_candidates, settings.max_trials // 2))
    topic = settings.topic
    if topic is not None and groups is None:
        groups = topic_groups(population)
    group_of = {}
    if groups is not None:
        group_of = {a: [groups.group(a, i) for i in range(len(docs[a]))] for a in authors}
    same_takes, different_takes = TAKES[topic] if topic is not None else (None, None)

    def known_documents(author: str, q_index: int, drawn: list[int]) -> list[int]:
        """The same-author trial's known documents, ordered for the relation (if they can)."""
        if same_takes is None:
            return drawn
        ordered = order_known(drawn, group_of[author], group_of[author][q_index], same_takes)
        enough = long_enough(sum(docs[author][i].coded.n_chars for i in ordered), k_low)
        return ordered if ordered and enough else drawn

    def known_length(author: str) -> Callable[[list[int]], bool]:
        return lambda chosen: long_enough(sum(docs[author][i].coded.n_chars for i in chosen), k_low)

    def apart_ok(author: str, q_index: int) -> bool:
        others = [j for j in range(len(docs[author])) if j != q_index]
        assert dated is not None
        return keep_apart(others, dated.of[author], q_index, known_length(author)) is not None

    def matchable(author: str, q_index: int) -> bool:
        others = [j for j in range(len(docs[author])) if j != q_index]
        chosen = {group_of[author][j] for j in known_documents(author, q_index, others)}
        return relation_holds(str(same_takes), group_of[author][q_index], chosen)

    order = rng.permutation(n_candidates)
    dated = dated_documents(population)
    if dated is not None:  # pairs whose same-author trial can be kept apart in time first
        order = np.array(sorted(order, key=lambda i: not apart_ok(*usable[i])), dtype=np.int64)
    if same_takes is not None:  # pairs whose same-author trial can be matched first (stable)
        order = np.array(sorted(order, key=lambda i: not matchable(*usable[i])), dtype=np.int64)
    order = order[: settings.pairs_of_repeat(repeat)]
    chosen = sorted((usable[i] for i in order), key=lambda c: (fold_of[c[0]], c[0], c[1]))
    n_pairs = len(chosen)
    rows_known, rows_questioned, fold, q_cuts, k_cuts, q_docs = [], [], [], [], [], []
    lengths = np.zeros((2 * n_pairs, 3), dtype=np.int64)
    distances = np.full((2 * n_pairs, len(CATEGORY_IDS)), np.nan)
    matched = np.zeros(2 * n_pairs, dtype=bool)
    time_side = np.zeros(2 * n_pairs, dtype=np.int64)
    longest_of = {a: max(d.coded.n_chars for d in docs[a]) for a in authors}
    for p, (author, q_index) in enumerate(chosen):
        progress.check()
        indices = [i for i in range(len(docs[author])) if i != q_index]
        indices = known_documents(
            author, q_index, [indices[i] for i in rng.permutation(len(indices))]
        )
        if dated is not None:
            days = dated.of[author]
            indices = keep_apart(indices, days, q_index, known_length(author)) or indices
        others = [docs[author][i].coded for i in indices]
        k_target = draw_target(k_range, sum(d.n_chars for d in others), rng)
        known_parts = known_cut(others, k_target)
        known = DocumentFeatures.combine(d.features(a, b) for d, a, b in known_parts)
        if dated is not None:
            time_side[2 * p] = apart_side(indices[: len(known_parts)], days, q_index)
        rivals = [a for a in by_fold[fold_of[author]] if a != author]
        q_chars = docs[author][q_index].coded.n_chars
        q_target = draw_target(q_range, min(q_chars, max(longest_of[a] for a in rivals)), rng)
        if q_target != q_low:  # only rivals with a document long enough for this target
            rivals = [a for a in rivals if questioned_ok(longest_of[a], q_target)]
        fitting: list[tuple[str, int]] = []
        if groups is not None:
            known_groups = {group_of[author][i] for i in indices[: len(known_parts)]}
            q_group = group_of[author][q_index]
            matched[2 * p] = relation_holds(str(same_takes), q_group, known_groups)
            suitable = [
                (a, i)
                for a in rivals
                for i, d in enumerate(docs[a])
                if questioned_ok(d.coded.n_chars, q_target)
            ]
            fitting = matching_rivals(suitable, groups, known_groups, str(different_takes))
        if fitting:
            rival, picked = pick(fitting, rng)
            matched[2 * p + 1] = True
        else:
            rival = rivals[int(rng.integers(len(rivals)))]
            rival_index = [
                i for i, d in enumerate(docs[rival]) if questioned_ok(d.coded.n_chars, q_target)
            ]
            picked = rival_index[int(rng.integers(len(rival_index)))]
        pairs = (
            (author, q_index, docs[author][q_index].coded),
            (rival, picked, docs[rival][picked].coded),
        )
        for offset, (q_author, index, document) in enumerate(pairs):
            row = 2 * p + offset
            first, stop = questioned_cut(document, q_target, rng)
            questioned = document.features(first, stop)
            q_cuts.append((document, first, stop))
            k_cuts.append(known_parts)
            q_docs.append(f"{q_author}/{index}")
            distances[row] = questioned.distances(known)
            lengths[row] = questioned.n_chars, known.n_chars, len(known_parts)
            rows_known.append(author)
            rows_questioned.append(q_author)
            fold.append(fold_of[author])
        if p % 25 == 0 or p == n_pairs - 1:
            progress.step(p + 1, n_pairs, "cutting trials")
    return TrialSet(
        known_author=rows_known,
        questioned_author=rows_questioned,
        truth=np.array([i % 2 == 0 for i in range(2 * n_pairs)]),
        fold=np.array(fold, dtype=np.int64),
        questioned_chars=lengths[:, 0],
        known_chars=lengths[:, 1],
        distances=distances,
        folds=k,
        candidates_same=n_candidates,
        questioned_cuts=q_cuts,
        known_cuts=k_cuts,
        known_documents=lengths[:, 2],
        questioned_document=q_docs,
        repeat=np.full(2 * n_pairs, repeat, dtype=np.int64),
        seed=seed,
        fold_of_author=fold_of,
        matched=matched,
        topic=topic,
        groups=groups,
        time_side=time_side,
        dated=dated,
    )
