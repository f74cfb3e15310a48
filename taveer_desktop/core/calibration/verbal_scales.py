"""Published verbal scales for likelihood ratios, in both directions.

An LR above 1 supports Hp (the author of the known documents wrote the questioned document);
below 1 it supports Hd (someone else from the relevant population wrote it), with the same words
applied to 1/LR. The lab chooses the scale in its settings; every output names the scale and can
print its table. The full sentences a person reads are made in ``presentation/``.

The band limits below were transcribed by us from the cited publications; a laboratory adopting
a scale should check them against its copy of the publication and its own reporting policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HP = "Hp (the author of the known documents wrote the questioned document)"
HD = "Hd (someone else wrote the questioned document)"


@dataclass(frozen=True)
class Band:
    lower: float  # LR ≥ lower (for the supported proposition, i.e. max(LR, 1/LR))
    upper: float  # LR < upper
    qualifier: str  # e.g. "moderate support"


@dataclass(frozen=True)
class VerbalScale:
    scale_id: str
    name: str
    citation: str
    bands: tuple[Band, ...]

    def band_for(self, strength: float) -> Band:
        for band in self.bands:
            if band.lower <= strength < band.upper:
                return band
        return self.bands[-1]

    def table_rows(self) -> list[tuple[str, str]]:
        """(LR range, wording) rows for printing the scale in outputs and reports."""
        rows = []
        for band in self.bands:
            upper = "∞" if math.isinf(band.upper) else f"{band.upper:,.0f}"
            rows.append((f"{band.lower:,.0f} – {upper}", band.qualifier))
        return rows


INF = math.inf
SCALES: dict[str, VerbalScale] = {
    "enfsi2015": VerbalScale(
        "enfsi2015",
        "ENFSI 2015",
        "ENFSI Guideline for Evaluative Reporting in Forensic Science (2015), verbal equivalents",
        (
            Band(1, 2, "no support for either proposition"),
            Band(2, 10, "weak support"),
            Band(10, 100, "moderate support"),
            Band(100, 1_000, "moderately strong support"),
            Band(1_000, 10_000, "strong support"),
            Band(10_000, 1_000_000, "very strong support"),
            Band(1_000_000, INF, "extremely strong support"),
        ),
    ),
    "nordgaard2012": VerbalScale(
        "nordgaard2012",
        "Nordgaard et al. 2012 (SKL)",
        "Nordgaard, Ansell, Drotz, Jaeger: Scale of conclusions for the value of evidence, "
        "Law, Probability and Risk 11 (2012) 1–24",
        (
            Band(1, 6, "support for neither proposition (level 0)"),
            Band(6, 100, "some support (level 1)"),
            Band(100, 6_000, "support (level 2)"),
            Band(6_000, 1_000_000, "strong support (level 3)"),
            Band(1_000_000, INF, "extremely strong support (level 4)"),
        ),
    ),
    "marquis2016": VerbalScale(
        "marquis2016",
        "Marquis et al. 2016",
        "Marquis, Biedermann, Cadola, Champod et al.: Discussion on how to implement a verbal "
        "scale in a forensic laboratory, Science & Justice 56 (2016) 364–370",
        (
            Band(1, 2, "uninformative: no support for either proposition"),
            Band(2, 10, "weak support"),
            Band(10, 100, "moderate support"),
            Band(100, 1_000, "moderately strong support"),
            Band(1_000, 10_000, "strong support"),
            Band(10_000, INF, "very strong support"),
        ),
    ),
}
DEFAULT_SCALE = "enfsi2015"


@dataclass(frozen=True)
class VerbalStatement:
    scale: str
    qualifier: str
    direction: (
        str  # the proposition supported: "same author" (Hp), "different authors" (Hd), "neither"
    )
    sentence: str


def describe(log10_lr: float, scale_id: str = DEFAULT_SCALE) -> VerbalStatement:
    """The verbal equivalent of an LR on a scale, in the direction the LR points."""
    try:
        scale = SCALES[scale_id]
    except KeyError:
        raise ValueError(f"unknown verbal scale {scale_id!r} (use {', '.join(SCALES)})") from None
    strength = 10.0 ** min(abs(log10_lr), 300.0)
    band = scale.band_for(strength)
    if band is scale.bands[0]:
        return VerbalStatement(
            scale.name,
            band.qualifier,
            "neither",
            f"The findings give {band.qualifier} ({scale.name}).",
        )
    direction, proposition = ("same author", HP) if log10_lr > 0 else ("different authors", HD)
    return VerbalStatement(
        scale.name,
        band.qualifier,
        direction,
        f"The findings give {band.qualifier} for {proposition} rather than the alternative "
        f"({scale.name}).",
    )
