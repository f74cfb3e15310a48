"""Shared by the scripts that train the bundled models: save a model with its training record.

The model file itself carries its held-out evaluations (key ``evaluations``), so a report can
quote the model's measured error rates. The record (``<name>.training.json`` beside it) says
which corpus trained it (name, SHA-256, cases, source), the figures it reached on held-out
corpora, the program version, the date and the command that made it, so that a report can
trace a bundled model to its data.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from taveer_desktop import __version__
from taveer_desktop.core.intake.corpus import Corpus
from taveer_desktop.core.methods.taveer.model import Model, save_model
from taveer_desktop.core.validation.evaluation import Evaluation


def rounded_metrics(evaluation: Evaluation) -> dict:
    return {
        k: round(v, 4) if isinstance(v, float) else v for k, v in evaluation.report_dict().items()
    }


def save_with_record(
    model: Model,
    model_path: Path,
    corpus: Corpus,
    corpus_label: str,
    corpus_source: str,
    evaluations: dict[str, Evaluation],
    command: str,
) -> dict:
    """Write the model (carrying its held-out evaluations, which reports quote) and its
    training record; return the record."""
    held_out = {name: rounded_metrics(e) for name, e in evaluations.items()}
    model = replace(model, extra={**model.extra, "evaluations": held_out})
    save_model(model, model_path)
    record = {
        "model_file": model_path.name,
        "model_sha256": model.sha256,
        "trained_utc": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "software_version": __version__,
        "training_corpus": {
            "name": corpus_label,
            "sha256": corpus.sha256,
            "cases": len(corpus),
            "source": corpus_source,
        },
        "ensemble": list(model.ensemble),
        "training_accuracy": model.training.accuracy,
        "evaluations": held_out,
        "command": command,
    }
    record_path = model_path.with_name(model_path.stem + ".training.json")
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return record
