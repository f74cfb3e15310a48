"""JSON read from files the user gives (models, corpora), with limits the standard parser lacks.

``json.loads`` recurses once per nesting level (a file of 100,000 ``[`` ends in a
``RecursionError``) and turns a number of thousands of digits into an ``int`` that later
overflows every float conversion (or refuses it past Python's 4,300-digit limit with a
``ValueError``). ``loads_limited`` refuses both with one ``InputError`` naming the file and the
limit: nesting deeper than ``MAX_DEPTH`` is found by a scan of the brackets outside strings
before parsing, and a number literal longer than ``MAX_NUMBER_CHARS`` is refused as it is read.
An object naming one key twice is refused too: ``json.loads`` keeps the last value silently,
so a file could show a reader one value and hand the program another. So is a string holding a
lone surrogate (an escape of half a UTF-16 pair, ``\\ud800``): it is no character, and every
later use of the text (hashing, storing, the feature scan) would fail on it. Every JSON file a user
gives (models, validation records, receipts, evaluation records, corpus lines) is read here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from taveer_desktop.core.ground.errors import InputError

MAX_DEPTH = 64
MAX_NUMBER_CHARS = 40  # a float written in full by repr() has at most 24
# possessive and unrolled: one step per character and no memory per character (the plain
# ``"(?:[^"\\]|\\.)*"`` kept a backtracking entry per character: ~120 bytes each, so a 200 MB
# string in a --record file took more than 23 GB and was killed by the system)
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
# an escape of half a UTF-16 pair (``\ud83d\ude00`` is one emoji; ``\ud800`` alone is no character)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings ignored)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def loads_limited(text: str, source: str, what: str = "JSON file") -> Any:
    """``json.loads`` of ``text`` within the depth and number-size limits.

    Non-finite constants (``NaN``, ``Infinity``) become NaN so the caller's validation refuses
    them by name; syntax errors are left to the caller (``json.JSONDecodeError``).
    """
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise InputError(
            f"is not a usable {what}: its JSON is nested {depth:,} levels deep, over the "
            f"limit of {MAX_DEPTH}",
            source,
        )

    def number(literal: str, convert: Callable[[str], int | float]) -> int | float:
        if len(literal) > MAX_NUMBER_CHARS:
            raise InputError(
                f"is not a usable {what}: it holds a number of {len(literal):,} characters, "
                f"over the limit of {MAX_NUMBER_CHARS}",
                source,
            )
        return convert(literal)

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) != len(pairs):
            keys = [key for key, _value in pairs]
            twice = next(key for index, key in enumerate(keys) if key in keys[:index])
            raise InputError(
                f"is not a usable {what}: an object of its JSON names the key {twice!r} twice",
                source,
            )
        return found

    value = json.loads(
        text,
        parse_int=lambda s: number(s, int),
        parse_float=lambda s: number(s, float),
        parse_constant=lambda c: float("nan"),
        object_pairs_hook=unique,
    )
    odd = _lone_surrogate(value) if _SURROGATE_ESCAPE.search(text) else None
    if odd:
        raise InputError(
            f"is not a usable {what}: it holds a lone surrogate ({odd}), half of a character, "
            "which is not valid Unicode text",
            source,
        )
    return value


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate (as ``\\udxxx``) in a string, key or item of ``value``."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return f"\\u{ord(item[error.start]):04x}"
    return None


def non_finite_at(value: Any, where: str = "") -> str | None:
    """Where (``trials[1].score``) the first NaN or infinite number of a decoded JSON value is;
    None where every number is finite. For files the program writes with ``allow_nan=False``:
    such a number there was put in by hand."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the top level"
    if isinstance(value, dict):
        items: Any = (
            (f"{where}.{key}" if where else str(key), item) for key, item in value.items()
        )
    elif isinstance(value, list):
        items = ((f"{where}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    for place, item in items:
        found = non_finite_at(item, place)
        if found:
            return found
    return None
