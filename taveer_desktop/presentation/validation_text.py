"""The words of a validation record, one vocabulary for the validation report, the case report's
summary, the command line and the desktop's validation views (plain text, no Qt, no HTML).

A validation record (``core/validation.py``) is a measurement of the method on trials of known
truth; nothing here states who wrote any document. Sentences are plain text: the PDF escapes
them (``report/escape.py``), the desktop shows them as they are.

Stable API (the desktop's validation wizard and model view use it; keep it so):

- ``FIGURE_ORDER``, ``FIGURE_NAMES[key]``, ``FIGURE_MEANINGS[key]``: the record's figures
  (``cllr`` … ``ece``), their names and what each measures, in one sentence.
- ``figure_value(key, value)``: a figure as it is shown (shares in %, costs with 3 decimals).
- ``figure_lines(record)`` → ``[FigureLine]``: name, value, interval, meaning and ``reading``
  (what this value says) of every figure the record holds.
- ``acceptance_verdict(met)``: "criteria met" / "criteria NOT met" / "no acceptance criteria set".
- ``acceptance_lines(record)`` → ``[AcceptanceLine]`` (criterion, measured, met) and
  ``acceptance_sentence(record)``: the criteria, when they were set, met or not.
- ``protocol_sentences(record)``: the trial protocol in plain words (heads as in the limits).
- ``population_pairs(record)``: (label, value) rows of the population.
- ``bound_sentence(record)``: the LR bound as numbers (``ratio_text``), what it means, its rule.
- ``casework_shortfalls(record)``: why the validation is too small for casework ([] if not);
  ``limits_sentences(record)``: what the validation does not cover (each sentence opens
  with a short head ending in a full stop, e.g. "Lengths. …").
- ``statement_sentences(record)``: the report's opening statement; ``REPORT_TITLE``,
  ``identification_pairs(...)`` (record, model, export) and ``lengths_sentence(q, k)``.
- ``case_summary_sentences(record)``: the case report's paragraph on the validation;
  ``ERROR_RATES_FROM_VALIDATION``: its lead-in where the model has no other held-out figures.
- Plot wording: ``TIPPETT``, ``ECE_PLOT``, ``SCORE_PLOT`` (``PlotText``: title, axes, series
  names, caption), ``CLASS_NAMES``, the reference-line labels (``LR_ONE_MARK``,
  ``EVEN_ODDS_MARK``, ``THRESHOLD_MARK``, ``bound_marks(record)``) and one-line notes under
  the plots (``tippett_note``, ``ece_note``, ``score_note``).

The record's figure ``ece`` is the *expected calibration error*; the *empirical cross-entropy*
plot (``ECE_PLOT``) is a different quantity. The names below always spell out which is meant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

from taveer_desktop.core.validation import FIGURES
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.method_agreement import METHOD_NAMES, record_method
from taveer_desktop.presentation.method_report_text import (
    lambdag_validation_sentences,
)
from taveer_desktop.presentation.numbers import count

FIGURE_ORDER = FIGURES  # the record's figures, in the engine's order
SHARE_FIGURES = frozenset({"eer", "accuracy", "misleading_y", "misleading_n"})
FIGURE_NAMES = {
    "cllr": "Cllr (log-likelihood-ratio cost)",
    "cllr_min": "Cllr_min (discrimination cost)",
    "cllr_cal": "Cllr_cal (calibration cost)",
    "eer": "Equal error rate (EER)",
    "auc": "Area under the ROC curve (AUC)",
    "accuracy": "Accuracy of the score threshold",
    "misleading_y": "Misleading evidence, same-author trials",
    "misleading_n": "Misleading evidence, different-author trials",
    "ece": "Expected calibration error",
}
FIGURE_MEANINGS = {
    "cllr": "The average cost of the likelihood ratios, discrimination and calibration "
    "together: 0 is perfect, 1 is the cost of reporting LR = 1 every time, above 1 is worse "
    "than giving no evidence.",
    "cllr_min": "The cost that would remain after the best possible monotone recalibration of "
    "these same trials (pool-adjacent-violators): the part of Cllr due to how well the scores "
    "separate the two kinds of trial.",
    "cllr_cal": "Cllr minus Cllr_min: the part of the cost due to likelihood ratios that are "
    "too large, too small or off-centre. Near 0 means well calibrated.",
    "eer": "The error rate at the threshold where the share of same-author trials below it "
    "equals the share of different-author trials above it.",
    "auc": "The chance that a same-author trial gets a larger likelihood ratio than a "
    "different-author trial: 0.5 is chance, 1 is perfect separation.",
    "accuracy": "The share of trials on the right side of the method's score threshold of 0.5 "
    "(a secondary figure: the likelihood ratio is what is reported).",
    "misleading_y": "The share of same-author trials whose likelihood ratio was below 1, i.e. "
    "supported Hd (different authors) although Hp was true.",
    "misleading_n": "The share of different-author trials whose likelihood ratio was above 1, "
    "i.e. supported Hp (same author) although Hd was true.",
    "ece": "At even prior odds, how far the probabilities the likelihood ratios imply are from "
    "the observed shares, averaged over ten bins: 0 is perfectly calibrated.",
}

# Who decides that a validation is too small to rely on in casework (the program's rule of
# thumb, stated in the report): fewer authors than this gives bootstrap intervals over authors
# too wide to read, and fewer trials per class bounds every LR below that number.
CASEWORK_MIN_AUTHORS = 20
CASEWORK_MIN_TRIALS_PER_CLASS = 100

CLASS_NAMES = {
    "same": "same-author trials (Hp true)",
    "different": "different-author trials (Hd true)",
}


@dataclass(frozen=True)
class PlotText:
    title: str
    x_axis: str
    y_axis: str
    series: tuple[str, ...]
    caption: str


TIPPETT = PlotText(
    "Tippett plot",
    "log10 likelihood ratio (x)",
    "share of trials with log10 LR above x",
    (CLASS_NAMES["same"], CLASS_NAMES["different"]),
    "Each curve shows, for every value x, the share of one kind of trial whose cross-validated "
    "log10 LR is above x. Same-author curves far to the right and different-author curves far "
    "to the left mean strong, correct evidence. Where the different-author curve crosses "
    "x = 0 is the share of different-author trials that supported Hp; the gap between 1 and "
    "the same-author curve at x = 0 is the share of same-author trials that did not support Hp.",
)
ECE_PLOT = PlotText(
    "Empirical cross-entropy plot",
    "prior log10 odds of Hp",
    "empirical cross-entropy (bits)",
    (
        "likelihood ratios as validated",
        "after PAV recalibration (best possible)",
        "neutral reference (LR = 1)",
    ),
    "The information a decision maker would still lack, on average, after receiving these "
    "likelihood ratios, for every prior odds they might hold (lower is better). At prior log10 "
    "odds 0 the validated curve equals Cllr and the PAV curve Cllr_min. Where the validated "
    "curve lies above the neutral reference, the likelihood ratios would mislead more than "
    "they help at that prior; the distance to the PAV curve is the cost of calibration.",
)
SCORE_PLOT = PlotText(
    "Score distributions",
    "cross-validated ensemble score (0.5 = the method's threshold)",
    "share of the class's trials",
    (CLASS_NAMES["same"], CLASS_NAMES["different"]),
    "Bars: the share of each kind of trial in each score bin; lines: the same, smoothed. "
    "The more the two distributions overlap, the less the score can tell the two kinds of "
    "trial apart.",
)


QUOTED_CHARS = 600  # a description quoted inside a sentence is cut to this many characters


def shortened(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (the record keeps it whole)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _finite(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def figure_value(key: str, value: Any) -> str:
    """A figure as shown: shares in % with one decimal, the others with three decimals."""
    if not _finite(value):
        return "not measured"
    return f"{numbers.percent(value)}" if key in SHARE_FIGURES else f"{numbers.decimal(value)}"


def interval_text(key: str, interval: Any) -> str:
    """ "0.791–0.912" (or "not measured")."""
    if not isinstance(interval, list | tuple) or len(interval) < 2:
        return "not measured"
    low, high = interval[0], interval[1]
    if not (_finite(low) and _finite(high)):
        return "not measured"
    return f"{figure_value(key, low)} – {figure_value(key, high)}"


def _reading(key: str, value: float, n_same: int, n_different: int) -> str:
    share = figure_value(key, value)
    if key == "cllr":
        if value >= 1:
            return (
                "At or above 1: these likelihood ratios cost at least as much as giving no "
                "evidence under these conditions."
            )
        return f"Below 1: the likelihood ratios carry information ({share} of the cost of none)."
    if key == "cllr_min":
        return f"Even perfectly calibrated, the scores leave a cost of {share}."
    if key == "cllr_cal":
        return f"Calibration adds {share} to the cost."
    if key == "eer":
        return f"At the best single threshold about {share} of the trials of each kind are wrong."
    if key == "auc":
        return (
            "A same-author trial outranked a different-author trial in "
            f"{numbers.percent(value, 0)} "
            "of the pairs compared."
        )
    if key == "accuracy":
        return f"{share} of the trials fell on the right side of the threshold."
    if key == "misleading_y":
        return (
            f"{share} of the {numbers.integer(n_same)} same-author trials supported the wrong "
            "proposition."
        )
    if key == "misleading_n":
        return (
            f"{share} of the {numbers.integer(n_different)} different-author trials supported the "
            "wrong "
            "proposition."
        )
    return f"The implied probabilities are off by {share} on average."


@dataclass(frozen=True)
class FigureLine:
    key: str
    name: str
    value: str
    interval: str
    meaning: str
    reading: str


def _trial_counts(record: dict[str, Any]) -> tuple[int, int]:
    protocol = record.get("protocol") or {}
    return int(protocol.get("trials_same") or 0), int(protocol.get("trials_different") or 0)


def figure_lines(record: dict[str, Any]) -> list[FigureLine]:
    """Every figure of the record with its 95 % interval, meaning and reading."""
    figures = record.get("figures") or {}
    intervals = record.get("intervals") or {}
    n_same, n_different = _trial_counts(record)
    lines = []
    for key in FIGURE_ORDER:
        if key not in figures:
            continue
        value = figures[key]
        reading = _reading(key, value, n_same, n_different) if _finite(value) else ""
        lines.append(
            FigureLine(
                key,
                FIGURE_NAMES[key],
                figure_value(key, value),
                interval_text(key, intervals.get(key)),
                FIGURE_MEANINGS[key],
                reading,
            )
        )
    return lines


# --- acceptance ------------------------------------------------------------------------------


def acceptance_verdict(met: bool | None) -> str:
    """The acceptance criteria's outcome in words (None: no criteria were set)."""
    if met is None:
        return "no acceptance criteria set"
    return "criteria met" if met else "criteria NOT met"


