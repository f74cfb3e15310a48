"""Sections 5 (result per category) and 6 (interpretation per ensemble category)."""

from __future__ import annotations

from dataclasses import replace

from taveer_desktop.core.features.features import CATEGORY_IDS, CATEGORY_NAMES
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.taveer.interpret import Interpretation, PhiEntry
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import CLASSIFICATION_LABELS
from taveer_desktop.report.blocks import (
    Block,
    Chart,
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Table,
)
from taveer_desktop.report.chart_layout import (
    IMPORTANCE_HEIGHT,
    IMPORTANCE_PLOT_BOTTOM,
    IMPORTANCE_PLOT_TOP,
    LABEL_HEIGHT,
    SIMILARITY_EXTRA_HEIGHT,
    SIMILARITY_ROW_HEIGHT,
    importance_chart,
    similarity_chart,
)
from taveer_desktop.report.content_lambdag_evidence import lambdag_evidence
from taveer_desktop.report.content_methods import (
    method_results,
    no_weight_line,
    without_weight,
)
from taveer_desktop.report.escape import html_text
from taveer_desktop.report.excerpts import Excerpt
from taveer_desktop.report.inputs import TOP_FEATURES, ReportInputs
from taveer_desktop.report.wording import INTERPRETATION_INTRO

MAX_KNOWN_COLUMNS = 6
EXCERPT_FEATURES = 3  # features per list whose excerpts are shown
PUNCTUATION_CATEGORIES = ("F1", "F2", "F3")


def _category_rows(inputs: ReportInputs) -> tuple[Row, ...]:
    categories = inputs.verification.categories
    rows = []
    for category in CATEGORY_IDS:
        entry = categories.get(category)
        if entry is None:
            continue
        member = entry.in_ensemble
        note = entry.warning or ""
        rows.append(
            Row(
                (
                    f"<b>{category}</b>",
                    "yes" if member else "no",
                    numbers.decimal(entry.distance),
                    numbers.decimal(entry.threshold),
                    numbers.decimal(entry.similarity),
                    f"{numbers.integer(entry.occurrences_unknown)} / "
                    f"{numbers.integer(entry.occurrences_known)}",
                    html_text(note, 300) if note else "",
                ),
                shade=member,
            )
        )
    return tuple(rows)


def without_empty_last_column(
    columns: tuple[Column, ...], rows: tuple[Row, ...]
) -> tuple[tuple[Column, ...], tuple[Row, ...]]:
    """The table without its last column where no row has anything in it (the feature kinds'
    notes: most cases have none, and an empty column only takes the others' room)."""
    if any(row.cells[-1] for row in rows):
        return columns, rows
    return columns[:-1], tuple(replace(row, cells=row.cells[:-1]) for row in rows)


def result_section(inputs: ReportInputs, heading: Heading) -> list[Block]:
    if without_weight(inputs, MethodId.TAVEER):  # the space follows the weight of evidence
        line = no_weight_line(inputs, MethodId.TAVEER, "results per feature kind")
        return [heading, line, *method_results(inputs)]
    result = inputs.verification
    all_columns = (
        Column("", 0.06),
        Column("Ensemble", 0.12, "center"),
        Column("Distance", 0.11, "right"),
        Column("Threshold", 0.12, "right"),
        Column("Similarity", 0.12, "right"),
        Column("Features Q / K", 0.17, "right"),
        Column("Note", 0.3),
    )
    columns, rows = without_empty_last_column(all_columns, _category_rows(inputs))
    categories = [result.categories[c] for c in CATEGORY_IDS if c in result.categories]
    layout = similarity_chart(categories, result.ensemble, result.similarity)
    abstaining = [c.category for c in categories if c.abstained]
    prediction = result.prediction
    blocks: list[Block] = [
        heading,
        Paragraph(
            "For each feature kind: the distance between the questioned text and the known "
            "texts (0 = identical use, 2 = nothing in common), the model's threshold, and the "
            "similarity derived from both (0.5 exactly at the threshold, higher when the "
            "distance is smaller). <i>Features Q / K</i> counts the feature occurrences in the "
            "questioned text and in all known texts together. Only the ensemble (shaded) "
            "decides."
        ),
        Table(columns, rows),
        Chart(
            layout,
            SIMILARITY_EXTRA_HEIGHT + SIMILARITY_ROW_HEIGHT * len(layout.rows),
            "Similarity per feature kind. Filled bars: the ensemble; outlined bars: other "
            "kinds, shown for information. Right of the 0.5 line points to the same author.",
        ),
        Paragraph(
            f"<b>Score:</b> {numbers.decimal(result.similarity)} (median of the ensemble). "
            f"<b>The method's classification:</b> "
            f"{html_text(CLASSIFICATION_LABELS[prediction])}. "
            + (
                f"<b>Abstaining feature kinds:</b> {', '.join(abstaining)} (no feature on one "
                "side; left out of the median)."
                if abstaining
                else "No feature kind abstained."
            )
        ),
    ]
    return blocks + method_results(inputs)


def _feature_table(
    inputs: ReportInputs, category: str, items: list, phi: dict[str, PhiEntry]
) -> Table:
    known = inputs.known
    per_document = len(known) <= MAX_KNOWN_COLUMNS
    columns = [
        Column("#", 0.05, "right"),
        Column("Feature", 0.3),
        Column("λ", 0.1, "right"),
        Column("Q", 0.07, "right"),
        Column("K all", 0.08, "right"),
    ]
    if per_document:
        columns += [Column(d.label, 0.4 / max(1, len(known)), "right") for d in known]
    else:
        columns.append(Column(f"{known[0].label} … {known[-1].label}", 0.4))
    rows = []
    for rank, (feature, importance) in enumerate(items, start=1):
        entry = phi.get(feature)
        per_doc = [d.counts.get(category, {}).get(feature, 0) for d in known]
        in_questioned = inputs.questioned.counts.get(category, {}).get(feature, 0)
        cells = [
            str(rank),
            f'<span class="code">{html_text(feature, 120)}</span>',
            numbers.decimal(importance, 4),
            numbers.integer(entry.count_unknown if entry else in_questioned),
            numbers.integer(entry.count_known if entry else sum(per_doc)),
        ]
        if per_document:
            cells += [numbers.integer(c) for c in per_doc]
        else:
            cells.append(" ".join(numbers.integer(c) for c in per_doc))
        rows.append(Row(tuple(cells)))
    return Table(tuple(columns), tuple(rows), font="small")


