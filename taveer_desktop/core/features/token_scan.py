"""Token ids and punctuation ids of lower-cased text found with numpy, without token strings.

``TokenScanner.scan`` gives what ``Codebook.token_ids(text.tokens_of_text(t))`` and
``Codebook.character_ids(feature_stream.punctuation_of(t))`` give, id for id, from the text's
code points:

- Every character is classed once per process with ``text.TOKEN_PATTERN``'s own character
  classes (``[^\\W_]`` alphanumeric, ``[^\\W\\d_]`` letter, ``\\s`` white space; anything else —
  "_" included — is punctuation), so the classes are the regular expression's exactly.
- Tokens: a word is a run of alphanumerics joined by single apostrophes or hyphens between two
  alphanumerics (``[^\\W_]+(?:['\\-][^\\W_]+)*``); every other punctuation character is a token
  of its own; white space separates. A multi-dot abbreviation (``(?:[^\\W\\d_]\\.){2,}``, which
  the pattern tries first) can only begin where a token begins, a letter followed by a dot that
  a letter and a dot follow again; it takes every such pair that follows. Such places are rare
  and are settled one by one.
- A token's id comes from a table of exact keys: the codes of its first ``width`` characters in
  the lexicon's alphabet packed into 60 bits, and its length in the top 4 bits. A token with a
  character outside the alphabet matches no key. A match longer than ``width`` characters is
  confirmed by its string (a few lexicon words are that long). A word that matches nothing is
  the mask; a punctuation character that matches nothing has its punctuation id.

Text holding a character above U+FFFF (emoji) is left to the string path (``None``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np

_PLANE = 0x10000  # characters classed by table; text with others takes the string path
# classes of characters (``TokenScanner.classes``): 0 punctuation, 1 apostrophe or hyphen (also
# punctuation), 2 white space, 4 alphanumeric, 5 letter (alphanumeric), 255 not yet classed
_PUNCTUATION, _JOINER, _SPACE, _ALNUM, _LETTER, _UNKNOWN = 0, 1, 2, 4, 5, 255
_IS_LETTER = re.compile(r"[^\W\d_]")
_IS_ALNUM = re.compile(r"[^\W_]")
_IS_SPACE = re.compile(r"\s")
_DOT = ord(".")
_KEY_BITS = 60  # character codes; the length takes the 4 bits above
_LONGEST_KEYED = 15
_DYNAMIC = -2  # a rare punctuation character: its id is given in order of first sight
_CONFIRM = -1  # a key that needs its string to say which token it is
_PIECE = 1 << 20  # longer texts are scanned in pieces that end at a sentence break


class TokenScanner:
    """The key table of one codebook's token strings (see the module docstring)."""

    def __init__(
        self,
        token_ids: Mapping[str, int],
        punctuation_id: Callable[[str], int],
        mask_id: int,
        punctuation_base: int,
    ) -> None:
        self.punctuation_id = punctuation_id
        self.mask_id = mask_id
        self.base = punctuation_base
        self.token_ids = token_ids  # confirms matches longer than a key holds
        alphabet = sorted({c for token in token_ids for c in token if c != "\x00"})
        self.bits = max(1, len(alphabet).bit_length())
        self.width = min(_KEY_BITS // self.bits, _LONGEST_KEYED)
        self.usable = bool(alphabet) and ord(alphabet[-1]) < _PLANE and self.bits <= 8
        if not self.usable:
            return
        self.classes = np.full(_PLANE, _UNKNOWN, dtype=np.uint8)  # learnt as characters occur
        self.single = np.zeros(_PLANE, dtype=np.int16)  # id of a one-character token
        self.code = np.zeros(_PLANE, dtype=np.uint8)  # a character's number in the alphabet
        self.code[[ord(char) for char in alphabet]] = np.arange(1, len(alphabet) + 1)
        kept = np.minimum(np.arange(_LONGEST_KEYED + 1), self.width)
        self.shift_of_length = (self.bits * (self.width - kept)).astype(np.uint64)
        self.length_bits = np.arange(_LONGEST_KEYED + 1, dtype=np.uint64) << np.uint64(_KEY_BITS)
        # the keys of the known tokens, computed as those of a text's tokens are
        tokens = [t for t in token_ids if t and "\x00" not in t]
        lengths = np.array([len(t) for t in tokens], dtype=np.intp)
        first = np.zeros(len(tokens), dtype=np.intp)
        first[1:] = (lengths[:-1] + 1).cumsum()
        points = np.frombuffer(" ".join(tokens).encode("utf-16-le"), dtype=np.uint16)
        keys: dict[int, list[int]] = {}
        for key, token, length in zip(
            self._keys(points, first, lengths).tolist(), tokens, lengths.tolist(), strict=True
        ):
            # a token longer than the key holds is confirmed by its string
            keys.setdefault(key, []).append(token_ids[token] if length <= self.width else _CONFIRM)
        ordered = sorted(keys)
        # a key past the last one never matches (no key has every bit set); a key that two
        # tokens share is settled by the string too
        self.keys = np.array([*ordered, (1 << 64) - 1], dtype=np.uint64)
        self.key_ids = np.array(
            [ids[0] if len(ids) == 1 else _CONFIRM for ids in (keys[k] for k in ordered)] + [0],
            dtype=np.int16,
        )

    def _learn(self, points: np.ndarray) -> None:
        for point in sorted(set(points.tolist())):
            char = chr(point)
            if _IS_LETTER.match(char):
                kind = _LETTER
            elif _IS_ALNUM.match(char):
                kind = _ALNUM
            elif _IS_SPACE.match(char):
                kind = _SPACE
            else:
                kind = _JOINER if char in "'-" else _PUNCTUATION
            if kind >= _ALNUM:
                single = self.mask_id
            elif point == 0:
                single = 0  # the sentence break
            elif point < self.base:
                single = self.base + point
            else:
                single = _DYNAMIC
            self.single[point] = single
            self.classes[point] = kind

    def scan(self, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Token ids and punctuation ids (uint64) of lower-cased text; None: not for this
        scanner (a character above U+FFFF, or a lexicon it cannot key)."""
        if not self.usable:
            return None
        if len(text) <= _PIECE:
            return self._scan(text)
        pieces, start = [], 0
        while start < len(text):
            stop = text.find("\x00", start + _PIECE)  # no token crosses a break
            stop = len(text) if stop < 0 else stop
            piece = self._scan(text[start:stop])
            if piece is None:
                return None
            pieces.append(piece)
            start = stop
        return np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces])

    def _scan(self, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        n = len(text)
        points = np.frombuffer(text.encode("utf-16-le"), dtype=np.uint16)
        if len(points) != n:
            return None  # a character above U+FFFF (a surrogate pair)
        if n == 0:
            empty = np.zeros(0, dtype=np.uint64)
            return empty, empty
        classes = self.classes[points]
        if (classes == _UNKNOWN).any():
            self._learn(points[classes == _UNKNOWN])
            classes = self.classes[points]
        alnum = classes >= _ALNUM
        punctuation = classes <= _JOINER
        # word[i + 1]: character i belongs to a word (alphanumerics and the apostrophes and
        # hyphens between two of them); together[j]: characters j - 1 and j are in one token
        word = np.zeros(n + 2, dtype=bool)
        word[1:-1] = alnum
        if n > 2:
            joins = classes[1:-1] == _JOINER
            joins &= alnum[:-2]
            joins &= alnum[2:]
            word[2:-2] |= joins
        together = word[:-1] & word[1:]
        if n > 3:
            self._abbreviations(points, classes, word, together)
        apart = ~together
        visible = classes != _SPACE
        first = (apart[:-1] & visible).nonzero()[0]
        lengths = (apart[1:] & visible).nonzero()[0] + 1 - first
        ids = self._ids(text, points, first, lengths)
        return ids, self._punctuation_ids(text, points, punctuation)

    @staticmethod
    def _abbreviations(
        points: np.ndarray, classes: np.ndarray, word: np.ndarray, together: np.ndarray
    ) -> None:
        """Multi-dot abbreviations, each made one token (``together`` is changed)."""
        pair = (classes[:-1] == _LETTER) & (points[1:] == _DOT)  # a letter, then a dot
        candidates = (pair[:-2] & pair[2:]).nonzero()[0]
        if not len(candidates):
            return
        n_pairs = len(pair)
        covered = -1
        for at in candidates.tolist():
            if at < covered or word[at]:  # word[at]: character at - 1 is in a word
                continue  # inside an abbreviation already taken, or inside a word
            stop = at + 4
            while stop < n_pairs and pair[stop]:
                stop += 2
            together[at + 1 : stop] = True
            covered = stop

    def _keys(self, points: np.ndarray, first: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The key of each token ``points[first : first + length]`` (see the module docstring)."""
        width, bits = self.width, self.bits
        codes = np.zeros(len(points) + width, dtype=np.uint64)
        codes[: len(points)] = self.code[points]
        windows = {1: codes}  # windows[s][i]: the codes of characters i .. i + s - 1
        size = 1
        while size * 2 <= width:
            shorter = windows[size]
            windows[size * 2] = (shorter[:-size] << np.uint64(bits * size)) | shorter[size:]
            size *= 2
        packed, covered = codes, 0  # then: the codes of characters i .. i + width - 1
        for size in sorted(windows, reverse=True):
            if width - covered >= size:
                window = windows[size]
                if covered == 0:
                    packed = window
                else:
                    head = packed[: len(window) - covered] << np.uint64(bits * size)
                    packed = head | window[covered:]
                covered += size
        del windows, codes
        keyed = np.minimum(lengths, _LONGEST_KEYED)
        keys: np.ndarray = packed[first] >> self.shift_of_length[keyed]
        keys |= self.length_bits[keyed]
        return keys

    def _ids(
        self, text: str, points: np.ndarray, first: np.ndarray, lengths: np.ndarray
    ) -> np.ndarray:
        keys = self._keys(points, first, lengths)
        at = np.searchsorted(self.keys, keys)
        ids: np.ndarray = np.where(
            self.keys[at] == keys, self.key_ids[at], self.single[points[first]]
        )
        odd = (ids < 0).nonzero()[0]
        for index in odd.tolist():
            start = int(first[index])
            token = text[start : start + int(lengths[index])]
            if ids[index] == _DYNAMIC:
                ids[index] = self.punctuation_id(token)
            else:
                found = self.token_ids.get(token)
                ids[index] = self.single[points[start]] if found is None else found
        return ids.astype(np.uint64)

    def _punctuation_ids(
        self, text: str, points: np.ndarray, punctuation: np.ndarray
    ) -> np.ndarray:
        ids: np.ndarray = self.single[points[punctuation]]
        odd = (ids < 0).nonzero()[0]
        if len(odd):
            positions = np.flatnonzero(punctuation)[odd]
            for index, position in zip(odd.tolist(), positions.tolist(), strict=True):
                ids[index] = self.punctuation_id(text[position])
        return ids.astype(np.uint64)
