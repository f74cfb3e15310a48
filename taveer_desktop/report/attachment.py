"""The machine-readable record attached to a case report's PDF: the run's result and what it
rests on (case, run, model, documents, integrity, the audit chain's head), as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from taveer_desktop.report.inputs import ReportInputs


def attachment(inputs: ReportInputs) -> bytes:
    """The machine-readable record attached to the PDF (run result and what it rests on)."""
    data: dict[str, Any] = {
        "format": "taveer-report-attachment",
        "format_version": 1,
        "report_id": inputs.report_id,
        "generated_utc": inputs.generated.isoformat(),
        "software": inputs.software,
        "case": asdict(inputs.case),
        "run": asdict(inputs.run),
        "model": asdict(inputs.stored_model),
        "documents": [{"label": d.label, **asdict(d.document)} for d in inputs.documents],
        "integrity": {**asdict(inputs.integrity), "ok": inputs.integrity.ok},
        "audit_head_hash": inputs.audit_head.entry_hash if inputs.audit_head else None,
        "result": inputs.result,
    }
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True, default=str).encode()