@dataclass(frozen=True)
class AcceptanceLine:
    criterion: str  # "Cllr at most 0.9"
    measured: str  # "Cllr 0.849"
    met: bool


def judged_pessimistically(record: dict[str, Any]) -> bool:
    """Whether the record's criteria were judged on the pessimistic end of each interval."""
    return (record.get("acceptance") or {}).get("judged_on") == "pessimistic"


def _upper(record: dict[str, Any], key: str) -> Any:
    interval = (record.get("intervals") or {}).get(key)
    return interval[1] if isinstance(interval, list | tuple) and len(interval) >= 2 else None


def acceptance_lines(record: dict[str, Any]) -> list[AcceptanceLine]:
    """Each criterion set before the run, the figure it was judged on, met or not: the upper
    end of the 95 % interval where the record was judged on the pessimistic end, else the
    point figure (records made before that rule)."""
    acceptance = record.get("acceptance") or {}
    criteria = acceptance.get("criteria") or {}
    results = acceptance.get("results") or {}
    figures = record.get("figures") or {}
    pessimistic = judged_pessimistically(record)
    lines = []
    if _finite(criteria.get("max_cllr")) and "cllr" in results:
        measured = f"Cllr {figure_value('cllr', figures.get('cllr'))}"
        if pessimistic:
            measured += f", upper end {figure_value('cllr', _upper(record, 'cllr'))}"
        lines.append(
            AcceptanceLine(
                f"Cllr at most {numbers.short(criteria['max_cllr'])}",
                measured,
                bool(results["cllr"]),
            )
        )
    if _finite(criteria.get("max_misleading")) and "misleading" in results:
        keys = ("misleading_y", "misleading_n")
        rates = (figures.get(k) for k in keys)
        worst = max((rate for rate in rates if _finite(rate)), default=None)
        measured = f"the larger rate {figure_value('misleading_y', worst)}"
        if pessimistic:
            uppers = (_upper(record, k) for k in keys)
            upper = max((u for u in uppers if _finite(u)), default=None)
            measured += f", upper end {figure_value('misleading_y', upper)}"
        lines.append(
            AcceptanceLine(
                "both rates of misleading evidence at most "
                f"{figure_value('misleading_y', criteria['max_misleading'])}",
                measured,
                bool(results["misleading"]),
            )
        )
    return lines


