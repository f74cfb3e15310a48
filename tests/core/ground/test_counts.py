"""Counts agree with their nouns everywhere, the engine's and the store's messages included."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import taveer_desktop
from taveer_desktop.core.ground.counts import count
from taveer_desktop.presentation import numbers


def test_a_count_agrees_with_its_noun():
    assert count(1, "usable document") == "1 usable document"
    assert count(0, "author") == "0 authors"
    assert count(1204, "analysis") == "1,204 analyses"
    assert count(2, "hidden file or folder", "hidden files or folders") == (
        "2 hidden files or folders"
    )
    assert numbers.count is count  # one function for the desktop, the report and the engine


def test_no_message_of_the_program_writes_a_plural_in_brackets():
    """ "author(s)", "problem(s)": a message says "1 author" or "2 authors" (http(s) is a URL
    scheme, not a plural)."""
    root = Path(taveer_desktop.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                # the words of the literal: an f-string's {expressions} and "http(s)" taken out
                text = re.sub(r"\{[^{}]*\}", "", token.string).replace("http(s)", "")
                if token.type == tokenize.STRING and re.search(r"[a-z]\(s\)", text):
                    found.append(f"{path.relative_to(root)}:{token.start[0]}")
    assert found == ["core/ground/counts.py:1"]  # its docstring names what it is for
