"""The validation report's comparison of methods (pure, no Qt): every method of the record in
one table — accuracy, AUC, Cllr, Cllr_min, EER, the trials it scored and could not compare, its
time per trial and its spread across seeds — the stated method first and shaded, how it was
chosen (the rule registered before the run, if any), and what the table is. The words and
values are ``presentation/method_comparison_text``'s, as in the desktop's record view.
"""

from __future__ import annotations

from taveer_desktop.core.validation.record_reader import ValidationRecord
from taveer_desktop.presentation import method_comparison_text as ct
from taveer_desktop.presentation import method_validation_text as method_words
from taveer_desktop.report.blocks import Block, Column, Heading, KeepTogether, Paragraph, Row, Table
from taveer_desktop.report.escape import html_text

# relative widths: the method's name, then COLUMNS in order
_WIDTHS = (0.16, 0.10, 0.07, 0.07, 0.09, 0.07, 0.08, 0.12, 0.08, 0.16)


def comparison_section(record: ValidationRecord) -> list[Block]:
    """Every method's figures on the same trials (nothing for a one-method record)."""
    rows = ct.comparison_table(record)
    if not rows:
        return []
    columns = tuple(
        Column(title, width, "left" if i in (0, len(_WIDTHS) - 1) else "right")
        for i, (title, width) in enumerate(zip(ct.HEADINGS, _WIDTHS, strict=True))
    )
    table_rows = tuple(
        Row(
            (
                f"<b>{html_text(row.label)}</b>" if row.stated else html_text(row.label),
                *(html_text(cell) for cell in row.cells),
            ),
            shade=row.stated,
        )
        for row in rows
    )
    return [
        KeepTogether(
            (
                Heading(html_text(method_words.EACH_METHOD_FIGURES_HEAD), 2),
                Paragraph(html_text(method_words.each_method_sentence(record))),
                Table(columns, table_rows, font="small"),
                Paragraph(html_text(ct.rule_sentence(record))),
            )
        ),
        Paragraph(html_text(ct.comparison_note(record)), "small"),
    ]
