"""Feature counting: streams of token ids and punctuation ids (``Streams``) counted into
sparse integer vectors (``feature_vectors.DocumentFeatures``).

Counting (``count_many``, ``count_per_sentence``) can count several streams — documents,
profiles, or every sentence of a document — each on its own in one numpy pass, listing each
category's features in the order they first occur (``first_occurrences``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from taveer_desktop.core.features.feature_codes import (
    BREAK_ID,
    CLAUSE_MARKS,
    ID_BITS,
    MASK_ID,
    PUNCTUATION_BASE,
    Codebook,
    category_key,
)
from taveer_desktop.core.features.feature_vectors import (
    N_CATEGORIES,
    DocumentFeatures,
    category_bounds,
)

_CATEGORY_KEYS = tuple(category_key(j) for j in range(N_CATEGORIES))
_SHIFT = np.uint64(ID_BITS)
_CLAUSE_MARK_IDS = tuple(PUNCTUATION_BASE + ord(mark) for mark in CLAUSE_MARKS)
_COUNTED_TOGETHER = 4  # items from which ``count_many`` counts in one pass
_PAD_WEIGHT = 2  # a break: no counted window holds one
# category bits of each row of windows: F1–F3 for punctuation; F6–F9 for token n-grams, but
# F10–F11 in the rows of 3 and 4 tokens while the masked n-grams are taken from them
_PUNCTUATION_KEYS = np.array(_CATEGORY_KEYS[0:3], dtype=np.uint64)[:, None]
_TOKEN_KEYS = np.array(_CATEGORY_KEYS[5:7] + _CATEGORY_KEYS[9:11], dtype=np.uint64)[:, None]
_MASKED_TO_PLAIN = np.array(
    [_CATEGORY_KEYS[9] ^ _CATEGORY_KEYS[7], _CATEGORY_KEYS[10] ^ _CATEGORY_KEYS[8]],
    dtype=np.uint64,
)[:, None]


def _windows(ids: np.ndarray, weights: np.ndarray, longest: int) -> tuple[np.ndarray, np.ndarray]:
    """Codes and weights of the windows of n = 1 … ``longest`` ids starting at every position,
    one row per n: a window's code has its first id in the highest lane, its weight is the sum
    of its ids' weights. The ids are padded at the end with breaks of weight ``_PAD_WEIGHT``, so
    that a window running past the end weighs more than any counted one."""
    n = len(ids)
    padded = np.zeros(n + longest - 1, dtype=np.uint64)
    padded[:n] = ids
    padded_weights = np.full(n + longest - 1, _PAD_WEIGHT, dtype=np.int8)
    padded_weights[:n] = weights
    codes = np.empty((longest, n), dtype=np.uint64)
    weight = np.empty((longest, n), dtype=np.int8)
    codes[0] = ids
    weight[0] = weights
    for k in range(1, longest):
        np.left_shift(codes[k - 1], _SHIFT, out=codes[k])
        codes[k] |= padded[k : n + k]
        np.add(weight[k - 1], padded_weights[k : n + k], out=weight[k])
    return codes, weight


def first_occurrences(
    codes: np.ndarray, groups: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Where each distinct code (each distinct (group, code) pair, with ``groups``) first
    occurs, in increasing order, and how often it occurs.

    One stable sort puts equal codes together in their order in ``codes``, so the first of
    each run is the first occurrence (groups must not decrease along equal codes).
    """
    n = len(codes)
    if not n:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64)
    perm = codes.argsort(kind="stable")
    ordered = codes[perm]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    del ordered  # a huge document's arrays are tens of megabytes each: keep few at a time
    if groups is not None:
        in_order = groups[perm]
        new[1:] |= in_order[1:] != in_order[:-1]
        del in_order
    starts = new.nonzero()[0]
    del new
    firsts = perm[starts]
    del perm
    counts = np.empty(len(starts), dtype=np.int64)
    np.subtract(starts[1:], starts[:-1], out=counts[:-1])
    counts[-1] = n - starts[-1]
    order = firsts.argsort()
    return firsts[order], counts[order]


