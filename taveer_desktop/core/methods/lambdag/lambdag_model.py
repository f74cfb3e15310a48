"""The LambdaG part of a validated model file (and, read here for older callers, the fusion's).

A model validated with ``--method lambdag`` or ``--method fusion`` is a TAVeer model (its
thresholds, ensemble, calibration and validated conditions, fitted on the same trials: the gate
and TAVeer's own likelihood ratio come from them) with three more keys:

- ``"method"``: ``"lambdag"`` or ``"fusion"`` — whose likelihood ratio the conclusion states
  (absent: ``"taveer"``);
- ``"lambdag"``: its ``format_version`` (absent: 1), the chosen order, the number of reference
  samples, the validation's seed, the vocabulary size, the logistic calibration of λG (bounded),
  and the **reference population** itself as
  masked token streams (``core/methods/lambdag/lambdag_masking.py``: lexicon words and punctuation
  in order, every other word a placeholder), zlib-compressed little-endian 16-bit ids in base64,
  with their SHA-256. LambdaG needs the population at every verification (its samples are drawn to
  the size of the case's known text), and a model that carries it verifies on its own. It holds
  no running text, but it is derived from the population's documents: a model made from a
  laboratory's own population stays with that laboratory, and a model made from a corpus may
  only be passed on where the corpus's licence allows derived data;
- ``"fusion"``: the fusion of the fused methods' log10 LRs, for ``"method": "fusion"``
  (``core/methods/fusion/fusion_model.fusion_of``, also importable from here); every model made
  before ``--fuse`` existed fuses ``FUSED_METHODS``, TAVeer and LambdaG.

What seeds a case's reference samples is the part's ``format_version``: version 2 (every model
validated since issue 30, item 4), the case's own texts (``lambdag.case_seed``), so that the same
case gives the same λG under every model of the same population and order, whatever the seed of
its validation — only the order and the calibration then differ with the seed, and the repeat
check sees the calibration's part; version 1 (older models, still read and verified as they
were), the model's ``seed``.

A model of one of the ten comparison systems carries ``"comparison"`` instead
(``core/methods/systems/comparison_model.py``).

Every model read is checked at the door (``core/methods/taveer/model.py``): each method's part
through its seam (``core/methods/method_registry.py``; LambdaG's, ``lambdag_seam.py``, with
``LambdaGPart.of`` and ``check_reference`` here): every value of each part that is present
(ranges above: orders, samples, seeds, vocabulary, weights, bounds) and the reference decoded
within its stated size and matching its vocabulary.
A model that passes cannot fail later inside a verification.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.model_checks import (
    calibration_from_dict,
    is_whole,
    raw_range_from,
    refuse,
    require,
)
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.fusion.fusion_model import fusion_of as fusion_of
from taveer_desktop.core.methods.lambdag.kneser_ney import END
from taveer_desktop.core.methods.lambdag.lambdag import case_seed, vocabulary_size_of
from taveer_desktop.core.methods.lambdag.lambdag_masking import MASKED_DTYPE
from taveer_desktop.core.methods.taveer.model_fields import MODEL_FORMAT_VERSION, Model

REFERENCE_ENCODING = "zlib, base64; 16-bit little-endian masked ids, 0 between sentences"
# the columns of the default fusion (``--method fusion`` without ``--fuse``), in this order
FUSED_METHODS = (MethodId.TAVEER.value, MethodId.LAMBDAG.value)
# models that may carry a LambdaG part (a fusion only when ``fusion.methods`` holds LambdaG)
LAMBDAG_METHODS = (MethodId.LAMBDAG.value, MethodId.FUSION.value)
MAX_ORDER = 16  # as ``taveer validate --lambdag-order``
MAX_SAMPLES = 1000  # reference samples per verification (published default 30)
MAX_SEED = 2**63 - 1
MAX_VOCABULARY = 0x8000 + 1  # every masked id is below 0x8000
MAX_REFERENCE_TOKENS = 16_000_000  # 32 MB decoded: far above what a 5 MB model file holds
MAX_RAW = 1e9  # |λG| of the validation's trials
MODEL_SEEDED_VERSION = 1  # a case's samples seeded by the model's seed (models made before)
CASE_SEEDED_VERSION = 2  # a case's samples seeded by the case's own texts


def encode_reference(stream: np.ndarray) -> dict[str, Any]:
    raw = np.asarray(stream, dtype="<u2").tobytes()
    return {
        "encoding": REFERENCE_ENCODING,
        "tokens": len(stream),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii"),
    }


def decode_reference(data: dict[str, Any], source: str) -> np.ndarray:
    """The reference population's masked ids, checked against the stated token count and
    SHA-256; never more bytes decompressed than the stated count needs (no zlib bomb)."""
    tokens = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(tokens, int) or not is_whole(tokens, 1, MAX_REFERENCE_TOKENS):
        refuse(
            f"lambdag.reference.tokens must be a whole number from 1 to {MAX_REFERENCE_TOKENS:,}",
            source,
        )
    try:
        packed = base64.b64decode(data["data"], validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, 2 * tokens + 1)
    except (KeyError, TypeError, ValueError, zlib.error) as error:
        refuse(f"its LambdaG reference cannot be decoded ({error})", source)
    if len(raw) != 2 * tokens or not inflater.eof:
        refuse(f"its LambdaG reference does not hold the {tokens:,} tokens it states", source)
    if hashlib.sha256(raw).hexdigest() != data.get("sha256"):
        refuse("its LambdaG reference does not match its SHA-256", source)
    return np.frombuffer(raw, dtype="<u2").astype(MASKED_DTYPE)


@dataclass(frozen=True)
class LambdaGPart:
    """What verification needs of LambdaG: see the module."""

    order: int
    samples: int
    seed: int
    vocabulary_size: int
    calibration: Calibration
    reference: dict[str, Any]
    population_sha256: str
    # the lowest and highest λG (at ``order``) of the validation's trials; a case outside it
    # is extrapolated (the gate's validated-conditions rule); None in models made before
    raw_range: tuple[float, float] | None = None
    format_version: int = MODEL_SEEDED_VERSION  # what seeds a case's samples: see the module

    @property
    def seeded_by_case(self) -> bool:
        """Whether a case's reference samples are seeded by the case (version 2)."""
        return self.format_version >= CASE_SEEDED_VERSION

    def sample_seed(self, known_tokens: np.ndarray, questioned_tokens: np.ndarray) -> int:
        """The seed of a case's reference samples (its known and questioned masked tokens,
        ``SentenceKeys.tokens``): the case's own (version 2) or the model's (version 1)."""
        if self.seeded_by_case:
            return case_seed(known_tokens, questioned_tokens)
        return self.seed

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "order": self.order,
            "samples": self.samples,
            "seed": self.seed,
            "vocabulary_size": self.vocabulary_size,
            "smoothing": "interpolated Kneser-Ney (Chen and Goodman 1998), sentence level",
            "masking": "lexicon words and punctuation kept, other words one placeholder",
            "calibration": self.calibration.to_dict(),
            "population_sha256": self.population_sha256,
            "reference": self.reference,
        }
        if self.format_version != MODEL_SEEDED_VERSION:  # a version 1 part is written as before
            data = {"format_version": self.format_version, **data}
        if self.raw_range is not None:
            data["raw_range"] = [round(self.raw_range[0], 6), round(self.raw_range[1], 6)]
        return data

    @classmethod
    def of(cls, model: Model, source: str) -> LambdaGPart:
        """The LambdaG part of a model, every value checked (see the module)."""
        data = model.extra.get("lambdag")
        if not isinstance(data, dict):
            refuse("its LambdaG part is missing ('lambdag')", source)
        version = data.get("format_version", MODEL_SEEDED_VERSION)
        require(
            is_whole(version, MODEL_SEEDED_VERSION, CASE_SEEDED_VERSION),
            f"lambdag.format_version must be {MODEL_SEEDED_VERSION} or {CASE_SEEDED_VERSION} "
            "(a later version needs a newer TAVeer)",
            source,
        )
        for key, low, high, shown in (
            ("order", 1, MAX_ORDER, f"from 1 to {MAX_ORDER}"),
            ("samples", 1, MAX_SAMPLES, f"from 1 to {MAX_SAMPLES:,}"),
            ("seed", 0, MAX_SEED, "≥ 0 (below 2^63)"),
        ):
            require(
                is_whole(data.get(key), low, high),
                f"lambdag.{key} must be a whole number {shown}",
                source,
            )
        require(
            is_whole(data.get("vocabulary_size"), 2, MAX_VOCABULARY),
            f"lambdag.vocabulary_size must be a whole number from 2 to {MAX_VOCABULARY:,}",
            source,
        )
        calibration = calibration_from_dict(
            data.get("calibration"), source, MODEL_FORMAT_VERSION, "lambdag.calibration"
        )
        require(calibration is not None, "lambdag.calibration is missing", source)
        assert calibration is not None
        raw_range = raw_range_from(data.get("raw_range"), MAX_RAW, "lambdag.raw_range", source)
        reference = data.get("reference")
        if not isinstance(reference, dict):
            refuse("lambdag.reference must be an object", source)
        require(
            reference.get("encoding") == REFERENCE_ENCODING
            and isinstance(reference.get("data"), str)
            and isinstance(reference.get("sha256"), str),
            "lambdag.reference must give the encoding, data and SHA-256 of the masked population",
            source,
        )
        population_sha256 = data.get("population_sha256", "")
        require(
            isinstance(population_sha256, str), "lambdag.population_sha256 must be text", source
        )
        return cls(
            order=data["order"],
            samples=data["samples"],
            seed=data["seed"],
            vocabulary_size=data["vocabulary_size"],
            calibration=calibration,
            reference=dict(reference),
            population_sha256=population_sha256,
            raw_range=raw_range,
            format_version=version,
        )


def check_reference(part: LambdaGPart, source: str) -> None:
    """Refuse a LambdaG part whose reference population holds no sentence or does not give its
    stated vocabulary size (decoded within its stated size, ``decode_reference``)."""
    stream = decode_reference(part.reference, source)
    require(bool(np.any(stream != END)), "its LambdaG reference holds no sentence", source)
    require(
        vocabulary_size_of(np.append(stream, END)) == part.vocabulary_size,
        "lambdag.vocabulary_size does not match its reference population",
        source,
    )
