"""Where features occur in the questioned text: short excerpts for the report (pure, no Qt).

The engine's ``core.occurrences`` locates every occurrence of every feature of a category in
the prepared text with the extractor's own splitter and tokenizer (so the number found always
equals the feature's count). This module takes the first few occurrences of each wanted
feature and cuts a little context either side, for the report's Interpretation section.

Bounded for huge documents: the text is read in pieces that end at a paragraph break (a
sentence never spans two pieces), growing from ``FIRST_PIECE_CHARS``; reading stops once every
wanted feature has its excerpts, or after ``MAX_SCANNED_CHARS`` characters. A feature that
first occurs beyond that has no excerpt (its count, from the whole text, is unaffected).
Before, every occurrence of every feature of the whole text was located at once: 13 s and
gigabytes of memory for a 5-million-character document.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.occurrences import category_occurrences

CONTEXT_CHARS = 60
MAX_MATCH_CHARS = 200
FIRST_PIECE_CHARS = 40_000
MAX_SCANNED_CHARS = 400_000


@dataclass(frozen=True)
class Excerpt:
    """A feature occurrence: the matched text and its context (from the prepared text).

    ``parts`` are the spans of the feature's pieces relative to ``match`` (the punctuation
    marks of F1–F3, the tokens of F4–F11), so a renderer can mark just those.
    """

    before: str
    match: str
    after: str
    offset: int
    parts: tuple[tuple[int, int], ...] = ()


def _pieces(text: str, limit: int) -> Iterator[tuple[int, str]]:
    """(offset, piece) of ``text`` up to ``limit`` characters, cut at paragraph breaks."""
    start, size = 0, FIRST_PIECE_CHARS
    while start < min(len(text), limit):
        end = min(len(text), start + size, limit)
        if end < len(text):
            cut = text.rfind("\n\n", start + size // 2, end)
            if cut < 0:
                cut = text.rfind(". ", start + size // 2, end)
                cut = cut + 1 if cut >= 0 else -1
            end = cut if cut > start else end
        yield start, text[start:end]
        start, size = end, size * 2


def find_excerpts(
    text: str,
    lexicon: Lexicon,
    wanted: Mapping[str, Iterable[str]],
    per_feature: int = 2,
    context: int = CONTEXT_CHARS,
) -> dict[tuple[str, str], list[Excerpt]]:
    """Up to ``per_feature`` excerpts for each wanted (category, feature), in text order."""
    found: dict[tuple[str, str], list[Excerpt]] = {}
    for category, features in wanted.items():
        features = list(features)
        if not features:
            continue
        for feature in features:
            found[(category, feature)] = []
        for base, piece in _pieces(text, MAX_SCANNED_CHARS):
            missing = [f for f in features if len(found[(category, f)]) < per_feature]
            if not missing:
                break
            prepared, occurrences = category_occurrences(piece, lexicon, category)
            for feature in missing:
                excerpts = found[(category, feature)]
                for occurrence in occurrences.get(feature, [])[: per_feature - len(excerpts)]:
                    excerpts.append(_excerpt(prepared, occurrence, context, base))
    return found


def _excerpt(prepared: str, occurrence, context: int, base: int) -> Excerpt:
    start, end = occurrence.start, occurrence.end
    match = prepared[start:end]
    if len(match) > MAX_MATCH_CHARS:
        match = match[:MAX_MATCH_CHARS] + "…"
    parts = tuple((a - start, b - start) for a, b in occurrence.parts if b - start <= len(match))
    return Excerpt(
        prepared[max(0, start - context) : start],
        match,
        prepared[end : end + context],
        base + start,
        parts,
    )
