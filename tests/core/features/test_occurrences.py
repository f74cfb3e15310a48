"""Locating feature occurrences in the text (for highlighting): same counts as the extractor."""

from __future__ import annotations

import pytest

from taveer_desktop import paths
from taveer_desktop.core.features.features import CATEGORY_IDS, extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.features.occurrences import category_occurrences, feature_occurrences


@pytest.fixture(scope="module")
def lexicon():
    return default_lexicon()


def _demo_documents():
    folder = paths.resource("demo", "federalist")
    return [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))[:3]]


@pytest.mark.parametrize("category", CATEGORY_IDS)
def test_every_counted_occurrence_is_found_in_real_documents(lexicon, category):
    for text in _demo_documents():
        counts = extract_features(text, lexicon).counts[category]
        _, found = category_occurrences(text, lexicon, category)
        assert {feature: len(spans) for feature, spans in found.items()} == counts


@pytest.mark.slow
def test_shared_corpus_documents(lexicon):
    from conftest import corpus_path

    folder = corpus_path("stackexchange", "test")
    for path in sorted(folder.glob("EN1[4-5]*/*.txt")):
        text = path.read_text(encoding="utf-8")
        features = extract_features(text, lexicon)
        for category in CATEGORY_IDS:
            _, found = category_occurrences(text, lexicon, category)
            assert {f: len(s) for f, s in found.items()} == features.counts[category], (
                path,
                category,
            )


def test_spans_of_the_golden_example(lexicon):
    text = "So that’s the way it goes."
    prepared, occurrences = feature_occurrences(text, lexicon, "F10", "the # it")
    (occurrence,) = occurrences
    assert prepared[occurrence.start : occurrence.end] == "the way it"
    assert prepared[slice(*occurrence.masked)] == "way"
    _, occurrences = feature_occurrences(text, lexicon, "F2", "'.")
    assert [prepared[s:e] for s, e in occurrences[0].parts] == ["'", "."]
    _, occurrences = feature_occurrences(text, lexicon, "F4", "so")
    assert prepared[occurrences[0].start : occurrences[0].end] == "So"


def test_phrases_keep_their_original_case_and_spacing(lexicon):
    text = "On the Other\nHand, we stayed."
    prepared, occurrences = feature_occurrences(text, lexicon, "F4", "on the other hand")
    assert prepared[occurrences[0].start : occurrences[0].end] == "On the Other\nHand"


def test_unknown_feature_has_no_occurrence(lexicon):
    assert feature_occurrences("It is.", lexicon, "F6", "nonexistent")[1] == []


def test_all_categories_at_once_equal_one_category_at_a_time(lexicon):
    from taveer_desktop.core.features.occurrences import categories_occurrences

    for text in _demo_documents():
        prepared, together = categories_occurrences(text, lexicon, CATEGORY_IDS)
        assert list(together) == list(CATEGORY_IDS)
        for category in CATEGORY_IDS:
            assert (prepared, together[category]) == category_occurrences(text, lexicon, category)
