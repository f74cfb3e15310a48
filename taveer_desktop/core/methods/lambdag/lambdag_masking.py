"""Topic-agnostic masking for LambdaG without a part-of-speech tagger.

The published LambdaG (Nini, Halvani, Graner, Gherardi and Ishihara) models texts masked with
POSNoise, which needs a tagger. Here the masking is the project's own: the integer token streams
that TAVeer already counts from (``core/features/feature_stream.py``) keep every word and phrase of
the lexicon L_TA and every punctuation character, and every other word is already one placeholder
(``MASK_ID``). This module only turns such a stream into the alphabet LambdaG models, so no text
is tokenised again:

- ``BREAK_ID`` (0) still separates sentences; LambdaG models each sentence on its own;
- lexicon entries keep their ids (phrases are one token, as in TAVeer);
- punctuation characters below U+4000 keep their fixed ids (``0x4000 + code point``);
- any other word — a topic word, or a word that occurs only inside a lexicon phrase — becomes the
  one ``PLACEHOLDER``;
- rarer symbols, whose ids are handed out per process, become the one ``OTHER_SYMBOL``, so that
  masked streams mean the same in every process and can be stored in a model file.

Capitalisation and digits are not told apart (no word shape): the streams are lower-cased
before they are tokenised, and a number is a masked word like any other.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from taveer_desktop.core.features.feature_codes import (
    BREAK_ID,
    FIRST_ENTRY_ID,
    MASK,
    MASK_ID,
    PUNCTUATION_BASE,
    Codebook,
)
from taveer_desktop.core.features.feature_stream import CodedDocument

PLACEHOLDER = MASK_ID
OTHER_SYMBOL = PUNCTUATION_BASE - 1  # never an entry: the codebook keeps 256 ids free below
MASKED_DTYPE = np.uint16  # every masked id is below 0x8000


def masked_ids(document: CodedDocument, first: int = 0, stop: int | None = None) -> np.ndarray:
    """The masked ids of sentences ``first .. stop - 1`` (all by default), separated by
    ``BREAK_ID``; lexicon entries and punctuation kept, every other word the placeholder."""
    stop = document.n_sentences if stop is None else stop
    if not 0 <= first <= stop <= document.n_sentences:
        raise IndexError(f"sentences {first}..{stop} of {document.n_sentences}")
    if first == stop:
        return np.zeros(0, dtype=MASKED_DTYPE)
    ids = document.token_ids[document.token_starts[first] : document.token_starts[stop] - 1]
    return mask_ids(ids, document.codebook)


def masked_sentences(document: CodedDocument) -> list[np.ndarray]:
    """The masked ids of each sentence of a document (index i is sentence i, possibly empty)."""
    if document.n_sentences == 0:
        return []
    masked = mask_ids(document.token_ids, document.codebook)
    starts = document.token_starts
    return [masked[starts[i] : starts[i + 1] - 1] for i in range(document.n_sentences)]


def mask_ids(ids: np.ndarray, codebook: Codebook) -> np.ndarray:
    """Map a stream of token ids of ``codebook`` to the masked alphabet (see the module)."""
    ids = np.asarray(ids, dtype=np.int64)
    entries_end = FIRST_ENTRY_ID + len(codebook.entries)
    is_entry = (ids >= FIRST_ENTRY_ID) & (ids < entries_end)
    is_punctuation = ids >= PUNCTUATION_BASE
    out = np.full(len(ids), PLACEHOLDER, dtype=np.int64)
    out[is_entry | is_punctuation] = ids[is_entry | is_punctuation]
    out[ids == BREAK_ID] = BREAK_ID
    rare = (ids >= entries_end) & (ids < PUNCTUATION_BASE)
    if codebook.phrases is not None:
        low, high = codebook.phrases.part_range
        rare &= ~((ids >= low) & (ids < high))  # phrase words that are no entry: placeholder
    out[rare] = OTHER_SYMBOL
    return out.astype(MASKED_DTYPE)


def split_sentences(ids: np.ndarray) -> list[np.ndarray]:
    """The sentences of a masked stream (the runs between ``BREAK_ID``s; empty runs dropped)."""
    ids = np.asarray(ids, dtype=MASKED_DTYPE)
    if len(ids) == 0:
        return []
    cuts = np.flatnonzero(ids == BREAK_ID)
    starts = np.concatenate(([0], cuts + 1)).tolist()
    stops = np.concatenate((cuts, [len(ids)])).tolist()
    return [ids[a:b] for a, b in zip(starts, stops, strict=True) if b > a]


def join_sentences(sentences: Iterable[np.ndarray]) -> np.ndarray:
    """One masked stream from sentences, ``BREAK_ID`` between them."""
    parts: list[np.ndarray] = []
    gap = np.zeros(1, dtype=MASKED_DTYPE)
    for sentence in sentences:
        if parts:
            parts.append(gap)
        parts.append(np.asarray(sentence, dtype=MASKED_DTYPE))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=MASKED_DTYPE)


def is_kept(token_id: int, codebook: Codebook) -> bool:
    """Whether a masked id stands for itself (a lexicon entry or a punctuation character)."""
    return (
        FIRST_ENTRY_ID <= token_id < FIRST_ENTRY_ID + len(codebook.entries)
        or token_id >= PUNCTUATION_BASE
    )


def masked_token_text(token_id: int, codebook: Codebook) -> str:
    """How a masked id is shown: the entry or character, ``#`` for the placeholder."""
    if token_id == PLACEHOLDER:
        return MASK
    if token_id == OTHER_SYMBOL:
        return "¤"
    return codebook.token_text(int(token_id))
