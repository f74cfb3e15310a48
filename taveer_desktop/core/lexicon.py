"""The topic-agnostic lexicon L_TA: words and phrases that carry style, not topic.

The lexicon is data (``resources/lexicon/ta_lexicon.tsv``: ``entry<TAB>category,...``), loaded
once and hashed so that a model can record exactly which lexicon it was trained with. Entries are
matched on tokens (never inside a longer token), multi-word phrases longest first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from taveer_desktop import paths
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.text import normalise

DEFAULT_LEXICON_FILE = ("lexicon", "ta_lexicon.tsv")


@dataclass(frozen=True)
class Lexicon:
    """L_TA as a set of single-token entries plus multi-token phrases."""

    categories_of: Mapping[str, frozenset[str]]
    words: frozenset[str]
    phrases_by_first: Mapping[str, tuple[tuple[str, ...], ...]] = field(repr=False)
    max_phrase_tokens: int
    sha256: str
    source: str

    def __contains__(self, entry: str) -> bool:
        return entry in self.categories_of

    def __len__(self) -> int:
        return len(self.categories_of)

    def merge_phrases(self, tokens: list[str]) -> list[tuple[str, int]]:
        """Group tokens into lexicon phrases, longest match first.

        Returns ``(token_text, n_tokens_covered)`` pairs; a matched phrase becomes one token
        whose text is the phrase with single spaces.
        """
        merged: list[tuple[str, int]] = []
        i, n = 0, len(tokens)
        phrases_by_first = self.phrases_by_first
        while i < n:
            candidates = phrases_by_first.get(tokens[i])
            if candidates:
                for phrase in candidates:  # longest first
                    length = len(phrase)
                    if tuple(tokens[i : i + length]) == phrase:
                        merged.append((" ".join(phrase), length))
                        i += length
                        break
                else:
                    merged.append((tokens[i], 1))
                    i += 1
            else:
                merged.append((tokens[i], 1))
                i += 1
        return merged


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
    phrases: dict[str, list[tuple[str, ...]]] = {}
    for key in categories_of:
        if " " in key:
            tokens = tuple(key.split(" "))
            phrases.setdefault(tokens[0], []).append(tokens)
    phrases_by_first = {
        first: tuple(sorted(group, key=lambda p: (-len(p), p))) for first, group in phrases.items()
    }
    max_len = max((len(p) for group in phrases_by_first.values() for p in group), default=1)
    return Lexicon(
        categories_of={k: frozenset(v) for k, v in categories_of.items()},
        words=words,
        phrases_by_first=phrases_by_first,
        max_phrase_tokens=max_len,
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
