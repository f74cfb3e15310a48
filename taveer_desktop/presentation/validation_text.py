"""The words of a validation record's population, protocol, likelihood-ratio bound and limits
(plain text, no Qt, no HTML), one vocabulary for the validation report, the case report's
summary, the command line and the desktop's validation views.

A validation record (``core/validation/validation.py``) is a measurement of the method on trials of
known truth; nothing here states who wrote any document. Sentences are plain text: the PDF escapes
them (``report/escape.py``), the desktop shows them as they are. The other words of a record:
its figures and acceptance in ``validation_figures_text.py``, its plots in
``validation_plot_text.py``, the report's statement, identification and the case report's
paragraph in ``validation_report_text.py``.

- ``protocol_sentences(record)``: the trial protocol in plain words (heads as in the limits).
- ``population_pairs(record)``: (label, value) rows of the population.
- ``bound_sentence(record)``: the LR bound as numbers (``ratio_text``), what it means, its rule.
- ``casework_shortfalls(record)``: why the validation is too small for casework ([] if not);
  ``limits_sentences(record)``: what the validation does not cover (each sentence opens
  with a short head ending in a full stop, e.g. "Lengths. …").
"""

from __future__ import annotations

from typing import Any

from taveer_desktop.core.validation.record_reader import Bound, ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import face, fuses
from taveer_desktop.presentation.fusion_text import (
    record_fusion,
    record_method_name,
)
from taveer_desktop.presentation.method_agreement import (
    compared_methods,
    record_method,
)
from taveer_desktop.presentation.method_report_text import (
    lambdag_validation_sentences,
)
from taveer_desktop.presentation.numbers import count
from taveer_desktop.presentation.trial_construction_text import (
    construction_of,
    matched_shortfalls,
    time_sentence,
    topic_sentence,
)
from taveer_desktop.presentation.validation_figures_text import finite_number, trial_counts

# Who decides that a validation is too small to rely on in casework (the program's rule of
# thumb, stated in the report): fewer authors than this gives bootstrap intervals over authors
# too wide to read, and fewer trials per class bounds every LR below that number.
CASEWORK_MIN_AUTHORS = 20
CASEWORK_MIN_TRIALS_PER_CLASS = 100


QUOTED_CHARS = 600  # a description quoted inside a sentence is cut to this many characters


