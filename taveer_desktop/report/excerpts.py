"""Where features occur in the questioned text: short excerpts for the report (pure, no Qt).

The engine counts features; a reader wants to see them in the text. ``find_excerpts`` walks the
questioned text sentence by sentence exactly as feature extraction does (same normalisation,
sentence splitting, lower-casing, whitespace collapsing and lexicon tokens, masked topic words
and the same rules for F1–F11), but keeps every token's offset in the text, so each wanted
feature is found where the engine counted it and shown with some context either side.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from taveer_desktop.core.features import LITERAL_HASH, MASK
from taveer_desktop.core.lexicon import Lexicon
from taveer_desktop.core.text import PUNCTUATION_PATTERN, normalise, split_sentences

_WHITESPACE = re.compile(r"\s+")
_MASKED = "\x01"
CONTEXT_CHARS = 60
MAX_MATCH_CHARS = 200
_NGRAM_SIZES = {"F6": 1, "F7": 2, "F8": 3, "F9": 4, "F10": 3, "F11": 4}
_PUNCT_SIZES = {"F1": 1, "F2": 2, "F3": 3}


@dataclass(frozen=True)
class Excerpt:
    """A feature occurrence: the matched text and its context (from the normalised text)."""

    before: str
    match: str
    after: str
    offset: int


class _Sentence:
    """One sentence lower-cased with white space collapsed, and a map back to text offsets."""

    def __init__(self, text: str, start: int, end: int):
        self.pieces: list[int] = []  # collapsed offset where each piece starts
        self.origins: list[int] = []  # text offset of the same piece
        parts: list[str] = []
        length = 0
        position = start
        for gap in [*_WHITESPACE.finditer(text, start, end), None]:
            piece_end = end if gap is None else gap.start()
            piece = text[position:piece_end].lower()
            if len(piece) != piece_end - position:  # lower() changed the length: go per char
                for offset, char in enumerate(text[position:piece_end]):
                    self._add(length, position + offset)
                    lowered = char.lower()
                    parts.append(lowered)
                    length += len(lowered)
            elif piece:
                self._add(length, position)
                parts.append(piece)
                length += len(piece)
            if gap is not None:
                self._add(length, gap.start())
                parts.append(" ")
                length += 1
                position = gap.end()
        self.text = "".join(parts)

    def _add(self, collapsed: int, origin: int) -> None:
        self.pieces.append(collapsed)
        self.origins.append(origin)

    def origin(self, collapsed: int) -> int:
        i = bisect.bisect_right(self.pieces, collapsed) - 1
        if i < 0:
            return self.origins[0] if self.origins else 0
        if collapsed > self.pieces[i] and self.text[self.pieces[i]] == " ":
            return self.origins[i]  # inside a collapsed run of white space
        return self.origins[i] + (collapsed - self.pieces[i])


def _symbol(token: str, lexicon: Lexicon) -> str:
    if token in lexicon.categories_of:
        return token
    if token[0].isalnum():
        return _MASKED
    return LITERAL_HASH if token == MASK else token


def _is_word(symbol: str) -> bool:
    return symbol == _MASKED or symbol[0].isalnum()


def _sentence_features(sentence: _Sentence, lexicon: Lexicon, categories: set[str]):
    """(category, feature, collapsed start, collapsed end) of every feature in one sentence."""
    spans = [(m.start(), m.end()) for m in lexicon.token_pattern.finditer(sentence.text)]
    tokens = [sentence.text[a:b] for a, b in spans]
    symbols = [_symbol(t, lexicon) for t in tokens]
    words = [i for i, s in enumerate(symbols) if _is_word(s)]
    if words:
        first, last = words[0], words[-1]
        if "F4" in categories and symbols[first] != _MASKED:
            yield "F4", symbols[first], spans[first][0], spans[first][1]
        if "F5" in categories and symbols[last] != _MASKED:
            yield "F5", symbols[last], spans[last][0], spans[last][1]
    if "F4" in categories:
        for i, symbol in enumerate(symbols[:-1]):
            following = symbols[i + 1]
            if symbol in (",", ";") and following != _MASKED and following[0].isalnum():
                yield "F4", f"{symbol} {following}", spans[i][0], spans[i + 1][1]
    for category, n in _NGRAM_SIZES.items():
        if category not in categories:
            continue
        masked = category in ("F10", "F11")
        for i in range(len(symbols) - n + 1):
            gram = symbols[i : i + n]
            if gram.count(_MASKED) != (1 if masked else 0):
                continue
            yield category, " ".join(gram).replace(_MASKED, MASK), spans[i][0], spans[i + n - 1][1]
    marks = [(m.group(0), m.start()) for m in PUNCTUATION_PATTERN.finditer(sentence.text)]
    for category, n in _PUNCT_SIZES.items():
        if category not in categories:
            continue
        for i in range(len(marks) - n + 1):
            yield (
                category,
                "".join(c for c, _ in marks[i : i + n]),
                marks[i][1],
                marks[i + n - 1][1] + 1,
            )


def find_excerpts(
    text: str,
    lexicon: Lexicon,
    wanted: Mapping[str, Iterable[str]],
    per_feature: int = 2,
    context: int = CONTEXT_CHARS,
) -> dict[tuple[str, str], list[Excerpt]]:
    """Up to ``per_feature`` excerpts for each wanted (category, feature), in text order.

    Stops reading as soon as every wanted feature has its excerpts.
    """
    remaining = {(c, f) for c, features in wanted.items() for f in features}
    found: dict[tuple[str, str], list[Excerpt]] = {key: [] for key in remaining}
    if not remaining:
        return found
    categories = {c for c, _ in remaining}
    norm = normalise(text).replace("\x00", " ").replace(_MASKED, " ")
    for span in split_sentences(norm):
        sentence = _Sentence(norm, span.start, span.end)
        for category, feature, start, end in _sentence_features(sentence, lexicon, categories):
            key = (category, feature)
            if key not in remaining:
                continue
            begin, finish = sentence.origin(start), sentence.origin(end - 1) + 1
            match = norm[begin:finish]
            if len(match) > MAX_MATCH_CHARS:
                match = match[:MAX_MATCH_CHARS] + "…"
            found[key].append(
                Excerpt(
                    norm[max(0, begin - context) : begin],
                    match,
                    norm[finish : finish + context],
                    begin,
                )
            )
            if len(found[key]) >= per_feature:
                remaining.discard(key)
        if not remaining:
            break
    return found
