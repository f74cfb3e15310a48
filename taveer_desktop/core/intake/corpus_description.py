"""What a corpus folder is, in one line, before it is used to train or evaluate a model.

``describe_corpus`` opens the folder the way training and evaluation will (``open_corpus``) and
says its layout, how many cases it holds and how many are same-author, or in plain words why it
cannot be used (it is not a corpus, or some cases have no truth). It never raises for a bad
folder: the answer is the sentence.
"""

from __future__ import annotations

from pathlib import Path

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.corpus import PAN_FOLDER, open_corpus

LAYOUT_NAMES = {PAN_FOLDER: "PAN 2013–2015 problem folders"}
JSONL_LAYOUT_NAME = "PAN pairs.jsonl"


def describe_corpus(folder: str | Path) -> str:
    """One line about a corpus folder (layout, cases, truth), or why it cannot be used."""
    try:
        corpus = open_corpus(folder)
    except InputError as error:
        return f"Cannot use this folder: {error.plain_message}"
    truth = len(corpus.truth)
    same = sum(1 for value in corpus.truth.values() if value)
    layout = LAYOUT_NAMES.get(corpus.layout, JSONL_LAYOUT_NAME)
    if truth < len(corpus):
        return f"{layout}, {len(corpus)} cases, but only {truth} have a truth: cannot be used"
    return f"{layout}: {len(corpus)} cases ({same} same author, {truth - same} different)"
