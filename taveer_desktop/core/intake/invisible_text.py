"""Finding and removing the characters a reader of a text never sees.

A reader sees no zero-width space inside "the", but the tokenizer does: it splits the word in
two, and a few dozen such characters change the style features a verification compares. The
analysed text is therefore the text without them; the file's bytes are kept as they are, and
what was removed is recorded (``InvisibleRemoved``: count per kind, the first positions).

Removed everywhere (``ALWAYS``): the Unicode format characters (category Cf) that draw nothing —
soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width space, left-to-right and
right-to-left marks, the bidirectional embeddings, overrides and isolates, word joiner and the
invisible operators, the deprecated format characters U+206A–U+206F, a byte-order mark inside
the text, the interlinear annotation marks, the tag characters — and a few invisible ones of
other categories: combining grapheme joiner, Hangul fillers, Khmer inherent vowels.

Removed inside words only (``IN_WORDS``): zero-width non-joiner and joiner and the variation
selectors. After a letter of a script whose letters join or combine (Arabic, Syriac, N'Ko,
Mongolian, the Indic scripts …), or after a symbol or emoji, or (variation selectors) after a
CJK ideograph, they change how the text looks, so they are kept there — unless a text holds
more than ``MAX_SHAPING_CHECKS`` of them, far more than any writing uses, when all go.

Kept (they draw something or belong to a script's own layout): the prepended concatenation
marks (Arabic number signs U+0600–U+0605, end of ayah, Syriac abbreviation mark, Kaithi number
signs), and the format controls of Egyptian hieroglyphs, shorthand and musical notation.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

ALWAYS = (
    "\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f"
    "\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5"
)
IN_WORDS = "\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef"
_CANDIDATE = re.compile(f"[{ALWAYS}{IN_WORDS}]")
_SPLIT = re.compile(f"([{ALWAYS}{IN_WORDS}])")
_IN_WORDS = re.compile(f"[{IN_WORDS}]")
FIRST_POSITIONS = 20
# more joiners and selectors than this are no writing system's: all of them are removed
# without looking at each one's neighbours (a page of Persian holds a few dozen)
MAX_SHAPING_CHECKS = 100_000
_LONGEST_RUN = 4  # joiners and selectors in a row that an emoji sequence may hold
# scripts in which the joiners shape letters: kept after one of their letters
_JOINING_SCRIPTS = (
    "ARABIC", "SYRIAC", "NKO", "MONGOLIAN", "MANDAIC", "DEVANAGARI", "BENGALI", "GURMUKHI",
    "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA", "MYANMAR",
    "KHMER", "TIBETAN", "THAI", "LAO", "JAVANESE", "BALINESE",
)  # fmt: skip


@dataclass(frozen=True)
class CharacterKind:
    """One kind of character removed: its code point (``U+200B``), Unicode name and count."""

    code: str
    name: str
    count: int


@dataclass(frozen=True)
class InvisibleRemoved:
    """The invisible characters removed from a text: per kind, and where the first ones stood
    (how many characters of the analysed text come before each)."""

    kinds: tuple[CharacterKind, ...]
    first_positions: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(kind.count for kind in self.kinds)


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    if not name and "\ufe00" <= ch <= "\ufe0f":
        name = f"VARIATION SELECTOR-{ord(ch) - 0xFE00 + 1}"
    return name or _code(ch)


def _shapes_here(text: str, index: int) -> bool:
    """Whether the joiner or variation selector at ``index`` changes how the text looks: it
    follows a letter of a joining script, a symbol or emoji, or (a selector) an ideograph."""
    base = index - 1
    while base >= 0 and index - base <= _LONGEST_RUN and _IN_WORDS.match(text[base]):
        base -= 1  # a selector and a joiner in a row (an emoji sequence) follow one base
    if base < 0 or _IN_WORDS.match(text[base]):
        return False  # none before it, or a run of them longer than any sequence uses
    before = text[base]
    category = unicodedata.category(before)
    if category in ("So", "Sk", "Sm"):
        return True  # emoji sequences (ZWJ, VS16)
    if category[0] not in "LM":
        return False
    name = unicodedata.name(before, "")
    if text[index] in "\u200c\u200d":
        return name.split(" ", 1)[0] in _JOINING_SCRIPTS
    return name.startswith("CJK")


def remove_invisible(text: str) -> tuple[str, InvisibleRemoved | None]:
    """(the text without the characters a reader does not see, what was removed or None)."""
    if text.isascii():  # the common case: no work (``isascii`` reads a flag of the string)
        return text, None
    first = _CANDIDATE.search(text)
    if first is None:
        return text, None
    start = first.start()
    # one split from the first one, in C: [text, removed, text, removed, …]
    pieces = _SPLIT.split(text[start:])
    removed = pieces[1::2]
    counts = Counter(removed)
    joiners = sum(n for ch, n in counts.items() if _IN_WORDS.match(ch))
    if 0 < joiners <= MAX_SHAPING_CHECKS:
        kept = [m.start() for m in _IN_WORDS.finditer(text, start) if _shapes_here(text, m.start())]
        if kept:  # joiners or selectors that shape the text stay: one character at a time
            return _remove_except(text, set(kept))
    positions, at = [], start
    for index in range(min(FIRST_POSITIONS, len(removed))):
        at += len(pieces[2 * index])
        positions.append(at)
    analysed = text[:start] + "".join(pieces[0::2])
    return analysed, _removed(counts, tuple(positions))


def _remove_except(text: str, kept: set[int]) -> tuple[str, InvisibleRemoved | None]:
    pieces: list[str] = []
    counts: Counter[str] = Counter()
    positions: list[int] = []
    kept_until = 0
    for match in _CANDIDATE.finditer(text):
        index = match.start()
        if index in kept:
            continue
        pieces.append(text[kept_until:index])
        kept_until = index + 1
        if len(positions) < FIRST_POSITIONS:
            positions.append(index - sum(counts.values()))
        counts[text[index]] += 1
    if not counts:
        return text, None
    pieces.append(text[kept_until:])
    return "".join(pieces), _removed(counts, tuple(positions))


def _removed(counts: Counter[str], positions: tuple[int, ...]) -> InvisibleRemoved:
    kinds = tuple(
        CharacterKind(_code(ch), _name(ch), count)
        for ch, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    )
    return InvisibleRemoved(kinds, positions)
