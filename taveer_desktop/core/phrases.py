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
        self.prefixes = np.array(sorted(prefixes), dtype=np.uint64)
        self.part_range = (first_free_id, first_free_id + len(self.part_ids))

    @staticmethod
    def usable(phrases: Iterable[str]) -> bool:
        """Whether every word of every phrase is a single plain word token."""
        return all(_PLAIN_WORD.fullmatch(w) for p in phrases for w in p.split(" "))

    def _candidates(self, ids: np.ndarray) -> np.ndarray:
        """Positions where two ids in a row begin some phrase."""
        if len(ids) < 2 or not len(self.prefixes):
            return np.zeros(0, dtype=np.intp)
        pairs = (ids[:-1] << _SHIFT) | ids[1:]
        at = np.minimum(np.searchsorted(self.prefixes, pairs), len(self.prefixes) - 1)
        found: np.ndarray = (self.prefixes[at] == pairs).nonzero()[0]
        return found

    def merge(self, ids: np.ndarray) -> np.ndarray:
        """The id stream with each phrase as one id and other phrase words as the mask."""
        candidates = self._candidates(ids)
        if len(candidates):
            stream = ids.tolist()
            n = len(stream)
            keep = np.ones(n, dtype=bool)
            cursor = 0
            for start in candidates.tolist():
                if start < cursor:
                    continue  # inside a phrase already taken
                node, position, best = self.trie, start, None
                while position < n:
                    child: _Trie | None = node.get(stream[position])
                    if child is None:
                        break
                    node = child
                    position += 1
                    if _TERMINAL in node:
                        best = (node[_TERMINAL], position)
                if best is not None:
                    ids[start], cursor = best
                    keep[start + 1 : cursor] = False
            ids = ids[keep]
        low, high = self.part_range
        if high > low:
            ids[(ids >= low) & (ids < high)] = self.mask_id
        return ids
