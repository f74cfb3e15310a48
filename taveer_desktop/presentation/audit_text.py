"""Recorded audit details in words, for the desktop's audit log and the report's audit trail.

An audit entry keeps what the store wrote (engine codes such as ``Y``, unrounded similarities,
ISO times with microseconds, base64 certificates); a person reads the codes named, measured
values with fixed decimals, times to the second and a binary value by its size. Ids and seeds
stay whole numbers as recorded.
"""

from __future__ import annotations

import re

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.ground.time_text import (
    recorded_time as recorded_time,  # the store shares it
)
from taveer_desktop.presentation.conclusion_text import CLASSIFICATION_SHORT, KIND_LABELS
from taveer_desktop.presentation.numbers import count, decimal

ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)?")
# a binary value kept as base64 (a checkpoint's certificate and signature): too long to read
BASE64_BLOB = re.compile(r"(?![0-9a-fA-F]*$)[A-Za-z0-9+/]{80,}={0,2}")  # not a hex hash
_KINDS = {k.value: k for k in ConclusionKind}
_CLASSIFICATIONS = {c.value: c for c in Classification}


def detail_value(key: str, value: object, places: int = 3) -> str:
    """One recorded value of the detail ``key`` as a person reads it."""
    if key == "conclusion" and value in _KINDS:
        return KIND_LABELS[_KINDS[value]].lower()
    if key == "prediction" and value in _CLASSIFICATIONS:
        return CLASSIFICATION_SHORT[_CLASSIFICATIONS[value]]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return decimal(value, places)
    if isinstance(value, list | tuple):
        return ", ".join(detail_value("", v, places) for v in value)
    if isinstance(value, dict):
        return "; ".join(
            f"{k.replace('_', ' ')} {detail_value(k, v, places)}" for k, v in value.items()
        )
    if isinstance(value, str) and ISO_TIME.fullmatch(value):
        return recorded_time(value)
    if isinstance(value, str) and BASE64_BLOB.fullmatch(value):
        size = len(value) * 3 // 4 - value.count("=")
        return f"{count(size, 'byte')}, kept whole in the project (base64)"
    return str(value)


def detail_name(key: str) -> str:
    """``model_sha256`` → ``model sha256``; the two codes by their words."""
    return {"prediction": "classification"}.get(key, key.replace("_", " "))


def detail_text(key: str, value: object, places: int = 3) -> str:
    """One recorded detail as a person reads it: ``model_id 3`` → "model 3" (an id is the
    number of the record it names, never "model id: 3"), anything else "name: value"."""
    if key.endswith("_id") and isinstance(value, int) and not isinstance(value, bool):
        return f"{key[: -len('_id')].replace('_', ' ')} {value}"
    if key.endswith("_ids") and isinstance(value, list | tuple):
        return f"{key[: -len('_ids')].replace('_', ' ')}s " + ", ".join(str(v) for v in value)
    return f"{detail_name(key)}: {detail_value(key, value, places)}"


ACTION_WORDS = {
    "project_created": "Project created",
    "case_created": "Case created",
    "case_updated": "Case edited",
    "document_added": "Document added",
    "document_removed": "Document removed",
    "model_added": "Model added",
    "run_stored": "Verification stored",
    "stability_stored": "Stability stored",
    "document_excluded": "Document excluded",
    "document_included": "Document included again",
    "case_model_chosen": "Model chosen for the case",
    "store_migrated": "Store upgraded",
    "report_exported": "Report exported",
    "project_copy_saved": "Copy saved",
    "population_added": "Population imported",
    "population_topics_added": "Population's topic labels kept",
    "population_dates_added": "Population's document dates kept",
    "validation_stored": "Validation stored",
    "validation_report_exported": "Validation report exported",
    "validation_used": "Validation declared relevant to the case",
    "checkpoint_signed": "Chain head signed by the examiner (checkpoint)",
    "validation_failed": "Validation failed",
}


def action_text(action: str) -> str:
    """An audit entry's action code in words: ``case_created`` → "Case created"."""
    return ACTION_WORDS.get(action, action.replace("_", " ").capitalize())
