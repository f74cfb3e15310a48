"""Sections 7 (limitations) and 8 (audit trail and reproducibility statement)."""

from __future__ import annotations

import re
from typing import Any

from taveer_desktop import __version__
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import action_text, detail_name, detail_text
from taveer_desktop.report.blocks import Block, Column, Heading, Paragraph, Row, Table
from taveer_desktop.report.escape import html_code, html_text
from taveer_desktop.report.inputs import ReportInputs
from taveer_desktop.report.wording import LIMITATIONS, REPRODUCIBILITY, section, stored_time

MAX_DETAIL_CHARS = 320
_HIDDEN_DETAILS = {"case_id"}
_HASH = re.compile(r"[0-9a-f]{64}")


def limitations(inputs: ReportInputs, heading: Heading) -> list[Block]:
    blocks: list[Block] = [heading]
    result = inputs.verification  # the run's result as its one reader gives it
    blocks.append(
        Paragraph(
            "<b>This case.</b> The questioned text has "
            f"{numbers.count(result.unknown_chars, 'character')} in "
            f"{numbers.count(result.unknown_sentences, 'sentence')}; the "
            f"{numbers.count(result.known_documents, 'known text')} together "
            f"have {numbers.count(result.known_chars, 'character')} in "
            f"{numbers.count(result.known_sentences, 'sentence')}. The model was trained on "
            f"{html_text(inputs.model.training.corpus_name, 200)}. "
            + (
                "The result carries "
                f"{numbers.count(len(result.warnings), 'reliability warning')}, "
                f"listed in {section('Summary')}."
                if result.warnings
                else "The result carries no reliability warning."
            )
        )
    )
    blocks += [Paragraph(text) for text in LIMITATIONS]
    return blocks


def _detail(key: str, value: Any) -> str:
    if isinstance(value, str) and _HASH.fullmatch(value):  # full hashes: section 4, the entry
        return f"{detail_name(key)}: {value[:12]}…"
    return detail_text(key, value, 4)


def _details(details: dict[str, Any]) -> str:
    parts = [
        _detail(key, value)
        for key, value in details.items()
        if key not in _HIDDEN_DETAILS and value not in (None, "", [])
    ]
    return html_text("; ".join(parts), MAX_DETAIL_CHARS)


def _audit_table(inputs: ReportInputs) -> Table:
    rows = tuple(
        Row(
            (
                str(entry.seq),
                stored_time(entry.time_utc),
                html_text(action_text(entry.action), 60),
                html_text(entry.actor, 80),
                _details(entry.details),
            ),
            detail=f"entry hash {html_code(entry.entry_hash)}",
        )
        for entry in inputs.audit
    )
    columns = (
        Column("#", 0.06, "right"),
        Column("Time", 0.15),
        Column("Action", 0.16),
        Column("By", 0.15),
        Column("Details", 0.48),
    )
    return Table(columns, rows, font="small")


def audit_trail(inputs: ReportInputs, heading: Heading, attached: bool = True) -> list[Block]:
    head = inputs.audit_head
    run = inputs.run
    blocks: list[Block] = [
        heading,
        Paragraph(
            "Every change to the project is written into an append-only audit trail; each "
            "entry holds the SHA-256 of the entry before it, so an entry changed, removed or "
            "inserted later breaks the chain and is found by the integrity check "
            f"({section('Evidence')}). "
            f"Below are the {numbers.count(len(inputs.audit), 'entry')} of this case. Writing this "
            "report adds one more entry, <i>report_exported</i>, with the report's SHA-256."
        ),
        _audit_table(inputs),
        Paragraph(
            "Head of the project's whole audit trail when the report was written: "
            + (
                f"entry {head.seq}, hash {html_code(head.entry_hash)}. Recording this hash "
                "outside the project anchors the trail."
                if head
                else "no entries."
            )
        ),
        Heading("Reproducibility", 2),
        Paragraph(
            REPRODUCIBILITY.format(
                model=html_code(inputs.stored_model.sha256),
                software=html_text(f"TAVeer Desktop {run.software_version}"),
            )
        ),
        Paragraph(
            f"Run {run.id} is stored with the fingerprint {html_code(run.record_sha256)} over "
            "its inputs and its full result. "
            + (
                "That result is attached to this PDF as the file <i>taveer-result.json</i> "
                "(shown by PDF readers under attachments)."
                if attached
                else "This archival (PDF/A-1b) copy carries no attachment (PDF/A-1b forbids "
                f"them); the full result is kept in the project file as run {run.id}."
            )
        ),
    ]
    if run.software_version != __version__:
        blocks.append(
            Paragraph(
                f"The run was computed by version {html_text(run.software_version)}; this "
                f"report was written by version {html_text(__version__)}. The numbers are the "
                f"stored ones; the per-document counts of {section('Interpretation')} were counted "
                "again.",
                "note",
            )
        )
    return blocks