def shortened(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (the record keeps it whole)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- population, protocol, bound -------------------------------------------------------------


def population_pairs(record: ValidationRecord) -> list[tuple[str, str]]:
    """(label, value) rows describing the relevant population."""
    population = record.population
    warnings = record.warnings
    rows = [
        ("Name", population.name),
        ("Description", population.description or "none given"),
        ("Authors", f"{numbers.integer(population.authors or 0)}"),
        ("Documents", f"{numbers.integer(population.documents or 0)}"),
        ("SHA-256", population.sha256 or ""),
    ]
    if population.source:
        rows.append(("Source", population.source))
    rows.append(
        (
            "Intake warnings",
            f"{count(len(warnings), 'file')} left out or flagged at intake" if warnings else "none",
        )
    )
    return rows


def trial_length(value: Any) -> str:
    """A trial length as stated: one target, a declared range [LO, HI] or whole documents."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(finite_number(v) for v in value):
        if value[0] != value[1]:
            return (
                f"{numbers.integer(int(value[0]))}–{numbers.integer(int(value[1]))} characters "
                "(the declared range)"
            )
        value = int(value[0])
    return (
        f"about {numbers.integer(value)} characters"
        if isinstance(value, int) and not isinstance(value, bool)
        else "their whole length"
    )


def protocol_sentences(record: ValidationRecord) -> list[str]:
    """The trial protocol in plain words, from the record's ``protocol``."""
    p = record.protocol
    population = record.population
    n_same, n_different = trial_counts(record)
    folds, asked = p.folds, p.folds_asked
    fold_note = f" (asked for {asked}; at most one fold per two authors)" if asked != folds else ""
    capped = (p.same_author_trials_possible or 0) > n_same
    cap_note = (
        f"a sample of {numbers.integer(n_same)} chosen with the seed (the cap is "
        f"{numbers.integer(p.max_trials or 0)} "
        "trials in all)"
        if capped
        else "all of them"
    )
    share = p.min_length_share
    thresholds = "median" if p.threshold_method is None else p.threshold_method
    share_text = f"{numbers.percent(share, 0)}" if finite_number(share) else "most"
    sentences = [
        f"Folds by author. The {numbers.integer(population.authors or 0)} authors were "
        "shuffled with "
        f"seed {p.seed} and dealt into {folds} folds{fold_note}. Every trial was built "
        "from the authors of one fold, so no author is on both sides of a cross-validation "
        "split.",
        "How trials were built. A same-author trial takes one of an author's documents as the "
        "questioned text and the author's other documents, in a seeded order, as the known "
        "text. Each is paired with a different-author trial that keeps the same known text and "
        "takes as questioned text a document of another author of the same fold, so the two "
        "kinds of trial are balanced and a pair differs only in who wrote the questioned text.",
        topic_sentence(record),
        *filter(None, [time_sentence(record)]),
        f"Cut to the declared lengths. Questioned texts were cut to "
        f"{trial_length(p.questioned_chars)} and known texts to "
        f"{trial_length(p.known_chars)}, at the sentence boundary nearest the target; a "
        f"document shorter than {share_text} of its target gave no trial. The features of "
        "every document were extracted once and each trial counted from a slice of them.",
        "Counts. The population allowed "
        f"{numbers.integer(p.same_author_trials_possible or 0)} "
        f"same-author trials; {cap_note} were made, giving {numbers.integer(n_same)} same-author "
        "and "
        f"{numbers.integer(n_different)} different-author trials (the program refuses fewer than "
        f"{20 if p.min_trials_per_class is None else p.min_trials_per_class} of either).",
        "Cross-validation. For each fold, the thresholds "
        f"({thresholds}), the ensemble of feature kinds and the "
        "logistic calibration with its bound were learned on the other folds, and the held-out "
        "fold's trials were scored with them. Every figure and plot in this report comes from "
        "these held-out scores; the model itself was then fitted on all trials the same way.",
        f"Intervals. Each figure's 95 % interval is the 2.5th to 97.5th percentile over "
        f"{numbers.integer(p.bootstrap or 0)} bootstrap resamples of the authors (a trial "
        "belongs to its "
        "known author), because trials of one author are not independent.",
    ]
    return sentences + lambdag_validation_sentences(record)


def ratio_text(log10_lr: float) -> str:
    """A bound's likelihood ratio with three significant digits: "1.42", "1/1.61", "1"."""
    shown = numbers.significant(10.0 ** abs(log10_lr))
    if shown == "1":
        return "1"
    return shown if log10_lr >= 0 else f"1/{shown}"


def bound_sentence(record: ValidationRecord) -> str:
    """The bound on the size of a likelihood ratio: its numbers, what it means, and its rule."""
    bound = record.bound or Bound()
    low, high = bound.min_log10_lr, bound.max_log10_lr
    if not (finite_number(low) and finite_number(high)):
        return "The record states no bound on the size of the likelihood ratio."
    rule = "not stated" if bound.rule is None else bound.rule
    if low == 0.0 and high == 0.0:
        return (
            "The trials do not show the method doing better than a likelihood ratio of 1, so "
            f"every likelihood ratio of this model is 1. Rule: {rule}."
        )
    meaning = (
        ": beyond it, these trials do not show the method doing better than always giving "
        "a likelihood ratio of 1"
        if "ELUB" in rule
        else ""
    )
    return (
        f"The likelihood ratio is bounded between {ratio_text(low)} and {ratio_text(high)} "
        f"(log10 LR from {numbers.decimal(low, 2)} to {numbers.decimal(high, 2)}){meaning}. "
        f"Rule: {rule}."
    )


# --- limits ----------------------------------------------------------------------------------


def casework_shortfalls(record: ValidationRecord) -> list[str]:
    """Why this validation is too small to rely on in casework (empty: large enough by the
    program's rule of thumb, which is no guarantee of relevance)."""
    authors = int(record.population.authors or 0)
    n_same, n_different = trial_counts(record)
    reasons = []
    if authors < CASEWORK_MIN_AUTHORS:
        reasons.append(
            f"{count(authors, 'author')} (fewer than {CASEWORK_MIN_AUTHORS}: intervals over "
            "authors are too wide to read)"
        )
    if min(n_same, n_different) < CASEWORK_MIN_TRIALS_PER_CLASS:
        reasons.append(
            f"{numbers.integer(n_same)} same-author and {numbers.integer(n_different)} "
            "different-author trials (fewer than "
            f"{CASEWORK_MIN_TRIALS_PER_CLASS} of a kind: every likelihood ratio is bounded "
            "below that number)"
        )
    return reasons + matched_shortfalls(record, CASEWORK_MIN_TRIALS_PER_CLASS)


def limits_sentences(record: ValidationRecord) -> list[str]:
    """What this validation does not cover, one sentence each; the first says plainly when it
    is too small for casework."""
    population = record.population
    protocol = record.protocol
    sentences = []
    shortfalls = casework_shortfalls(record)
    if shortfalls:
        sentences.append(
            "Too small for casework. This validation has "
            + "; ".join(shortfalls)
            + ". It shows how the method behaves, not that it can be relied on in a case."
        )
    description = shortened(population.description.strip())
    sentences += [
        "Genre, register, period and topic. The figures hold for texts like those of the "
        f"population “{population.name}”"
        + (f" ({description})" if description else "")
        + ". For texts of another genre, register, period or topic they do not apply: a "
        "mismatch between validation data and case data misleads (Ishihara et al. 2024). "
        "Whether the population is relevant to a case is the examiner's statement, not "
        "checked by the program.",
        "Lengths. The trials had questioned texts of "
        f"{trial_length(protocol.questioned_chars)} and known texts of "
        f"{trial_length(protocol.known_chars)}. For much shorter or longer "
        "texts the figures do not apply; the model's gate marks such cases as outside its "
        "validated conditions.",
        "The bound on the likelihood ratio. " + bound_sentence(record),
        f"Population size. {count(int(population.authors or 0), 'author')} and "
        f"{count(int(population.documents or 0), 'document')}: the intervals above show "
        "how much the figures could change with other authors of the same kind; a larger "
        "population gives narrower intervals.",
        _topic_limit(record),
        _methods_limit(record),
    ]
    return sentences


def _topic_limit(record: ValidationRecord) -> str:
    if construction_of(record) is None:
        return (
            "Topic is not controlled. Trials pair documents as they come; where an author's "
            "documents share a topic that other authors' do not, same-author trials are easier "
            "than the case and the figures optimistic."
        )
    return (
        "Topic. The trials were built for the topic relation declared for the case (see how "
        "the trials were built); for a case whose known and questioned texts relate otherwise "
        "in topic the figures do not apply, and topic groups found from the texts are only as "
        "good as the measure of their words."
    )


def _methods_limit(record: ValidationRecord) -> str:
    stated = record_method(record)
    limit = face(stated).limit
    if limit is not None:
        return limit
    fused = record_fusion(record) if fuses(stated) else {}
    ran = (stated, *compared_methods(record), *fused)
    notes = dict.fromkeys(face(m).variant_note for m in ran if face(m).variant_note)
    variant = "".join(f", {note}" for note in notes)
    return (
        f"Methods. The figures describe {record_method_name(record)} with the settings stated "
        f"here{variant}; the side-by-side table gives each method's own. They say nothing "
        "about other methods, variants or settings."
    )
