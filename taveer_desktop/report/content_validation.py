"""The case report's section on validation: what the conclusion rests on, every validation
attempt of the case, and the population-fit check of each questioned document (pure, no Qt).

The words are ``presentation.validation_attempts_text`` and ``presentation.population_fit_text``
(shared with the desktop's wizard); the facts are ``report.validation_attempts.
CaseValidationFacts``, read from the store by ``gather_inputs``. Nothing is hidden: a failed
attempt, or one run again with another seed, method or criteria, is listed with the others.
"""

from __future__ import annotations

from taveer_desktop.presentation import population_fit_text as fit_words
from taveer_desktop.presentation.validation_attempts_text import (
    ATTEMPT_COLUMNS,
    attempt_cells,
    attempts_sentence,
    basis_sentence,
    failed_attempts_sentence,
)
from taveer_desktop.report.blocks import Block, Column, Heading, KeepTogether, Paragraph, Row, Table
from taveer_desktop.report.escape import html_code, html_text
from taveer_desktop.report.validation_attempts import CaseValidationFacts

# the model's name goes into each row's detail line: nine columns fit the A4 text width
_WIDTHS = (0.04, 0.15, 0.09, 0.14, 0.06, 0.15, 0.1, 0.17, 0.1)


def _attempt_table(facts: CaseValidationFacts) -> Table:
    columns = tuple(
        Column(title, width, "right" if title in ("#", "Seed") else "left")
        for title, width in zip([t for t in ATTEMPT_COLUMNS if t != "Model"], _WIDTHS, strict=True)
    )
    rows = []
    for attempt in facts.attempts:
        cells = list(attempt_cells(attempt))
        model = cells.pop(ATTEMPT_COLUMNS.index("Model"))
        rows.append(
            Row(
                tuple(html_text(c, 300) for c in cells),
                detail=(
                    f"Model: {html_text(model, 300)} · lengths {html_text(attempt.lengths)}"
                    f" · record SHA-256 {html_code(attempt.record_sha256[:16])}…"
                    + (
                        f"<br/>Run for another case and declared relevant to this one: "
                        f"{html_text(attempt.declared, 500)}"
                        if attempt.declared
                        else ""
                    )
                ),
                shade=attempt.chosen,
            )
        )
    return Table(columns, tuple(rows), font="small")


def _fit(facts: CaseValidationFacts) -> list[Block]:
    blocks: list[Block] = [Heading("Population fit of the case", 2)]
    if not facts.fit_checks:
        blocks.append(Paragraph(html_text(facts.fit_problem or fit_words.NO_PROFILE)))
        return blocks
    for check in facts.fit_checks:
        headline, consequence, meaning = fit_words.fit_sentences(check)
        rows = tuple(
            Row(tuple(html_text(c) for c in fit_words.fit_cells(part)), shade=part.flagged)
            for part in check.parts
        )
        blocks.append(
            KeepTogether(
                (
                    Paragraph(
                        f"<b>{html_text(headline)}</b> {html_text(consequence)}",
                        "body" if check.fits else "warning",
                    ),
                    Table(
                        tuple(
                            Column(t, w)
                            for t, w in zip(fit_words.FIT_COLUMNS, (0.45, 0.2, 0.35), strict=True)
                        ),
                        rows,
                    ),
                    Paragraph(html_text(meaning), "small"),
                )
            )
        )
    return blocks


def validation_section(
    facts: CaseValidationFacts | None, case_number: str, heading: Heading
) -> list[Block]:
    """The basis, the attempts and the fit check (nothing when the facts were not gathered)."""
    if facts is None:
        return []
    basis = basis_sentence(facts.basis_id, facts.basis_sha256, facts.basis_population, case_number)
    blocks: list[Block] = [
        heading,
        Heading("What the conclusion rests on", 2),
        Paragraph(html_text(basis), "body" if facts.basis_id is not None else "warning"),
        Heading("Every validation attempt for this case", 2),
        Paragraph(html_text(attempts_sentence(facts.attempts, case_number))),
    ]
    if facts.attempts:
        blocks.append(_attempt_table(facts))
        blocks.append(
            Paragraph(
                "Shaded: the attempt that produced the case's model. Met: the acceptance "
                "criteria set before that run; too small: fewer authors or trials than casework "
                "needs. Under each row: the model it produced, the lengths it declared and the "
                "start of its record's SHA-256.",
                "small",
            )
        )
    if facts.failed:
        blocks.append(Paragraph(html_text(failed_attempts_sentence(len(facts.failed)))))
        blocks.extend(Paragraph(html_text(line), "small") for line in facts.failed)
    return blocks + _fit(facts)
