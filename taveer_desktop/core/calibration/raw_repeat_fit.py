"""One repeat's own calibration of a method's raw score, kept in a model's ``repeat_models``.

LambdaG (λG) and each of the ten comparison systems state a ratio by calibrating a raw score of
the case. Beside the final model, a validated model keeps, for every repeat of its validation,
that calibration fitted on the repeat's trials alone and bounded by the ELUB of the repeat's
cross-validated ratios (one shape for all eleven methods; each method's package fits it:
``lambdag_validation.repeat_calibration``, ``comparison_calibration.repeat_calibration``). The
verification takes the case's raw score, which the final model measured, through each repeat's
calibration (``MethodSeam.repeat_case_ratio``) to see whether its direction depends on the seed.

    {"calibration": {…}}   (a calibration object as a model file holds it)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.calibration.model_checks import calibration_from_dict, require

_KEYS = {"calibration"}


@dataclass(frozen=True)
class RawRepeatFit:
    """A method's calibration of its raw score, fitted on one repeat's trials (see the module)."""

    calibration: Calibration

    def to_dict(self) -> dict[str, Any]:
        return {"calibration": self.calibration.to_dict()}

    def log10_lr(self, raw: float | None, lengths: tuple[int, int] | None) -> float | None:
        """The bounded log10 LR of a raw score at the (questioned, known) lengths its final
        calibration took it at (None: no score)."""
        if raw is None or not math.isfinite(raw):
            return None
        return float(self.calibration.log10_lr(raw, *(lengths or (None, None))))

    def bounds(self, questioned_chars: int) -> tuple[float | None, float | None]:
        cal = self.calibration
        return bound_at(cal.bands, questioned_chars, cal.min_log10_lr, cal.max_log10_lr)


def read_raw_repeat_fit(data: Any, source: str, where: str, version: int) -> RawRepeatFit:
    """One repeat's calibration read back, every value checked as a model's calibration is
    (``version``: the model format's); anything else refuses the file naming ``source``."""
    require(isinstance(data, dict), f"'{where}' must be an object", source)
    unknown = sorted(map(str, set(data) - _KEYS))
    require(not unknown, f"'{where}' has unknown keys: {', '.join(unknown)}", source)
    calibration = calibration_from_dict(
        data.get("calibration"), source, version, f"{where}.calibration"
    )
    require(calibration is not None, f"'{where}.calibration' must be an object", source)
    assert calibration is not None
    return RawRepeatFit(calibration)
