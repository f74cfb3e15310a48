"""What every model file holds: the ``Model`` and the reading of its common keys.

A model holds all eleven thresholds, the chosen ensemble, how it was trained (corpus identity
and SHA-256, case counts, accuracies) and which lexicon and program version produced it, so that
every number a report quotes can be traced to it. ``model_fields_from_dict`` checks those keys;
``core/methods/taveer/model.py`` reads a whole file (every method's part in ``extra`` checked
through ``core/methods/method_registry.py``) and rejects anything malformed with one plain
message naming the file. This module imports no method's part, so every part may import it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.inconclusive_band import InconclusiveBand
from taveer_desktop.core.calibration.model_checks import (
    band_from_dict,
    calibration_from_dict,
    is_number,
    require,
)
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.gate.conditions import ValidatedConditions, conditions_from_dict
from taveer_desktop.core.gate.record_ranges import MAX_SECONDS
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import METHOD_IDS
from taveer_desktop.core.ground.time_text import date_problem
from taveer_desktop.core.intake.control_characters import unsafe_characters
from taveer_desktop.core.methods.taveer.scoring import D_MAX
from taveer_desktop.core.trials.validation_settings import THRESHOLD_METHODS as THRESHOLD_METHODS

MODEL_FORMAT = "taveer-model"
# 2 added "calibration" and "inconclusive_band"; 3 added "conditions"; 4 added the calibration's
# "quality" terms and per-band "bounds" and the conditions' "lengths_basis"; 1 to 3 still load
MODEL_FORMAT_VERSION = 4
MAX_MODEL_BYTES = 5 * 1024 * 1024
MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class TrainingInfo:
    """Where a model came from and how well it did on its own training corpus."""

    corpus_name: str
    corpus_layout: str
    corpus_sha256: str
    cases: int
    cases_y: int
    cases_n: int
    accuracy: float
    atomic_accuracy: dict[str, float]
    abstentions: dict[str, int]
    ensembles_tied: int
    seconds: float


@dataclass(frozen=True)
class Model:
    """A trained TAVeer model: thresholds θ_F for F1–F11 and the ensemble used to decide."""

    name: str
    thresholds: dict[str, float]
    ensemble: tuple[str, ...]
    threshold_method: str
    lexicon_sha256: str
    software_version: str
    created_utc: str
    training: TrainingInfo
    calibration: Calibration | None = None
    inconclusive_band: InconclusiveBand | None = None
    conditions: ValidatedConditions | None = None
    format_version: int = MODEL_FORMAT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def calibrated(self) -> bool:
        return self.calibration is not None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "format": MODEL_FORMAT,
            "format_version": self.format_version,
            "name": self.name,
            "created_utc": self.created_utc,
            "software_version": self.software_version,
            "lexicon_sha256": self.lexicon_sha256,
            "d_max": D_MAX,
            "threshold_method": self.threshold_method,
            "thresholds": {c: self.thresholds[c] for c in CATEGORY_IDS},
            "ensemble": list(self.ensemble),
            "training": asdict(self.training),
        }
        if self.format_version >= 2:
            data["calibration"] = self.calibration.to_dict() if self.calibration else None
            data["inconclusive_band"] = (
                self.inconclusive_band.to_dict() if self.inconclusive_band else None
            )
        if self.format_version >= 3:
            data["conditions"] = self.conditions.to_dict() if self.conditions else None
        data.update(self.extra)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    @property
    def sha256(self) -> str:
        """SHA-256 of the canonical JSON text of this model."""
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()


def _parse_training(data: Any, source: str) -> TrainingInfo:
    require(isinstance(data, dict), "'training' must be an object", source)
    strings = ("corpus_name", "corpus_layout", "corpus_sha256")
    counts = ("cases", "cases_y", "cases_n", "ensembles_tied")
    for key in strings:
        require(isinstance(data.get(key), str), f"training.{key} must be a string", source)
    for key in counts:
        value = data.get(key)
        require(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"training.{key} must be a whole number ≥ 0",
            source,
        )
    for key in ("accuracy", "seconds"):
        require(
            is_number(data.get(key)) and data[key] >= 0,
            f"training.{key} must be a number ≥ 0",
            source,
        )
    require(data["seconds"] <= MAX_SECONDS, "training.seconds must be at most a year", source)
    require(
        data["cases_y"] + data["cases_n"] == data["cases"],
        "training.cases must be training.cases_y + training.cases_n",
        source,
    )
    require(0.0 <= data["accuracy"] <= 1.0, "training.accuracy must lie in [0, 1]", source)
    atomic, abstentions = data.get("atomic_accuracy"), data.get("abstentions")
    require(
        isinstance(atomic, dict)
        and set(atomic) == set(CATEGORY_IDS)
        and all(is_number(v) and 0 <= v <= 1 for v in atomic.values()),
        "training.atomic_accuracy must give a number in [0, 1] for F1..F11",
        source,
    )
    require(
        isinstance(abstentions, dict)
        and set(abstentions) == set(CATEGORY_IDS)
        and all(isinstance(v, int) and v >= 0 for v in abstentions.values()),
        "training.abstentions must give a count for F1..F11",
        source,
    )
    return TrainingInfo(
        **{k: data[k] for k in strings + counts},
        accuracy=float(data["accuracy"]),
        seconds=float(data["seconds"]),
        atomic_accuracy={c: float(atomic[c]) for c in CATEGORY_IDS},
        abstentions={c: int(abstentions[c]) for c in CATEGORY_IDS},
    )


KNOWN_KEYS = {
    "format",
    "format_version",
    "name",
    "created_utc",
    "software_version",
    "lexicon_sha256",
    "d_max",
    "threshold_method",
    "thresholds",
    "ensemble",
    "training",
    "calibration",
    "inconclusive_band",
    "conditions",
}


def thresholds_from(thresholds: Any, source: str, where: str = "thresholds") -> dict[str, float]:
    """θ_F for F1..F11, each checked to lie in [0, D_MAX] (a model's, or a repeat's fit's)."""
    require(
        isinstance(thresholds, dict) and set(thresholds) == set(CATEGORY_IDS),
        f"'{where}' must give exactly F1..F11",
        source,
    )
    for category, value in thresholds.items():
        require(
            is_number(value) and 0.0 <= value <= D_MAX,
            f"threshold {category} must be a number in [0, {D_MAX}]",
            source,
        )
    return {c: float(thresholds[c]) for c in CATEGORY_IDS}


def ensemble_from(ensemble: Any, source: str, where: str = "ensemble") -> tuple[str, ...]:
    """A non-empty list of distinct categories, in the order F1..F11."""
    require(
        isinstance(ensemble, list)
        and bool(ensemble)
        and all(isinstance(c, str) and c in CATEGORY_IDS for c in ensemble)
        and len(set(ensemble)) == len(ensemble),
        f"'{where}' must be a non-empty list of distinct categories F1..F11",
        source,
    )
    return tuple(sorted(ensemble, key=CATEGORY_IDS.index))


def model_fields_from_dict(data: Any, source: str) -> Model:
    """Validate the keys of a decoded model object that every model has (TAVeer's thresholds,
    ensemble, calibration, conditions, training) and build a ``Model``; the methods' parts in
    ``extra`` are checked by ``core/methods/taveer/model.model_from_dict``."""
    require(isinstance(data, dict), "the file must hold one JSON object", source)
    require(data.get("format") == MODEL_FORMAT, f"'format' must be {MODEL_FORMAT!r}", source)
    version = data.get("format_version")
    require(
        isinstance(version, int) and not isinstance(version, bool) and version >= 1,
        "'format_version' must be a whole number ≥ 1",
        source,
    )
    if version > MODEL_FORMAT_VERSION:
        raise InputError(
            f"the model has format version {version}, newer than this program understands "
            f"({MODEL_FORMAT_VERSION}); update TAVeer Desktop to use it",
            source,
        )
    for key in ("name", "created_utc", "software_version", "lexicon_sha256"):
        require(
            isinstance(data.get(key), str) and data[key].strip(), f"'{key}' must be text", source
        )
    require(
        len(data["name"]) <= MAX_NAME_CHARS, f"'name' is over {MAX_NAME_CHARS} characters", source
    )
    when = date_problem(data["created_utc"])
    require(when is None, f"'created_utc' is {data['created_utc'][:40]!r}, {when}", source)
    hidden = unsafe_characters(data["name"])
    require(
        not hidden, f"'name' holds control or invisible characters ({', '.join(hidden)})", source
    )
    require(data.get("d_max", D_MAX) == D_MAX, f"'d_max' must be {D_MAX}", source)
    method = data.get("threshold_method")
    require(
        method in THRESHOLD_METHODS,
        f"'threshold_method' must be one of {THRESHOLD_METHODS}",
        source,
    )
    return Model(
        name=data["name"].strip(),
        thresholds=thresholds_from(data.get("thresholds"), source),
        ensemble=ensemble_from(data.get("ensemble"), source),
        threshold_method=method,
        lexicon_sha256=data["lexicon_sha256"],
        software_version=data["software_version"],
        created_utc=data["created_utc"],
        training=_parse_training(data.get("training"), source),
        calibration=calibration_from_dict(data.get("calibration"), source, version)
        if version >= 2
        else None,
        inconclusive_band=band_from_dict(data.get("inconclusive_band"), source)
        if version >= 2
        else None,
        conditions=conditions_from_dict(data.get("conditions"), source) if version >= 3 else None,
        format_version=version,
        extra={k: v for k, v in data.items() if k not in KNOWN_KEYS},
    )


STATED_METHODS = METHOD_IDS  # any registered method (``core/ground/registry.py``)


def method_of(model: Model) -> str:
    """Whose likelihood ratio a model's conclusion states: TAVeer's (the default) or another
    registered method's (``core/verification/method_verify.py``)."""
    method = model.extra.get("method", "taveer")
    if method not in STATED_METHODS:
        raise InputError(f"not a valid TAVeer model: unknown method {method!r}")
    return str(method)
