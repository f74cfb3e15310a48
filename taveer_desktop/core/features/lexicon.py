"""The topic-agnostic lexicon L_TA: words and phrases that carry style, not topic.

The lexicon is data (``resources/lexicon/ta_lexicon.tsv``: ``entry<TAB>category,...``), loaded
once and hashed so that a model can record exactly which lexicon it was trained with. Entries are
matched on tokens (never inside a longer token), multi-word phrases longest first.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TypeAlias

from taveer_desktop import paths
from taveer_desktop.core.features.text import MULTI_DOT_ABBREVIATION, TOKEN_PATTERN, normalise
from taveer_desktop.core.ground.errors import InputError

DEFAULT_LEXICON_FILE = ("lexicon", "ta_lexicon.tsv")


@dataclass(frozen=True)
class Lexicon:
    """L_TA: its entries (single tokens and multi-token phrases) and their categories."""

    categories_of: Mapping[str, frozenset[str]]
    words: frozenset[str]
    phrases: frozenset[str]
    sha256: str
    source: str

    def __contains__(self, entry: str) -> bool:
        return entry in self.categories_of

    def __len__(self) -> int:
        return len(self.categories_of)

    @cached_property
    def token_pattern(self) -> re.Pattern[str]:
        """The tokenizer with this lexicon's phrases compiled in (compiled on first use: the
        feature engine finds phrases on token ids, so only highlighting needs it)."""
        return compile_token_pattern(self.phrases)

    def tokens(self, lowered_text: str) -> list[str]:
        """Tokens of lower-cased text with every lexicon phrase as one token (longest first).

        The text must have single spaces between words (``collapse_whitespace``) so that a
        phrase token reads exactly as its lexicon entry.
        """
        return self.token_pattern.findall(lowered_text)


_PHRASE_END = r"(?!['\-]?[^\W_])"  # a phrase ends where its last word ends
_Trie: TypeAlias = dict[str, "_Trie"]  # a character → the rest; the key "" marks a phrase end


def _trie_regex(phrases: Iterable[str]) -> str:
    """A regular expression matching any of ``phrases`` with longest-match-first semantics.

    Phrases are stored in a character trie so the engine rejects a non-matching position after
    one or two characters instead of trying every phrase in turn; the space between two words
    of a phrase matches any run of white space.
    """
    trie: _Trie = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: _Trie) -> str:
        ends_here = "" in node
        branches = []
        for char in sorted(k for k in node if k):
            step = r"\s+" if char == " " else re.escape(char)
            branches.append(step + build(node[char]))
        if not branches:
            return _PHRASE_END
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?{_PHRASE_END}" if ends_here else body

    return build(trie)


def compile_token_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """The tokenizer of ``text.TOKEN_PATTERN`` extended by the lexicon's phrases."""
    phrases = sorted(set(phrases))
    if not phrases:
        return TOKEN_PATTERN
    return re.compile(f"{MULTI_DOT_ABBREVIATION}|{_trie_regex(phrases)}|{TOKEN_PATTERN.pattern}")


def _entry_tokens(entry: str) -> tuple[str, ...]:
    parts = []
    for part in entry.split():
        # The tokenizer keeps the dot of a single-dot abbreviation ("etc.") as its own token,
        # so the lexicon entry is matched without it; multi-dot ones ("i.e.") stay whole.
        if part.endswith(".") and part.count(".") == 1 and len(part) > 1:
            part = part[:-1]
        parts.append(part)
    return tuple(parts)


def build_lexicon(lines: Iterable[str], source: str, sha256: str) -> Lexicon:
    """Build a lexicon from TSV lines (``entry<TAB>categories``; ``#`` starts a comment)."""
    categories_of: dict[str, set[str]] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        entry, _, cats = line.partition("\t")
        entry = " ".join(normalise(entry).lower().split())
        if not entry or not cats.strip():
            raise InputError(f"line {number} is not 'entry<TAB>categories'", source)
        tokens = _entry_tokens(entry)
        key = " ".join(tokens)
        categories_of.setdefault(key, set()).update(c.strip() for c in cats.split(",") if c.strip())
    if not categories_of:
        raise InputError("the lexicon has no entries", source)
    words = frozenset(k for k in categories_of if " " not in k)
    phrases = frozenset(k for k in categories_of if " " in k)
    return Lexicon(
        categories_of={k: frozenset(v) for k, v in categories_of.items()},
        words=words,
        phrases=phrases,
        sha256=sha256,
        source=source,
    )


def load_lexicon(path: str | Path) -> Lexicon:
    """Load and hash a lexicon file; problems raise ``InputError`` naming the file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read the lexicon ({error.strerror or error})", path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the lexicon is not UTF-8 text", path) from None
    return build_lexicon(text.splitlines(), str(path), hashlib.sha256(data).hexdigest())


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The lexicon shipped under ``resources/lexicon/`` (loaded once per process)."""
    return load_lexicon(paths.resource(*DEFAULT_LEXICON_FILE))
