"""Excerpts of a huge questioned document come from a bounded prefix read in pieces.

Before, every occurrence of every feature of the whole text was located at once (13 s and
gigabytes of memory for five million characters, most of the report's cost).
"""

from __future__ import annotations

import time

from taveer_desktop import paths
from taveer_desktop.core.features.features import CATEGORY_IDS, extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.report import excerpts as excerpts_module
from taveer_desktop.report.excerpts import find_excerpts

TEXT = paths.resource("demo", "federalist", "federalist_51_questioned.txt").read_text(
    encoding="utf-8"
)


def test_reading_in_pieces_finds_every_occurrence_in_order(monkeypatch):
    monkeypatch.setattr(excerpts_module, "FIRST_PIECE_CHARS", 1500)
    lexicon = default_lexicon()
    counts = extract_features(TEXT, lexicon).counts
    wanted = {c: sorted(counts[c])[:25] for c in CATEGORY_IDS}
    found = find_excerpts(TEXT, lexicon, wanted, per_feature=10**6)
    for (category, feature), excerpts in found.items():
        assert len(excerpts) == counts[category][feature], (category, feature)
        offsets = [e.offset for e in excerpts]
        assert offsets == sorted(offsets)
        for excerpt in excerpts:  # offsets point into the whole text, not into a piece
            assert TEXT[excerpt.offset : excerpt.offset + len(excerpt.match)] == excerpt.match


def test_a_huge_text_is_read_only_up_to_the_bound():
    lexicon = default_lexicon()
    late = "\n\nZebras quarrel; however, xylophones!"
    huge = (TEXT + "\n\n") * (3 * excerpts_module.MAX_SCANNED_CHARS // len(TEXT)) + late
    started = time.perf_counter()
    found = find_excerpts(huge, lexicon, {"F1": [";", ","], "F4": [", however"]}, per_feature=2)
    seconds = time.perf_counter() - started
    assert len(found[("F1", ";")]) == 2 and len(found[("F1", ",")]) == 2
    assert seconds < 5, seconds
