"""What the validation report says: a validation record as report blocks (pure, no Qt).

``build_validation_report(record, source)`` returns a ``ReportContent`` (the same type the case
report uses, so ``pdf.RenderedReport`` lays it out and writes it): the statement first, then the
identification, the relevant population, the trial protocol, what the validation covers (the
declared range, the repeats, the size for casework: ``validation_range_content``), the acceptance
criteria judged on the pessimistic end, the figures with their intervals and meanings and per
length band, the three plots (Tippett, empirical cross-entropy, score
distributions) and the limits, with the record itself attached as JSON. The words come from
``presentation/validation_text`` and its siblings (``validation_figures_text``,
``validation_plot_text``, ``validation_report_text``), the plot data from
``core/validation_curves``; this module only arranges them (the three plots'
layouts: ``validation_plots.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from taveer_desktop import PROGRAM_NAME, __version__
from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.core.validation.validation_curves import (
    ValidationCurves,
    curves_of,
)
from taveer_desktop.presentation import method_validation_text as method_words
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation import validation_figures_text as figure_words
from taveer_desktop.presentation import validation_plot_text as plot_words
from taveer_desktop.presentation import validation_report_text as report_words
from taveer_desktop.presentation import validation_text as words
from taveer_desktop.report.blocks import (
    Block,
    Chart,
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Spacer,
    Table,
)
from taveer_desktop.report.content import ReportContent
from taveer_desktop.report.escape import html_code, html_text, plain_text
from taveer_desktop.report.plot_layout import PlotLayout
from taveer_desktop.report.validation_methods import comparison_section
from taveer_desktop.report.validation_plots import ece_plot, score_plot, tippett_plot
from taveer_desktop.report.validation_range_content import bands_table, coverage_section
from taveer_desktop.report.wording import utc_and_local
from taveer_desktop.store.population_repository import record_bytes

ATTACHMENT_NAME = "taveer-validation-record.json"
PLOT_HEIGHT = 270.0
MAX_WARNINGS_LISTED = 20
MAX_CELL_CHARS = 1500  # a table row never splits, so no cell may outgrow a page
MAX_WARNING_CHARS = 240


@dataclass(frozen=True)
class RecordSource:
    """Where the record comes from, as the report names it."""

    description: str  # e.g. "validation record 3 of the project /cases/p.taveer"
    exported: datetime


def record_sha256(record: dict[str, Any]) -> str:
    """The SHA-256 of the record in its canonical form (the bytes a project stores)."""
    return hashlib.sha256(record_bytes(record)).hexdigest()


def _key_values(pairs: list[tuple[str, str]], code_keys: tuple[str, ...] = ()) -> Table:
    rows = tuple(
        Row(
            (
                f"<b>{html_text(key)}</b>",
                html_code(value) if key in code_keys else html_text(value, MAX_CELL_CHARS),
            )
        )
        for key, value in pairs
    )
    return Table((Column("", 0.26), Column("", 0.74)), rows, style="keyvalue")


def _headed(sentence: str, style: str = "body") -> Paragraph:
    """A sentence whose head (up to the first full stop) is set in bold."""
    head, _, rest = sentence.partition(". ")
    return Paragraph(f"<b>{html_text(head)}.</b> {html_text(rest)}", style)


def _paragraphs(sentences: list[str], style: str = "body") -> list[Block]:
    return [Paragraph(html_text(s), style) for s in sentences]


def _plot(layout: PlotLayout, caption: str, number: str) -> Block:
    heading = number + layout.title
    untitled = replace(layout, title="")  # the sub-heading names the plot
    return KeepTogether(
        (Heading(html_text(heading), 2), Chart(untitled, PLOT_HEIGHT, html_text(caption)))
    )


# --- sections --------------------------------------------------------------------------------


def _identification(record: ValidationRecord, sha: str, source: RecordSource) -> list[Block]:
    pairs = report_words.identification_pairs(
        record,
        sha,
        source.description,
        utc_and_local(source.exported),
        f"{PROGRAM_NAME} {__version__}",
    )
    return [
        Spacer(20),
        Paragraph(html_text(report_words.REPORT_TITLE), "title"),
        Paragraph(
            f"Relevant population “{html_text(record.population.name, 200)}”",
            "subtitle",
        ),
        Heading("1. Statement"),
        *_statement(record),
        Heading("2. Identification"),
        _key_values(pairs, ("Record SHA-256", "Model SHA-256")),
    ]


def _statement(record: ValidationRecord) -> list[Block]:
    """The statement; its closing "too small for casework" (if any) in the warning style."""
    sentences = report_words.statement_sentences(record)
    blocks = _paragraphs(sentences)
    if words.casework_shortfalls(record):
        blocks[-1] = Paragraph(html_text(sentences[-1]), "warning")
    return blocks


def _population(record: ValidationRecord) -> list[Block]:
    blocks: list[Block] = [
        Heading("3. The relevant population"),
        _key_values(words.population_pairs(record), ("SHA-256",)),
    ]
    warnings = list(record.warnings)
    if warnings:
        shown = "".join(
            f"<li>{html_text(w, MAX_WARNING_CHARS)}</li>" for w in warnings[:MAX_WARNINGS_LISTED]
        )
        more = len(warnings) - MAX_WARNINGS_LISTED
        extra = numbers.integer(more)
        tail = f"<br/>… and {extra} more (in the attached record)." if more > 0 else ""
        blocks.append(Paragraph(f"Intake warnings:<ul>{shown}</ul>{tail}", "small"))
    return blocks


def _protocol(record: ValidationRecord, curves: ValidationCurves) -> list[Block]:
    blocks: list[Block] = [Heading("4. The trial protocol")]
    blocks += [_headed(sentence) for sentence in words.protocol_sentences(record)]
    trials = curves.trials
    blocks.append(
        Paragraph(
            html_text(report_words.lengths_sentence(trials.questioned_chars, trials.known_chars)),
            "small",
        )
    )
    return blocks


def _acceptance(record: ValidationRecord) -> list[Block]:
    blocks: list[Block] = [
        Heading("6. Acceptance criteria"),
        Paragraph(html_text(figure_words.acceptance_sentence(record))),
    ]
    lines = figure_words.acceptance_lines(record)
    if lines:
        rows = tuple(
            Row(
                (
                    html_text(line.criterion),
                    html_text(line.measured),
                    "<b>met</b>" if line.met else "<b>NOT met</b>",
                ),
                shade=not line.met,
            )
            for line in lines
        )
        blocks.append(
            Table(
                (
                    Column("Criterion (set before the run)", 0.5),
                    Column("Measured (cross-validated)", 0.32),
                    Column("Result", 0.18, "center"),
                ),
                rows,
            )
        )
    return blocks


def _figures(record: ValidationRecord) -> list[Block]:
    rows = tuple(
        Row(
            (
                f"<b>{html_text(line.name)}</b>",
                html_text(line.value),
                html_text(line.interval),
                f"{html_text(line.meaning)} <i>{html_text(line.reading)}</i>",
            )
        )
        for line in figure_words.figure_lines(record)
    )
    return [
        Heading("7. Figures"),
        Paragraph(
            "All figures are computed from the cross-validated (held-out) likelihood ratios "
            "and scores of the trials; the interval is the 95 % bootstrap interval over "
            "authors. <i>Italics</i>: what this value says."
        ),
        Table(
            (
                Column("Figure", 0.24),
                Column("Value", 0.1, "right"),
                Column("95 % interval", 0.17, "center"),
                Column("What it measures", 0.49),
            ),
            rows,
        ),
        *comparison_section(record),
        *bands_table(record),
    ]


def _plots(record: ValidationRecord, curves: ValidationCurves) -> list[Block]:
    n = (curves.trials.n_same, curves.trials.n_different)
    return [
        Heading("8. Plots"),
        _plot(tippett_plot(curves.tippett, record, n), plot_words.TIPPETT.caption, "8.1 "),
        _plot(ece_plot(curves.ece), plot_words.ECE_PLOT.caption, "8.2 "),
        _score_plot(record, curves, n),
    ]


def _score_plot(record: ValidationRecord, curves: ValidationCurves, n: tuple[int, int]):
    """TAVeer's ensemble scores, or the stated method's LR/(1+LR) (the trials' score) with the
    words the desktop's chart has (the report once called those TAVeer's ensemble scores)."""
    text = method_words.score_plot_text(record)
    layout = score_plot(curves.scores, n, text, method_words.score_plot_mark(record))
    return _plot(layout, text.caption, "8.3 ")


def _limits(record: ValidationRecord) -> list[Block]:
    sentences = words.limits_sentences(record)
    blocks: list[Block] = [Heading("9. Limits: what this validation does not cover")]
    for index, sentence in enumerate(sentences):
        style = "warning" if index == 0 and words.casework_shortfalls(record) else "body"
        blocks.append(_headed(sentence, style))
    return blocks  # the end marker follows the declaration section (declaration_block.py)


def build_validation_report(record: ValidationRecord, source: RecordSource) -> ReportContent:
    """The whole validation report of ``record`` (``InputError`` if its trials are unusable;
    the plots' data and the attachment are of the record as stored, ``record.raw``)."""
    curves = curves_of(record.raw)
    sha = record_sha256(record.raw)
    population = plain_text(record.population.name, 80)
    blocks: list[Block] = []
    blocks += _identification(record, sha, source)
    blocks += _population(record)
    blocks += _protocol(record, curves)
    blocks += coverage_section(record, 5)
    blocks += _acceptance(record)
    blocks += _figures(record)
    blocks += _plots(record, curves)
    blocks += _limits(record)
    return ReportContent(
        title=f"{report_words.REPORT_TITLE}, population {population}",
        subject=f"Validation of {method_words.subject_method(record)} on the population "
        f"{population}",
        footer=f"Validation record {sha[:16]}… · population {population}",
        blocks=tuple(blocks),
        attachment_name=ATTACHMENT_NAME,
        attachment=record_bytes(record.raw),
        running_title=report_words.REPORT_TITLE,
    )


def now() -> datetime:
    return datetime.now(UTC)
