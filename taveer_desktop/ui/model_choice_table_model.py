"""The models a case can be verified with, as the examiner must see them before choosing.

A ``ModelChoice`` holds what decides whether a model fits a case: the corpus it was trained
on, its genre and population (Hd of every conclusion it gives), the text lengths it was
validated on (from the conditions recorded in the model, format 3), and its held-out
figures — Cllr and the rates of misleading evidence of the project's stored validation record
of the model (cross-validated on its relevant population) and of test corpora
(``extra["evaluations"]``), or "not measured" — never only its training accuracy. Built when
the list is loaded (``model_choice``), so ``data()`` never touches the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.model_text import STATED_BY_FILE, model_summary_lines
from taveer_desktop.store import StoredModel
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash

# the held-out figures before the lengths and the genre (spelled out in full below the table)
NAME, CORPUS, CLLR, MISLEADING, CONDITIONS, QUESTIONED_LENGTH, KNOWN_LENGTH, GENRE = range(8)
NOT_MEASURED = "not measured"
NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class HeldOut:
    """One held-out evaluation recorded in a model file."""

    corpus: str
    trials: int
    cllr: float | None
    misleading_y: float | None  # share of same-author trials with LR < 1
    misleading_n: float | None  # share of different-author trials with LR > 1
    outside_conditions: int | None
    stated_by_file: bool = False  # the model file's own claim, not a record of the project


@dataclass(frozen=True)
class ModelChoice:
    stored: StoredModel
    genre: str
    population: str
    questioned_length: str
    known_length: str
    conditions_recorded: bool
    held_out: tuple[HeldOut, ...]
    calibrated: bool
    banded: bool
    summary_lines: tuple[str, ...] = ()  # presentation.model_text, as the CLI prints them

    @property
    def name(self) -> str:
        return self.stored.name


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def held_out_figures(extra: Mapping) -> tuple[HeldOut, ...]:
    """The held-out evaluations a model file carries (``extra["evaluations"]``), if any."""
    evaluations = extra.get("evaluations") if isinstance(extra, Mapping) else None
    if not isinstance(evaluations, Mapping):
        return ()
    rows = []
    for corpus, figures in evaluations.items():
        if not isinstance(figures, Mapping):
            continue
        outside = figures.get("outside_conditions")
        rows.append(
            HeldOut(
                str(corpus),
                int(_number(figures.get("n")) or 0),
                _number(figures.get("cllr")),
                _number(figures.get("misleading_y")),
                _number(figures.get("misleading_n")),
                outside if isinstance(outside, int) and not isinstance(outside, bool) else None,
                stated_by_file=True,
            )
        )
    return tuple(rows)


def validation_figures(record: ValidationRecord | None) -> tuple[HeldOut, ...]:
    """The cross-validated figures of the project's stored validation record of a model (the
    model of a validation on a relevant population carries none in its file)."""
    if record is None or "figures" not in record.objects:
        return ()
    figures, protocol, name = record.figures, record.protocol, record.population.name
    trials = sum(int(_number(n) or 0) for n in (protocol.trials_same, protocol.trials_different))
    return (
        HeldOut(
            f"validation on “{name}”" if name else "its validation",
            trials,
            _number(figures.cllr),
            _number(figures.misleading_y),
            _number(figures.misleading_n),
            None,
        ),
    )


def _length(chars) -> str:
    return f"{numbers.integer(chars.low)}–{numbers.count(chars.high, 'character')}"


def model_choice(
    stored: StoredModel, model, validation: ValidationRecord | None = None
) -> ModelChoice:
    """What the picker shows of one model (the engine's ``Model`` read from the store, and the
    project's validation record of it, if any)."""
    conditions = model.conditions
    return ModelChoice(
        stored=stored,
        genre=conditions.genre if conditions else NOT_RECORDED,
        population=conditions.population if conditions else NOT_RECORDED,
        questioned_length=_length(conditions.questioned_chars) if conditions else NOT_RECORDED,
        known_length=_length(conditions.known_chars) if conditions else NOT_RECORDED,
        conditions_recorded=conditions is not None,
        held_out=validation_figures(validation) + held_out_figures(model.extra),
        calibrated=model.calibration is not None,
        banded=model.inconclusive_band is not None,
        summary_lines=tuple(model_summary_lines(model)),
    )


def cllr_text(choice: ModelChoice) -> str:
    shown = [
        f"{numbers.decimal(h.cllr, 2)} ({h.corpus})" for h in choice.held_out if h.cllr is not None
    ]
    return "; ".join(shown) or NOT_MEASURED


def misleading_text(choice: ModelChoice) -> str:
    shown = [
        f"{numbers.percent(h.misleading_y, 0)} / {numbers.percent(h.misleading_n, 0)} ({h.corpus})"
        for h in choice.held_out
        if h.misleading_y is not None and h.misleading_n is not None
    ]
    return "; ".join(shown) or NOT_MEASURED


def held_out_tip(choice: ModelChoice) -> str:
    if not choice.held_out:
        return "No held-out evaluation is recorded in this model file."
    lines = []
    for h in choice.held_out:
        cllr = NOT_MEASURED if h.cllr is None else numbers.decimal(h.cllr)
        line = f"{h.corpus}: {numbers.count(h.trials, 'trial')}, Cllr {cllr}"
        if h.misleading_y is not None and h.misleading_n is not None:
            line += (
                f"; misleading evidence in {numbers.percent(h.misleading_y, 0)} of same-author "
                f"trials (LR below 1) and {numbers.percent(h.misleading_n, 0)} of "
                "different-author trials (LR above 1)"
            )
        if h.outside_conditions is not None:
            line += (
                f"; {numbers.count(h.outside_conditions, 'trial')} outside the validated conditions"
            )
        if h.stated_by_file:
            line += f" ({STATED_BY_FILE})"
        lines.append(line)
    return "\n".join(lines) + "\nCllr 1 means uninformative; above 1, worse than no evidence."


def conditions_text(choice: ModelChoice) -> str:
    return "recorded" if choice.conditions_recorded else "unknown (investigation only)"


class ModelChoiceTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "Model",
            lambda m: m.name,
            "The model's name",
            lambda m: f"{m.name}\nSHA-256 {m.stored.sha256}",
        ),
        Column(
            "Training corpus",
            lambda m: m.stored.corpus_name,
            "The corpus the model was trained on",
            lambda m: (
                f"{m.stored.corpus_name}\ncorpus SHA-256 {short_hash(m.stored.corpus_sha256)}"
            ),
        ),
        Column(
            "Held-out Cllr",
            cllr_text,
            "Log-likelihood-ratio cost of the model's validation (cross-validated on its "
            "population; a record of this project) and on held-out test corpora (stated by the "
            "model file): 0 is perfect, 1 uninformative",
            held_out_tip,
        ),
        Column(
            "Misleading evidence",
            misleading_text,
            "Held-out rates of misleading evidence: same-author trials with LR below 1 / "
            "different-author trials with LR above 1",
            held_out_tip,
        ),
        Column(
            "Validated conditions",
            conditions_text,
            "Whether the model records the conditions it was validated under; without them its "
            "likelihood ratios are for investigation only",
        ),
        Column(
            "Questioned length",
            lambda m: m.questioned_length,
            "Lengths of questioned texts the model was validated on (central 95 %)",
        ),
        Column(
            "Known length",
            lambda m: m.known_length,
            "Lengths of the known texts together the model was validated on (central 95 %)",
        ),
        Column(
            "Genre",
            lambda m: m.genre,
            "The kind of texts the model was trained and validated on",
            lambda m: f"{m.genre}\n\nPopulation (Hd): {m.population}",
        ),
    )
