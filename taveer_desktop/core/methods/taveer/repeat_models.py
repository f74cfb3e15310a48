"""The ``repeat_models`` block of a validated model file: each repeat's own fit, read strictly.

A validation repeats its trials and cross-validation with seeds seed, seed + 1, … and fits the
final model on all repeats' trials (``core/validation/validation.py``). Beside it the model keeps
what each repeat alone would have given (``core/validation/repeat_fits.py`` fits it): TAVeer's
thresholds, ensemble and calibration learned on that repeat's trials, the calibration bounded by
the ELUB of the repeat's cross-validated ratios as the final model's is by all of them. A
verification asks the stated method's seam for the case's ratio under each
(``MethodSeam.repeat_case_ratio``) to see whether its direction depends on the seed
(``core/calibration/repeat_agreement.py``).

The block is optional (a model file written before it, or by ``taveer train``, has none: the
check is then said to be not possible), versioned (``format_version`` 1; a newer one is refused
with a plain message), capped at ``MAX_REPEATS`` fits, and read strictly: an unknown key, a
threshold outside [0, D_MAX], an unreadable calibration or seeds out of order refuses
the whole file, as every other part of a model does.

    "repeat_models": {"format_version": 1,
                      "fits": [{"seed": 0, "thresholds": {"F1": …, …}, "ensemble": ["F1", …],
                                "calibration": {…}}, …]}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.model_checks import calibration_from_dict, is_whole, require
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.methods.taveer.model_fields import (
    MODEL_FORMAT_VERSION,
    Model,
    ensemble_from,
    thresholds_from,
)
from taveer_desktop.core.trials.validation_settings import MAX_REPEATS

REPEAT_MODELS_KEY = "repeat_models"
REPEAT_MODELS_VERSION = 1
_BLOCK_KEYS = {"format_version", "fits"}
_FIT_KEYS = {"seed", "thresholds", "ensemble", "calibration"}
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class RepeatFit:
    """What one repeat of a validation learned on its own trials (TAVeer's part)."""

    seed: int
    thresholds: dict[str, float]
    ensemble: tuple[str, ...]
    calibration: Calibration

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "thresholds": {c: self.thresholds[c] for c in CATEGORY_IDS},
            "ensemble": list(self.ensemble),
            "calibration": self.calibration.to_dict(),
        }


def repeat_models_block(fits: Sequence[RepeatFit]) -> dict[str, Any]:
    """The model file's ``repeat_models`` entry (to merge into ``Model.extra``)."""
    if not 1 <= len(fits) <= MAX_REPEATS:
        raise ValueError(f"1 to {MAX_REPEATS} repeat fits, not {len(fits)}")
    return {
        REPEAT_MODELS_KEY: {
            "format_version": REPEAT_MODELS_VERSION,
            "fits": [fit.to_dict() for fit in fits],
        }
    }


def _fit(data: Any, k: int, source: str) -> RepeatFit:
    where = f"repeat_models.fits[{k}]"
    require(isinstance(data, dict), f"'{where}' must be an object", source)
    unknown = sorted(set(data) - _FIT_KEYS)
    require(not unknown, f"'{where}' has unknown keys: {', '.join(map(str, unknown))}", source)
    require(set(data) == _FIT_KEYS, f"'{where}' must give {', '.join(sorted(_FIT_KEYS))}", source)
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
    )


def repeat_fits(model: Model, source: str) -> tuple[RepeatFit, ...] | None:
    """The model's repeat fits, checked (None: the model keeps none); a malformed block is an
    ``InputError`` naming ``source``."""
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
    parsed = tuple(_fit(fit, k, source) for k, fit in enumerate(fits))
    seeds = [fit.seed for fit in parsed]
    require(
        all(a < b for a, b in pairwise(seeds)),
        f"'{REPEAT_MODELS_KEY}' seeds must rise as the validation's repeats' do",
        source,
    )
    return parsed
