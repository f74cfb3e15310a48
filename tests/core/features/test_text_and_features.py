"""Text processing and the eleven feature categories, including the paper's golden example."""

from __future__ import annotations

import pytest

from taveer_desktop.core.features.features import CATEGORY_IDS, DocumentFeatures, extract_features
from taveer_desktop.core.features.lexicon import build_lexicon, default_lexicon
from taveer_desktop.core.features.text import count_sentences, normalise, split_sentences, tokens_of


@pytest.fixture(scope="module")
def lexicon():
    return default_lexicon()


def sentences(text: str) -> list[str]:
    text = normalise(text)
    return [s.text_of(text) for s in split_sentences(text)]


def test_golden_example_of_the_paper(lexicon):
    counts = extract_features("So that's the way it goes.", lexicon).counts
    assert counts["F2"] == {"'.": 1}
    assert counts["F4"] == {"so": 1}
    assert counts["F5"] == {"goes": 1}
    assert {"so that's the", "it goes ."} <= set(counts["F8"])
    assert set(counts["F10"]) == {"that's the #", "the # it", "# it goes"}


def test_golden_example_other_categories(lexicon):
    counts = extract_features("So that’s the way it goes.", lexicon).counts  # curly apostrophe
    assert counts["F1"] == {"'": 1, ".": 1}
    assert counts["F3"] == {}
    assert counts["F6"] == {"so": 1, "that's": 1, "the": 1, "it": 1, "goes": 1, ".": 1}
    assert counts["F7"] == {"so that's": 1, "that's the": 1, "it goes": 1, "goes .": 1}
    assert counts["F9"] == {}
    assert set(counts["F11"]) == {
        "so that's the #",
        "that's the # it",
        "the # it goes",
        "# it goes .",
    }


def test_normalise_maps_curly_quotes_one_for_one():
    raw = "“Don’t,” she said."
    assert normalise(raw) == '"Don\'t," she said.'
    assert len(normalise(raw)) == len(raw)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Mr. Smith met Dr. Jones.", ["Mr. Smith met Dr. Jones."]),
        (
            "We use tools, e.g. hammers. Then we stop.",
            ["We use tools, e.g. hammers.", "Then we stop."],
        ),
        ("J. R. Tolkien wrote it.", ["J. R. Tolkien wrote it."]),
        ("It costs 3.5 dollars. Cheap.", ["It costs 3.5 dollars.", "Cheap."]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("Wait... what? Fine... Go.", ["Wait... what?", "Fine...", "Go."]),
        ("apples, pears etc. and more. Next one.", ["apples, pears etc. and more.", "Next one."]),
        ("no end here\nstill same sentence", ["no end here\nstill same sentence"]),
        ("first paragraph\n\nsecond paragraph", ["first paragraph", "second paragraph"]),
        ("Line one\r\n\r\nLine two", ["Line one", "Line two"]),
    ],
)
def test_sentence_splitting(text, expected):
    assert sentences(text) == expected


def test_count_sentences_of_raw_text():
    assert count_sentences("A b. C d.\n\nE f") == 3
    assert count_sentences("   ") == 0


def test_tokens_keep_contractions_hyphens_and_dotted_abbreviations():
    assert tokens_of("That's well-known, i.e. obvious—isn't it?") == [
        "that's",
        "well-known",
        ",",
        "i.e.",
        "obvious",
        "—",
        "isn't",
        "it",
        "?",
    ]


def test_trailing_apostrophe_is_punctuation():
    assert tokens_of("the students' rooms") == ["the", "students", "'", "rooms"]


def test_phrases_match_on_whole_tokens_longest_first():
    lex = build_lexicon(
        [
            "so\tadverb_degree",
            "so that\tconjunction",
            "that's\tcontraction",
            "on the other hand\ttransitional_phrase",
            "on\tpreposition",
            "the\tdeterminer",
        ],
        "test",
        "0",
    )
    assert lex.tokens("so that's it") == ["so", "that's", "it"]
    assert lex.tokens("so that it") == ["so that", "it"]
    assert lex.tokens("so\nthat it") == ["so\nthat", "it"]  # white space is collapsed before use
    assert lex.tokens("on the other hand,") == ["on the other hand", ","]
    assert lex.tokens("on the other side") == ["on", "the", "other", "side"]
    assert lex.tokens("on the other handle") == ["on", "the", "other", "handle"]


def test_clause_starters_and_leading_punctuation(lexicon):
    counts = extract_features('"However, we left; so it ended, apples fell.', lexicon).counts
    assert counts["F4"] == {"however": 1, ", we": 1, "; so": 1}  # ", apples": topic word
    assert counts["F1"]['"'] == 1


def test_sentence_ending_without_final_punctuation(lexicon):
    assert extract_features("where did it go", lexicon).counts["F5"] == {"go": 1}
    assert extract_features("I bought apples.", lexicon).counts["F5"] == {}


def test_no_ngram_crosses_a_sentence(lexicon):
    counts = extract_features("It is. It is.", lexicon).counts
    assert ". it" not in counts["F7"]
    assert counts["F7"] == {"it is": 2, "is .": 2}
    assert counts["F2"] == {}  # each sentence has a single punctuation mark
    assert counts["F1"] == {".": 2}


def test_masked_ngrams_have_exactly_one_topic_word(lexicon):
    counts = extract_features("The cat sat on the mat.", lexicon).counts
    for feature in list(counts["F10"]) + list(counts["F11"]):
        assert feature.split(" ").count("#") == 1
    assert "the # #" not in counts["F10"]
    assert "on the #" in counts["F10"]


def test_profile_adds_counts_and_equals_concatenated_documents(lexicon):
    a, b = "So it goes. Then it went.", "But we stayed here, of course."
    combined = DocumentFeatures.combine(
        [extract_features(a, lexicon), extract_features(b, lexicon)]
    )
    joined = extract_features(a + "\n\n" + b, lexicon)
    assert combined.counts == joined.counts
    assert combined.n_sentences == joined.n_sentences == 3


def test_every_category_present_even_when_empty(lexicon):
    counts = extract_features("Hmm", lexicon).counts
    assert list(counts) == list(CATEGORY_IDS)
