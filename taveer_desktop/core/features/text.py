"""Text processing: normalisation, rule-based sentence splitting and tokenisation.

- ``normalise``: Unicode NFC, curly apostrophes and quotes mapped to straight ones (one character
  for one, so offsets into the normalised text stay meaningful for highlighting).
- ``split_sentences``: paragraph breaks (blank lines) always end a sentence; ``.``, ``!``, ``?``,
  ``…`` (with closing quotes or brackets after them) end one when followed by white space, with
  abbreviation rules documented in docs/method.md. Single line breaks are spaces (hard-wrapped
  text). No model, no network.
- Tokens: words are runs of letters and digits joined by word-internal apostrophes or hyphens
  (``that's``, ``well-known``) or multi-dot abbreviations (``i.e.``); every other visible
  character is one punctuation token. Lower-casing is done per token.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_QUOTE_MAP = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark (typographic apostrophe)
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",  # prime
        "\u02bc": "'",  # modifier letter apostrophe
        "\uff07": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\uff02": '"',
    }
)

_CURLY_QUOTE = re.compile("[" + "".join(chr(c) for c in _QUOTE_MAP) + "]")

MULTI_DOT_ABBREVIATION = r"(?:[^\W\d_]\.){2,}"
TOKEN_PATTERN = re.compile(MULTI_DOT_ABBREVIATION + r"|[^\W_]+(?:['\-][^\W_]+)*|[^\w\s]|_")
# white space other than one plain space: runs of two or more, or a lone tab, line break, …
_WHITESPACE_RUN = re.compile(r"\s{2,}|[^\S ]")
PUNCTUATION_PATTERN = re.compile(r"[^\w\s]|_")
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n")
_SPACE_RUN = re.compile(r"\s*")
_TERMINATORS = ".!?\u2026\u203c\u2047\u2048\u2049"
_CLOSERS = "\"')\\]}\u00bb"
_BOUNDARY = re.compile(f"[{_TERMINATORS}]+[{_CLOSERS}]*(?=\\s|$)")
_WORD_BEFORE = re.compile(r"(?:[^\W_]+\.)*[^\W_]+$")
_ABBREVIATION_WINDOW = 10
_NEXT_START = re.compile(r"\s*[\"'(\[{\u00ab]*(\S)?")

# Abbreviations after which a full stop never ends a sentence.
NEVER_ENDING_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "jr",
        "sr",
        "rev",
        "hon",
        "gen",
        "col",
        "capt",
        "lt",
        "sgt",
        "messrs",
        "mt",
        "ft",
        "e.g",
        "i.e",
        "cf",
        "vs",
        "viz",
        "approx",
        "fig",
        "figs",
        "no",
        "nos",
        "vol",
        "vols",
        "pp",
        "ca",
        "resp",
        "incl",
        "esp",
        "dept",
    ]
)
# Abbreviations that end a sentence only when the next word starts with a capital letter.
AMBIGUOUS_ABBREVIATIONS = frozenset(
    [
        "etc",
        "al",
        "inc",
        "ltd",
        "co",
        "corp",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "u.s",
        "u.k",
        "a.m",
        "p.m",
        "ph.d",
        "b.a",
        "m.a",
    ]
)


# one more than the longest dot-separated part of any abbreviation above
_LONGEST_ABBREVIATION_PART = 1 + max(
    len(part)
    for word in NEVER_ENDING_ABBREVIATIONS | AMBIGUOUS_ABBREVIATIONS
    for part in word.split(".")
)
# _BOUNDARY (the group "run") with an empty group "sure" that takes part where the rules of
# ``_boundary_ends_sentence`` accept the boundary without looking further than a few characters
# around it: any run holding "!" or "?", and a lone "." after a non-word character (or at the
# start), after a word part longer than any abbreviation's, or after white space and a short
# word that is no abbreviation. It matches where _BOUNDARY matches (the group is optional and
# zero-width, and its tests look behind and ahead of the run's first character so that the
# search still skips to the next terminator); only the other matches need the rules in Python.
# The white space after the run is taken too: where the run ends a sentence, the next one
# starts after it.
_BANG = "!?\u203c\u2047\u2048\u2049"


def _after_plain_short_word() -> str:
    """A lone "." after white space and a word of 2 … 6 letters or digits that is none of the
    abbreviations (compared ignoring case, which covers more spellings than ``str.lower``:
    a word it leaves out is only left to the rules): the rules accept such a full stop."""
    alternatives = []
    for length in range(2, _LONGEST_ABBREVIATION_PART):
        shown = sorted(
            word
            for word in NEVER_ENDING_ABBREVIATIONS | AMBIGUOUS_ABBREVIATIONS
            if len(word) == length and "." not in word
        )
        unlike = f"(?<!\\s(?i:{'|'.join(shown)})\\.)" if shown else ""
        alternatives.append(f"(?<=\\s[^\\W_]{{{length}}}\\.){unlike}")
    return f"(?:{'|'.join(alternatives)})(?![{_TERMINATORS}])"


_BOUNDARY_OR_SURE = re.compile(
    f"(?P<run>[{_TERMINATORS}]"
    f"(?P<sure>(?<=[{_BANG}])|(?=[.\u2026]*[{_BANG}])"
    f"|(?<=[^\\W_]{{{_LONGEST_ABBREVIATION_PART}}}\\.)(?![{_TERMINATORS}])"
    f"|{_after_plain_short_word()}"
    f"|(?<![^\\W_]\\.)(?<=\\.)(?![{_TERMINATORS}]))?"
    f"[{_TERMINATORS}]*[{_CLOSERS}]*)(?=\\s|$)\\s*"
)


def normalise(text: str) -> str:
    """NFC normal form with curly apostrophes/quotes made straight (length-preserving map)."""
    text = unicodedata.normalize("NFC", text)
    if _CURLY_QUOTE.search(text) is None:
        return text
    # one ``str.replace`` per quote character present: ``str.translate`` with a mapping looks
    # every character up in Python (half a millisecond for a 5,000-character post)
    for quote in set(_CURLY_QUOTE.findall(text)):
        text = text.replace(quote, _QUOTE_MAP[ord(quote)])
    return text


@dataclass(frozen=True)
class Sentence:
    """A sentence as a character span of the normalised text."""

    start: int
    end: int

    def text_of(self, text: str) -> str:
        return text[self.start : self.end]


def _next_is_capital(text: str, position: int, limit: int) -> bool:
    found = _NEXT_START.match(text, position, limit)
    assert found is not None  # every part of the pattern may be empty
    next_char = found.group(1)
    return next_char is None or next_char.isupper() or next_char.isdigit()


def _space_end(text: str, position: int, limit: int) -> int:
    """Where the white space starting at ``position`` ends (``position`` if there is none)."""
    found = _SPACE_RUN.match(text, position, limit)
    assert found is not None  # the pattern matches the empty run
    return found.end()


def _boundary_ends_sentence(text: str, start: int, end: int, limit: int) -> bool:
    """Whether the boundary ``text[start:end]`` (terminators, then closers) ends a sentence."""
    run = text[start:end].rstrip("\"')]}\u00bb")
    if run != ".":
        if any(ch in run for ch in "!?\u203c\u2047\u2048\u2049"):
            return True
        return _next_is_capital(text, end, limit)  # an ellipsis
    if start == 0 or not text[start - 1].isalnum():
        return True
    if (
        start >= _LONGEST_ABBREVIATION_PART
        and text[start - _LONGEST_ABBREVIATION_PART : start].isalnum()
    ):
        return True  # the word's last part is longer than that of any abbreviation
    # Abbreviations are short: a word reaching the start of this window is none of them.
    window_start = max(0, start - _ABBREVIATION_WINDOW)
    word_match = _WORD_BEFORE.search(text, window_start, start)
    if word_match is None or (word_match.start() == window_start and window_start > 0):
        return True
    word = word_match.group(0)
    lowered = word.lower()
    if lowered in NEVER_ENDING_ABBREVIATIONS:
        return False
    if len(word) == 1 and word.isalpha() and word.isupper():
        return False  # an initial, as in "J. Smith"
    if lowered in AMBIGUOUS_ABBREVIATIONS:
        return _next_is_capital(text, end, limit)
    return True


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence of normalised text, trimmed of white space.

    Within each paragraph, every boundary the rules accept ends a sentence (its last character
    is the boundary's, never white space) and the next sentence starts at the first visible
    character after it; only a paragraph's last sentence needs its end trimmed.
    """
    spans: list[tuple[int, int]] = []
    append = spans.append
    paragraph_start = 0
    paragraphs = [(m.start(), m.end()) for m in _PARAGRAPH_BREAK.finditer(text)]
    paragraphs.append((len(text), len(text)))
    for paragraph_end, next_start in paragraphs:
        start = _space_end(text, paragraph_start, paragraph_end)
        for match in _BOUNDARY_OR_SURE.finditer(text, start, paragraph_end):
            end = match.end("run")
            if match.group("sure") is not None or _boundary_ends_sentence(
                text, match.start(), end, paragraph_end
            ):
                append((start, end))
                start = match.end()
        if start < paragraph_end:
            append((start, start + len(text[start:paragraph_end].rstrip())))
        paragraph_start = next_start
    return spans


