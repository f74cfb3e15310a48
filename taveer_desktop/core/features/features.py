"""The eleven TAVeer feature categories F1–F11 and their extraction from one document.

F1–F3  punctuation n-grams (n = 1, 2, 3) over the punctuation characters of a sentence
F4     TA sentence starters and clause starters (", so", "; however")
F5     TA sentence endings
F6–F9  TA token n-grams (n = 1..4), every token a lexicon entry or a punctuation token
F10–F11 masked token n-grams (n = 3, 4): exactly one topic word, shown as "#"

All n-grams are taken within a sentence, never across sentences. A document's features are
absolute counts per category; the known side of a case adds up the counts of every known
document (the profile), which equals the features of their concatenation because no feature
crosses a sentence, and so none crosses a document.

How they are counted: ``feature_stream`` turns a document into integer streams, and
``feature_counts`` counts packed integer codes with numpy (``feature_codes`` numbers tokens and
features); feature strings are made only for display (``DocumentFeatures.counts``).
"""

from __future__ import annotations

from taveer_desktop.core.features.feature_codes import (
    CATEGORY_IDS,
    CLAUSE_MARKS,
    LITERAL_HASH,
    MASK,
)
from taveer_desktop.core.features.feature_stream import CodedDocument, encode_document, prepare_text
from taveer_desktop.core.features.feature_vectors import DocumentFeatures
from taveer_desktop.core.features.lexicon import Lexicon

__all__ = [
    "CATEGORY_IDS",
    "CATEGORY_NAMES",
    "CLAUSE_MARKS",
    "LITERAL_HASH",
    "MASK",
    "CodedDocument",
    "DocumentFeatures",
    "category_index",
    "encode_document",
    "extract_features",
    "extract_sentence_features",
    "prepare_text",
]

CATEGORY_NAMES: dict[str, str] = {
    "F1": "Punctuation 1-grams",
    "F2": "Punctuation 2-grams",
    "F3": "Punctuation 3-grams",
    "F4": "TA sentence and clause starters",
    "F5": "TA sentence endings",
    "F6": "TA token 1-grams",
    "F7": "TA token 2-grams",
    "F8": "TA token 3-grams",
    "F9": "TA token 4-grams",
    "F10": "TA masked token 3-grams",
    "F11": "TA masked token 4-grams",
}


def category_index(category: str) -> int:
    """0-based position of a category id such as ``"F7"``."""
    try:
        return CATEGORY_IDS.index(category)
    except ValueError:
        raise ValueError(f"unknown feature category {category!r} (use F1..F11)") from None


def extract_features(text: str, lexicon: Lexicon) -> DocumentFeatures:
    """Counts of every feature of every category F1–F11 in one raw document.

    The whole document is processed at once: its sentences are joined by an internal separator
    that no feature may contain, which keeps every n-gram inside its sentence.
    """
    return encode_document(text, lexicon).features()


def extract_sentence_features(text: str, lexicon: Lexicon) -> list[dict[str, dict[str, int]]]:
    """Counts per category of each sentence on its own (they add up to the document's)."""
    document = encode_document(text, lexicon)
    return [document.features(i, i + 1).counts for i in range(document.n_sentences)]
