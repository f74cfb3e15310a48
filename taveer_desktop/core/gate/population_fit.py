"""The population-fit check: do a case's documents look like the validation population's?

A validation tells how a method behaves on documents of one population (genre, register, era).
A conclusion may lean on it only if the case's documents are of that kind too. This module
answers with a conformal p-value (Vovk, Gammerman & Shafer, *Algorithmic Learning in a Random
World*): how many of the population's own documents are at least as unusual, by the same
measure, as the case's document. A document of the population itself gets a p-value at or below
``t`` in at most a share ``t`` of cases, whatever the distribution of the features.

- **What is measured** (``core/features/fit_features.py``): rates of function words, word classes
  and punctuation that mark a genre, not a writer or a topic.
- **The score** (nonconformity): per feature a z-score whose variance adds the sampling variance
  of a rate over the text's own ``n`` words or characters (``phi p (1 - p) / n``, ``phi`` the
  over-dispersion measured between the two halves of each population document) to the
  between-document variance, all on square roots of the rates (whose chance spread hardly
  depends on the rate, and which makes skewed rates nearly symmetric); the score is the mean
  squared z-score, each capped (at 4; at 3 in a version 1 profile: a text is unusual when many
  features are off, not when one rare mark happens to occur). docs/validation.md, "The
  population-fit check", says why this score and not a Mahalanobis distance (fitted on the
  calibration documents themselves, it flagged the population's own texts at three times the
  stated rate).
- **The calibration** is per length band (a Mondrian conformal predictor): a text of ``L``
  characters is compared with the population's documents cut to the longest band length at most
  ``L`` (whole documents for texts at least as long as the population's median), each scored
  with the population's figures computed without its author's documents (without the document
  alone in a version 1 profile). So a short text of the population's kind is not flagged for
  being short.
- **A case** has two parts: the questioned text, and the known texts counted together as one
  text (one writer's material; testing each would multiply the tests and judge each short
  document alone). The parts' p-values are combined by Fisher's method into the case's, which
  fails at ``p <= FIT_ALPHA`` (``core/gate/fit_result.py``, which also words the reasons). A part
  with no words cannot be judged; neither can any part when the population is too small to
  give a p-value that low.

The profile (``FitProfile.to_dict``) holds numbers only — no text — and goes into the validation
record; ``FitProfile.from_dict`` refuses anything malformed with one ``InputError``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.features import fit_features as ff
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.fit_profile_data import (
    FEATURES_OF_VERSION,
    PROFILE_VERSION,
    BandScores,
    profile_from_dict,
    profile_to_dict,
)
from taveer_desktop.core.gate.fit_result import (
    BONFERRONI,
    FISHER,
    FIT_ALPHA,
    MIN_DOCUMENTS_TO_FLAG,
    PART_ALPHA,
    PARTS,
    SHOWN_FEATURES,
    CaseFit,
    FeatureDeviation,
    PartFit,
    case_reason,
    fisher_p,
    fit_reasons,
    part_reason,
)
from taveer_desktop.core.ground.counts import count
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress

__all__ = [  # what a check found lives in ``core/gate/fit_result.py``; named here for callers
    "BONFERRONI",
    "FISHER",
    "FIT_ALPHA",
    "MIN_DOCUMENTS_TO_FLAG",
    "PARTS",
    "PART_ALPHA",
    "CaseCounts",
    "CaseFit",
    "FeatureDeviation",
    "FitProfile",
    "PartFit",
    "case_counts",
    "case_fit",
    "case_reason",
    "fisher_p",
    "fit_of_counts",
    "fit_profile",
    "fit_reasons",
    "part_reason",
]  # fmt: skip

MIN_PROFILE_DOCUMENTS = 3  # leave-one-out variances need at least three documents
MIN_DOCUMENT_WORDS = 20  # population documents with fewer words are left out
BAND_CHARS = (300, 600, 1200, 2400, 4800, 9600)
_DISPERSION_RANGE = (0.25, 100.0)
# each |z| is capped in the score: at 3 in version 1, at 4 in version 2 (chosen with issue 30's
# second design round, docs/validation.md "Measured power")
Z_CAP_OF_VERSION = {1: 3.0, 2: 4.0}
_MIN_HALF_WORDS = 10


@dataclass(frozen=True, eq=False)
class FitProfile:
    """What the population's documents look like, and how unusual their own documents score."""

    documents: int  # the documents used
    left_out: int  # documents given but not used (duplicates, fewer than MIN_DOCUMENT_WORDS)
    median_chars: int
    lexicon_sha256: str
    mean: np.ndarray  # per feature: the mean rate over the documents
    rate_floor: np.ndarray  # the rate used for sampling variance when the mean is lower
    between_var: np.ndarray  # the between-document variance of each rate
    dispersion: np.ndarray  # phi: sampling variance over the binomial one
    bands: tuple[BandScores, ...]  # calibration scores per length band, the whole band last
    version: int = PROFILE_VERSION  # 1: the first 59 features, each document left out alone

    def to_dict(self) -> dict[str, object]:
        return profile_to_dict(self)

    @classmethod
    def from_dict(cls, data: object, source: str) -> FitProfile:
        return cls(**profile_from_dict(data, source))

    def band_for(self, chars: int) -> BandScores:
        """The calibration band for a text of ``chars`` characters."""
        if chars >= self.median_chars:
            return self.bands[-1]
        below = [b for b in self.bands[:-1] if b.chars is not None and b.chars <= chars]
        if below:
            return below[-1]
        return self.bands[0]


