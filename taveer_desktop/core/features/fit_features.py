"""What the population-fit check measures in a text: rates that tell a genre, not a writer.

``core/gate/population_fit.py`` asks whether a case's documents look like the documents of the
validation population (genre, register, era). It needs measures that move with the kind of text
and little with who wrote it or what it is about, and that are rates of something counted, so
that the sampling noise of a short text can be stated (a rate over ``n`` units varies by about
``p (1 - p) / n`` by chance alone). The features, each a count over a denominator:

- over the words: the commonest English function words (36 of them, all in the topic-agnostic
  lexicon: articles, prepositions, pronouns, auxiliaries; first- and second-person pronouns
  and tense mark register), the share of words in the lexicon, short (1-3 letters) and long
  (8 or more) words, capitalised and all-capital words, words holding a digit or an apostrophe,
  and sentences per word (the inverse of sentence length);
- over the characters: digits and the punctuation marks one by one, other symbols, and
  characters outside ASCII.

Topic words are left out by construction: no content word is counted. White space is not a
feature: line breaks and blank lines say how a file was saved (hard-wrapped, one paragraph per
line) more than what was written, and the methods themselves collapse white space. A text is
prepared once (``prepare``: normalised, paragraph breaks kept as one blank line, other white
space runs as one space); its length in characters is the prepared text's.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from taveer_desktop.core.features.text import normalise, sentence_spans, tokens_of_text

FUNCTION_WORDS = (
    "the", "of", "and", "to", "a", "in", "that", "is", "it", "for", "i", "you", "was", "with",
    "on", "as", "be", "this", "not", "are", "but", "have", "he", "by", "at", "his", "we",
    "they", "or", "which", "she", "her", "had", "will", "would", "can",
)  # fmt: skip
_WORD_CLASSES = (
    ("lexicon", "words of the topic-agnostic lexicon"),
    ("short", "short words (1-3 letters)"),
    ("long", "long words (8 letters or more)"),
    ("capitalised", "capitalised words"),
    ("all_caps", "words in capitals"),
    ("digit_words", "words with digits"),
    ("apostrophe_words", "words with an apostrophe (contractions, possessives)"),
    ("sentences", "sentence ends per word"),
)
_CHAR_CLASSES = (
    ("digits", "0123456789", "digits"),
    ("comma", ",", "commas"),
    ("full_stop", ".", "full stops"),
    ("semicolon", ";", "semicolons"),
    ("colon", ":", "colons"),
    ("question", "?", "question marks"),
    ("exclamation", "!", "exclamation marks"),
    ("double_quote", '"', "double quotation marks"),
    ("single_quote", "'", "apostrophes and single quotation marks"),
    ("brackets", "()", "brackets"),
    ("hyphen", "-", "hyphens"),
    ("dash", "\u2013\u2014", "dashes"),
    ("ellipsis", "\u2026", "ellipsis characters"),
    ("symbols", "/*#@$%&=+<>[]{}|\\~^_`", "symbols (/ * # @ $ % & = + < > [ ] { } | \\ ~ ^ _ `)"),
)
# added in the profile's version 2 (issue 30): more words that mark register (Biber's
# dimensions: first- and second-person reference, reporting, conditions, questions, past tense,
# modals of obligation and possibility, negation, hedges), counted after the version 1 features
# so that a version 1 profile judges exactly its own 59
REGISTER_WORDS = (
    "said", "me", "my", "your", "us", "our", "them", "their", "there", "if", "so", "what", "do",
    "did", "were", "been", "has", "could", "may", "must", "should", "shall", "no", "just", "very",
)  # fmt: skip
WORD_FEATURES = len(FUNCTION_WORDS) + len(_WORD_CLASSES)
V1_FEATURES = WORD_FEATURES + len(_CHAR_CLASSES) + 1  # the features of a version 1 profile
FEATURE_IDS: tuple[str, ...] = (
    tuple(f"word:{w}" for w in FUNCTION_WORDS)
    + tuple(f"words:{name}" for name, _ in _WORD_CLASSES)
    + tuple(f"chars:{name}" for name, _, _ in _CHAR_CLASSES)
    + ("chars:non_ascii",)
    + tuple(f"word:{w}" for w in REGISTER_WORDS)
)
FEATURE_LABELS: tuple[str, ...] = (
    tuple(f"uses of the word '{'I' if w == 'i' else w}'" for w in FUNCTION_WORDS)
    + tuple(label for _, label in _WORD_CLASSES)
    + tuple(label for _, _, label in _CHAR_CLASSES)
    + ("characters outside ASCII",)
    + tuple(f"uses of the word '{w}'" for w in REGISTER_WORDS)
)
N_FEATURES = len(FEATURE_IDS)
# the denominator of each feature: 0 the words, 1 the characters
DENOMINATOR = np.array(
    [0] * WORD_FEATURES + [1] * (V1_FEATURES - WORD_FEATURES) + [0] * len(REGISTER_WORDS),
    dtype=np.intp,
)

_FUNCTION_INDEX = {w: i for i, w in enumerate(FUNCTION_WORDS)}
_FUNCTION_INDEX.update({w: V1_FEATURES + i for i, w in enumerate(REGISTER_WORDS)})
_PARAGRAPH = re.compile(r"\n[^\S\n]*\n\s*")
_SPACE = re.compile(r"[^\S\n]+|\n")
_HAS_DIGIT = re.compile(r"\d")


def prepare(text: str) -> str:
    """Normalised text with paragraph breaks as one blank line and other white space as one
    space (so how a file was wrapped does not change what is counted)."""
    paragraphs = _PARAGRAPH.split(normalise(text).strip())
    return "\n\n".join(_SPACE.sub(" ", p).strip() for p in paragraphs if p.strip())


def cut(prepared: str, chars: int) -> str:
    """The first ``chars`` characters of a prepared text, ended at a word's end."""
    if len(prepared) <= chars:
        return prepared
    end = max(prepared.rfind(" ", 0, chars + 1), prepared.rfind("\n", 0, chars + 1))
    return prepared[: end if end > 0 else chars].rstrip()


