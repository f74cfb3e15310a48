"""Making any text safe to place in the report's rich text (pure, no Qt).

Evidence is hostile until proven otherwise: a document may hold HTML (``<b>``, ``<script>``),
control characters, bidirectional overrides that reverse how a line reads, zero-width
characters, or a line of 50,000 characters with no space. ``html_text`` escapes HTML, shows
every control and format character as a visible ``[U+XXXX]`` token (so an examiner sees that it
is there, and it cannot change the layout or the reading order of the line), and optionally
cuts the text to a maximum length with a note of how much was left out. Long unbroken runs are
wrapped anywhere by the PDF layout, so no character is inserted into them here.
"""

from __future__ import annotations

import html
import re
import unicodedata

from taveer_desktop.presentation import numbers

# Control (Cc) and format (Cf) characters, surrogates and private-use/unassigned code points
# are never printed as themselves; tab and line breaks are turned into spaces instead.
_SPACE_LIKE = {"\t": " ", "\n": " ", "\r": " ", "\x0b": " ", "\x0c": " "}
_RUN_OF_SPACES = re.compile(r"[ \u00a0]{2,}")


def _visible(char: str) -> str:
    if char in _SPACE_LIKE:
        return _SPACE_LIKE[char]
    category = unicodedata.category(char)
    if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        return f"[U+{ord(char):04X}]"
    return char


def plain_text(text: str, max_chars: int | None = None, collapse_spaces: bool = True) -> str:
    """``text`` with control/format characters made visible, optionally shortened (no HTML)."""
    text = str(text)
    omitted = 0
    if max_chars is not None and len(text) > max_chars:
        omitted = len(text) - max_chars
        text = text[:max_chars]
    # Fast path: most text has no character that needs a visible token.
    if any(ord(c) < 32 or ord(c) >= 0x7F for c in text):
        text = "".join(_visible(c) for c in text)
    if collapse_spaces:
        text = _RUN_OF_SPACES.sub(" ", text)
    if omitted:
        text += f" … [{numbers.count(omitted, 'more character')} not shown]"
    return text


def html_text(text: str, max_chars: int | None = None) -> str:
    """``text`` ready to sit inside HTML: visible control characters, HTML escaped."""
    return html.escape(plain_text(text, max_chars), quote=True)


def html_code(text: str, max_chars: int | None = None) -> str:
    """Escaped text in the fixed-width font (hashes, feature strings)."""
    return f'<span class="code">{html_text(text, max_chars)}</span>'
