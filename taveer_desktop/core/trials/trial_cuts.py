"""Cutting a validation trial's texts: the sentences of a document nearest a target length, the
known text from several documents, and the log-uniform draw of a target within the declared range
(``core/trials/validation_trials.py`` builds the trials with these; its docstring states the
protocol).
"""

from __future__ import annotations

import math
from typing import TypeAlias

import numpy as np

from taveer_desktop.core.features.feature_stream import CodedDocument
from taveer_desktop.core.features.feature_vectors import DocumentFeatures
from taveer_desktop.core.trials.validation_settings import MIN_LENGTH_SHARE, LengthRange

# the sentences first … stop - 1 of a document: the part of it a trial used
Cut: TypeAlias = tuple[CodedDocument, int, int]


def _run_chars(document: CodedDocument, first: int, count: int) -> int:
    if count == 0:
        return 0
    return document.spans[first + count - 1][1] - document.spans[first][0]


def nearest_cut(document: CodedDocument, n_chars: int, first: int = 0) -> int:
    """How many whole sentences from ``first`` come nearest to ``n_chars`` characters (at least
    one, and never past the document's end)."""
    within = document.sentences_within(n_chars, first)
    remaining = document.n_sentences - first
    if within >= remaining:
        return remaining
    if within == 0:
        return 1
    below = n_chars - _run_chars(document, first, within)
    above = _run_chars(document, first, within + 1) - n_chars
    return within + 1 if above < below else within


def questioned_cut(
    document: CodedDocument, n_chars: int | None, rng: np.random.Generator
) -> tuple[int, int]:
    """The sentences (first, stop) of a trial's questioned text: the whole document, or a run
    nearest to ``n_chars`` from a random sentence from which that much text remains."""
    if n_chars is None or document.n_chars <= n_chars:
        return 0, document.n_sentences
    ends = document.sentence_spans[:, 1]
    starts = document.sentence_spans[:, 0]
    room = np.flatnonzero(ends[-1] - starts >= n_chars)
    first = int(rng.choice(room)) if len(room) else 0
    return first, first + nearest_cut(document, n_chars, first)


def questioned_part(
    document: CodedDocument, n_chars: int | None, rng: np.random.Generator
) -> DocumentFeatures:
    """The features of ``questioned_cut``."""
    return document.features(*questioned_cut(document, n_chars, rng))


def known_cut(documents: list[CodedDocument], n_chars: int | None) -> list[Cut]:
    """The known text of a trial: the documents in the given order, the last one cut at the
    sentence boundary nearest to what remains of ``n_chars``; (document, first, stop) each."""
    if n_chars is None:
        return [(d, 0, d.n_sentences) for d in documents]
    parts, remaining = [], n_chars
    for document in documents:
        if remaining <= 0:
            break
        if document.n_chars <= remaining:
            parts.append((document, 0, document.n_sentences))
            remaining -= document.n_chars
        else:
            count = nearest_cut(document, remaining)
            parts.append((document, 0, count))
            remaining -= _run_chars(document, 0, count)
    return parts


def known_part(documents: list[CodedDocument], n_chars: int | None) -> DocumentFeatures:
    """The features of ``known_cut``."""
    return DocumentFeatures.combine(d.features(a, b) for d, a, b in known_cut(documents, n_chars))


def long_enough(chars: int, target: int | None) -> bool:
    return target is None or chars >= MIN_LENGTH_SHARE * target


def draw_target(
    declared: LengthRange | None, longest: float, rng: np.random.Generator
) -> int | None:
    """A target length log-uniform in [LO, min(HI, longest / 0.8)] (LO when the range is one
    length, or when the documents cannot give more; None for whole documents)."""
    if declared is None:
        return None
    lo, hi = declared
    if lo == hi:
        return lo
    top = min(float(hi), longest / MIN_LENGTH_SHARE)
    if top <= lo:
        return lo
    return max(lo, math.floor(math.exp(rng.uniform(math.log(lo), math.log(top)))))