JUDGED_PESSIMISTICALLY = (
    "judged on the pessimistic end of each figure's 95 % interval (the upper end for Cllr and "
    "the rates of misleading evidence), so a small population cannot pass by luck"
)


def acceptance_sentence(record: dict[str, Any]) -> str:
    """The criteria in one sentence: when they were set, what they were, met or not."""
    acceptance = record.get("acceptance") or {}
    met = acceptance.get("met")
    lines = acceptance_lines(record)
    if met is None or not lines:
        return (
            "No acceptance criteria were set before this validation: its figures describe the "
            "method's performance, but no pass or fail decision was made in advance."
        )
    set_utc = (
        recorded_time(str(set_at))
        if (set_at := (acceptance.get("criteria") or {}).get("set_utc"))
        else "an unrecorded time"
    )
    stated = "; ".join(line.criterion for line in lines)
    judged = (
        JUDGED_PESSIMISTICALLY
        if judged_pessimistically(record)
        else "judged on the cross-validated point figures"
    )
    return (
        f"Acceptance criteria set at {set_utc}, before the trials were built: {stated}. "
        f"{judged[0].upper()}{judged[1:]}: {'met' if met else 'NOT met'}."
    )


# --- population, protocol, bound -------------------------------------------------------------


def population_pairs(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows describing the relevant population."""
    population = record.get("population") or {}
    warnings = record.get("warnings") or []
    rows = [
        ("Name", str(population.get("name", ""))),
        ("Description", str(population.get("description") or "none given")),
        ("Authors", f"{numbers.integer(population.get('authors', 0))}"),
        ("Documents", f"{numbers.integer(population.get('documents', 0))}"),
        ("SHA-256", str(population.get("sha256", ""))),
    ]
    if population.get("source"):
        rows.append(("Source", str(population["source"])))
    rows.append(
        (
            "Intake warnings",
            f"{count(len(warnings), 'file')} left out or flagged at intake" if warnings else "none",
        )
    )
    return rows


def _length(value: Any) -> str:
    """A trial length as stated: one target, a declared range [LO, HI] or whole documents."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(_finite(v) for v in value):
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


def protocol_sentences(record: dict[str, Any]) -> list[str]:
    """The trial protocol in plain words, from the record's ``protocol``."""
    p = record.get("protocol") or {}
    population = record.get("population") or {}
    n_same, n_different = _trial_counts(record)
    folds, asked = p.get("folds"), p.get("folds_asked")
    fold_note = f" (asked for {asked}; at most one fold per two authors)" if asked != folds else ""
    capped = p.get("same_author_trials_possible", 0) > n_same
    cap_note = (
        f"a sample of {numbers.integer(n_same)} chosen with the seed (the cap is "
        f"{numbers.integer(p.get('max_trials', 0))} "
        "trials in all)"
        if capped
        else "all of them"
    )
    share = p.get("min_length_share")
    share_text = f"{numbers.percent(share, 0)}" if _finite(share) else "most"
    sentences = [
        f"Folds by author. The {numbers.integer(population.get('authors', 0))} authors were "
        "shuffled with "
        f"seed {p.get('seed')} and dealt into {folds} folds{fold_note}. Every trial was built "
        "from the authors of one fold, so no author is on both sides of a cross-validation "
        "split.",
        "How trials were built. A same-author trial takes one of an author's documents as the "
        "questioned text and the author's other documents, in a seeded order, as the known "
        "text. Each is paired with a different-author trial that keeps the same known text and "
        "takes as questioned text a document of another author of the same fold, so the two "
        "kinds of trial are balanced and a pair differs only in who wrote the questioned text.",
        f"Cut to the declared lengths. Questioned texts were cut to "
        f"{_length(p.get('questioned_chars'))} and known texts to "
        f"{_length(p.get('known_chars'))}, at the sentence boundary nearest the target; a "
        f"document shorter than {share_text} of its target gave no trial. The features of "
        "every document were extracted once and each trial counted from a slice of them.",
        "Counts. The population allowed "
        f"{numbers.integer(p.get('same_author_trials_possible', 0))} "
        f"same-author trials; {cap_note} were made, giving {numbers.integer(n_same)} same-author "
        "and "
        f"{numbers.integer(n_different)} different-author trials (the program refuses fewer than "
        f"{p.get('min_trials_per_class', 20)} of either).",
        "Cross-validation. For each fold, the thresholds "
        f"({p.get('threshold_method', 'median')}), the ensemble of feature kinds and the "
        "logistic calibration with its bound were learned on the other folds, and the held-out "
        "fold's trials were scored with them. Every figure and plot in this report comes from "
        "these held-out scores; the model itself was then fitted on all trials the same way.",
        f"Intervals. Each figure's 95 % interval is the 2.5th to 97.5th percentile over "
        f"{numbers.integer(p.get('bootstrap', 0))} bootstrap resamples of the authors (a trial "
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


def bound_sentence(record: dict[str, Any]) -> str:
    """The bound on the size of a likelihood ratio: its numbers, what it means, and its rule."""
    bound = record.get("bound") or {}
    low, high = bound.get("min_log10_lr"), bound.get("max_log10_lr")
    if not (_finite(low) and _finite(high)):
        return "The record states no bound on the size of the likelihood ratio."
    rule = str(bound.get("rule", "not stated"))
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


def casework_shortfalls(record: dict[str, Any]) -> list[str]:
    """Why this validation is too small to rely on in casework (empty: large enough by the
    program's rule of thumb, which is no guarantee of relevance)."""
    population = record.get("population") or {}
    authors = int(population.get("authors") or 0)
    n_same, n_different = _trial_counts(record)
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
    return reasons


def limits_sentences(record: dict[str, Any]) -> list[str]:
    """What this validation does not cover, one sentence each; the first says plainly when it
    is too small for casework."""
    population = record.get("population") or {}
    protocol = record.get("protocol") or {}
    sentences = []
    shortfalls = casework_shortfalls(record)
    if shortfalls:
        sentences.append(
            "Too small for casework. This validation has "
            + "; ".join(shortfalls)
            + ". It shows how the method behaves, not that it can be relied on in a case."
        )
    description = shortened(str(population.get("description") or "").strip())
    sentences += [
        "Genre, register, period and topic. The figures hold for texts like those of the "
        f"population “{population.get('name', '')}”"
        + (f" ({description})" if description else "")
        + ". For texts of another genre, register, period or topic they do not apply: a "
        "mismatch between validation data and case data misleads (Ishihara et al. 2024). "
        "Whether the population is relevant to a case is the examiner's statement, not "
        "checked by the program.",
        f"Lengths. The trials had questioned texts of {_length(protocol.get('questioned_chars'))} "
        f"and known texts of {_length(protocol.get('known_chars'))}. For much shorter or longer "
        "texts the figures do not apply; the model's gate marks such cases as outside its "
        "validated conditions.",
        "The bound on the likelihood ratio. " + bound_sentence(record),
        f"Population size. {count(int(population.get('authors') or 0), 'author')} and "
        f"{count(int(population.get('documents') or 0), 'document')}: the intervals above show "
        "how much the figures could change with other authors of the same kind; a larger "
        "population gives narrower intervals.",
        "Topic is not controlled. Trials pair documents as they come; where an author's "
        "documents share a topic that other authors' do not, same-author trials are easier "
        "than the case and the figures optimistic.",
        _methods_limit(record),
    ]
    return sentences


def _methods_limit(record: dict[str, Any]) -> str:
    stated = record_method(record)
    if stated == "taveer":
        return (
            "One method. The figures describe the TAVeer method with the settings stated here; "
            "they say nothing about other methods or settings."
        )
    return (
        f"Methods. The figures describe {METHOD_NAMES[stated]} with the settings stated here, "
        "LambdaG in this program's variant (masked with its lexicon, not with a part-of-speech "
        "tagger as published); the side-by-side table gives each method's own. They say "
        "nothing about other methods, variants or settings."
    )


# --- statements ------------------------------------------------------------------------------


def validated_method(record: dict[str, Any]) -> str:
    """The method a record validates, as its statement names it."""
    stated = record_method(record)
    if stated == "taveer":
        return "the TAVeer authorship verification method"
    if stated == "lambdag":
        return (
            "the LambdaG authorship verification method (a variant masked with the program's "
            "lexicon), with TAVeer measured beside it"
        )
    return "the fusion of the TAVeer and LambdaG authorship verification methods"


def statement_sentences(record: dict[str, Any]) -> list[str]:
    """The validation report's opening statement: what it is and what it is not."""
    population = record.get("population") or {}
    n_same, n_different = _trial_counts(record)
    figures = record.get("figures") or {}
    verdict = acceptance_verdict((record.get("acceptance") or {}).get("met"))
    return [
        f"This report records a validation of {validated_method(record)} under "
        "stated conditions. It measures how well the method's likelihood ratios performed on "
        f"{numbers.integer(n_same + n_different)} trials whose truth was known "
        f"({numbers.integer(n_same)} same-author, "
        f"{numbers.integer(n_different)} different-author), built from the relevant population "
        f"“{population.get('name', '')}”.",
        f"Cross-validated Cllr {figure_value('cllr', figures.get('cllr'))} and AUC "
        f"{figure_value('auc', figures.get('auc'))}; {verdict}.",
        "It states nothing about who wrote any document. A likelihood ratio the validated model "
        "gives in a case weighs the findings under two propositions; its meaning rests on the "
        "population and conditions recorded here.",
    ] + (
        [
            "This validation is too small for casework (see the limits at the end); it shows "
            "how the method behaves, not that it can be relied on in a case."
        ]
        if casework_shortfalls(record)
        else []
    )


ERROR_RATES_FROM_VALIDATION = (
    "This model's error rates under the conditions of this case were measured by "
    "cross-validation on the relevant population, in trials whose authors the model had not "
    "seen; they follow."
)


def case_summary_sentences(record: dict[str, Any]) -> list[str]:
    """The case report's paragraph on the validation that produced the model: population and
    protocol, figures with intervals and the acceptance, the bound."""
    population = record.get("population") or {}
    protocol = record.get("protocol") or {}
    figures = record.get("figures") or {}
    intervals = record.get("intervals") or {}
    n_same, n_different = _trial_counts(record)

    def shown(key: str) -> str:
        value = figure_value(key, figures.get(key))
        interval = interval_text(key, intervals.get(key))
        return value if interval == "not measured" else f"{value} (95 % interval {interval})"

    description = shortened(str(population.get("description") or ""))
    shortfalls = casework_shortfalls(record)
    return [
        f"The model was validated on the relevant population “{population.get('name', '')}” "
        f"({description}): {count(int(population.get('authors') or 0), 'author')}, "
        f"{count(int(population.get('documents') or 0), 'document')}. Trials were built like "
        f"the case: questioned texts of {_length(protocol.get('questioned_chars'))} and known "
        f"texts of {_length(protocol.get('known_chars'))}, cut at sentence boundaries; "
        f"{numbers.integer(n_same)} same-author and {numbers.integer(n_different)} "
        "different-author trials in "
        f"{protocol.get('folds')} folds by author (seed {protocol.get('seed')}). Thresholds, "
        "ensemble and calibration were learned on the other folds and every trial scored by a "
        "model that had not seen its authors."
        + (f" Too small for casework: {'; '.join(shortfalls)}." if shortfalls else ""),
        f"Cross-validated figures: Cllr {shown('cllr')}, Cllr_min {shown('cllr_min')}, EER "
        f"{shown('eer')}, AUC {shown('auc')}; misleading evidence for Hd in same-author "
        f"trials {shown('misleading_y')}, for Hp in different-author trials "
        f"{shown('misleading_n')}. Intervals: bootstrap over authors. "
        + acceptance_sentence(record),
        bound_sentence(record),
    ]


# --- plot notes and marks --------------------------------------------------------------------

EVEN_ODDS_MARK = "prior odds 1"
THRESHOLD_MARK = "threshold 0.5"
LR_ONE_MARK = "LR = 1"


def bound_marks(record: dict[str, Any]) -> list[tuple[float, str]]:
    """(log10 LR, label) of the bound's two ends, for the Tippett plot ([] if none)."""
    bound = record.get("bound") or {}
    low, high = bound.get("min_log10_lr"), bound.get("max_log10_lr")
    if not (_finite(low) and _finite(high)):
        return []
    return [(low, f"bound {ratio_text(low)}"), (high, f"bound {ratio_text(high)}")]


def tippett_note(n_same: int, n_different: int) -> str:
    return (
        f"Cross-validated log10 LR of {numbers.integer(n_same)} same-author and "
        f"{numbers.integer(n_different)} "
        "different-author trials; dotted lines: the bound on the LR."
    )


def ece_note(cllr: float, cllr_min: float, clipped_at: float | None) -> str:
    text = (
        f"At prior odds 1: validated {numbers.decimal(cllr)} (Cllr), after PAV "
        f"{numbers.decimal(cllr_min)} (Cllr_min)."
    )
    if clipped_at is not None:
        text += f" Values above {numbers.short(clipped_at)} bits are cut off."
    return text


def score_note(n_same: int, n_different: int, bins: int) -> str:
    return (
        f"{bins} equal bins over 0–1; {numbers.integer(n_same)} same-author and "
        f"{numbers.integer(n_different)} "
        "different-author trials, each class's bars summing to 1."
    )


# --- identification --------------------------------------------------------------------------

REPORT_TITLE = "Validation report"


def identification_pairs(
    record: dict[str, Any], record_sha256: str, source: str, exported: str, software: str
) -> list[tuple[str, str]]:
    """(label, value) rows that identify the record, the model it produced and this export."""
    model = record.get("model") or {}
    acceptance = record.get("acceptance") or {}
    ensemble = model.get("ensemble") or []
    stated = record_method(record)
    method = [] if stated == "taveer" else [("Method stated", METHOD_NAMES[stated])]
    return [
        ("Validation record", source),
        ("Record SHA-256", record_sha256),
        ("Model produced", str(model.get("name", "not recorded"))),
        ("Model SHA-256", str(model.get("sha256", "not recorded"))),
        *method,
        ("Ensemble", ", ".join(str(c) for c in ensemble) or "not recorded"),
        ("Validated with", f"TAVeer Desktop {record.get('software_version', '?')}"),
        ("Record created", str(record.get("created_utc", "not recorded"))),
        (
            "Criteria set",
            str((acceptance.get("criteria") or {}).get("set_utc") or "no criteria set"),
        ),
        (
            "Run time",
            f"{numbers.seconds(record['seconds'])}" if _finite(record.get("seconds")) else "–",
        ),
        ("Report exported", exported),
        ("Exported with", software),
    ]


def lengths_sentence(questioned: Any, known: Any) -> str:
    """The trials' measured lengths: median and range of questioned and known characters."""
    q, k = np.asarray(questioned, dtype=float), np.asarray(known, dtype=float)
    if not len(q):
        return "The record holds no trial lengths."
    return (
        f"Measured in the trials: questioned texts {numbers.integer(round(np.median(q)))} "
        "characters (median; "
        f"{numbers.integer(round(q.min()))}–{numbers.integer(round(q.max()))}), known texts "
        f"{numbers.integer(round(np.median(k)))} characters "
        f"({numbers.integer(round(k.min()))}–{numbers.integer(round(k.max()))})."
    )
