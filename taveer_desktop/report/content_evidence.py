"""Sections 3 (evidence with the integrity check) and 4 (method and model) of the report.

The evidence section lists, under each document's hashes, how its analysed text differs from
the file's bytes (its reading notes, ``core/intake/reading_notes.py``), and after the table one
warning paragraph naming every document that has such notes.
"""

from __future__ import annotations

from taveer_desktop.core.features.features import CATEGORY_IDS, CATEGORY_NAMES
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.presentation import numbers
from taveer_desktop.report.blocks import (
    Block,
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Table,
)
from taveer_desktop.report.content_methods import method_sections
from taveer_desktop.report.escape import html_code, html_text
from taveer_desktop.report.inputs import ReportInputs
from taveer_desktop.report.wording import (
    CATEGORY_PLAIN,
    METHOD_MODEL,
    METHOD_PLAIN,
    TOPIC_GUARANTEE,
    stored_time,
)

ROLE_NAMES = {"known": "known", "questioned": "questioned"}
MAX_NOTES = 12  # notes listed per document (a Word file can list many unread parts)
MAX_NOTE_CHARS = 400


def _document_table(inputs: ReportInputs) -> Table:
    columns = (
        Column("", 0.06),
        Column("Role", 0.11),
        Column("Original file name", 0.29),
        Column("Bytes", 0.12, "right"),
        Column("Characters", 0.13, "right"),
        Column("Sentences", 0.12, "right"),
        Column("Encoding", 0.17),
    )
    rows = []
    for evidence in inputs.documents:
        doc = evidence.document
        rows.append(
            Row(
                (
                    f"<b>{evidence.label}</b>",
                    ROLE_NAMES.get(doc.role, html_text(doc.role)),
                    html_text(doc.file_name, 300) + f"<br/><small>{html_text(doc.file_format)}, "
                    f"imported {stored_time(doc.imported_utc)}</small>",
                    numbers.integer(doc.byte_count),
                    numbers.integer(doc.char_count),
                    numbers.integer(doc.sentence_count),
                    html_text(doc.encoding, 100),
                ),
                detail=(
                    f"SHA-256 of the file: {html_code(doc.sha256)}<br/>"
                    f"SHA-256 of its text: {html_code(doc.text_sha256)}"
                    + "".join(
                        f"<br/><i>Not analysed:</i> {html_text(line, MAX_NOTE_CHARS)}"
                        for line in doc.reading_notes.lines()[:MAX_NOTES]
                    )
                ),
            )
        )
    return Table(columns, tuple(rows))


def _reading_notes(inputs: ReportInputs) -> list[Block]:
    """One warning naming the documents whose analysed text differs from their files."""
    noted = [e for e in inputs.documents if e.document.reading_notes]
    if not noted:
        return []
    labels = ", ".join(f"<b>{e.label}</b>" for e in noted)
    return [
        Paragraph(
            "<b>The analysed text differs from the file's bytes</b> for "
            f"{numbers.count(len(noted), 'document')} ({labels}): what a reader of the file "
            "does not see (invisible characters, hidden text) and parts a reader is not shown "
            "as the body were left out of the analysis, as listed under each document above "
            "(<i>Not analysed</i>). The files' bytes are kept and hashed as they were.",
            "warning",
        )
    ]


def _integrity(inputs: ReportInputs) -> list[Block]:
    report = inputs.integrity
    verdict = (
        "passed" if report.ok else f"FAILED with {numbers.count(len(report.problems), 'problem')}"
    )
    blocks: list[Block] = [
        Heading("Integrity check", 2),
        Paragraph(
            f"Right before this report was written ({stored_time(report.checked_utc)}) the "
            f"project was checked: every document, model and run was hashed again and "
            f"compared with what was recorded when it was stored, and every link of the "
            f"audit trail was verified. The check <b>{verdict}</b>: "
            f"{numbers.count(report.documents_checked, 'document')}, "
            f"{numbers.count(report.models_checked, 'model')}, "
            f"{numbers.count(report.runs_checked, 'run')} and "
            f"{numbers.count(report.audit_entries_checked, 'audit entry')} "
            f"{'verified' if report.ok else 'checked'}"
            f"{', including SQLite’s own page check' if report.sqlite_checked else ''}."
        ),
        Paragraph(
            f"Latest audit entry hash (head of the chain): {html_code(report.audit_head_hash)}"
        ),
    ]
    if report.problems:
        rows = tuple(
            Row((html_text(p.kind), html_text(p.subject, 200), html_text(p.message, 600)))
            for p in report.problems[:200]
        )
        blocks.append(
            Table((Column("Kind", 0.12), Column("Subject", 0.23), Column("Problem", 0.65)), rows)
        )
    return blocks


