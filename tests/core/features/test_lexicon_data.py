"""Checks of the topic-agnostic lexicon data file resources/lexicon/ta_lexicon.tsv.

The file is read with plain Python on purpose: these tests pin down the data, independent of
the loader in taveer_desktop.core.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

LEXICON = Path(__file__).resolve().parents[3] / "resources/lexicon/ta_lexicon.tsv"

CATEGORIES = (
    "conjunction",
    "determiner",
    "preposition",
    "pronoun",
    "quantifier",
    "auxiliary_verb",
    "delexicalised_verb",
    "empty_verb",
    "helping_verb",
    "contraction",
    "adverb_degree",
    "adverb_frequency",
    "adverb_place",
    "adverb_time",
    "adverb_pronominal",
    "adverb_focusing",
    "adverb_conjunctive",
    "transition_word",
    "transitional_phrase",
    "phrasal_preposition",
)

# The examples of Table 2 of the TAVeer paper, each in the category the paper gives it.
TABLE_2 = {
    "conjunction": "and as because but either for hence however if neither nor once",
    "determiner": "a an both each either every no other our some",
    "preposition": "above across after among below beside between beyond inside outside",
    "pronoun": "all another any anyone anything everything few he her hers herself",
    "quantifier": "any certain each either few less lots many more most much neither",
    "auxiliary_verb": "can could might must ought shall will",
    "delexicalised_verb": "get go take make do have give set",
    "empty_verb": "do did does got getting have had gives giving gave give gets",
    "helping_verb": "am is are was were be been being will should would could",
    "contraction": "i'm i'd i'll i've he's it's we'd she's it'll we're how's you're",
    "adverb_degree": "almost enough hardly just nearly quite simply so too",
    "adverb_frequency": "again always never normally rarely seldom sometimes usually",
    "adverb_place": "above below everywhere here in inside into nowhere out outside there",
    "adverb_time": "already during immediately just late recently still then sometimes yet",
    "adverb_pronominal": "hereafter hereby thereafter thereby therefore therein whereas wherever",
    "adverb_focusing": "especially mainly particularly generally only simply exactly merely solely",
    "adverb_conjunctive": "likewise meanwhile moreover namely nonetheless otherwise perhaps rather",
    "transition_word": "besides furthermore generally hence thus however incidentally subsequently",
}
TABLE_2_PHRASES = {
    "transitional_phrase": [
        "of course",
        "as a result",
        "in addition",
        "because of",
        "in contrast",
        "on the other hand",
    ],
    "phrasal_preposition": [
        "as opposed to",
        "in regard to",
        "in relation to",
        "inspite of",
        "out of",
        "with regard to",
    ],
}

# Further entries every sensible L_TA must hold, with one category each must have.
MUST_HAVE = {
    "the": "determiner",
    "and": "conjunction",
    "of": "preposition",
    "so": "conjunction",
    "that's": "contraction",
    "it": "pronoun",
    "goes": "delexicalised_verb",
    "went": "delexicalised_verb",
    "gone": "delexicalised_verb",
    "given": "delexicalised_verb",
    "taken": "empty_verb",
    "would": "auxiliary_verb",
    "mustn't": "auxiliary_verb",
    "gave": "empty_verb",
    "been": "helping_verb",
    "being": "helping_verb",
    "don't": "contraction",
    "can't": "contraction",
    "won't": "contraction",
    "isn't": "contraction",
    "there's": "contraction",
    "let's": "contraction",
    "y'all": "contraction",
    "themselves": "pronoun",
    "yourselves": "pronoun",
    "mine": "pronoun",
    "whom": "pronoun",
    "however": "adverb_conjunctive",
    "therefore": "adverb_pronominal",
    "very": "adverb_degree",
    "often": "adverb_frequency",
    "nowhere": "adverb_place",
    "soon": "adverb_time",
    "only": "adverb_focusing",
    "i.e.": "transition_word",
    "e.g.": "transition_word",
    "of course": "transitional_phrase",
    "on the other hand": "transitional_phrase",
    "in spite of": "phrasal_preposition",
    "a lot of": "quantifier",
}

TOPIC_WORDS = (
    "computer",
    "beer",
    "music",
    "government",
    "president",
    "data",
    "dog",
    "way",
    "house",
    "money",
    "car",
    "school",
    "evidence",
    "police",
    "morning",
    "week",
    "hour",
)

NEGATED = (
    "aren't can't couldn't didn't doesn't don't hadn't hasn't haven't isn't mightn't "
    "mustn't needn't shan't shouldn't wasn't weren't won't wouldn't"
)

CURLY = "\u2018\u2019\u201a\u201b\u201c\u201d\u2032\u00b4`"


def _data_lines() -> list[str]:
    text = LEXICON.read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def lexicon() -> dict[str, set[str]]:
    result: dict[str, set[str]] = {}
    for line in _data_lines():
        entry, cats = line.split("\t")
        result[entry] = set(cats.split(","))
    return result


def test_file_is_utf8_with_header_comment() -> None:
    raw = LEXICON.read_bytes()
    text = raw.decode("utf-8")
    assert not text.startswith("\ufeff"), "no byte order mark"
    assert "\r" not in text
    assert text.endswith("\n")
    first = text.split("\n", 1)[0]
    assert first.startswith("#")
    header = [line for line in text.split("\n") if line.startswith("#")]
    joined = " ".join(header).lower()
    assert "posnoise" in joined and "apache" in joined


def test_every_line_has_entry_tab_categories() -> None:
    lines = _data_lines()
    assert lines
    for line in lines:
        assert line.count("\t") == 1, repr(line)
        entry, cats = line.split("\t")
        assert entry == entry.strip() and entry, repr(line)
        assert cats == cats.strip() and " " not in cats, repr(line)
        parts = cats.split(",")
        assert parts == sorted(set(parts)), f"categories not sorted/unique: {line!r}"
        for cat in parts:
            assert cat in CATEGORIES, f"unknown category {cat!r} in {line!r}"


def test_entry_shape() -> None:
    allowed = re.compile(r"^[a-z'.\-]+( [a-z'.\-]+)*$")
    for line in _data_lines():
        entry = line.split("\t")[0]
        assert entry == entry.lower(), entry
        assert not any(c in entry for c in CURLY), f"curly quote in {entry!r}"
        assert not re.search(r"\d", entry), entry
        assert "  " not in entry, entry
        assert allowed.match(entry), f"odd shape: {entry!r}"
        for token in entry.split(" "):
            assert not token.startswith("'") and not token.endswith("'"), entry
            assert not token.startswith("-") and not token.endswith("-"), entry
            if "." in token:  # only dotted abbreviations such as i.e. or etc.
                assert token.endswith("."), entry


def test_sorted_and_no_duplicates() -> None:
    entries = [line.split("\t")[0] for line in _data_lines()]
    assert len(entries) == len(set(entries)), "duplicate entries"
    assert entries == sorted(entries), "entries are not sorted"


def test_all_twenty_categories_present(lexicon: dict[str, set[str]]) -> None:
    assert len(CATEGORIES) == 20
    used = set().union(*lexicon.values())
    assert used == set(CATEGORIES)
    for cat in CATEGORIES:
        size = sum(1 for cats in lexicon.values() if cat in cats)
        assert size >= 10, f"category {cat} has only {size} entries"


def test_size_is_comprehensive(lexicon: dict[str, set[str]]) -> None:
    assert 1000 <= len(lexicon) <= 2000


@pytest.mark.parametrize("category", sorted(TABLE_2))
def test_table_2_words(lexicon: dict[str, set[str]], category: str) -> None:
    for word in TABLE_2[category].split():
        assert word in lexicon, word
        assert category in lexicon[word], f"{word!r} should be {category}"


@pytest.mark.parametrize("category", sorted(TABLE_2_PHRASES))
def test_table_2_phrases(lexicon: dict[str, set[str]], category: str) -> None:
    for phrase in TABLE_2_PHRASES[category]:
        assert phrase in lexicon, phrase
        assert category in lexicon[phrase], f"{phrase!r} should be {category}"


@pytest.mark.parametrize(("entry", "category"), sorted(MUST_HAVE.items()))
def test_must_have_entries(lexicon: dict[str, set[str]], entry: str, category: str) -> None:
    assert entry in lexicon, entry
    assert category in lexicon[entry], f"{entry!r}: {sorted(lexicon[entry])}"


def test_verb_paradigms_complete(lexicon: dict[str, set[str]]) -> None:
    paradigms = {
        "be": "be am is are was were been being",
        "have": "have has had having",
        "do": "do does did doing done",
        "get": "get gets getting got gotten",
        "give": "give gives giving gave given",
        "go": "go goes going went gone",
        "make": "make makes making made",
        "take": "take takes taking took taken",
    }
    for forms in paradigms.values():
        for form in forms.split():
            assert form in lexicon, form


def test_negated_contractions(lexicon: dict[str, set[str]]) -> None:
    for form in NEGATED.split():
        assert "contraction" in lexicon.get(form, set()), form


def test_topic_words_absent(lexicon: dict[str, set[str]]) -> None:
    for word in TOPIC_WORDS:
        assert word not in lexicon, f"topic word {word!r} must not be in L_TA"


def test_paper_example_sentence(lexicon: dict[str, set[str]]) -> None:
    tokens = ["so", "that's", "the", "way", "it", "goes"]
    ta = [t for t in tokens if t in lexicon]
    assert ta == ["so", "that's", "the", "it", "goes"]


def test_posnoise_odd_shapes_left_out(lexicon: dict[str, set[str]]) -> None:
    for odd in ("both-and", "not only-but also", "first, firstly", "tho'", "shalled", "woulds"):
        assert odd not in lexicon, odd
