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

A fused model (``"method": "fusion"``) that combines comparison systems carries each one's part
in ``"comparisons"``: ``{"version": 1, "parts": [part, …]}`` (``comparisons_block``, read by
``fused_parts``), every part as above and checked the same way, one per system; the parts
together are capped as one system's impostors are.

``ComparisonPart.of`` refuses a malformed part with one plain message naming the file: an
unknown id, parameters the method's ``check_params`` refuses, learned values its
``check_learned`` refuses, any NaN or infinity, sizes beyond the limits below, impostors that
do not decode to what they state. The comparison systems' seam (``comparison_seam.py``) calls it
for every model read.
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

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.model_checks import (
    calibration_from_dict,
    is_whole,
    raw_range_from,
    refuse,
    require,
)
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import COMPARISON_IDS, method_info
from taveer_desktop.core.methods.systems.catalogue import UnknownMethod, comparison_method
from taveer_desktop.core.methods.systems.comparison import ComparisonMethod
from taveer_desktop.core.methods.taveer.model_fields import (
    MAX_MODEL_BYTES,
    MODEL_FORMAT_VERSION,
    Model,
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
COMPARISONS_VERSION = 1  # of a fused model's ``"comparisons"``


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
        return cls.from_dict(data, model.extra.get("method"), source)

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], stated: Any, source: str, key: str = "comparison"
    ) -> ComparisonPart:
        """A comparison part read from ``data`` (the model's ``key``), every value checked;
        ``stated`` is the model's stated method (a comparison id must be this part's)."""
        method_id = data.get("id")
        require(
            method_id in COMPARISON_IDS,
            f"{key}.id must be one of {', '.join(COMPARISON_IDS)}",
            source,
        )
        require(
            stated == method_id or stated not in COMPARISON_IDS,
            f"{key}.id {method_id!r} is not the stated method {stated!r}",
            source,
        )
        method_id = str(method_id)
        params, learned = data.get("params"), data.get("learned")
        if not (isinstance(params, dict) and isinstance(learned, dict)):
            refuse(f"{key}.params and {key}.learned must be objects", source)
        require(
            _finite_json(params) and _finite_json(learned),
            f"{key}.params and {key}.learned must hold finite numbers only",
            source,
        )
        size = len(json.dumps(params)) + len(json.dumps(learned))
        require(
            size <= MAX_PART_CHARS,
            f"{key}.params and {key}.learned take {size:,} characters, over {MAX_PART_CHARS:,}",
            source,
        )
        try:
            method = comparison_method(method_id, params)
            method.check_learned(learned)
        except (UnknownMethod, ValueError, TypeError, KeyError) as error:
            refuse(f"its {key} part is not usable ({error})", source)
        require(is_whole(data.get("seed"), 0, MAX_SEED), f"{key}.seed must be ≥ 0", source)
        calibration = calibration_from_dict(
            data.get("calibration"), source, MODEL_FORMAT_VERSION, f"{key}.calibration"
        )
        require(calibration is not None, f"{key}.calibration is missing", source)
        assert calibration is not None
        raw_range = raw_range_from(data.get("raw_range"), MAX_RAW, f"{key}.raw_range", source)
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


def comparisons_block(parts: Sequence[ComparisonPart], source: str) -> dict[str, Any]:
    """``extra["comparisons"]`` of a fused model: the part of every comparison system the
    fusion combines (see ``fused_parts``); refused when they would not fit in a model file."""
    block = {"version": COMPARISONS_VERSION, "parts": [part.to_dict() for part in parts]}
    size = len(json.dumps(block))
    if size > MAX_IMPOSTOR_BYTES:
        raise InputError(
            f"the fused methods' parts take {size / 1e6:.1f} MB, at most "
            f"{MAX_IMPOSTOR_BYTES / 1e6:.1f} MB fit in a model file (each method that needs "
            "impostors carries the population); fuse fewer such methods or validate with fewer "
            "authors or documents",
            source,
        )
    return block


def fused_parts(model: Model, source: str) -> dict[str, ComparisonPart]:
    """The comparison parts a fused model carries (``extra["comparisons"]``), by id, each
    checked as a stated one is: ``{"version": 1, "parts": [part, …]}``, one part per comparison
    system, at most one each; a model without the key carries none."""
    data = model.extra.get("comparisons")
    if data is None:
        return {}
    if not isinstance(data, dict) or set(data) != {"version", "parts"}:
        refuse("comparisons must be an object with 'version' and 'parts'", source)
    require(
        data["version"] == COMPARISONS_VERSION,
        f"comparisons.version must be {COMPARISONS_VERSION} (the one this program reads)",
        source,
    )
    listed = data["parts"]
    require(
        isinstance(listed, list)
        and 1 <= len(listed) <= len(COMPARISON_IDS)
        and all(isinstance(p, dict) for p in listed),
        f"comparisons.parts must be a list of 1 to {len(COMPARISON_IDS)} objects",
        source,
    )
    size = sum(len(json.dumps(p)) for p in listed)
    require(
        size <= MAX_IMPOSTOR_BYTES,
        f"comparisons.parts take {size:,} characters, over {MAX_IMPOSTOR_BYTES:,}",
        source,
    )
    stated = model.extra.get("method")
    parts: dict[str, ComparisonPart] = {}
    for data_part in listed:
        part = ComparisonPart.from_dict(data_part, stated, source, "comparisons.parts[]")
        require(part.id not in parts, f"comparisons.parts holds {part.id} twice", source)
        parts[part.id] = part
    return parts


def comparison_part(model: Model, method_id: str, source: str) -> ComparisonPart:
    """The part of comparison system ``method_id`` that a model carries: its stated
    comparison part (``"comparison"``), or the part its fusion combines (``"comparisons"``);
    refused with one line where it carries none."""
    stated = model.extra.get("comparison")
    if isinstance(stated, dict) and stated.get("id") == method_id:
        return ComparisonPart.of(model, source)
    fused = fused_parts(model, source)
    if method_id not in fused:
        refuse(f"it carries no part of {method_id} ('comparison' or 'comparisons')", source)
    return fused[method_id]
