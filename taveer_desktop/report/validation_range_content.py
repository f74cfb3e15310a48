"""The validation report's section on what the validation covers and how firmly (pure, no Qt):
the declared casework range and what it means, the repeats of the cross-validation with their
spread, whether the validation is large enough for casework, and the figures per questioned-
length band. Words from ``presentation.validation_range_text``; records made before any of
these existed get the sentences that say so.
"""

from __future__ import annotations

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import validation_range_text as words
from taveer_desktop.report.blocks import Block, Column, Heading, KeepTogether, Paragraph, Row, Table
from taveer_desktop.report.escape import html_text


def _repeats(record: ValidationRecord) -> list[Block]:
    blocks: list[Block] = [Paragraph(html_text(words.repeats_sentence(record)))]
    rows = words.repeat_rows(record)
    if len(rows) > 1:
        blocks.append(
            Table(
                (
                    Column("Repeat (seed)", 0.3, "right"),
                    Column("Cllr", 0.35, "right"),
                    Column("AUC", 0.35, "right"),
                ),
                tuple(Row(tuple(html_text(c) for c in row)) for row in rows),
                font="small",
            )
        )
    return blocks


def _casework(record: ValidationRecord) -> list[Block]:
    verdict = words.casework_verdict(record)
    blocks: list[Block] = [
        Paragraph(
            f"<b>{html_text(verdict.headline)}</b>", "warning" if verdict.too_small else "body"
        )
    ]
    if verdict.reasons:
        items = "".join(f"<li>{html_text(r, 400)}</li>" for r in verdict.reasons)
        blocks.append(Paragraph(f"Why:<ul>{items}</ul>", "small"))
    return blocks


def bands_table(record: ValidationRecord) -> list[Block]:
    """The figures per questioned-length band (or that the record has none)."""
    lines = words.band_lines(record)
    if not lines:
        return [Paragraph(html_text(words.NO_BANDS), "small")]
    widths = (0.24, 0.18, 0.24, 0.16, 0.18)
    columns = tuple(
        Column(title, width, "left" if i == 0 else "right")
        for i, (title, width) in enumerate(zip(words.BAND_COLUMNS, widths, strict=True))
    )
    rows = tuple(
        Row(
            tuple(
                html_text(c)
                for c in (line.questioned, line.trials, line.cllr, line.misleading, line.bound)
            )
        )
        for line in lines
    )
    return [
        KeepTogether(
            (
                Heading("Figures per length band", 2),
                Paragraph(html_text(words.BANDS_NOTE), "small"),
                Table(columns, rows),
            )
        )
    ]


def coverage_section(record: ValidationRecord, number: int) -> list[Block]:
    """The declared range, the repeats and the casework verdict under one numbered heading."""
    return [
        Heading(f"{number}. What the validation covers and how firmly"),
        Heading("The declared casework range", 2),
        Paragraph(html_text(words.conditions_sentence(record))),
        Heading("Repeats", 2),
        *_repeats(record),
        Heading("Size for casework", 2),
        *_casework(record),
    ]
