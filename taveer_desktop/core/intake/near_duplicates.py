"""Finding near-duplicate texts: the same writing under two names, edited, cut or quoted.

A population's texts must each have one author, and a case's own documents must not be among
them. Identical texts are found by their SHA-256; this module finds the texts that are *nearly*
the same (a post reposted with an edit, an article syndicated with a new first line, a letter
quoted whole inside another).

**The measure** (``containment``): each text is lower-cased, its white space collapsed, and cut
into overlapping character ``SHINGLE_CHARS``-grams ("shingles"), each reduced to a 64-bit
polynomial hash. Two texts share a shingle only where they share a run of ``SHINGLE_CHARS``
characters. Shingles that occur in many texts of the set (more than ``COMMON_SHARE`` of them,
and more than ``COMMON_MIN`` texts) are common phrases, not copying, and are not counted. The
containment of a pair is the share of the *shorter* text's (rarer) shingles that the longer one
holds, so a text quoted whole inside a longer one scores near 1 as well as a copy does, while a
small edit only removes the shingles that cross it. A pair is a near-duplicate at containment
``NEAR_DUPLICATE`` or more.

Why these numbers (docs/validation.md, "Near-duplicate texts", measured on the shared corpora):
texts by different writers of one site or one news desk share at most a few per cent of their
12-character shingles, whereas a copy with one word in ten changed keeps about half of them.

All pairs are compared at once: every text's shingles are sorted with the text's index, runs of
the same shingle give the pairs that share it, and the pairs are counted with numpy — no
all-pairs loop, so a population of thousands of texts takes a second or two. Only a fixed
quarter of the shingles is kept (``SAMPLE_BITS``), so a population of 5,000 texts of 3,000
characters holds about 4 million hashes, not 15 million.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SHINGLE_CHARS = 12
NEAR_DUPLICATE = 0.4  # the share of the shorter text's shingles found in the other
COMMON_SHARE = 0.05
COMMON_MIN = 20
MIN_SHINGLES = 20  # a text with fewer (kept) shingles, about 90 characters, is too short to judge
_BASE = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: spreads the hash over the top bits
SAMPLE_BITS = 2  # one shingle in 2**SAMPLE_BITS is kept, the same ones in every text
_SPACE = re.compile(r"\s+")


def shingles(text: str) -> np.ndarray:
    """The distinct 64-bit hashes of a text's character shingles (sorted), a fixed quarter of
    them (those whose mixed hash has ``SAMPLE_BITS`` leading zero bits: the same shingle is kept
    or dropped in every text, so shares between texts are estimated without bias, with a
    quarter of the memory)."""
    flat = _SPACE.sub(" ", text.casefold()).strip()
    codes = np.frombuffer(flat.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    n = len(codes) - SHINGLE_CHARS + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    values = codes.astype(np.uint64)
    hashes = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for offset in range(SHINGLE_CHARS):
            hashes = hashes * _BASE + values[offset : offset + n]
        hashes = hashes * _MIX
    return np.unique(hashes[(hashes >> np.uint64(64 - SAMPLE_BITS)) == 0])


@dataclass(frozen=True)
class NearPair:
    """Two texts (indices into the sequence given) and the containment between them."""

    first: int
    second: int
    containment: float


def near_duplicate_pairs(
    fingerprints: Sequence[np.ndarray], threshold: float = NEAR_DUPLICATE
) -> list[NearPair]:
    """Every pair of texts whose containment is ``threshold`` or more, most alike first."""
    sizes = np.array([len(f) for f in fingerprints], dtype=np.int64)
    if len(fingerprints) < 2 or not sizes.any():
        return []
    hashes = np.concatenate(list(fingerprints))
    owners = np.repeat(np.arange(len(fingerprints), dtype=np.int64), sizes)
    order = np.lexsort((owners, hashes))
    hashes, owners = hashes[order], owners[order]
    starts = np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]])
    counts = np.diff(np.r_[starts, len(hashes)])
    limit = max(COMMON_MIN, int(COMMON_SHARE * len(fingerprints)))
    common = counts > limit
    # each text's count of rare shingles: what containment is a share of
    rare_of = np.repeat(~common, counts)
    rare_sizes = np.bincount(owners[rare_of], minlength=len(fingerprints))
    shared = (counts >= 2) & ~common
    pair_codes: list[np.ndarray] = []
    n = np.int64(len(fingerprints))
    for size in np.unique(counts[shared]):
        run_starts = starts[shared & (counts == size)]
        members = owners[run_starts[:, None] + np.arange(size)]  # (runs, size), sorted
        for i in range(int(size)):
            for j in range(i + 1, int(size)):
                pair_codes.append(members[:, i] * n + members[:, j])
    if not pair_codes:
        return []
    codes, together = np.unique(np.concatenate(pair_codes), return_counts=True)
    first, second = codes // n, codes % n
    smaller = np.minimum(rare_sizes[first], rare_sizes[second])
    containment = together / np.maximum(smaller, 1)
    keep = (containment >= threshold) & (smaller >= MIN_SHINGLES)
    pairs = [
        NearPair(int(a), int(b), float(c))
        for a, b, c in zip(first[keep], second[keep], containment[keep], strict=True)
    ]
    return sorted(pairs, key=lambda p: (-p.containment, p.first, p.second))


def containment_with(fingerprint: np.ndarray, others: Sequence[np.ndarray]) -> np.ndarray:
    """The containment of one text with each of ``others`` (all shingles counted)."""
    result = np.zeros(len(others))
    for index, other in enumerate(others):
        smaller = min(len(fingerprint), len(other))
        if smaller >= MIN_SHINGLES:
            shared = len(np.intersect1d(fingerprint, other, assume_unique=True))
            result[index] = shared / smaller
    return result
