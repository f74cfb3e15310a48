"""The population-fit profile as JSON: written compactly, read strictly.

The profile (``core/gate/population_fit.py``) is stored inside the hashed validation record, so it
is plain JSON of numbers — no text of the population — with a version that pins the feature list
of ``core/features/fit_features.py``. Reading refuses anything that is not exactly such a profile (a
wrong shape, a missing key, NaN or an infinity, a negative variance, sizes no population has)
with one ``InputError`` naming the source; nothing reaches the arithmetic unchecked. Every
version written so far is read (``FEATURES_OF_VERSION``); a newer one is refused in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.features import fit_features as ff
from taveer_desktop.core.ground.errors import InputError

if TYPE_CHECKING:
    from taveer_desktop.core.gate.population_fit import FitProfile

PROFILE_VERSION = 2
# the features each version measures: version 1 the first 59 (``fit_features.V1_FEATURES``);
# version 2 (issue 30) adds the register words and calibrates leaving each author out. A
# version 1 profile is still read and judges a case with its own 59 features, as it did.
FEATURES_OF_VERSION = {1: ff.V1_FEATURES, 2: ff.N_FEATURES}
MAX_DOCUMENTS = 1_000_000
MAX_BANDS = 16
MAX_CHARS = 10**9
_SHA256 = re.compile(r"[0-9a-f]{64}")
_KEYS = {
    "version", "documents", "left_out", "median_chars", "lexicon_sha256", "features", "mean",
    "rate_floor", "between_var", "dispersion", "bands",
}  # fmt: skip


@dataclass(frozen=True)
class BandScores:
    """The calibration of one length band: the population's documents cut to ``chars``
    characters (None: whole documents), each one's score, sorted ascending."""

    chars: int | None
    scores: tuple[float, ...]


def profile_to_dict(profile: FitProfile) -> dict[str, object]:
    """The profile as JSON-ready numbers (six significant digits), in its own version."""
    return {
        "version": profile.version,
        "documents": profile.documents,
        "left_out": profile.left_out,
        "median_chars": profile.median_chars,
        "lexicon_sha256": profile.lexicon_sha256,
        "features": FEATURES_OF_VERSION[profile.version],
        "mean": [float(f"{v:.6g}") for v in profile.mean],
        "rate_floor": [float(f"{v:.6g}") for v in profile.rate_floor],
        "between_var": [float(f"{v:.6g}") for v in profile.between_var],
        "dispersion": [float(f"{v:.6g}") for v in profile.dispersion],
        "bands": [{"chars": b.chars, "scores": list(b.scores)} for b in profile.bands],
    }


def _fail(message: str, source: str) -> InputError:
    return InputError(f"is not a usable population-fit profile: {message}", source)


def _integer(data: dict[str, Any], key: str, low: int, high: int, source: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"'{key}' must be a whole number from {low:,} to {high:,}", source)
    return value


def _numbers(value: object, what: str, length: int, source: str, *, low: float) -> np.ndarray:
    if not isinstance(value, list) or len(value) != length:
        raise _fail(f"'{what}' must be a list of {length:,} numbers", source)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise _fail(f"'{what}' holds something that is not a number", source)
    array = np.array(value, dtype=float)
    if not np.all(np.isfinite(array)):
        raise _fail(f"'{what}' holds a NaN or an infinity", source)
    if np.any(array < low):
        raise _fail(f"'{what}' holds a number below {low:g}", source)
    return array


def _bands(value: object, documents: int, source: str) -> tuple[BandScores, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_BANDS:
        raise _fail(f"'bands' must be a list of 1 to {MAX_BANDS} length bands", source)
    bands: list[BandScores] = []
    for index, band in enumerate(value):
        if not isinstance(band, dict) or set(band) != {"chars", "scores"}:
            raise _fail(f"band {index + 1} must hold exactly 'chars' and 'scores'", source)
        chars = band["chars"]
        last = index == len(value) - 1
        if last and chars is not None:
            raise _fail("the last band must be the whole documents ('chars': null)", source)
        if not last and (
            isinstance(chars, bool) or not isinstance(chars, int) or not 1 <= chars <= MAX_CHARS
        ):
            raise _fail(f"band {index + 1} must give its length in characters", source)
        if bands and bands[-1].chars is not None and chars is not None and chars <= bands[-1].chars:
            raise _fail("the bands' lengths must increase", source)
        scores = _numbers(band["scores"], f"bands[{index}].scores", documents, source, low=0.0)
        if np.any(np.diff(scores) < 0):
            raise _fail(f"the scores of band {index + 1} must be sorted", source)
        bands.append(BandScores(chars, tuple(float(v) for v in scores)))
    return tuple(bands)


def profile_from_dict(data: object, source: str) -> dict[str, Any]:
    """Check a profile read from JSON and return ``FitProfile``'s fields."""
    if not isinstance(data, dict):
        raise _fail("it is not a JSON object", source)
    missing, extra = _KEYS - set(data), set(data) - _KEYS
    if missing or extra:
        which = missing or extra
        raise _fail(f"{'missing' if missing else 'unknown'} keys {sorted(which)}", source)
    version = data["version"]
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or version not in FEATURES_OF_VERSION
    ):
        known = " or ".join(str(v) for v in FEATURES_OF_VERSION)
        raise _fail(f"version {version!r} is not {known} (made by a newer program?)", source)
    d = FEATURES_OF_VERSION[version]
    if data["features"] != d or isinstance(data["features"], bool):
        raise _fail(f"a version {version} profile must measure {d} features", source)
    documents = _integer(data, "documents", 1, MAX_DOCUMENTS, source)
    left_out = _integer(data, "left_out", 0, MAX_DOCUMENTS, source)
    median_chars = _integer(data, "median_chars", 1, MAX_CHARS, source)
    sha = data["lexicon_sha256"]
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        raise _fail("'lexicon_sha256' must be 64 lower-case hexadecimal digits", source)
    mean = _numbers(data["mean"], "mean", d, source, low=0.0)
    rate_floor = _numbers(data["rate_floor"], "rate_floor", d, source, low=0.0)
    between_var = _numbers(data["between_var"], "between_var", d, source, low=0.0)
    dispersion = _numbers(data["dispersion"], "dispersion", d, source, low=0.0)
    if np.any(mean > 1) or np.any(rate_floor > 1) or np.any(rate_floor <= 0):
        raise _fail("rates must lie between 0 and 1 (the floors above 0)", source)
    if np.any(between_var <= 0) or np.any(dispersion <= 0):
        raise _fail("variances and dispersions must be above 0", source)
    return {
        "version": version,
        "documents": documents,
        "left_out": left_out,
        "median_chars": median_chars,
        "lexicon_sha256": sha,
        "mean": mean,
        "rate_floor": rate_floor,
        "between_var": between_var,
        "dispersion": dispersion,
        "bands": _bands(data["bands"], documents, source),
    }