def split_sentences(text: str) -> list[Sentence]:
    """Split normalised text into sentences (spans trimmed of surrounding white space)."""
    return [Sentence(start, end) for start, end in sentence_spans(text)]


def count_sentences(text: str) -> int:
    """Number of sentences of a raw text (normalised first)."""
    return len(split_sentences(normalise(text)))


def lower_preserving_length(text: str) -> str:
    """Lower case, one character for one (a few characters such as "İ" lower to two; those
    keep their own case), so that offsets into the text stay valid."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in text)


def collapse_whitespace(text: str) -> str:
    """Every run of white space as one space."""
    return _WHITESPACE_RUN.sub(" ", text)


def tokens_of(sentence_text: str) -> list[str]:
    """Lower-cased tokens of one sentence (fast path, no offsets)."""
    return TOKEN_PATTERN.findall(sentence_text.lower())


def token_spans(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """Lower-cased tokens of ``text[start:end]`` with their offsets in ``text``."""
    return [
        (m.group(0).lower(), m.start(), m.end()) for m in TOKEN_PATTERN.finditer(text, start, end)
    ]


def tokens_of_text(text: str) -> list[str]:
    """``TOKEN_PATTERN.findall(text)``, faster.

    No token contains white space and the pattern looks neither behind nor ahead, so the tokens
    of a text are those of its white-space-separated chunks in turn; a chunk of letters and
    digits only is one word token as it stands, and only the other chunks need the pattern.
    """
    tokens: list[str] = []
    append, extend, find = tokens.append, tokens.extend, TOKEN_PATTERN.findall
    for chunk in text.split():
        if chunk.isalnum():
            append(chunk)
        else:
            extend(find(chunk))
    return tokens


def is_word_token(token: str) -> bool:
    return token[0].isalnum()