def _starters_and_endings(
    t: np.ndarray, codebook: Codebook, document_starts: np.ndarray | None, positions: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray | None]:
    """F4 (first word of each sentence, then "," / ";" + the next word) and F5 (last word),
    lexicon entries only: a masked topic word is no starter or ending; with ``positions``
    also the position in ``t`` of each starter and each ending (else None)."""
    is_word = codebook.is_word[t.astype(np.intp)]
    word_at = is_word.nonzero()[0]
    changes = np.ones(len(word_at) + 1, dtype=bool)
    if len(word_at) > 1:
        sentence_of_word = (t == BREAK_ID).cumsum()[word_at]
        np.not_equal(sentence_of_word[1:], sentence_of_word[:-1], out=changes[1:-1])
    first_at = word_at[changes[:-1]]
    last_at = word_at[changes[1:]]
    firsts, lasts = t[first_at], t[last_at]
    comma, semicolon = _CLAUSE_MARK_IDS
    head, following = t[:-1], t[1:]
    clause = ((head == comma) | (head == semicolon)) & is_word[1:] & (following != MASK_ID)
    clause_codes = (head[clause] << _SHIFT) | following[clause]
    kept = firsts != MASK_ID
    starters = np.concatenate((firsts[kept], clause_codes))
    several = document_starts is not None and len(document_starts) > 1
    starters_at = endings_at = None
    if positions or several:
        starters_at = np.concatenate((first_at[kept], clause.nonzero()[0]))
    if several:
        assert document_starts is not None and starters_at is not None  # as several says
        # a profile lists each document's sentence starters, then its clause starters
        document = document_starts.searchsorted(starters_at, side="right")
        kind = np.repeat([0, 1], [int(kept.sum()), len(clause_codes)])
        order = (document * 2 + kind).argsort(kind="stable")
        starters, starters_at = starters[order], starters_at[order]
    ending = lasts != MASK_ID
    if positions:
        endings_at = last_at[ending]
    return starters, starters_at, lasts[ending], endings_at


class Streams(NamedTuple):
    """What ``count_many`` counts: a token stream and a punctuation stream, both with
    sentences separated by ``BREAK_ID`` (no feature contains a break), the number of sentences
    and characters they come from, and — for the profile of several documents whose streams
    were joined with a break between them — the offset of each document's first token, which
    keeps the order in which ``DocumentFeatures.combine`` lists the features."""

    token_ids: np.ndarray
    char_ids: np.ndarray
    n_sentences: int
    n_chars: int
    document_starts: np.ndarray | None = None


def count_many(items: Sequence[Streams], codebook: Codebook) -> list[DocumentFeatures]:
    """The counts of several pairs of streams, each on its own, in one numpy pass.

    Most numpy calls cost about the same whatever the size of their arrays, and a document of
    2,000 characters needs some 50 of them, so short documents can be counted faster together:
    the streams are joined with a break between them (no feature crosses a break), every
    feature occurrence remembers which item it came from, and counting groups by (item,
    code). Each item's counts equal those of counting it alone. Remembering the items costs
    calls of its own, so fewer than ``_COUNTED_TOGETHER`` items are counted one by one
    (Stack Exchange posts: two together took 154 µs a post, alone 132; eight together 115).
    """
    if len(items) < _COUNTED_TOGETHER:
        return [_counted_alone(item, codebook) for item in items]
    gap = np.zeros(1, dtype=np.uint64)
    owner, found, counts = _counted(
        _joined([item.token_ids for item in items], gap),
        _joined([item.char_ids for item in items], gap),
        codebook,
        _document_starts(items),
        _item_of_position([len(item.token_ids) for item in items]),
        _item_of_position([len(item.char_ids) for item in items]),
    )
    assert owner is not None  # counted with owners
    cut = owner.searchsorted(np.arange(len(items) + 1))
    return [
        _features(found[cut[i] : cut[i + 1]], counts[cut[i] : cut[i + 1]], item, codebook)
        for i, item in enumerate(items)
    ]


def _counted_alone(item: Streams, codebook: Codebook) -> DocumentFeatures:
    _, found, counts = _counted(
        item.token_ids, item.char_ids, codebook, item.document_starts, None, None
    )
    return _features(found, counts, item, codebook)


