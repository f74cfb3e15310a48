"""A document as integer streams, from which the features of any run of sentences are counted.

``encode_document`` prepares the text (normalisation), splits it into sentences, lower-cases and
tokenises all of it with the lexicon's compiled regular expression in one pass, and keeps two
streams of 15-bit ids (``feature_codes``) with one break between sentences: the tokens (lexicon
entries, punctuation, the mask for any other word) and the punctuation characters. A
``CodedDocument`` then counts the features of sentences ``i..j`` by slicing those streams —
for the whole document, for one sentence (resampling), or for a validation trial cut at a
sentence boundary to a given length (``sentences_within``, ``prefix``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from taveer_desktop.core.features.feature_codes import BREAK_ID, Codebook, codebook_for
from taveer_desktop.core.features.feature_counts import Streams, count_many
from taveer_desktop.core.features.feature_vectors import DocumentFeatures
from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.text import (
    lower_preserving_length,
    normalise,
    sentence_spans,
)

BREAK = "\x00"  # sentence separator in the joined text; the tokenizer makes it one token
_MASKED = "\x01"  # reserved: never left in a prepared text
_WORD_OR_SPACE = re.compile(r"[\w\s]+")


def punctuation_of(prepared: str) -> str:
    """The punctuation characters of a prepared text, in order (``[^\\w\\s]`` and "_").

    "_" is a word character to the regular expression but punctuation to the method, so it is
    parked on ``_MASKED`` (never present in a prepared text) while the rest is removed."""
    if "_" not in prepared:
        return _WORD_OR_SPACE.sub("", prepared)
    return _WORD_OR_SPACE.sub("", prepared.replace("_", _MASKED)).replace(_MASKED, "_")


def prepare_text(text: str) -> str:
    """The normalised text that sentence offsets and feature extraction refer to."""
    return normalise(text).replace(BREAK, " ").replace(_MASKED, " ")


def _segment_starts(ids: np.ndarray, n_sentences: int) -> np.ndarray:
    """Index of each sentence's first id, plus one past the end (``n_sentences + 1`` values)."""
    breaks = (ids == BREAK_ID).nonzero()[0]
    if n_sentences == 0:
        return np.zeros(1, dtype=np.intp)
    assert len(breaks) == n_sentences - 1, "one break between consecutive sentences"
    return np.concatenate(([0], breaks + 1, [len(ids) + 1]))


class CodedDocument:
    """A prepared document's sentences as id streams (see the module docstring)."""

    def __init__(
        self,
        token_ids: np.ndarray,
        char_ids: np.ndarray,
        spans: list[tuple[int, int]],
        n_chars: int,
        codebook: Codebook,
        text: str = "",
    ) -> None:
        self.text = text  # the prepared text the spans point into (methods reading characters)
        self.token_ids = token_ids  # uint64, sentences separated by BREAK_ID
        self.char_ids = char_ids  # uint64 punctuation characters, separated likewise
        self.spans = spans  # (start, end) of each sentence in the prepared text
        self.n_chars = n_chars  # length of the prepared text
        self.codebook = codebook

    @property
    def n_sentences(self) -> int:
        return len(self.spans)

    @cached_property
    def sentence_spans(self) -> np.ndarray:
        """(n_sentences, 2) start and end offsets of the sentences in the prepared text."""
        return np.array(self.spans, dtype=np.int64).reshape(-1, 2)

    @cached_property
    def token_starts(self) -> np.ndarray:
        """Offset of each sentence's first token, plus one past the end."""
        return _segment_starts(self.token_ids, self.n_sentences)

    @cached_property
    def char_starts(self) -> np.ndarray:
        """Offset of each sentence's first punctuation character, plus one past the end."""
        return _segment_starts(self.char_ids, self.n_sentences)

    def _check(self, first: int, stop: int) -> None:
        if not 0 <= first <= stop <= self.n_sentences:
            raise IndexError(f"sentences {first}..{stop} of {self.n_sentences}")

    def features(self, first: int = 0, stop: int | None = None) -> DocumentFeatures:
        """Counts of sentences ``first .. stop - 1`` (all by default).

        For the whole document ``n_chars`` is the prepared text's length; for a run of
        sentences it is the length from the first sentence's start to the last one's end.
        """
        return count_many([self.streams(first, stop)], self.codebook)[0]

    def streams(self, first: int = 0, stop: int | None = None) -> Streams:
        """The streams of sentences ``first .. stop - 1`` (all by default), to be counted."""
        stop = self.n_sentences if stop is None else stop
        self._check(first, stop)
        if first == 0 and stop == self.n_sentences:
            return Streams(self.token_ids, self.char_ids, stop, self.n_chars)
        if first == stop:
            return Streams(self.token_ids[:0], self.char_ids[:0], 0, 0)
        tokens = self.token_ids[self.token_starts[first] : self.token_starts[stop] - 1]
        chars = self.char_ids[self.char_starts[first] : self.char_starts[stop] - 1]
        n_chars = self.spans[stop - 1][1] - self.spans[first][0]
        return Streams(tokens, chars, stop - first, n_chars)

    def sentences_within(self, n_chars: int, first: int = 0) -> int:
        """How many whole sentences, from sentence ``first`` on, fit into ``n_chars``
        characters counted from that sentence's start (0 if not even the first does)."""
        self._check(first, first)
        if first == self.n_sentences:
            return 0
        ends = self.sentence_spans[first:, 1] - self.sentence_spans[first, 0]
        return int(np.searchsorted(ends, n_chars, side="right"))

    def prefix(self, n_chars: int) -> DocumentFeatures:
        """Counts of the longest run of whole sentences from the start within ``n_chars``."""
        return self.features(0, self.sentences_within(n_chars))


