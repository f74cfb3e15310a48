"""Reading notes: how the analysed text of a document differs from what its file holds.

One typed record (``ReadingNotes``) of everything intake found between the file's bytes and the
text the method reads: invisible characters removed (``core/intake/invisible_text.py``), text hidden
from a reader and left out (hidden Word runs, HTML hidden by style), parts of the file not read
(another document part, an embedded document, the glossary, headers, footers, notes, comments),
an e-mail's plain-text alternative that says something else than the HTML part the recipient
saw, and a declared charset that did not fit. Stored with the document as
``metadata["reading"]`` (``to_json``/``from_metadata``) and worded here once (``lines``,
``summary``, ``verification_warning``) for the desktop, the report and the command line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from taveer_desktop.core.intake.invisible_text import (
    CharacterKind,
    InvisibleRemoved,
    remove_invisible,
)

METADATA_KEY = "reading"
SAMPLE_CHARS = 80
DIFFERS = "the analysed text differs from the file's bytes"


@dataclass(frozen=True)
class HiddenText:
    """Text a reader is not shown and that was not analysed: how many characters in how many
    places (Word runs, HTML elements), how it was hidden and its first characters."""

    characters: int
    places: int
    how: tuple[str, ...]
    sample: str = ""


@dataclass(frozen=True)
class IgnoredPart:
    """A part of the file that was not read: its name in the package or message, what it is
    (one of ``PART_WORDS``) and how many characters of text it holds (None: not counted)."""

    part: str
    kind: str
    characters: int | None = None


PART_WORDS = {
    "embedded": "an embedded document (altChunk) that Word shows inline",
    "second_document": "a second document part",
    "glossary": "the glossary (building blocks)",
    "header": "a header",
    "footer": "a footer",
    "footnotes": "footnotes",
    "endnotes": "endnotes",
    "comments": "comments",
}


@dataclass(frozen=True)
class AlternativeDifference:
    """An e-mail's alternative part that says something else than the analysed one: how many
    characters of words are only in the other part and only in the analysed one."""

    analysed: str
    other: str
    only_in_other: int
    only_in_analysed: int


@dataclass(frozen=True)
class CharsetNote:
    """A text part whose declared charset did not fit: what was declared, what was used, why."""

    declared: str
    used: str
    problem: str


@dataclass(frozen=True)
class ReadingNotes:
    """Everything intake recorded about a document's analysed text against its file."""

    invisible: InvisibleRemoved | None = None
    hidden: HiddenText | None = None
    ignored_parts: tuple[IgnoredPart, ...] = field(default_factory=tuple)
    alternative: AlternativeDifference | None = None
    charsets: tuple[CharsetNote, ...] = field(default_factory=tuple)

    def __bool__(self) -> bool:
        return bool(
            self.invisible or self.hidden or self.ignored_parts or self.alternative or self.charsets
        )

    def with_invisible(self, invisible: InvisibleRemoved | None) -> ReadingNotes:
        return replace(self, invisible=invisible)

    # ---- storage ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.invisible:
            data["invisible"] = {
                "removed": self.invisible.total,
                "kinds": [[k.code, k.name, k.count] for k in self.invisible.kinds],
                "first_positions": list(self.invisible.first_positions),
            }
        if self.hidden:
            data["hidden"] = {
                "characters": self.hidden.characters,
                "places": self.hidden.places,
                "how": list(self.hidden.how),
                "sample": self.hidden.sample,
            }
        if self.ignored_parts:
            data["ignored_parts"] = [
                {"part": p.part, "kind": p.kind, "characters": p.characters}
                for p in self.ignored_parts
            ]
        if self.alternative:
            a = self.alternative
            data["alternative"] = {
                "analysed": a.analysed,
                "other": a.other,
                "only_in_other": a.only_in_other,
                "only_in_analysed": a.only_in_analysed,
            }
        if self.charsets:
            data["charsets"] = [
                {"declared": c.declared, "used": c.used, "problem": c.problem}
                for c in self.charsets
            ]
        return data

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any] | None) -> ReadingNotes:
        """The notes stored in a document's metadata (none for a document imported before
        intake recorded them; a part that cannot be read is left out rather than guessed)."""
        data = (metadata or {}).get(METADATA_KEY)
        if not isinstance(data, Mapping):
            return cls()
        return cls(
            invisible=_read(_invisible, data.get("invisible")),
            hidden=_read(_hidden, data.get("hidden")),
            ignored_parts=tuple(
                p for p in (_read(_part, item) for item in _list(data.get("ignored_parts"))) if p
            ),
            alternative=_read(_alternative, data.get("alternative")),
            charsets=tuple(
                c for c in (_read(_charset, item) for item in _list(data.get("charsets"))) if c
            ),
        )

    # ---- wording ----------------------------------------------------------------------------

    def lines(self) -> list[str]:
        """One sentence per note, for the desktop's detail, the report and ``case show``."""
        lines = []
        if self.invisible:
            kinds = ", ".join(f"{k.name.lower()} {k.code} ×{k.count}" for k in self.invisible.kinds)
            positions = self.invisible.first_positions
            more = ", …" if self.invisible.total > len(positions) else ""
            where = ", ".join(f"{p:,}" for p in positions) + more
            lines.append(
                f"{_count(self.invisible.total, 'invisible character')} removed ({kinds}), "
                f"after character{_s(self.invisible.total)} {where} of the analysed text"
            )
        if self.hidden:
            h = self.hidden
            sample = f': "{h.sample}"' if h.sample else ""
            lines.append(
                f"{_count(h.characters, 'character')} of hidden text in "
                f"{_count(h.places, 'place')} ({', '.join(h.how)}) not analysed{sample}"
            )
        for part in self.ignored_parts:
            what = PART_WORDS.get(part.kind, part.kind)
            size = "" if part.characters is None else f", {_count(part.characters, 'character')}"
            lines.append(f"{what} ({part.part}{size}) not analysed")
        if self.alternative:
            a = self.alternative
            lines.append(
                f"the {a.other} part differs from the {a.analysed} part the recipient saw "
                f"(analysed): {_count(a.only_in_other, 'character')} of words only in the "
                f"{a.other} part, {a.only_in_analysed:,} only in the {a.analysed} part"
            )
        for c in self.charsets:
            lines.append(f"declared charset {c.declared} {c.problem}; read as {c.used}")
        return lines

    def summary(self) -> str:
        """A few words for a table cell: what kinds of notes there are."""
        words = []
        if self.invisible:
            words.append(f"{self.invisible.total:,} invisible removed")
        if self.hidden:
            words.append(f"{self.hidden.characters:,} hidden chars left out")
        if self.ignored_parts:
            words.append(_count(len(self.ignored_parts), "part") + " not read")
        if self.alternative:
            words.append("plain part differs")
        if self.charsets:
            words.append("charset did not fit")
        return "; ".join(words)


