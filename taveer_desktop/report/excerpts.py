"""Where features occur in the questioned text: short excerpts for the report (pure, no Qt).

The engine's ``core.occurrences`` locates every occurrence of every feature of a category in
the prepared text with the extractor's own splitter and tokenizer (so the number found always
equals the feature's count). This module takes the first few occurrences of each wanted
feature and cuts a little context either side, for section 6 of the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from taveer_desktop.core.lexicon import Lexicon
from taveer_desktop.core.occurrences import category_occurrences

CONTEXT_CHARS = 60
MAX_MATCH_CHARS = 200


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
        prepared, occurrences = category_occurrences(text, lexicon, category)
        for feature in features:
            excerpts = []
            for occurrence in occurrences.get(feature, [])[:per_feature]:
                start, end = occurrence.start, occurrence.end
                match = prepared[start:end]
                if len(match) > MAX_MATCH_CHARS:
                    match = match[:MAX_MATCH_CHARS] + "…"
                parts = tuple(
                    (a - start, b - start) for a, b in occurrence.parts if b - start <= len(match)
                )
                excerpts.append(
                    Excerpt(
                        prepared[max(0, start - context) : start],
                        match,
                        prepared[end : end + context],
                        start,
                        parts,
                    )
                )
            found[(category, feature)] = excerpts
    return found
