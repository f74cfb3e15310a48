"""Characters that must never reach a terminal or a name raw: controls and invisible formatting.

A name, title or file name is user-supplied text. Printed as it is, an escape character
(``\\x1b[2J``) can clear or recolour a terminal, a carriage return can overwrite what was
printed before it, and a bidirectional override (U+202E) can make ``txt.exe`` read as
``exe.txt``. The characters concerned are those of the Unicode categories

- ``Cc`` controls (C0, DEL, C1 — tab and newline included: a name is one line),
- ``Cf`` format characters (bidirectional marks, embeddings, overrides and isolates
  U+200E/F, U+202A–202E, U+2066–2069, U+061C; zero-width space, joiners, word joiner, soft
  hyphen, byte-order mark, tag characters …),
- ``Zl``/``Zp`` line and paragraph separators (U+2028, U+2029),
- ``Cs`` lone surrogates (a file name that is not valid UTF-8 reaches Python with them).

``escaped`` writes each as a visible escape (``\\x1b``, ``\\u202e``, ``\\n``; a lone surrogate
from an undecodable byte as that byte, ``\\xe9``): the text stays readable and nothing in it
acts on the terminal. ``unsafe_characters`` lists them, for the checks that refuse such names
at the door (model names, author folders).

This is about showing names, not about analysing documents: which invisible characters are
removed from a document's analysed text (and which are kept because they shape a script) is
``core/intake/invisible_text.py``'s business.
"""

from __future__ import annotations

import unicodedata

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_unsafe(char: str) -> bool:
    """Whether one character is a control, format, separator or surrogate character."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def escape_char(char: str) -> str:
    """The visible escape of one unsafe character."""
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str) -> str:
    """``text`` with every unsafe character written as a visible escape (see the module)."""
    if text.isprintable():  # the common case: nothing to do (str.isprintable is in C)
        return text
    return "".join(escape_char(c) if is_unsafe(c) else c for c in text)


def unsafe_characters(text: str) -> list[str]:
    """The distinct unsafe characters of ``text`` as escapes, in order of first appearance."""
    found: list[str] = []
    for char in text:
        if is_unsafe(char):
            shown = escape_char(char)
            if shown not in found:
                found.append(shown)
    return found
