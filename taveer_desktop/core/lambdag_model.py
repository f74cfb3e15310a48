"""The LambdaG and fusion parts of a validated model file, and which method a model states.

A model validated with ``--method lambdag`` or ``--method fusion`` is a TAVeer model (its
thresholds, ensemble, calibration and validated conditions, fitted on the same trials: the gate
and TAVeer's own likelihood ratio come from them) with three more keys:

- ``"method"``: ``"lambdag"`` or ``"fusion"`` — whose likelihood ratio the conclusion states
  (absent: ``"taveer"``);
- ``"lambdag"``: the chosen order, the number of reference samples, the seed, the vocabulary
  size, the logistic calibration of λG (bounded), and the **reference population** itself as
  masked token streams (``core/lambdag_masking.py``: lexicon words and punctuation in order,
  every other word a placeholder), zlib-compressed little-endian 16-bit ids in base64, with
  their SHA-256. LambdaG needs the population at every verification (its samples are drawn to
  the size of the case's known text), and a model that carries it verifies on its own. It holds
  no running text, but it is derived from the population's documents: a model made from a
  laboratory's own population stays with that laboratory, and a model made from a corpus may
  only be passed on where the corpus's licence allows derived data;
- ``"fusion"``: the logistic-regression fusion (``core/fusion.py``) of TAVeer's and LambdaG's
  calibrated log10 LRs, for ``"method": "fusion"``.
"""

from __future__ import annotations

import base64
import hashlib
import math
import zlib
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from taveer_desktop.core.calibration import Calibration
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.fusion import Fusion
from taveer_desktop.core.lambdag_masking import MASKED_DTYPE
from taveer_desktop.core.length_bands import bands_from_list
from taveer_desktop.core.model import Model
from taveer_desktop.core.quality_measures import quality_from_dict

REFERENCE_ENCODING = "zlib, base64; 16-bit little-endian masked ids, 0 between sentences"


def encode_reference(stream: np.ndarray) -> dict[str, Any]:
    raw = np.asarray(stream, dtype="<u2").tobytes()
    return {
        "encoding": REFERENCE_ENCODING,
        "tokens": len(stream),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii"),
    }


def decode_reference(data: dict[str, Any], source: str) -> np.ndarray:
    try:
        raw = zlib.decompress(base64.b64decode(data["data"], validate=True))
    except (KeyError, TypeError, ValueError, zlib.error) as error:
        raise InputError(
            f"not a valid TAVeer model: its LambdaG reference ({error})", source
        ) from None
    if hashlib.sha256(raw).hexdigest() != data.get("sha256"):
        raise InputError(
            "not a valid TAVeer model: its LambdaG reference does not match its SHA-256", source
        )
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
        if self.raw_range is not None:
            data["raw_range"] = [round(self.raw_range[0], 6), round(self.raw_range[1], 6)]
        return data

    @classmethod
    def of(cls, model: Model, source: str) -> LambdaGPart:
        data = model.extra.get("lambdag")
        if not isinstance(data, dict):
            raise InputError("not a valid TAVeer model: its LambdaG part is missing", source)
        try:
            cal = dict(data["calibration"])
            cal.pop("method", None)
            cal.update(_length_terms(cal, source))
            raw_range = data.get("raw_range")
            if raw_range is not None:
                low, high = (float(x) for x in raw_range)
                if not (math.isfinite(low) and math.isfinite(high) and low <= high):
                    raise ValueError("raw_range must be two finite numbers, low to high")
                raw_range = (low, high)
            return cls(
                order=int(data["order"]),
                samples=int(data["samples"]),
                seed=int(data["seed"]),
                vocabulary_size=int(data["vocabulary_size"]),
                calibration=Calibration(**cal),
                reference=dict(data["reference"]),
                population_sha256=str(data.get("population_sha256", "")),
                raw_range=raw_range,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(
                f"not a valid TAVeer model: its LambdaG part ({error})", source
            ) from None


def _length_terms(cal: dict[str, Any], source: str) -> dict[str, Any]:
    """The calibration's quality terms and band bounds, parsed strictly (absent: none)."""

    def fail(message: str) -> NoReturn:
        raise InputError(f"not a valid TAVeer model: its LambdaG calibration.{message}", source)

    out: dict[str, Any] = {"quality": None, "bands": ()}
    if cal.get("quality") is not None:
        out["quality"] = quality_from_dict(cal["quality"], float(cal["slope"]), fail)
    if cal.get("bands") is not None:
        out["bands"] = bands_from_list(cal["bands"], fail)
    return out


def fusion_of(model: Model, source: str) -> Fusion:
    data = model.extra.get("fusion")
    if not isinstance(data, dict):
        raise InputError("not a valid TAVeer model: its fusion part is missing", source)
    try:
        return Fusion.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"not a valid TAVeer model: its fusion part ({error})", source) from None