def encode_document(text: str, lexicon: Lexicon) -> CodedDocument:
    """Prepare, split and tokenise a raw document into integer streams."""
    text = prepare_text(text)
    sentences = sentence_spans(text)
    codebook = codebook_for(lexicon)
    joined = lower_preserving_length(BREAK.join([text[start:end] for start, end in sentences]))
    scanned = codebook.scan(joined)
    if scanned is None:
        token_ids = codebook.tokenise(joined)
        char_ids = codebook.character_ids(punctuation_of(joined))
    else:
        token_ids, char_ids = scanned
    return CodedDocument(token_ids, char_ids, sentences, len(text), codebook, text)


def profile_features(documents: Sequence[CodedDocument]) -> DocumentFeatures:
    """The profile of several documents, counted in one pass over their streams joined with a
    break between documents; equal to ``DocumentFeatures.combine`` of their features."""
    return count_many([profile_streams(documents)], _codebook_of(documents))[0]


def case_features(
    known: Sequence[CodedDocument], questioned: CodedDocument
) -> tuple[DocumentFeatures, DocumentFeatures]:
    """The known documents' profile and the questioned document's features (``count_many``)."""
    codebook = _codebook_of([*known, questioned])
    profile, features = count_many([profile_streams(known), questioned.streams()], codebook)
    return profile, features


def _codebook_of(documents: Sequence[CodedDocument]) -> Codebook:
    if not documents:
        raise ValueError("a profile needs at least one document")
    codebook = documents[0].codebook
    if any(d.codebook is not codebook for d in documents):
        raise ValueError("a profile's documents must be counted with the same lexicon")
    return codebook


def profile_streams(documents: Sequence[CodedDocument]) -> Streams:
    """The streams of several documents joined with a break between documents, with the
    offset of each document's first token (see ``Streams``)."""
    _codebook_of(documents)
    if len(documents) == 1:
        return documents[0].streams()
    gap = np.zeros(1, dtype=np.uint64)
    tokens, chars, starts, offset = [], [], [], 0
    for document in documents:
        starts.append(offset)
        offset += len(document.token_ids) + 1
        tokens += [document.token_ids, gap]
        chars += [document.char_ids, gap]
    return Streams(
        np.concatenate(tokens[:-1]),
        np.concatenate(chars[:-1]),
        sum(d.n_sentences for d in documents),
        sum(d.n_chars for d in documents),
        document_starts=np.array(starts),
    )
