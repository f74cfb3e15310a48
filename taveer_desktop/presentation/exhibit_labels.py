"""Each document's exhibit label in its case: K1, K2, … for the known documents and Q1, Q2, …
for the questioned ones, numbered in the order they were added to the case.

A label belongs to the document for good: an excluded document keeps its number and so do the
documents after it (K4 stays K4 when K2 is excluded), because every document of the case is
counted, in use or not. Only a document removed before any run used it (``documents.remove``)
frees its number; no report ever named it. The report and the desktop's Documents tab label a
document with these words; the report's questioned document is "Q", the one it is about.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Document(Protocol):
    """What a label needs of a stored document (the store's ``Document``)."""

    @property
    def id(self) -> int: ...

    @property
    def role(self) -> str: ...


ROLE_LETTERS = {"known": "K", "questioned": "Q"}


def exhibit_labels(documents: Iterable[Document]) -> dict[int, str]:
    """Document id → label, for all the documents of one case (excluded ones included)."""
    labels: dict[int, str] = {}
    counts: dict[str, int] = {}
    for document in sorted(documents, key=lambda d: d.id):
        letter = ROLE_LETTERS.get(document.role, document.role[:1].upper())
        counts[letter] = counts.get(letter, 0) + 1
        labels[document.id] = f"{letter}{counts[letter]}"
    return labels
