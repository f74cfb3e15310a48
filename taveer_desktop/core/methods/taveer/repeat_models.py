"""The ``repeat_models`` block of a validated model file: each repeat's own fit, read strictly.

A validation repeats its trials and cross-validation with seeds seed, seed + 1, … and fits the
final model on all repeats' trials (``core/validation/validation.py``). Beside it the model keeps
what each repeat alone would have given (``core/validation/repeat_fits.py`` fits it): TAVeer's
thresholds, ensemble and calibration learned on that repeat's trials, the calibration bounded by
the ELUB of the repeat's cross-validated ratios as the final model's is by all of them. A
verification asks the stated method's seam for the case's ratio under each
(``MethodSeam.repeat_case_ratio``) to see whether its direction depends on the seed
(``core/calibration/repeat_agreement.py``).

A model stating another method's ratio keeps, in each fit's ``parts``, that method's own fit on
the repeat and the fit of every method its ratio is made of, by method id: LambdaG's and a
comparison system's calibration of its raw score (``core/calibration/raw_repeat_fit.py``), the
fusion's weights (``core/methods/fusion/fusion_model.py``); each method's seam fits its part
(``MethodSeam.repeat_part``) and reads it back (``read_repeat_part``, passed in as ``read_part``).

The block is optional (a model file written before it, or by ``taveer train``, has none: the
check is then said to be not possible), versioned (``format_version`` 1: TAVeer's fits alone,
still written so for a TAVeer model; 2: with ``parts``; a newer one is refused with a plain
message), capped at ``MAX_REPEATS`` fits, and read strictly: an unknown key, a threshold outside
[0, D_MAX], an unreadable calibration, a part of a method with no repeat fit of its own, fits
keeping different methods' parts or seeds out of order refuses the whole file, as every other
part of a model does.

    "repeat_models": {"format_version": 2,
                      "fits": [{"seed": 0, "thresholds": {"F1": …, …}, "ensemble": ["F1", …],
                                "calibration": {…},
                                "parts": {"coav": {"calibration": {…}},
                                          "fusion": {"fusion": {…}}}}, …]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.model_checks import calibration_from_dict, is_whole, require
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import METHOD_IDS
from taveer_desktop.core.methods.taveer.model_fields import (
    MODEL_FORMAT_VERSION,
    Model,
    ensemble_from,
    thresholds_from,
)
from taveer_desktop.core.trials.validation_settings import MAX_REPEATS

REPEAT_MODELS_KEY = "repeat_models"
REPEAT_MODELS_VERSION = 2  # 2: each fit's ``parts`` (1: TAVeer's fits alone)
_BLOCK_KEYS = {"format_version", "fits"}
_FIT_KEYS = {"seed", "thresholds", "ensemble", "calibration"}
_PARTS_KEY = "parts"
MAX_SEED = 2**31 - 1
MAX_PARTS = len(METHOD_IDS) - 1  # every method but TAVeer, whose part is the fit itself

# reads one method's part of a repeat fit: (method id, data, where) → the part, or refuses
ReadPart = Callable[[str, Any, str], Any]


@dataclass(frozen=True)
class RepeatFit:
    """What one repeat of a validation learned on its own trials: TAVeer's part, and every
    other method's own part by id (objects with ``to_dict``, see the module)."""

    seed: int
    thresholds: dict[str, float]
    ensemble: tuple[str, ...]
    calibration: Calibration
    parts: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "seed": self.seed,
            "thresholds": {c: self.thresholds[c] for c in CATEGORY_IDS},
            "ensemble": list(self.ensemble),
            "calibration": self.calibration.to_dict(),
        }
        if self.parts:
            data[_PARTS_KEY] = {m: part.to_dict() for m, part in self.parts.items()}
        return data


def repeat_models_block(fits: Sequence[RepeatFit]) -> dict[str, Any]:
    """The model file's ``repeat_models`` entry (to merge into ``Model.extra``)."""
    if not 1 <= len(fits) <= MAX_REPEATS:
        raise ValueError(f"1 to {MAX_REPEATS} repeat fits, not {len(fits)}")
    return {
        REPEAT_MODELS_KEY: {
            "format_version": REPEAT_MODELS_VERSION if any(f.parts for f in fits) else 1,
            "fits": [fit.to_dict() for fit in fits],
        }
    }