def _rates(counts: ff.Counts) -> tuple[np.ndarray, np.ndarray]:
    """Square roots of the rates (their sampling variance hardly depends on the rate, and
    skewed rates become nearly symmetric) and the denominators."""
    denominators = counts.denominators()
    return np.sqrt(counts.numerators / np.maximum(denominators, 1.0)), denominators


def _z(rates: np.ndarray, n: np.ndarray, mean: np.ndarray, floor: np.ndarray,
       between: np.ndarray, dispersion: np.ndarray) -> np.ndarray:  # fmt: skip
    variance = between + dispersion * _sampling(mean, floor) / np.maximum(n, 1.0)
    return np.asarray((rates - mean) / np.sqrt(variance))


def _sampling(mean: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """The binomial variance of the square root of a rate over one unit: (1 - p) / 4."""
    return np.asarray((1.0 - np.maximum(mean**2, floor)) / 4.0)


def _score(z: np.ndarray, version: int) -> np.ndarray:
    """The nonconformity of each text (rows of ``z``): the mean squared z-score, each capped
    (``Z_CAP_OF_VERSION``: so it counts how many features are off more than how far the worst
    one is)."""
    cap = Z_CAP_OF_VERSION[version]
    return np.asarray(np.mean(np.minimum(np.abs(z), cap) ** 2, axis=-1))


def _round(values: np.ndarray) -> np.ndarray:
    """Six significant digits: what the record keeps (so a loaded profile scores the same)."""
    return np.array([float(f"{v:.6g}") for v in np.ravel(values)]).reshape(np.shape(values))


def fit_profile(
    documents: Sequence[str],
    lexicon: Lexicon | None = None,
    progress: Progress = NO_PROGRESS,
    authors: Sequence[str] | None = None,
    version: int = PROFILE_VERSION,
) -> FitProfile:
    """Measure the population's documents (one text each) and calibrate the check on them;
    ``authors`` (one per document) leaves each author's documents out together. ``version``
    1 makes the profile of the check before issue 30 (59 features, each document left out
    alone), for comparisons and tests of old records."""
    features = FEATURES_OF_VERSION[version]

    def measure(counts: ff.Counts) -> tuple[np.ndarray, np.ndarray]:
        rates, dens = _rates(counts)
        return rates[:features], dens[:features]

    lexicon = lexicon or default_lexicon()
    words = lexicon.words
    seen: set[str] = set()
    texts: list[str] = []
    groups: list[str] = []
    full: list[ff.Counts] = []
    parts: list[tuple[ff.Counts, ff.Counts]] = []
    for index, document in enumerate(documents):
        if index % 25 == 0:
            progress.step(index, len(documents), "measuring the population's documents")
        text = ff.prepare(document)
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        first, second = (ff.count(half, words) for half in ff.halves(text))
        if first.words + second.words < MIN_DOCUMENT_WORDS:
            continue
        texts.append(text)
        # the group left out with the document: its author (version 1: the document alone)
        grouped = authors is not None and version > 1
        groups.append(authors[index] if authors is not None and grouped else f"document {index}")
        full.append(first + second)
        parts.append((first, second))
    n = len(texts)
    if n < MIN_PROFILE_DOCUMENTS:
        raise InputError(
            f"the population has {count(n, 'usable document')} (of at least {MIN_DOCUMENT_WORDS} "
            f"words, each once); the population-fit check needs at least {MIN_PROFILE_DOCUMENTS}",
            "population",
        )
    rates, dens = (np.array(a) for a in zip(*(measure(c) for c in full), strict=True))
    floor = 1.0 / np.maximum(np.median(dens, axis=0), 1.0)
    # over-dispersion: how much the two halves of one document differ, over the binomial spread
    mean = rates.mean(axis=0)
    unit = _sampling(mean, floor)
    diff2 = np.zeros(features)
    expected = np.zeros(features)
    for first, second in parts:
        if min(first.words, second.words) < _MIN_HALF_WORDS:
            continue
        (ra, na), (rb, nb) = measure(first), measure(second)
        diff2 += (ra - rb) ** 2
        expected += unit * (1 / np.maximum(na, 1) + 1 / np.maximum(nb, 1))
    dispersion = np.clip(np.where(expected > 0, diff2 / np.where(expected > 0, expected, 1), 1.0),
                         *_DISPERSION_RANGE)  # fmt: skip
    # leave-one-author-out mean and between-document variance of every document
    total, squares, inverse_n = rates.sum(0), (rates**2).sum(0), (1 / np.maximum(dens, 1)).sum(0)
    out_sum, out_squares, out_inverse, out_n = _author_sums(groups, rates, dens, n)
    kept = n - out_n
    loo_mean = (total - out_sum) / kept
    loo_var = np.maximum(
        (squares - out_squares - kept * loo_mean**2) / np.maximum(kept - 1, 1), 0.0
    )
    loo_sampling = dispersion * _sampling(loo_mean, floor) * (inverse_n - out_inverse) / kept
    loo_between = np.maximum(loo_var - loo_sampling, 0.1 * loo_var) + 1e-12
    median_chars = int(np.median([len(t) for t in texts]))
    bands = []
    for chars in [c for c in BAND_CHARS if c < median_chars] + [None]:
        progress.check()
        if chars is None:
            band_rates, band_dens = rates, dens
        else:
            cut = [
                measure(ff.count(ff.cut(t, chars), words)) if len(t) > chars else (r, d)
                for t, r, d in zip(texts, rates, dens, strict=True)
            ]
            band_rates, band_dens = (np.array(a) for a in zip(*cut, strict=True))
        z = _z(band_rates, band_dens, loo_mean, floor, loo_between, dispersion)
        bands.append(BandScores(chars, tuple(np.sort(_round(_score(z, version))).tolist())))
    progress.step(len(documents), len(documents), "measuring the population's documents")
    all_between = max(n - 1, 1)
    between_var = rates.var(axis=0) * n / all_between - dispersion * unit * inverse_n / n
    between_var = np.maximum(between_var, 0.1 * rates.var(axis=0) * n / all_between) + 1e-12
    profile = FitProfile(
        documents=n,
        left_out=len(documents) - n,
        median_chars=median_chars,
        lexicon_sha256=lexicon.sha256,
        mean=mean,
        rate_floor=floor,
        between_var=between_var,
        dispersion=dispersion,
        bands=tuple(bands),
        version=version,
    )
    return FitProfile.from_dict(profile.to_dict(), "the population-fit profile")


def _author_sums(
    groups: Sequence[str], rates: np.ndarray, dens: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per document: the sums over its author's documents (rates, squares, 1 / n) and their
    count, the documents left out with it; an author holding nearly all of the population
    leaves out the document alone."""
    index = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    member = np.array([index[g] for g in groups])
    size = np.bincount(member, minlength=len(index))
    sums = np.zeros((len(index), rates.shape[1]))
    squares, inverse = np.zeros_like(sums), np.zeros_like(sums)
    np.add.at(sums, member, rates)
    np.add.at(squares, member, rates**2)
    np.add.at(inverse, member, 1 / np.maximum(dens, 1))
    alone = size[member] > n - MIN_PROFILE_DOCUMENTS

    def pick(group: np.ndarray, own: np.ndarray) -> np.ndarray:
        return np.where(alone[:, None], own, group[member])

    out_n = np.where(alone, 1, size[member])[:, None].astype(float)
    return (pick(sums, rates), pick(squares, rates**2), pick(inverse, 1 / np.maximum(dens, 1)),
            out_n)  # fmt: skip


def _part(profile: FitProfile, part: str, counts: ff.Counts) -> PartFit:
    smallest = 1.0 / (profile.documents + 1)
    if counts.words == 0:
        label = "questioned text has" if part == "questioned" else "known texts have"
        problem = (
            f"the {label} no words, so whether {_it(part)} like the population cannot be judged"
        )
        return PartFit(part, counts.chars, 0, None, smallest, (), problem)
    rates, dens = (values[: len(profile.mean)] for values in _rates(counts))  # its version's
    z = _z(rates, dens, profile.mean, profile.rate_floor, profile.between_var, profile.dispersion)
    order = np.argsort(-np.abs(z), kind="stable")[:SHOWN_FEATURES]
    furthest = tuple(
        FeatureDeviation(ff.FEATURE_IDS[i], ff.FEATURE_LABELS[i], float(rates[i]),
                         float(profile.mean[i]), round(float(z[i]), 2))
        for i in order
    )  # fmt: skip
    if profile.documents < MIN_DOCUMENTS_TO_FLAG:
        problem = (
            f"the population has {profile.documents} documents; at least {MIN_DOCUMENTS_TO_FLAG} "
            f"are needed for the check to find a text unlike them at the stated rate"
        )
        return PartFit(part, counts.chars, counts.words, None, smallest, furthest, problem)
    scores = profile.band_for(counts.chars).scores
    as_unusual = len(scores) - int(
        np.searchsorted(scores, float(_score(z, profile.version)), side="left")
    )
    p_value = (1 + as_unusual) / (profile.documents + 1)
    return PartFit(part, counts.chars, counts.words, p_value, smallest, furthest)


def _it(part: str) -> str:
    return "it is" if part == "questioned" else "they are"


@dataclass(frozen=True)
class CaseCounts:
    """The features of a case's two parts, counted once (the gate measures them with the rest
    of a case; ``fit_of_counts`` then judges them against any population's profile)."""

    questioned: ff.Counts
    known: ff.Counts | None  # the known texts together; None: no known text
    lexicon_sha256: str


def case_counts(
    questioned_text: str, known_texts: Sequence[str], lexicon: Lexicon | None = None
) -> CaseCounts:
    """Count the questioned text and the known texts (together) of a case."""
    lexicon = lexicon or default_lexicon()
    questioned = ff.count(ff.prepare(questioned_text), lexicon.words)
    known = None
    for text in known_texts:
        counts = ff.count(ff.prepare(text), lexicon.words)
        known = counts if known is None else known + counts
    return CaseCounts(questioned, known, lexicon.sha256)


def fit_of_counts(profile: FitProfile, counts: CaseCounts) -> CaseFit:
    """Judge a case's counted parts against the profile."""
    if counts.lexicon_sha256 != profile.lexicon_sha256:
        raise InputError(
            "the population-fit profile was made with another lexicon than the one given",
            "population-fit profile",
        )
    parts = [_part(profile, "questioned", counts.questioned)]
    if counts.known is not None:
        parts.append(_part(profile, "known", counts.known))
    return CaseFit(tuple(parts), profile.documents, profile_version=profile.version)


def case_fit(
    profile: FitProfile,
    questioned_text: str,
    known_texts: Sequence[str],
    lexicon: Lexicon | None = None,
) -> CaseFit:
    """Judge the questioned text and the known texts (counted together) against the profile."""
    return fit_of_counts(profile, case_counts(questioned_text, known_texts, lexicon))
