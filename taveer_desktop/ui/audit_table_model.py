"""The audit trail as a table: sequence, time, action in words, who, what, and the entry hash."""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.presentation.audit_text import action_text, detail_text
from taveer_desktop.presentation.conclusion_text import (
    CLASSIFICATION_SHORT,
    KIND_LABELS,
    share_text,
)
from taveer_desktop.presentation.numbers import count, decimal
from taveer_desktop.store import AuditEntry
from taveer_desktop.ui.record_table_model import Column, RecordTableModel, short_hash, short_utc

SEQ, TIME, ACTION, ACTOR, DETAILS, HASH = range(6)
_DETAIL_KEYS = (
    "number",
    "file_name",
    "role",
    "name",
    "conclusion",
    "prediction",
    "similarity",
    "reason",
    "target",
    "changed",
)
_KIND_VALUES = {k.value for k in ConclusionKind}
_CLASSIFICATION_VALUES = {c.value for c in Classification}


def action_word(entry: AuditEntry) -> str:
    return action_text(entry.action)


def _counted(value: object, noun: str) -> str:
    return count(value, noun) if isinstance(value, int) else f"{value} {noun}s"


def details_summary(entry: AuditEntry) -> str:
    """A short line of the most telling details; the tooltip has all of them."""
    d = entry.details
    if entry.action == "stability_stored" and "agreeing" in d and "resamples" in d:
        return (
            f"run {d.get('run_id')}: {share_text(d['agreeing'], d['resamples'])} resamples "
            f"agree; seed {d.get('seed')}"
        )
    if entry.action == "validation_stored":
        criteria_met = d.get("criteria_met")
        met = None
        if isinstance(criteria_met, bool):
            met = "criteria met" if criteria_met else "criteria not met"
        cllr = d.get("cllr")
        shown = f"Cllr {decimal(cllr)}" if isinstance(cllr, int | float) else "Cllr not measured"
        return f"population {d.get('population_id')} → model {d.get('model_id')}: {shown}" + (
            f"; {met}" if met else "; no criteria set"
        )
    if entry.action == "validation_used":
        return f"validation {d.get('validation_id')} (model {d.get('model_id')}): {d.get('reason')}"
    if entry.action == "population_added":
        return f"{d.get('name')}: {_counted(d.get('authors'), 'author')}, " + _counted(
            d.get("documents"), "document"
        )
    if entry.action == "case_model_chosen":
        model = d.get("model_id")
        return "model choice cleared" if model is None else f"model {model}"
    parts = []
    for key in _DETAIL_KEYS:
        value = entry.details.get(key)
        if value in (None, "", []):
            continue
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, float):
            value = decimal(value, 3)
        if key == "conclusion" and value in _KIND_VALUES:
            parts.append(f"conclusion: {KIND_LABELS[ConclusionKind(value)].lower()}")
            continue
        if key == "prediction" and value in _CLASSIFICATION_VALUES:
            parts.append(f"classification: {CLASSIFICATION_SHORT[Classification(value)]}")
            continue
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


def details_text(entry: AuditEntry) -> str:
    """Every recorded detail, one a line, in words (the hover text of the Details column)."""
    return "\n".join(detail_text(key, value) for key, value in sorted(entry.details.items()))


class AuditTableModel(RecordTableModel):
    COLUMNS = (
        Column(
            "#",
            lambda e: str(e.seq),
            "Position in the hash chain",
            sort_key=lambda e: e.seq,
            numeric=True,
        ),
        Column(
            "Time",
            lambda e: short_utc(e.time_utc),
            "When it happened (UTC)",
            lambda e: short_utc(e.time_utc),
            sort_key=lambda e: e.time_utc,
        ),
        Column("Action", action_word, "What happened"),
        Column("By", lambda e: e.actor, "User and computer that made the change"),
        Column("Details", details_summary, "What was recorded (hover for all of it)", details_text),
        Column(
            "Entry hash",
            lambda e: short_hash(e.entry_hash),
            "SHA-256 chaining this entry to the previous one",
            lambda e: f"entry {e.entry_hash}\nprevious {e.prev_hash}",
        ),
    )