def _parts(data: Any, where: str, source: str, read_part: ReadPart | None) -> dict[str, Any]:
    require(
        isinstance(data, dict) and 1 <= len(data) <= MAX_PARTS and read_part is not None,
        f"'{where}' must be an object naming 1 to {MAX_PARTS} methods",
        source,
    )
    assert read_part is not None
    return {str(m): read_part(str(m), part, f"{where}.{m}") for m, part in data.items()}


def _fit(data: Any, k: int, source: str, version: int, read_part: ReadPart | None) -> RepeatFit:
    where = f"repeat_models.fits[{k}]"
    require(isinstance(data, dict), f"'{where}' must be an object", source)
    allowed = _FIT_KEYS | ({_PARTS_KEY} if version >= 2 else set())
    unknown = sorted(set(data) - allowed)
    require(not unknown, f"'{where}' has unknown keys: {', '.join(map(str, unknown))}", source)
    require(set(data) >= _FIT_KEYS, f"'{where}' must give {', '.join(sorted(_FIT_KEYS))}", source)
    require(is_whole(data["seed"], 0, MAX_SEED), f"'{where}.seed' must be a whole number", source)
    calibration = calibration_from_dict(
        data["calibration"], source, MODEL_FORMAT_VERSION, f"{where}.calibration"
    )
    require(calibration is not None, f"'{where}.calibration' must be an object", source)
    assert calibration is not None
    return RepeatFit(
        int(data["seed"]),
        thresholds_from(data["thresholds"], source, f"{where}.thresholds"),
        ensemble_from(data["ensemble"], source, f"{where}.ensemble"),
        calibration,
        _parts(data[_PARTS_KEY], f"{where}.{_PARTS_KEY}", source, read_part)
        if _PARTS_KEY in data
        else {},
    )


def repeat_fits(
    model: Model, source: str, read_part: ReadPart | None = None
) -> tuple[RepeatFit, ...] | None:
    """The model's repeat fits, checked (None: the model keeps none); a malformed block is an
    ``InputError`` naming ``source``. ``read_part`` reads each method's part (the seams'
    ``read_repeat_part``, ``method_registry.repeat_fits_of``); without it a fit with parts is
    refused."""
    block = model.extra.get(REPEAT_MODELS_KEY)
    if block is None:
        return None
    require(isinstance(block, dict), f"'{REPEAT_MODELS_KEY}' must be an object", source)
    version = block.get("format_version")
    require(is_whole(version, 1, 10**6), f"'{REPEAT_MODELS_KEY}.format_version' is wrong", source)
    if version > REPEAT_MODELS_VERSION:
        raise InputError(
            f"the model's repeat fits have format version {version}, newer than this program "
            f"understands ({REPEAT_MODELS_VERSION}); update TAVeer Desktop to use it",
            source,
        )
    unknown = sorted(set(block) - _BLOCK_KEYS)
    require(not unknown, f"'{REPEAT_MODELS_KEY}' has unknown keys: {', '.join(unknown)}", source)
    fits = block.get("fits")
    require(
        isinstance(fits, list) and 1 <= len(fits) <= MAX_REPEATS,
        f"'{REPEAT_MODELS_KEY}.fits' must list 1 to {MAX_REPEATS} fits",
        source,
    )
    parsed = tuple(_fit(fit, k, source, version, read_part) for k, fit in enumerate(fits))
    require(
        len({tuple(sorted(fit.parts)) for fit in parsed}) == 1,
        f"'{REPEAT_MODELS_KEY}' fits must keep the same methods' parts",
        source,
    )
    seeds = [fit.seed for fit in parsed]
    require(
        all(a < b for a, b in pairwise(seeds)),
        f"'{REPEAT_MODELS_KEY}' seeds must rise as the validation's repeats' do",
        source,
    )
    return parsed
