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
    TOKEN_PATTERN,
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


def map_sentence_tokens(sentence_text: str, lexicon: Lexicon) -> list[str]:
    """Tokens of one lower-cased sentence with phrases merged and topic words masked."""
    raw = TOKEN_PATTERN.findall(sentence_text)
    words = lexicon.words
    mapped = []
    for token, covered in lexicon.merge_phrases(raw):
        if covered > 1 or not token[0].isalnum() or token in words:
            mapped.append(token)
        else:
            mapped.append(_MASKED)
    return mapped


def _is_ta_word(token: str) -> bool:
    return token != _MASKED and token[0].isalnum()


def _starters_and_ending(seq: list[str], starters: Counter, endings: Counter) -> None:
    first_word = next((t for t in seq if t == _MASKED or t[0].isalnum()), None)
    if first_word is not None and first_word != _MASKED:
        starters[first_word] += 1
    for j in range(len(seq) - 1):
        if seq[j] in CLAUSE_MARKS and _is_ta_word(seq[j + 1]):
            starters[f"{seq[j]} {seq[j + 1]}"] += 1
    last_word = next((t for t in reversed(seq) if t == _MASKED or t[0].isalnum()), None)
    if last_word is not None and last_word != _MASKED:
        endings[last_word] += 1


def _token_ngram_categories(stream: list[str]) -> dict[str, dict[str, int]]:
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


def _punctuation_ngram_categories(parts: list[str]) -> dict[str, dict[str, int]]:
    joined = _BREAK.join(parts)
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


def extract_features(text: str, lexicon: Lexicon) -> DocumentFeatures:
    """Counts of every feature of every category F1–F11 in one raw document."""
    text = normalise(text).replace(_BREAK, " ").replace(_MASKED, " ")
    sentences = split_sentences(text)
    punctuation_parts: list[str] = []
    stream: list[str] = []
    starters: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for sentence in sentences:
        lowered = text[sentence.start : sentence.end].lower()
        punctuation_parts.append("".join(PUNCTUATION_PATTERN.findall(lowered)))
        seq = map_sentence_tokens(lowered, lexicon)
        _starters_and_ending(seq, starters, endings)
        stream.extend(seq)
        stream.append(_BREAK)
    counts = _punctuation_ngram_categories(punctuation_parts)
    counts["F4"] = dict(starters)
    counts["F5"] = dict(endings)
    counts.update(_token_ngram_categories(stream))
    return DocumentFeatures(
        counts={c: counts[c] for c in CATEGORY_IDS},
        n_sentences=len(sentences),
        n_chars=len(text),
    )
