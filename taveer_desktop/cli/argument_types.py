"""Argument types and the document reader shared by the engine commands of ``taveer``.

Each type turns one command-line word into a value or raises ``argparse.ArgumentTypeError``
(argparse then prints one line and exits 2); ``read_document`` reads a document as the intake
does.
"""

from __future__ import annotations

import argparse

from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.intake.decoding import read_text_file
from taveer_desktop.presentation.face_registry import gives_text_evidence

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024


def read_document(path: str) -> str:
    return read_text_file(path, max_bytes=MAX_DOCUMENT_BYTES).text


def positive_number(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be a whole number ≥ 1")
    return number


def seed_number(value: str) -> int:
    number = int(value)
    if number < 0:  # numpy's generators take none below 0
        raise argparse.ArgumentTypeError("must be a whole number ≥ 0")
    return number


def category_option(value: str) -> str:
    value = value.upper()
    if value not in CATEGORY_IDS:
        raise argparse.ArgumentTypeError(f"{value!r} is not a category (use F1..F11)")
    return value


def explained_option(value: str) -> str:
    """A TAVeer category, or "lambdag" for LambdaG's evidence in the text (a method whose
    evidence is in the text, by its id)."""
    return value.lower() if gives_text_evidence(value.lower()) else category_option(value)


def share_number(value: str) -> float:
    number = float(value)
    if not number >= 0.0:
        raise argparse.ArgumentTypeError("must be a number ≥ 0")
    return number