def _highlight(excerpt: Excerpt, category: str) -> str:
    """The matched text with its parts (tokens, or the marks of F1–F3) bold and underlined."""
    match = excerpt.match
    parts = excerpt.parts if category in PUNCTUATION_CATEGORIES else ((0, len(match)),)
    pieces, position = [], 0
    for start, end in parts:
        pieces.append(html_text(match[position:start]))
        pieces.append(f"<b><u>{html_text(match[start:end])}</u></b>")
        position = end
    pieces.append(html_text(match[position:]))
    return "".join(pieces)


def _excerpts(inputs: ReportInputs, category: str, features: list[str]) -> Table | None:
    rows = []
    for feature in features:
        found = inputs.excerpts.get((category, feature), [])
        if not found:
            continue
        lines = "<br/>".join(
            f"…{html_text(e.before)}{_highlight(e, category)}{html_text(e.after)}…" for e in found
        )
        rows.append(Row((f'<span class="code">{html_text(feature, 120)}</span>', lines)))
    if not rows:
        return None
    columns = (Column("Feature", 0.17), Column("In the questioned text", 0.83))
    return Table(columns, tuple(rows), font="small")


def _category_block(
    inputs: ReportInputs, category: str, interpretation: Interpretation
) -> list[Block]:
    name = CATEGORY_NAMES.get(category, category)
    heading = Heading(f"{category} — {html_text(name)}", 2)
    if interpretation.abstained:
        return [
            heading,
            Paragraph(
                "This feature kind abstains: it has no feature on one side, so there is "
                "nothing to interpret."
            ),
        ]
    entry = inputs.verification.categories.get(category)
    l_y = list(interpretation.l_y)
    l_n = list(interpretation.l_n)
    plot = IMPORTANCE_HEIGHT - IMPORTANCE_PLOT_TOP - IMPORTANCE_PLOT_BOTTOM
    layout = importance_chart(category, name, l_y, l_n, plot, LABEL_HEIGHT, TOP_FEATURES)
    phi = {p.feature: p for p in interpretation.phi}
    facts = Paragraph(
        f"m = {numbers.count(interpretation.m, 'feature')} occur in either "
        f"text; threshold θ = {numbers.decimal(interpretation.threshold)}, θ′ = θ/m = "
        f"{numbers.decimal(interpretation.theta_prime, 5)}; distance "
        f"{numbers.decimal(entry.distance if entry else None)}, similarity "
        f"{numbers.decimal(entry.similarity if entry else None)}. L_Y holds "
        f"{numbers.count(len(l_y), 'feature')} (total importance "
        f"{numbers.decimal(sum(v for _, v in l_y), 4)}), L_N {numbers.integer(len(l_n))} "
        f"(total {numbers.decimal(sum(v for _, v in l_n), 4)}).",
        "small",
    )
    blocks: list[Block] = [
        KeepTogether((heading, facts, Chart(layout, IMPORTANCE_HEIGHT))),
    ]
    for title, items in (
        ("Top features of L_Y (same author)", l_y[:TOP_FEATURES]),
        ("Top features of L_N (different authors)", l_n[:TOP_FEATURES]),
    ):
        if not items:
            blocks.append(Paragraph(f"<b>{title}:</b> none.", "small"))
            continue
        blocks.append(
            KeepTogether(
                (
                    Paragraph(f"<b>{title}</b> — counts in each document", "small"),
                    _feature_table(inputs, category, items, phi),
                )
            )
        )
    table = _excerpts(
        inputs, category, [f for f, _ in l_y[:EXCERPT_FEATURES] + l_n[:EXCERPT_FEATURES]]
    )
    if table is not None:
        intro = Paragraph(
            f"<b>Where the top {EXCERPT_FEATURES} features of each list occur in the "
            "questioned text</b> (first occurrences, with the text around them)",
            "small",
        )
        blocks.append(KeepTogether((intro, table)))
    return blocks


def interpretation(inputs: ReportInputs, heading: Heading) -> list[Block]:
    if without_weight(inputs, MethodId.TAVEER):  # one line, not pages of TAVeer's features
        return [
            heading,
            no_weight_line(inputs, MethodId.TAVEER, "features"),
            *lambdag_evidence(inputs),
        ]
    blocks: list[Block] = [heading, Paragraph(INTERPRETATION_INTRO)]
    if len(inputs.known) > MAX_KNOWN_COLUMNS:
        blocks.append(
            Paragraph(
                f"With {len(inputs.known)} known documents, the column "
                f"{inputs.known[0].label} … {inputs.known[-1].label} lists the counts in each "
                "known document in order.",
                "small",
            )
        )
    interpretations = inputs.verification.interpretation
    if not interpretations:
        blocks.append(
            Paragraph(
                "This run was stored without interpretation lists; verify the case "
                "again with explanation switched on to see them.",
                "warning",
            )
        )
    ensemble = inputs.verification.ensemble
    for category in [c for c in ensemble if c in interpretations]:
        blocks += _category_block(inputs, category, interpretations[category])
    return blocks + lambdag_evidence(inputs)