def _label_list(inputs: ReportInputs) -> str:
    """ "K1–K4", or "K1, K3 and K4" when the run left some of the case's known documents out
    (the labels are the case's, fixed for good)."""
    labels = [d.label for d in inputs.known]
    if not labels:
        return "(none)"
    numbers_ = [int(label[1:]) for label in labels if label[1:].isdigit()]
    if len(labels) > 2 and numbers_ == list(range(numbers_[0], numbers_[0] + len(labels))):
        return f"{labels[0]}–{labels[-1]}"
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" and {labels[-1]}"


def evidence(inputs: ReportInputs, heading: Heading) -> list[Block]:
    run = inputs.run
    blocks: list[Block] = [
        heading,
        Paragraph(
            f"The verification run {run.id} of {stored_time(run.run_utc)} used the "
            f"{numbers.count(len(inputs.documents), 'document')} below: the questioned document Q "
            f"and the known documents {_label_list(inputs)}. Characters and sentences are "
            "counted on the text extracted from each file. A SHA-256 value identifies a file "
            "exactly: any change to the file gives a different value."
        ),
        _document_table(inputs),
        *_reading_notes(inputs),
    ]
    return blocks + _integrity(inputs)


def _model_table(inputs: ReportInputs) -> Table:
    model, stored = inputs.model, inputs.stored_model
    training = model.training
    rows = [
        ("Name", html_text(model.name, 300)),
        ("SHA-256", html_code(stored.sha256)),
        (
            "Created",
            f"{stored_time(model.created_utc)} with software "
            f"{html_text(model.software_version, 40)}",
        ),
        (
            "Training corpus",
            f"{html_text(training.corpus_name, 300)} ({training.corpus_layout}): "
            f"{numbers.count(training.cases, 'pair')} of texts, "
            f"{numbers.integer(training.cases_y)} by the same author and "
            f"{numbers.integer(training.cases_n)} by different authors",
        ),
        ("Corpus SHA-256", html_code(training.corpus_sha256, 80)),
        ("Thresholds", f"{html_text(model.threshold_method)} of the training distances"),
        ("Ensemble", " ".join(model.ensemble)),
        ("Training accuracy", f"{numbers.percent(training.accuracy)} of the training pairs"),
    ]
    for name, e in inputs.evaluations.items():
        if isinstance(e, dict) and isinstance(e.get("accuracy"), int | float):
            auc = e.get("auc")
            rows.append(
                (
                    "Test accuracy",
                    numbers.percent(float(e["accuracy"]))
                    + (f", AUC {numbers.decimal(auc)}" if isinstance(auc, int | float) else "")
                    + f" on {html_text(name, 200)} ({_pairs(e.get('n'))})",
                )
            )
    if not inputs.evaluations:
        rows.append(("Test accuracy", "not recorded in the model (no held-out evaluation)"))
    return Table(
        (Column("", 0.25), Column("", 0.75)),
        tuple(Row((f"<b>{k}</b>", v)) for k, v in rows),
        style="keyvalue",
    )


def _pairs(n: object) -> str:
    return numbers.count(n, "pair") if isinstance(n, int) else "number of pairs not recorded"


def _categories_table(inputs: ReportInputs) -> Table:
    model = inputs.model
    rows = []
    for category in CATEGORY_IDS:
        member = category in model.ensemble
        rows.append(
            Row(
                (
                    f"<b>{category}</b>",
                    f"{html_text(CATEGORY_NAMES[category])}: {CATEGORY_PLAIN[category]}",
                    "yes" if member else "no",
                    numbers.decimal(model.thresholds[category]),
                    numbers.percent(model.training.atomic_accuracy.get(category, 0), 0),
                ),
                shade=member,
            )
        )
    columns = (
        Column("", 0.07),
        Column("Feature kind", 0.55),
        Column("In ensemble", 0.13, "center"),
        Column("Threshold θ", 0.12, "right"),
        Column("Alone right", 0.13, "right"),
    )
    return Table(columns, tuple(rows))


def method(inputs: ReportInputs, heading: Heading) -> list[Block]:
    lexicon = default_lexicon()
    guarantee = TOPIC_GUARANTEE.format(
        entries=numbers.integer(len(lexicon)), sha=html_code(inputs.lexicon_sha256)
    )
    several = inputs.verification.methods is not None  # a LambdaG or fused model
    blocks: list[Block] = [
        heading,
        *([Heading("TAVeer", 2)] if several else []),
        Paragraph(METHOD_PLAIN),
        Paragraph(METHOD_MODEL),
        Paragraph(guarantee),
        Heading("The feature kinds", 2),
        Paragraph(
            "Shaded rows are the model's ensemble. <i>Alone right</i> is how often the kind "
            "on its own answered correctly on the training pairs.",
            "small",
        ),
        _categories_table(inputs),
        KeepTogether((Heading("The model", 2), _model_table(inputs))),
    ]
    if inputs.model.lexicon_sha256 != inputs.lexicon_sha256:
        blocks.append(
            Paragraph(
                "The model was trained with a different lexicon (SHA-256 "
                f"{html_code(inputs.model.lexicon_sha256)}) than the one in use.",
                "warning",
            )
        )
    return blocks + method_sections(inputs)