def count_per_sentence(
    streams: Streams, codebook: Codebook
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts of every sentence of a document on its own, in one numpy pass:
    ``(sentence, code, count)`` arrays, sentence by sentence, each sentence's features in the
    order counting that sentence alone lists them (for resampling sentences)."""
    if streams.document_starts is not None:
        raise ValueError("sentences are counted per document, not per profile")
    owner, found, counts = _counted(
        streams.token_ids,
        streams.char_ids,
        codebook,
        None,
        (streams.token_ids == BREAK_ID).cumsum(),
        (streams.char_ids == BREAK_ID).cumsum(),
    )
    assert owner is not None  # counted with owners
    return owner, found, counts


def _counted(
    tokens: np.ndarray,
    chars: np.ndarray,
    codebook: Codebook,
    documents: np.ndarray | None,
    token_owner: np.ndarray | None,
    char_owner: np.ndarray | None,
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Distinct features with their counts, in listing order (by category, then first
    occurrence). With owners (for each position of the streams, the part it belongs to;
    no feature crosses from one part to the next) each part is counted on its own and the
    result is sorted by part: ``(part, code, count)``; without, ``(None, code, count)``."""
    keys = _CATEGORY_KEYS
    blocks: list[np.ndarray] = []
    owners: list[np.ndarray] = []  # with owners: the owner of every code in blocks
    # F1–F3: punctuation n-grams; a window holding a break weighs more than 0
    codes, weight = _windows(chars, (chars == BREAK_ID).view(np.int8), 3)
    codes |= _PUNCTUATION_KEYS
    plain = weight == 0
    blocks.append(codes[plain])
    if char_owner is not None:
        owners.append(char_owner[: len(chars)][None, :].repeat(len(plain), axis=0)[plain])
    starters, starters_at, endings, endings_at = _starters_and_endings(
        tokens, codebook, documents, token_owner is not None
    )
    blocks += [starters | keys[3], endings | keys[4]]
    if token_owner is not None:
        owners += [token_owner[starters_at], token_owner[endings_at]]
    # F6–F11: token n-grams; a break weighs 2 and a topic word 1, so a window weighing 0 is
    # a plain n-gram and one weighing exactly 1 of 3 or 4 tokens a masked n-gram (exactly one
    # topic word); the masked ones are listed last
    weights = (tokens == BREAK_ID).view(np.int8) * np.int8(2)
    weights += (tokens == MASK_ID).view(np.int8)
    codes, weight = _windows(tokens, weights, 4)
    codes |= _TOKEN_KEYS
    one_topic_word = weight[2:] == 1
    masked = codes[2:][one_topic_word]
    codes[2:] ^= _MASKED_TO_PLAIN
    plain = weight == 0
    blocks += [codes[plain], masked]
    if token_owner is not None:
        position_owner = token_owner[: len(tokens)][None, :].repeat(len(plain), axis=0)
        owners += [position_owner[plain], position_owner[2:][one_topic_word]]
    del codes, weight, plain
    codes = np.concatenate(blocks)
    owner = np.concatenate(owners) if owners else None
    firsts, counts = first_occurrences(codes, owner)
    found = codes[firsts]
    if owner is None:
        return None, found, counts
    owner = owner[firsts]
    order = owner.argsort(kind="stable")  # each part's features, still in listing order
    return owner[order], found[order], counts[order]


def _features(
    keys: np.ndarray, counts: np.ndarray, item: Streams, codebook: Codebook
) -> DocumentFeatures:
    return DocumentFeatures(
        keys=keys,
        values=counts,
        bounds=category_bounds(keys),
        n_sentences=item.n_sentences,
        n_chars=item.n_chars,
        codebook=codebook,
    )


def _joined(streams: list[np.ndarray], gap: np.ndarray) -> np.ndarray:
    """The streams one after another with ``gap`` between them."""
    if len(streams) == 1:
        return streams[0]
    parts = [gap] * (2 * len(streams) - 1)
    parts[::2] = streams
    return np.concatenate(parts)


def _item_of_position(lengths: list[int]) -> np.ndarray:
    """For each position of streams joined with a one-id gap, the index of its stream (the
    gap after a stream counts as the stream's: no counted window starts on a gap)."""
    sizes = np.array(lengths, dtype=np.intp) + 1
    items: np.ndarray = np.arange(
        len(lengths), dtype=np.int16 if len(lengths) < 32_000 else np.intp
    ).repeat(sizes)
    return items


def _document_starts(items: Sequence[Streams]) -> np.ndarray | None:
    """Offsets of every document's first token in the joined token stream (None: one)."""
    if len(items) == 1:
        return items[0].document_starts
    starts, offset = [], 0
    for item in items:
        own = item.document_starts
        starts.append(offset + (np.zeros(1, dtype=np.intp) if own is None else np.asarray(own)))
        offset += len(item.token_ids) + 1
    return np.concatenate(starts)
