"""Lexicon phrases found on a stream of token ids instead of inside the tokenising regex.

The tokenizer with the lexicon's phrases compiled in (``lexicon.compile_token_pattern``) takes,
at each token, the longest phrase that starts there, else one token. When every word of every
phrase is one plain word token (no dots, no punctuation) the same result comes from tokenising
with the plain ``text.TOKEN_PATTERN`` and then, left to right, replacing the longest run of word
ids that spells a phrase by the phrase's id: two word tokens next to each other in the stream are
separated only by white space, which is what the phrase pattern allows between its words, and a
phrase's last word must end where a token ends in both. ``PhraseMatcher.usable`` checks that
condition; a lexicon that fails it is tokenised with its own regular expression.

Words that occur in phrases but are not lexicon entries themselves get ids of their own while
phrases are found, and become the mask (a topic word) afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

import numpy as np

_PLAIN_WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")
_TERMINAL = -1
# token id → the rest of the phrases; under _TERMINAL the id of the phrase ending there
_Trie: TypeAlias = dict[int, Any]
_SHIFT = np.uint64(15)
_ID_LIMIT = 1 << 15
_FILTER_BITS = 16
_FILTER_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd, from the golden ratio
_FILTER_SHIFT = np.uint64(64 - _FILTER_BITS)


class PhraseMatcher:
    """Longest-first, left-to-right replacement of phrase word runs by phrase ids."""

    def __init__(
        self,
        phrases: Iterable[str],
        entry_ids: Mapping[str, int],
        first_free_id: int,
        mask_id: int,
    ):
        self.mask_id = mask_id
        self.part_ids: dict[str, int] = {}
        self.trie: _Trie = {}
        self.longest = 2  # words of the longest phrase
        prefixes = set()
        for phrase in sorted(phrases):
            ids = []
            for word in phrase.split(" "):
                found = entry_ids.get(word)
                if found is None:
                    found = self.part_ids.setdefault(word, first_free_id + len(self.part_ids))
                ids.append(found)
            node = self.trie
            for token_id in ids:
                node = node.setdefault(token_id, {})
            node[_TERMINAL] = entry_ids[phrase]
            prefixes.add((ids[0] << 15) | ids[1])
            self.longest = max(self.longest, len(ids))
        self.prefixes = np.array(sorted(prefixes), dtype=np.uint64)
        self.offsets = np.arange(self.longest)
        self.padding = np.zeros(self.longest, dtype=np.uint64)
        # a first filter of the pairs of ids: a bit per hash of every pair that begins a phrase
        self.maybe_prefix = np.zeros(1 << _FILTER_BITS, dtype=bool)
        self.maybe_prefix[_pair_hash(self.prefixes)] = True
        self.part_range = (first_free_id, first_free_id + len(self.part_ids))
        # every id as itself, but a phrase word that is no entry becomes the mask
        self.after_merge = np.arange(_ID_LIMIT, dtype=np.uint64)
        self.after_merge[self.part_range[0] : self.part_range[1]] = mask_id

    @staticmethod
    def usable(phrases: Iterable[str]) -> bool:
        """Whether every word of every phrase is a single plain word token."""
        return all(_PLAIN_WORD.fullmatch(w) for p in phrases for w in p.split(" "))

    def _candidates(self, ids: np.ndarray) -> np.ndarray:
        """Positions where two ids in a row begin some phrase."""
        if len(ids) < 2 or not len(self.prefixes):
            return np.zeros(0, dtype=np.intp)
        pairs = (ids[:-1] << _SHIFT) | ids[1:]
        maybe = self.maybe_prefix[_pair_hash(pairs)].nonzero()[0]
        pairs = pairs[maybe]
        at = np.minimum(self.prefixes.searchsorted(pairs), len(self.prefixes) - 1)
        found: np.ndarray = maybe[self.prefixes[at] == pairs]
        return found

    def merge(self, ids: np.ndarray) -> np.ndarray:
        """The id stream with each phrase as one id and other phrase words as the mask."""
        candidates = self._candidates(ids)
        if len(candidates):
            n = len(ids)
            # the ids from each candidate on, as far as the longest phrase reaches (0, the
            # sentence break, past the end: no phrase holds it)
            padded = np.concatenate((ids, self.padding))
            runs = padded[candidates[:, None] + self.offsets].tolist()
            keep = np.ones(n, dtype=bool)
            cursor = 0
            for start, run in zip(candidates.tolist(), runs, strict=True):
                if start < cursor:
                    continue  # inside a phrase already taken
                node, best = self.trie, None
                for length, token_id in enumerate(run, start=1):
                    child: _Trie | None = node.get(token_id)
                    if child is None:
                        break
                    node = child
                    if _TERMINAL in node:
                        best = (node[_TERMINAL], start + length)
                if best is not None:
                    ids[start], cursor = best
                    keep[start + 1 : cursor] = False
            ids = ids[keep]
        merged: np.ndarray = self.after_merge[ids]
        return merged


def _pair_hash(pairs: np.ndarray) -> np.ndarray:
    """A hash of ``_FILTER_BITS`` bits of packed pairs of ids (multiplicative hashing)."""
    hashed: np.ndarray = (pairs * _FILTER_MULTIPLIER) >> _FILTER_SHIFT
    return hashed
