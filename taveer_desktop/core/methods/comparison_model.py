"""A comparison system's part of a validated model file, written and read strictly.

A model validated with ``--method ID`` for one of the paper's ten comparison systems is a TAVeer
model (TAVeer's own ratio is kept beside the stated one) whose ``extra`` holds:

- ``"method"``: the id, whose likelihood ratio the conclusion states;
- ``"comparison"``: ``{"id", "params", "learned", "calibration", "seed", "raw_range",
  "impostors"}`` — the hyperparameters, what ``learn`` returned on all the validation's
  trials, the logistic calibration (with length terms where the declared questioned length was
  a range) bounded by the ELUB of the cross-validated LRs, the seed of the method's generator,
  the lowest and highest raw score of the validation's trials (a case outside it is
  extrapolated), and — for methods that need impostors — the validation population's prepared
  documents (``encode_impostors``: UTF-8 texts separated by U+001E, zlib, base64, with their
  count, byte length and SHA-256).

``ComparisonPart.of`` refuses a malformed part with one plain message naming the file: an
unknown id, parameters the method's ``check_params`` refuses, learned values its
``check_learned`` refuses, any NaN or infinity, sizes beyond the limits below, impostors that
do not decode to what they state. ``core/lambdag_model.check_model_parts`` calls it for every
model read.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from taveer_desktop.core.calibration import Calibration
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.methods.catalogue import UnknownMethod, comparison_method
from taveer_desktop.core.methods.comparison import ComparisonMethod
from taveer_desktop.core.methods.registry import COMPARISON_IDS, method_info
from taveer_desktop.core.model import MAX_MODEL_BYTES, MODEL_FORMAT_VERSION, Model
from taveer_desktop.core.model_checks import (
    calibration_from_dict,
    is_whole,
    raw_range_from,
    refuse,
    require,
)

IMPOSTOR_ENCODING = "UTF-8 texts separated by U+001E, zlib, base64"
SEPARATOR = "\x1e"
# the model file must stay readable (``model.MAX_MODEL_BYTES``): room for everything else
MAX_IMPOSTOR_BYTES = MAX_MODEL_BYTES - 1024 * 1024  # encoded (base64) size
MAX_IMPOSTOR_TEXT_BYTES = 64 * 1024 * 1024  # decoded: far above what the encoded cap holds
MAX_IMPOSTORS = 100_000
MAX_PART_CHARS = 512 * 1024  # params + learned as JSON
MAX_SEED = 2**63 - 1
MAX_RAW = 1e12


def encode_impostors(texts: Sequence[str]) -> dict[str, Any]:
    """The impostor documents, compact (see the module)."""
    raw = SEPARATOR.join(t.replace(SEPARATOR, " ") for t in texts).encode("utf-8")
    return {
        "encoding": IMPOSTOR_ENCODING,
        "documents": len(texts),
        "bytes": len(raw),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii"),
    }


def check_impostor_size(encoded: dict[str, Any], source: str) -> None:
    """Refuse impostors too large for a model file (before the long part of a validation)."""
    if len(encoded["data"]) > MAX_IMPOSTOR_BYTES:
        raise InputError(
            f"the population is too large for a comparison model to carry as impostors: its "
            f"texts take {len(encoded['data']) / 1e6:.1f} MB compressed, at most "
            f"{MAX_IMPOSTOR_BYTES / 1e6:.1f} MB fit in a model file; validate with fewer "
            "authors or documents",
            source,
        )


def decode_impostors(data: Any, source: str) -> tuple[str, ...]:
    """The impostor texts, checked against the stated count, length and SHA-256; never more
    bytes decompressed than the stated length (no zlib bomb)."""
    require(isinstance(data, dict), "comparison.impostors must be an object", source)
    size, count = data.get("bytes"), data.get("documents")
    require(
        data.get("encoding") == IMPOSTOR_ENCODING
        and is_whole(size, 1, MAX_IMPOSTOR_TEXT_BYTES)
        and is_whole(count, 1, MAX_IMPOSTORS)
        and isinstance(data.get("data"), str)
        and len(data["data"]) <= MAX_IMPOSTOR_BYTES,
        "comparison.impostors must give the encoding, count, length and data of the texts",
        source,
    )
    try:
        packed = base64.b64decode(data["data"], validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, size + 1)
    except (TypeError, ValueError, zlib.error) as error:
        refuse(f"its comparison impostors cannot be decoded ({error})", source)
    require(
        len(raw) == size and inflater.eof,
        "its comparison impostors are not the stated length",
        source,
    )
    require(
        hashlib.sha256(raw).hexdigest() == data.get("sha256"),
        "its comparison impostors do not match their SHA-256",
        source,
    )
    try:
        texts = tuple(raw.decode("utf-8").split(SEPARATOR))
    except UnicodeDecodeError:
        refuse("its comparison impostors are not UTF-8 text", source)
    require(len(texts) == count, "its comparison impostors are not the stated number", source)
    return texts


def _finite_json(value: Any, depth: int = 0) -> bool:
    """JSON data with no NaN or infinity, nested at most 8 levels."""
    if depth > 8:
        return False
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int | float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite_json(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _finite_json(v, depth + 1) for k, v in value.items())
    return False


@dataclass(frozen=True)
class ComparisonPart:
    """What verification needs of a comparison system (see the module)."""

    id: str
    params: dict[str, Any]
    learned: dict[str, Any]
    calibration: Calibration
    seed: int
    raw_range: tuple[float, float] | None
    impostors: dict[str, Any] | None  # ``encode_impostors``; None where the method needs none

    def method(self) -> ComparisonMethod:
        return comparison_method(self.id, self.params)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "params": self.params,
            "learned": self.learned,
            "calibration": self.calibration.to_dict(),
            "seed": self.seed,
            "raw_range": None
            if self.raw_range is None
            else [round(self.raw_range[0], 6), round(self.raw_range[1], 6)],
        }
        if self.impostors is not None:
            data["impostors"] = self.impostors
        return data

    def attach(self, model: Model) -> Model:
        """The model stating this method's ratio, with this part."""
        return replace(
            model, extra={**model.extra, "method": self.id, "comparison": self.to_dict()}
        )

    @classmethod
    def of(cls, model: Model, source: str) -> ComparisonPart:
        """The comparison part of a model, every value checked (see the module)."""
        data = model.extra.get("comparison")
        if not isinstance(data, dict):
            refuse("its comparison part is missing ('comparison')", source)
        method_id = data.get("id")
        require(
            method_id in COMPARISON_IDS,
            f"comparison.id must be one of {', '.join(COMPARISON_IDS)}",
            source,
        )
        stated = model.extra.get("method")
        require(
            stated == method_id or stated not in COMPARISON_IDS,
            f"comparison.id {method_id!r} is not the stated method {stated!r}",
            source,
        )
        method_id = str(method_id)
        params, learned = data.get("params"), data.get("learned")
        if not (isinstance(params, dict) and isinstance(learned, dict)):
            refuse("comparison.params and comparison.learned must be objects", source)
        require(
            _finite_json(params) and _finite_json(learned),
            "comparison.params and comparison.learned must hold finite numbers only",
            source,
        )
        size = len(json.dumps(params)) + len(json.dumps(learned))
        require(
            size <= MAX_PART_CHARS,
            f"comparison.params and comparison.learned take {size:,} characters, over "
            f"{MAX_PART_CHARS:,}",
            source,
        )
        try:
            method = comparison_method(method_id, params)
            method.check_learned(learned)
        except (UnknownMethod, ValueError, TypeError, KeyError) as error:
            refuse(f"its comparison part is not usable ({error})", source)
        require(is_whole(data.get("seed"), 0, MAX_SEED), "comparison.seed must be ≥ 0", source)
        calibration = calibration_from_dict(
            data.get("calibration"), source, MODEL_FORMAT_VERSION, "comparison.calibration"
        )
        require(calibration is not None, "comparison.calibration is missing", source)
        assert calibration is not None
        raw_range = raw_range_from(data.get("raw_range"), MAX_RAW, "comparison.raw_range", source)
        impostors = data.get("impostors")
        if method_info(method_id).needs_impostors or impostors is not None:
            decode_impostors(impostors, source)
        return cls(
            id=method_id,
            params=dict(method.params),
            learned=dict(learned),
            calibration=calibration,
            seed=int(data["seed"]),
            raw_range=raw_range,
            impostors=None if impostors is None else dict(impostors),
        )
