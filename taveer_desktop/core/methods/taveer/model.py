"""TAVeer models as validated JSON files (never pickle, never eval).

A model holds all eleven thresholds, the chosen ensemble, how it was trained (corpus identity
and SHA-256, case counts, accuracies) and which lexicon and program version produced it, so that
every number a report quotes can be traced to it (``core/methods/taveer/model_fields.py``), and
the part of every other method it states or fuses. ``parse_model`` rejects anything malformed with
one plain message naming the file: the common keys (``model_fields_from_dict``), the figures the
file states about itself (``core/methods/taveer/model_claims.py``), the stated method, and every
method's part, each checked by its own seam (``core/methods/method_registry.py``), and the
repeats' own fits where a validation kept them (``core/methods/taveer/repeat_models.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.safe_json import loads_limited
from taveer_desktop.core.intake.decoding import read_file_bytes
from taveer_desktop.core.methods.method_registry import check_parts, repeat_fits_of
from taveer_desktop.core.methods.taveer.model_claims import check_claims
from taveer_desktop.core.methods.taveer.model_fields import KNOWN_KEYS as KNOWN_KEYS
from taveer_desktop.core.methods.taveer.model_fields import MAX_MODEL_BYTES as MAX_MODEL_BYTES
from taveer_desktop.core.methods.taveer.model_fields import MAX_NAME_CHARS as MAX_NAME_CHARS
from taveer_desktop.core.methods.taveer.model_fields import MODEL_FORMAT as MODEL_FORMAT
from taveer_desktop.core.methods.taveer.model_fields import (
    MODEL_FORMAT_VERSION as MODEL_FORMAT_VERSION,
)
from taveer_desktop.core.methods.taveer.model_fields import STATED_METHODS as STATED_METHODS
from taveer_desktop.core.methods.taveer.model_fields import (
    THRESHOLD_METHODS as THRESHOLD_METHODS,
)
from taveer_desktop.core.methods.taveer.model_fields import Model as Model
from taveer_desktop.core.methods.taveer.model_fields import TrainingInfo as TrainingInfo
from taveer_desktop.core.methods.taveer.model_fields import method_of as method_of
from taveer_desktop.core.methods.taveer.model_fields import model_fields_from_dict


def model_from_dict(data: Any, source: str) -> Model:
    """Validate a decoded model object and build a ``Model`` (see the module). A model that
    passes cannot fail later inside a verification."""
    model = model_fields_from_dict(data, source)
    check_claims(model.extra, source)
    check_parts(model, source)
    repeat_fits_of(model, source)  # each repeat's own fits, where the model keeps them
    return model


def parse_model(text: str, source: str) -> Model:
    """Parse and validate the JSON text of a model; ``source`` names it in error messages."""
    if len(text) > MAX_MODEL_BYTES:
        raise InputError(
            f"is larger than the model size limit of {MAX_MODEL_BYTES:,} bytes", source
        )
    try:
        data = loads_limited(text, source, "TAVeer model")
    except json.JSONDecodeError as error:
        raise InputError(
            f"not a valid TAVeer model: not JSON ({error.msg} at line {error.lineno})", source
        ) from None
    return model_from_dict(data, source)


def decode_model_bytes(data: bytes, source: str) -> str:
    """The JSON text of a model file's bytes (UTF-8, a byte-order mark tolerated)."""
    if not data.strip():
        raise InputError("is empty, not a TAVeer model", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("not a valid TAVeer model: not UTF-8 JSON text", source) from None


def read_model_bytes(path: str | Path) -> bytes:
    """The bytes of a model file, refused when missing, unreadable or over the size limit."""
    return read_file_bytes(path, MAX_MODEL_BYTES, kind="model file")


def load_model(path: str | Path) -> Model:
    """Read, decode and validate a model file."""
    return parse_model(decode_model_bytes(read_model_bytes(path), str(path)), str(path))


def save_model(model: Model, path: str | Path) -> None:
    """Write a model atomically (never half-written; a ``FileWriteError`` names the file)."""
    from taveer_desktop.core.ground.atomic_file import write_text_atomically  # only when saving

    write_text_atomically(path, model.to_json())
