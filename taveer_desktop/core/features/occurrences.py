"""Where a feature occurs in a document: character spans for highlighting the evidence.

For one category, every occurrence of every feature is located in the prepared (normalised)
text that the features were extracted from, using the same sentence splitter, tokenizer and
lexicon; so the number of occurrences of a feature always equals its count in
``extract_features`` (tested on real documents). An occurrence lists the spans of its parts
(the punctuation characters of F1–F3, the tokens of F4–F11) and, for masked n-grams, the span
of the masked topic word.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.features.features import (
    CLAUSE_MARKS,
    LITERAL_HASH,
    MASK,
    prepare_text,
)
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.text import (
    PUNCTUATION_PATTERN,
    lower_preserving_length,
    split_sentences,
)

Span = tuple[int, int]
PUNCTUATION_N = {"F1": 1, "F2": 2, "F3": 3}
PLAIN_N = {"F6": 1, "F7": 2, "F8": 3, "F9": 4}
MASKED_N = {"F10": 3, "F11": 4}


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a feature: overall span, its parts, and the masked word if any."""

    start: int
    end: int
    parts: tuple[Span, ...]
    masked: Span | None = None


@dataclass(frozen=True)
class Token:
    """One token of a sentence as the features see it, with its span in the prepared text."""

    text: str  # as it appears in features: lexicon entry, punctuation, or MASK
    start: int
    end: int
    is_word: bool
    is_masked: bool


def _occurrence(tokens: list[Token]) -> Occurrence:
    masked = next(((t.start, t.end) for t in tokens if t.is_masked), None)
    return Occurrence(
        tokens[0].start, tokens[-1].end, tuple((t.start, t.end) for t in tokens), masked
    )


def sentence_tokens(lowered: str, start: int, end: int, lexicon: Lexicon) -> list[Token]:
    """The tokens of ``lowered[start:end]`` (one sentence of the lower-cased prepared text):
    lexicon words and phrases, punctuation characters, and every other word masked — the same
    tokens, in the same order, as the integer streams the features are counted from."""
    entries = lexicon.categories_of
    tokens = []
    for match in lexicon.token_pattern.finditer(lowered, start, end):
        raw = match.group(0)
        is_word = raw[0].isalnum()
        canonical = " ".join(raw.split())
        if canonical in entries:
            text, masked = canonical, False
        elif is_word:
            text, masked = MASK, True
        else:
            text, masked = (LITERAL_HASH if raw == MASK else raw), False
        tokens.append(Token(text, match.start(), match.end(), is_word, masked))
    return tokens


def _token_occurrences(
    category: str, tokens: list[Token], found: dict[str, list[Occurrence]]
) -> None:
    if category == "F4":
        first = next((t for t in tokens if t.is_word), None)
        if first is not None and not first.is_masked:
            found[first.text].append(_occurrence([first]))
        for mark, following in itertools.pairwise(tokens):
            if mark.text in CLAUSE_MARKS and following.is_word and not following.is_masked:
                found[f"{mark.text} {following.text}"].append(_occurrence([mark, following]))
    elif category == "F5":
        last = next((t for t in reversed(tokens) if t.is_word), None)
        if last is not None and not last.is_masked:
            found[last.text].append(_occurrence([last]))
    else:
        n = PLAIN_N.get(category) or MASKED_N[category]
        wanted_masks = 0 if category in PLAIN_N else 1
        for i in range(len(tokens) - n + 1):
            window = tokens[i : i + n]
            if sum(t.is_masked for t in window) == wanted_masks:
                found[" ".join(t.text for t in window)].append(_occurrence(window))


def categories_occurrences(
    text: str, lexicon: Lexicon, categories: Sequence[str]
) -> tuple[str, dict[str, dict[str, list[Occurrence]]]]:
    """The prepared text and, for each of ``categories``, every feature's occurrences in it;
    the text is prepared and split once, and each sentence tokenised once for all of them."""
    prepared = prepare_text(text)
    lowered = lower_preserving_length(prepared)
    found: dict[str, dict[str, list[Occurrence]]] = {c: defaultdict(list) for c in categories}
    token_categories = [c for c in categories if c not in PUNCTUATION_N]
    mark_categories = [c for c in categories if c in PUNCTUATION_N]
    for sentence in split_sentences(prepared):
        if mark_categories:
            marks = list(PUNCTUATION_PATTERN.finditer(lowered, sentence.start, sentence.end))
        for category in mark_categories:
            n = PUNCTUATION_N[category]
            for i in range(len(marks) - n + 1):
                window = marks[i : i + n]
                spans = tuple((m.start(), m.end()) for m in window)
                feature = "".join(m.group(0) for m in window)
                found[category][feature].append(Occurrence(spans[0][0], spans[-1][1], spans))
        if token_categories:
            tokens = sentence_tokens(lowered, sentence.start, sentence.end, lexicon)
            for category in token_categories:
                _token_occurrences(category, tokens, found[category])
    return prepared, {c: dict(f) for c, f in found.items()}


def category_occurrences(
    text: str, lexicon: Lexicon, category: str
) -> tuple[str, dict[str, list[Occurrence]]]:
    """The prepared text and, for every feature of ``category``, its occurrences in it."""
    prepared, found = categories_occurrences(text, lexicon, [category])
    return prepared, found[category]


def feature_occurrences(
    text: str, lexicon: Lexicon, category: str, feature: str
) -> tuple[str, list[Occurrence]]:
    """The prepared text and the occurrences of one feature in it."""
    prepared, found = category_occurrences(text, lexicon, category)
    return prepared, found.get(feature, [])
