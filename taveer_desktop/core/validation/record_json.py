"""The typed validation record's parts as JSON, as the record holds them: what a command prints
of a record (``taveer validate --json``, ``taveer case validate --json``) from its typed reading
(``core/validation/record_reader.py``), never from a lookup in the record's dictionary.

A part keeps the keys the record gave it, in the record's order (``written``; the figures and
intervals their ``names``; ``core/validation/record_parts.py``), so ``part_json`` gives back the
block with the same keys, order and values: an int stays an int, a pair a two-item list, a
block the record held as null prints null (a band without trials of both classes has no
figures, intervals or bound), a method's block is its ``MethodFigures.to_dict()`` with the
keys it was read with.
``tests/core/validation/test_record_json.py`` holds every printed block of the stored, test and
freshly written records to the record's own JSON, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from taveer_desktop.core.validation.method_figures import MethodFigures
from taveer_desktop.core.validation.record_parts import Figures, Intervals


def part_json(part: Any) -> Any:
    """``part`` (a typed part of the record, or a value in one) as the record's JSON."""
    if isinstance(part, MethodFigures):  # its block as validate writes it, keys as held
        block = part.to_dict()
        return block if part.written is None else {k: block.get(k) for k in part.written}
    if isinstance(part, Figures | Intervals):
        if not part.names:
            return None  # no figures at all: the record held null (a band of one class)
        return {name: part_json(part.value(name)) for name in part.names}
    if is_dataclass(part) and not isinstance(part, type):
        written = getattr(part, "written", None)
        if written is None:
            return None
        typed = {f.name for f in fields(part)}
        return {key: part_json(getattr(part, key)) for key in written if key in typed}
    if isinstance(part, tuple):
        return [part_json(item) for item in part]
    if isinstance(part, Mapping):
        return {str(key): part_json(value) for key, value in part.items()}
    return part