def halves(prepared: str) -> tuple[str, str]:
    """A prepared text split at the word boundary nearest its middle."""
    middle = len(prepared) // 2
    after = prepared.find(" ", middle)
    before = prepared.rfind(" ", 0, middle)
    if after < 0 and before < 0:
        return prepared, ""
    split = before if after < 0 or (before >= 0 and middle - before < after - middle) else after
    return prepared[:split].rstrip(), prepared[split + 1 :].lstrip()


@dataclass(frozen=True)
class Counts:
    """The counts of one text: a numerator per feature and the two denominators."""

    numerators: np.ndarray  # float64, N_FEATURES
    words: int
    chars: int

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.numerators + other.numerators, self.words + other.words,
                      self.chars + other.chars)  # fmt: skip

    def denominators(self) -> np.ndarray:
        return np.where(DENOMINATOR == 0, float(self.words), float(self.chars))


def count(prepared: str, lexicon_words: frozenset[str]) -> Counts:
    """Count every feature in a prepared text (one tokenisation, one sentence split)."""
    numerators = np.zeros(N_FEATURES)
    tokens = tokens_of_text(prepared)
    types = Counter(t for t in tokens if t[0].isalnum())
    n_words = sum(types.values())
    base = len(FUNCTION_WORDS)
    lexicon = short = long = capitalised = all_caps = digit_words = apostrophe_words = 0
    for word, k in types.items():
        lowered = word.lower()
        index = _FUNCTION_INDEX.get(lowered)
        if index is not None:
            numerators[index] += k
        if lowered in lexicon_words:
            lexicon += k
        size = len(word)
        if size <= 3:
            short += k
        elif size >= 8:
            long += k
        if word[0].isupper():
            if size > 1 and word.isupper():
                all_caps += k
            else:
                capitalised += k
        if not word.isalpha():
            if _HAS_DIGIT.search(word):
                digit_words += k
            if "'" in word:
                apostrophe_words += k
    sentences = len(sentence_spans(prepared)) if n_words else 0
    numerators[base : base + len(_WORD_CLASSES)] = (
        lexicon, short, long, capitalised, all_caps, digit_words, apostrophe_words,
        min(sentences, n_words),
    )  # fmt: skip
    offset = WORD_FEATURES
    for index, (_, members, _) in enumerate(_CHAR_CLASSES):
        numerators[offset + index] = sum(prepared.count(c) for c in members)
    n_chars = len(prepared)
    numerators[V1_FEATURES - 1] = n_chars - len(prepared.encode("ascii", "ignore"))
    return Counts(numerators, n_words, n_chars)
