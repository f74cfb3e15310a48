"""The eleven TAVeer feature categories F1–F11 and their extraction from one document.

F1–F3  punctuation n-grams (n = 1, 2, 3) over the punctuation characters of a sentence
F4     TA sentence starters and clause starters (", so", "; however")
F5     TA sentence endings
F6–F9  TA token n-grams (n = 1..4), every token a lexicon entry or a punctuation token
F10–F11 masked token n-grams (n = 3, 4): exactly one topic word, shown as "#"

All n-grams are taken within a sentence, never across sentences. A document's features are
absolute counts per category; the known side of a case adds up the counts of every known
document (the profile), which equals the features of their concatenation because no feature
crosses a sentence, and so none crosses a document.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from taveer_desktop.core.lexicon import Lexicon
from taveer_desktop.core.text import (
    PUNCTUATION_PATTERN,
    Sentence,
    collapse_whitespace,
    lower_preserving_length,
    normalise,
    split_sentences,
)

CATEGORY_IDS: tuple[str, ...] = tuple(f"F{i}" for i in range(1, 12))
CATEGORY_NAMES: dict[str, str] = {
    "F1": "Punctuation 1-grams",
    "F2": "Punctuation 2-grams",
    "F3": "Punctuation 3-grams",
    "F4": "TA sentence and clause starters",
    "F5": "TA sentence endings",
    "F6": "TA token 1-grams",
    "F7": "TA token 2-grams",
    "F8": "TA token 3-grams",
    "F9": "TA token 4-grams",
    "F10": "TA masked token 3-grams",
    "F11": "TA masked token 4-grams",
}
MASK = "#"
LITERAL_HASH = "\\#"  # a "#" written in the text, told apart from the mask in F4–F11
_LITERAL_ESCAPES = {MASK: LITERAL_HASH}
CLAUSE_MARKS = (",", ";")
_MASKED = "\x01"  # internal stand-in for a topic word (a literal "#" in the text stays "#")
_BREAK = "\x00"  # internal sentence separator; no n-gram may contain it


def category_index(category: str) -> int:
    """0-based position of a category id such as ``"F7"``."""
    try:
        return CATEGORY_IDS.index(category)
    except ValueError:
        raise ValueError(f"unknown feature category {category!r} (use F1..F11)") from None


@dataclass(frozen=True)
class DocumentFeatures:
    """Feature counts of one document (or of a profile of several) per category."""

    counts: dict[str, dict[str, int]]
    n_sentences: int
    n_chars: int

    def total(self, category: str) -> int:
        """Number of feature occurrences of a category."""
        return sum(self.counts[category].values())

    @staticmethod
    def combine(parts: Iterable[DocumentFeatures]) -> DocumentFeatures:
        """The profile of several documents: counts added up category by category."""
        parts = list(parts)
        if not parts:
            raise ValueError("a profile needs at least one document")
        if len(parts) == 1:
            return parts[0]
        counts: dict[str, dict[str, int]] = {}
        for category in CATEGORY_IDS:
            total: Counter[str] = Counter()
            for part in parts:
                total.update(part.counts[category])
            counts[category] = dict(total)
        return DocumentFeatures(
            counts=counts,
            n_sentences=sum(p.n_sentences for p in parts),
            n_chars=sum(p.n_chars for p in parts),
        )


def _is_word(token: str) -> bool:
    return token == _MASKED or token[0].isalnum()


def _starters_and_endings(stream: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """F4 (first word of a sentence, or "," / ";" + the next word) and F5 (last word), each
    counted only when it is a lexicon entry; leading and trailing punctuation is skipped."""
    starters: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    n = len(stream)
    start = 0
    while start < n:
        try:
            end = stream.index(_BREAK, start)
        except ValueError:
            end = n
        sentence = stream[start:end]
        start = end + 1
        first = next((t for t in sentence if _is_word(t)), None)
        if first is None:
            continue
        if first != _MASKED:
            starters[first] += 1
        last = next(t for t in reversed(sentence) if _is_word(t))
        if last != _MASKED:
            endings[last] += 1
    for i in [i for i, t in enumerate(stream) if t == "," or t == ";"]:
        following = stream[i + 1] if i + 1 < n else _BREAK
        if following != _BREAK and following != _MASKED and following[0].isalnum():
            starters[f"{stream[i]} {following}"] += 1
    return dict(starters), dict(endings)


def _token_ngram_categories(stream: list[str]) -> dict[str, dict[str, int]]:
    """F6–F11: n-grams of the masked token stream that contain no sentence separator."""
    out: dict[str, dict[str, int]] = {c: {} for c in ("F6", "F7", "F8", "F9", "F10", "F11")}
    plain = {1: "F6", 2: "F7", 3: "F8", 4: "F9"}
    masked = {3: "F10", 4: "F11"}
    for n in (1, 2, 3, 4):
        grams = Counter(zip(*(stream[i:] for i in range(n)), strict=False))
        for gram, count in grams.items():
            if _BREAK in gram:
                continue
            n_masked = gram.count(_MASKED)
            if n_masked == 0:
                out[plain[n]][" ".join(gram)] = count
            elif n_masked == 1 and n in masked:
                out[masked[n]][" ".join(gram).replace(_MASKED, MASK)] = count
    return out


def _punctuation_ngram_categories(joined: str) -> dict[str, dict[str, int]]:
    """F1–F3 from the punctuation characters of all sentences, separated by ``_BREAK``."""
    unigrams = Counter(joined)
    unigrams.pop(_BREAK, None)
    bigram_iter = map(operator.add, joined, joined[1:])
    bigrams = Counter(bigram_iter)
    trigrams = Counter(map(operator.add, map(operator.add, joined, joined[1:]), joined[2:]))
    return {
        "F1": dict(unigrams),
        "F2": {k: v for k, v in bigrams.items() if _BREAK not in k},
        "F3": {k: v for k, v in trigrams.items() if _BREAK not in k},
    }


def prepare_text(text: str) -> str:
    """The normalised text that sentence offsets and feature extraction refer to."""
    return normalise(text).replace(_BREAK, " ").replace(_MASKED, " ")


def _count_sentences(text: str, sentences: list[Sentence], lexicon: Lexicon) -> dict:
    """Counts per category of the given sentences of a prepared text."""
    joined = collapse_whitespace(
        lower_preserving_length(_BREAK.join(s.text_of(text) for s in sentences))
    )
    entries = lexicon.categories_of
    stream = [
        t if t in entries else _MASKED if t[0].isalnum() else _LITERAL_ESCAPES.get(t, t)
        for t in lexicon.tokens(joined)
    ]
    counts = _punctuation_ngram_categories("".join(PUNCTUATION_PATTERN.findall(joined)))
    counts["F4"], counts["F5"] = _starters_and_endings(stream)
    counts.update(_token_ngram_categories(stream))
    return {c: counts[c] for c in CATEGORY_IDS}


def extract_features(text: str, lexicon: Lexicon) -> DocumentFeatures:
    """Counts of every feature of every category F1–F11 in one raw document.

    The whole document is processed at once: its sentences are joined by an internal separator
    that no feature may contain, which keeps every n-gram inside its sentence.
    """
    text = prepare_text(text)
    sentences = split_sentences(text)
    return DocumentFeatures(
        counts=_count_sentences(text, sentences, lexicon),
        n_sentences=len(sentences),
        n_chars=len(text),
    )


def extract_sentence_features(text: str, lexicon: Lexicon) -> list[dict[str, dict[str, int]]]:
    """Counts per category of each sentence on its own (they add up to the document's)."""
    text = prepare_text(text)
    return [_count_sentences(text, [sentence], lexicon) for sentence in split_sentences(text)]
