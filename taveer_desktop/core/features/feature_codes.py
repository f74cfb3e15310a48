"""Integer codes of tokens and features: what the engine counts instead of strings.

Every token is a 15-bit id:

- ``0`` the sentence break (no feature may contain it), ``1`` a masked topic word;
- ``2 …`` the lexicon's entries (words and phrases), in sorted order;
- ``0x4000 + code point`` a punctuation character below U+4000 (all of Latin, general
  punctuation, symbols, arrows, CJK punctuation), so these ids are the same in every process;
- ids between the lexicon's and ``0x4000`` are given, in order of first sight in this process, to
  the rarer punctuation above U+3FFF (full-width forms, emoji, …).

A feature is one unsigned 64-bit integer: its category's index (0 = F1 … 10 = F11) in the top
4 bits and the ids of its 1–4 parts in 15-bit lanes below (first part highest). Punctuation
n-grams (F1–F3) use the ids of their characters; a sentence starter of F4 is one lane (the
word), a clause starter two (the mark, then the word). Strings are made from these integers
only for display (``Codebook.decode``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat

import numpy as np

from taveer_desktop.core.features.lexicon import Lexicon
from taveer_desktop.core.features.phrases import PhraseMatcher
from taveer_desktop.core.features.text import tokens_of_text
from taveer_desktop.core.features.token_scan import TokenScanner
from taveer_desktop.core.ground.errors import InputError

CATEGORY_IDS: tuple[str, ...] = tuple(f"F{i}" for i in range(1, 12))
MASK = "#"
LITERAL_HASH = "\\#"  # a "#" written in the text, told apart from the mask in F4–F11
CLAUSE_MARKS = (",", ";")

BREAK_ID = 0
MASK_ID = 1
FIRST_ENTRY_ID = 2
PUNCTUATION_BASE = 0x4000  # ids of punctuation characters below U+4000
ID_BITS = 15
ID_LIMIT = 1 << ID_BITS
LANE_MASK = np.uint64(ID_LIMIT - 1)
CATEGORY_SHIFT = np.uint64(60)
_MAX_TOKEN_CACHE = 500_000  # distinct token strings remembered (topic words included)


def category_key(index: int) -> np.uint64:
    """The top bits that put a feature into category ``index`` (0 = F1)."""
    return np.uint64(index) << CATEGORY_SHIFT


@dataclass(eq=False)
class Codebook:
    """Token ids of one lexicon, the cache from token strings to ids, and decoding to text."""

    lexicon: Lexicon
    entries: tuple[str, ...]
    entry_ids: dict[str, int]
    is_word: np.ndarray  # bool per id: a word or phrase (starter/ending candidate), or the mask
    phrases: PhraseMatcher | None  # None: the lexicon's own regex finds its phrases
    first_dynamic_id: int
    _dynamic: dict[str, int] = field(default_factory=dict)
    _dynamic_text: dict[int, str] = field(default_factory=dict)
    _token_ids: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._reset_token_cache()

    def _reset_token_cache(self) -> None:
        cache = {"\x00": BREAK_ID}
        cache.update(self.entry_ids)
        if self.phrases is not None:
            cache.update(self.phrases.part_ids)
        self._token_ids = cache

    def punctuation_id(self, char: str) -> int:
        """Id of one punctuation token (a character; any other text not in the lexicon)."""
        if len(char) == 1 and ord(char) < PUNCTUATION_BASE:
            return BREAK_ID if char == "\x00" else PUNCTUATION_BASE + ord(char)
        with self._lock:
            found = self._dynamic.get(char)
            if found is None:
                found = self.first_dynamic_id + len(self._dynamic)
                if found >= PUNCTUATION_BASE:
                    raise InputError(
                        "the text holds more distinct rare symbols than the engine can number"
                    )
                self._dynamic[char] = found
                self._dynamic_text[found] = char
        return found

    def _classify(self, token: str) -> int:
        entry = self.entry_ids.get(token)
        if entry is not None:
            return entry
        if token[0].isalnum():
            return MASK_ID
        return self.punctuation_id(token)

    def tokenise(self, lowered_text: str) -> np.ndarray:
        """Token ids of lower-cased text, each lexicon phrase one id."""
        if self.phrases is None:
            return self.token_ids(self.lexicon.tokens(" ".join(lowered_text.split())))
        return self.phrases.merge(self.token_ids(tokens_of_text(lowered_text)))

    @cached_property
    def scanner(self) -> TokenScanner | None:
        """Finds token ids with numpy (``token_scan``); None where phrases are found by the
        lexicon's own regular expression."""
        if self.phrases is None:
            return None
        known = {"\x00": BREAK_ID, **self.entry_ids, **self.phrases.part_ids}
        return TokenScanner(known, self.punctuation_id, MASK_ID, PUNCTUATION_BASE)

    def scan(self, lowered_text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Token ids (as ``tokenise``) and the ids of the punctuation characters in order (as
        ``character_ids``) of lower-cased text, found with numpy; None: use those two."""
        scanner = self.scanner
        found = None if scanner is None else scanner.scan(lowered_text)
        if found is None or self.phrases is None:
            return None
        return self.phrases.merge(found[0]), found[1]

    def token_ids(self, tokens: list[str]) -> np.ndarray:
        """Ids of a list of lower-cased tokens (``"\\x00"`` is the sentence break); words of
        phrases that are no entry themselves keep their own ids (see ``phrases``)."""
        cache = self._token_ids
        ids = np.fromiter(map(cache.get, tokens, repeat(-1)), dtype=np.int64, count=len(tokens))
        missing = np.flatnonzero(ids < 0)
        if len(missing):
            if len(cache) + len(missing) > _MAX_TOKEN_CACHE:
                self._reset_token_cache()
                cache = self._token_ids
            for index in missing.tolist():
                token = tokens[index]
                found = cache.get(token)
                if found is None:
                    found = cache[token] = self._classify(token)
                ids[index] = found
        return ids.view(np.uint64)

    def character_ids(self, characters: str) -> np.ndarray:
        """Ids of a string of punctuation characters (``"\\x00"`` is the sentence break)."""
        points = np.frombuffer(characters.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        ids = points + np.uint64(PUNCTUATION_BASE)
        ids[points == 0] = BREAK_ID
        rare = np.flatnonzero(points >= PUNCTUATION_BASE)
        for index in rare.tolist():
            ids[index] = self.punctuation_id(characters[index])
        return ids

    def token_text(self, token_id: int) -> str:
        """A token as features show it: entry, punctuation (``\\#`` for "#"), or the mask."""
        if token_id == MASK_ID:
            return MASK
        if FIRST_ENTRY_ID <= token_id < FIRST_ENTRY_ID + len(self.entries):
            return self.entries[token_id - FIRST_ENTRY_ID]
        char = self.character_text(token_id)
        return LITERAL_HASH if char == MASK else char

    def character_text(self, token_id: int) -> str:
        if token_id >= PUNCTUATION_BASE:
            return chr(token_id - PUNCTUATION_BASE)
        return self._dynamic_text[token_id]

    def decode(self, category_index: int, key: int) -> str:
        """The display string of one feature of category ``category_index`` (0 = F1)."""
        lanes = [(key >> (ID_BITS * k)) & (ID_LIMIT - 1) for k in (3, 2, 1, 0)]
        parts = [lane for lane in lanes if lane]  # no part is the break, so none is 0
        if category_index < 3:
            return "".join(self.character_text(p) for p in parts)
        return " ".join(self.token_text(p) for p in parts)


_codebooks: dict[int, Codebook] = {}
_codebooks_lock = threading.Lock()


def codebook_for(lexicon: Lexicon) -> Codebook:
    """The codebook of a lexicon (built once per lexicon object and process)."""
    found = _codebooks.get(id(lexicon))
    if found is not None and found.lexicon is lexicon:
        return found
    with _codebooks_lock:
        entries = tuple(sorted(lexicon.categories_of))
        entry_ids = {e: FIRST_ENTRY_ID + i for i, e in enumerate(entries)}
        first_free = FIRST_ENTRY_ID + len(entries)
        phrases = None
        if PhraseMatcher.usable(lexicon.phrases):
            phrases = PhraseMatcher(lexicon.phrases, entry_ids, first_free, MASK_ID)
            first_free = phrases.part_range[1]
        if first_free + 256 > PUNCTUATION_BASE:
            raise InputError(
                f"the lexicon has too many entries and phrase words ({first_free:,} ids)",
                lexicon.source,
            )
        is_word = np.zeros(ID_LIMIT, dtype=bool)
        is_word[MASK_ID] = True
        for index, entry in enumerate(entries):
            is_word[FIRST_ENTRY_ID + index] = entry[0].isalnum()
        codebook = Codebook(
            lexicon=lexicon,
            entries=entries,
            entry_ids=entry_ids,
            is_word=is_word,
            phrases=phrases,
            first_dynamic_id=first_free,
        )
        if len(_codebooks) > 8:
            _codebooks.clear()
        _codebooks[id(lexicon)] = codebook
        return codebook