def verification_warnings(
    documents: Sequence[tuple[str, str, Mapping[str, Any] | None]],
) -> list[str]:
    """One warning per document with reading notes, from (its role, file name, metadata): what
    a verification on those documents says in its result's warnings."""
    warnings = []
    for role, file_name, metadata in documents:
        notes = ReadingNotes.from_metadata(metadata)
        if notes:
            warnings.append(
                f"{DIFFERS} for the {role} document {file_name}: " + "; ".join(notes.lines())
            )
    return warnings


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def sample_of(text: str) -> str:
    """The first ``SAMPLE_CHARS`` characters of hidden text as one line a reader can be shown:
    invisible and control characters out, white space collapsed."""
    shown = " ".join(_CONTROL.sub(" ", remove_invisible(text[: SAMPLE_CHARS * 4])[0]).split())
    return shown[:SAMPLE_CHARS]


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{_s(n)}"


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _read(reader: Any, value: Any) -> Any:
    if not isinstance(value, Mapping):
        return None
    try:
        return reader(value)
    except (KeyError, TypeError, ValueError):
        return None


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not text")
    return value


def _invisible(data: Mapping[str, Any]) -> InvisibleRemoved:
    kinds = tuple(
        CharacterKind(_str(code), _str(name), _int(count)) for code, name, count in data["kinds"]
    )
    return InvisibleRemoved(kinds, tuple(_int(p) for p in data["first_positions"]))


def _hidden(data: Mapping[str, Any]) -> HiddenText:
    return HiddenText(
        _int(data["characters"]),
        _int(data["places"]),
        tuple(_str(h) for h in data["how"]),
        _str(data.get("sample", "")),
    )


def _part(data: Mapping[str, Any]) -> IgnoredPart:
    chars = data.get("characters")
    return IgnoredPart(
        _str(data["part"]), _str(data["kind"]), None if chars is None else _int(chars)
    )


def _alternative(data: Mapping[str, Any]) -> AlternativeDifference:
    return AlternativeDifference(
        _str(data["analysed"]),
        _str(data["other"]),
        _int(data["only_in_other"]),
        _int(data["only_in_analysed"]),
    )


def _charset(data: Mapping[str, Any]) -> CharsetNote:
    return CharsetNote(_str(data["declared"]), _str(data["used"]), _str(data["problem"]))
