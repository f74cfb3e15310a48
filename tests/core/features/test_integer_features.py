"""Integer-coded features: sentence slices, prefixes cut at a sentence boundary, profiles and
distances computed on codes, and the display strings made from them."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taveer_desktop.core.features import text as text_module
from taveer_desktop.core.features.feature_codes import codebook_for
from taveer_desktop.core.features.feature_counts import count_many, count_per_sentence
from taveer_desktop.core.features.feature_stream import (
    case_features,
    profile_features,
    profile_streams,
    punctuation_of,
)
from taveer_desktop.core.features.feature_vectors import _ascending_sums
from taveer_desktop.core.features.features import (
    CATEGORY_IDS,
    DocumentFeatures,
    encode_document,
    extract_features,
    prepare_text,
)
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.methods.taveer.scoring import manhattan_distance
from taveer_desktop.paths import resource

LEXICON = default_lexicon()
FEDERALIST = sorted(resource("demo", "federalist").glob("*.txt"))


def _text(index: int) -> str:
    return FEDERALIST[index].read_text(encoding="utf-8")


def _added(parts: list[dict[str, dict[str, int]]]) -> dict[str, Counter]:
    total = {c: Counter() for c in CATEGORY_IDS}
    for part in parts:
        for c in CATEGORY_IDS:
            total[c].update(part[c])
    return total


def test_sentence_slices_add_up_to_the_document():
    document = encode_document(_text(0), LEXICON)
    whole = document.features()
    assert document.n_sentences == whole.n_sentences > 100
    middle = document.n_sentences // 2
    halves = [document.features(0, middle), document.features(middle)]
    assert [h.n_sentences for h in halves] == [middle, document.n_sentences - middle]
    profile = DocumentFeatures.combine(halves)
    for c in CATEGORY_IDS:
        assert Counter(profile.counts[c]) == Counter(whole.counts[c]), c
    singles = [document.features(i, i + 1).counts for i in range(document.n_sentences)]
    assert _added(singles) == {c: Counter(whole.counts[c]) for c in CATEGORY_IDS}


@pytest.mark.parametrize("first, stop", [(0, 1), (3, 9), (10, 40), (25, 26)])
def test_a_run_of_sentences_counts_as_the_text_of_those_sentences(first, stop):
    text = _text(1)
    prepared = prepare_text(text)
    document = encode_document(text, LEXICON)
    part = document.features(first, stop)
    start, end = document.sentence_spans[first, 0], document.sentence_spans[stop - 1, 1]
    alone = extract_features(prepared[start:end], LEXICON)
    assert part.counts == alone.counts
    assert (part.n_sentences, part.n_chars) == (alone.n_sentences, alone.n_chars)


def test_prefix_is_cut_at_the_last_sentence_boundary_within_the_length():
    document = encode_document(_text(2), LEXICON)
    ends = document.sentence_spans[:, 1] - document.sentence_spans[0, 0]
    for limit in (0, 1, int(ends[0]), int(ends[0]) - 1, 500, 2000, 10**9):
        count = document.sentences_within(limit)
        assert all(ends[:count] <= limit)
        assert count == document.n_sentences or ends[count] > limit
        prefix = document.prefix(limit)
        assert prefix.n_sentences == count
        assert prefix.n_chars <= max(limit, 0) or count == document.n_sentences
    # from a later sentence on: a trial of about 1,000 characters starting at sentence 20
    count = document.sentences_within(1000, first=20)
    span = document.sentence_spans[20 + count - 1, 1] - document.sentence_spans[20, 0]
    assert 0 < span <= 1000
    assert document.features(20, 20 + count).n_chars == span
    with pytest.raises(IndexError):
        document.features(5, document.n_sentences + 1)


def test_empty_runs_and_empty_documents_have_no_features():
    empty = extract_features("", LEXICON)
    assert empty.n_sentences == 0 and all(empty.size(c) == 0 for c in CATEGORY_IDS)
    none = encode_document(_text(0), LEXICON).features(4, 4)
    assert none.n_sentences == 0 and none.totals().sum() == 0
    assert all(v != v for v in empty.distances(extract_features("So it goes.", LEXICON)))


def test_totals_sizes_and_category_arrays_agree_with_the_display_counts():
    features = extract_features(_text(3), LEXICON)
    for c in CATEGORY_IDS:
        keys, values = features.category(c)
        assert len(keys) == features.size(c) == len(features.counts[c])
        assert int(values.sum()) == features.total(c) == sum(features.counts[c].values())
    assert list(features.totals()) == [features.total(c) for c in CATEGORY_IDS]


def test_distances_on_codes_equal_the_string_distances_bit_for_bit():
    known = [extract_features(_text(i), LEXICON) for i in (0, 4, 5)]
    profile = DocumentFeatures.combine(known)
    unknown = extract_features(_text(-1), LEXICON)
    coded = unknown.distances(profile)
    for j, c in enumerate(CATEGORY_IDS):
        assert coded[j] == manhattan_distance(unknown.counts[c], profile.counts[c]), c


words = st.sampled_from(
    [
        "so",
        "that's",
        "the",
        "way",
        "it",
        "goes",
        "however",
        "in",
        "fact",
        "of",
        "course",
        "#",
        "on",
        "other",
        "hand",
        "i.e.",
        "well-known",
        "cat",
        "mr",
        "😀",
        "¿",
        "_",
        "…",
    ]
)
marks = st.sampled_from([" ", " ", " ", ", ", "; ", ". ", "! ", "? ", "\n\n", " - ", "'"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(words, marks), max_size=80), st.lists(st.tuples(words, marks)))
def test_profiles_and_distances_match_counting_strings(first, second):
    a = extract_features("".join(w + m for w, m in first), LEXICON)
    b = extract_features("".join(w + m for w, m in second), LEXICON)
    profile = DocumentFeatures.combine([a, b])
    for c in CATEGORY_IDS:
        expected = Counter(a.counts[c])
        expected.update(b.counts[c])
        assert profile.counts[c] == dict(expected), c  # same order as Counter.update
        d = manhattan_distance(a.counts[c], profile.counts[c])
        got = a.distances(profile)[CATEGORY_IDS.index(c)]
        assert (d is None and got != got) or d == got


def test_rare_symbols_and_a_written_hash_are_shown_as_written():
    features = extract_features("So 😀 the # goes; so ¿ it. 😀!", LEXICON)
    assert features.counts["F1"] == {"😀": 2, "#": 1, ";": 1, "¿": 1, ".": 1, "!": 1}
    assert "\\#" in features.counts["F6"] and "😀" in features.counts["F6"]
    assert features.counts["F4"] == {"so": 1, "; so": 1}
    codebook = codebook_for(LEXICON)
    assert codebook is codebook_for(LEXICON)
    assert codebook.punctuation_id("😀") == codebook.punctuation_id("😀") < 0x4000


def _tokens_by_the_lexicon_regex(lowered: str) -> list[str]:
    """Tokens as the tokenizer with the phrases compiled in gives them, shown as features do."""
    out = []
    for token in LEXICON.tokens(lowered):
        if token in LEXICON:
            out.append(token)
        elif token[0].isalnum():
            out.append("#")
        else:
            out.append("\\#" if token == "#" else token)
    return out


_PHRASE_WORDS = sorted({w for p in LEXICON.phrases for w in p.split()})


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([*_PHRASE_WORDS, "e.g.", "cat", "end-of", "of's", "x"]),
            st.sampled_from([" ", " ", " ", " ", ", ", "-", "'", ".", "\x00"]),
        ),
        max_size=60,
    )
)
def test_phrases_found_on_token_ids_equal_the_phrase_regex(pieces):
    lowered = "".join(w + m for w, m in pieces).strip()
    codebook = codebook_for(LEXICON)
    assert codebook.phrases is not None  # the shipped lexicon's phrases are plain words
    ids = codebook.tokenise(lowered).tolist()
    assert [codebook.token_text(i) if i else "\x00" for i in ids] == (
        _tokens_by_the_lexicon_regex(lowered)
    )


def _sentences_one_character_at_a_time(text: str) -> list[tuple[int, int]]:
    """The splitter as first written: paragraphs from the blank-line pattern, each sentence
    trimmed by stepping over white space character by character (the oracle for the spans)."""
    spans: list[tuple[int, int]] = []

    def add(start: int, end: int) -> None:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            spans.append((start, end))

    paragraphs, start = [], 0
    for match in text_module._PARAGRAPH_BREAK.finditer(text):
        paragraphs.append((start, match.start()))
        start = match.end()
    paragraphs.append((start, len(text)))
    for para_start, para_end in paragraphs:
        start = para_start
        for match in text_module._BOUNDARY.finditer(text, para_start, para_end):
            if text_module._boundary_ends_sentence(text, match.start(), match.end(), para_end):
                add(start, match.end())
                start = match.end()
        add(start, para_end)
    return spans


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Mr",
                "MR",
                "No",
                "inc",
                "Etc",
                "\u017ft",
                "\u212a",
                "Abcdef",
                "ab",
                "messrs",
                "Approx",
                "Sevenly",
                "x.approx",
                "J",
                "etc",
                "e.g",
                "word",
                "It",
                "3",
                "so",
                ".",
                "...",
                "!",
                "?",
                "…",
                '"',
                ")",
                " ",
                "  ",
                "\n",
                "\n\n",
                "\n \n",
                "\t",
                "\u00a0",
                "\u2028",
                "?!",
                "'",
            ]
        ),
        max_size=50,
    )
)
def test_sentence_spans_equal_trimming_one_character_at_a_time(pieces):
    text = "".join(pieces)
    assert text_module.sentence_spans(text) == _sentences_one_character_at_a_time(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(words, marks), max_size=40), min_size=1, max_size=4))
def test_a_profile_counted_in_one_pass_equals_combined_documents(documents):
    texts = ["".join(w + m for w, m in pieces) for pieces in documents]
    coded = [encode_document(t, LEXICON) for t in texts]
    one_pass = profile_features(coded)
    combined = DocumentFeatures.combine([d.features() for d in coded])
    assert one_pass == combined
    assert one_pass.counts == combined.counts


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.tuples(words, marks), max_size=30), min_size=1, max_size=5),
    st.lists(st.integers(min_value=1, max_value=3), min_size=4, max_size=7),
)
def test_streams_counted_together_equal_each_counted_alone(documents, sizes):
    """``count_many`` (several documents and profiles in one numpy pass: four or more) gives
    each of them exactly the counts, order and bounds of counting it alone."""
    coded = [encode_document("".join(w + m for w, m in p), LEXICON) for p in documents]
    items, start = [], 0
    for size in sizes:  # profiles of 1-3 documents, taken in turn from the list
        group = [coded[(start + k) % len(coded)] for k in range(size)]
        items.append(profile_streams(group))
        start += size
    together = count_many(items, coded[0].codebook)
    alone = [count_many([item], coded[0].codebook)[0] for item in items]
    assert together == alone
    assert [f.counts for f in together] == [f.counts for f in alone]


@pytest.mark.parametrize("index", [0, 3])
def test_every_sentence_counted_in_one_pass_equals_each_sentence_alone(index):
    document = encode_document(_text(index), LEXICON)
    rows, codes, counts = count_per_sentence(document.streams(), document.codebook)
    assert np.all(np.diff(rows) >= 0)
    for i in range(document.n_sentences):
        alone = document.features(i, i + 1)
        mine = rows == i
        assert np.array_equal(codes[mine], alone.keys)  # the same features in the same order
        assert np.array_equal(counts[mine], alone.values)


def test_a_case_counted_together_equals_its_profile_and_questioned_document_alone():
    known = [encode_document(_text(i), LEXICON) for i in (0, 1, 2)]
    questioned = encode_document(_text(3), LEXICON)
    profile, features = case_features(known, questioned)
    assert profile == profile_features(known)
    assert features == questioned.features()
    assert list(profile.counts["F4"]) == list(profile_features(known).counts["F4"])


def test_the_profile_of_the_demo_papers_in_one_pass_equals_combined_documents():
    coded = [encode_document(_text(i), LEXICON) for i in range(len(FEDERALIST))]
    assert profile_features(coded) == DocumentFeatures.combine([d.features() for d in coded])


_TOKEN_PIECES = ["ab", "i.e.", "x", "3", "-", "'", "_", "#", ".", "é", "😀", "\t", "  "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKEN_PIECES)))
def test_tokens_of_text_equal_the_token_pattern(pieces):
    text = " \n ".join("".join(pieces[i : i + 3]) for i in range(0, len(pieces), 3))
    assert text_module.tokens_of_text(text) == text_module.TOKEN_PATTERN.findall(text)


_SCAN_PIECES = [
    *_TOKEN_PIECES,
    "of",
    "the",
    "according",
    "to",
    "couldn't've",
    "notwithstanding",
    "notwithstandings",
    "unfortunately",
    "e.g.",
    "u.s.a.",
    "ab.c.d.",
    "x-a.b.c.",
    "o'a.b.c.",
    "don't",
    "well-known",
    "-",
    "'",
    ".",
    ",",
    "\x00",
    "²",
    "\u3000",
    "\u2014",
    "\u4e00",
    "\uff01",
    "\u0130",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_SCAN_PIECES), max_size=40), st.booleans())
def test_token_ids_found_with_numpy_equal_those_of_the_token_strings(pieces, spaced):
    text = (" " if spaced else "").join(pieces)
    codebook = codebook_for(LEXICON)
    scanned = codebook.scan(text)
    if "😀" in text:
        assert scanned is None  # characters above U+FFFF take the string path
        return
    assert scanned is not None
    tokens, marks = scanned
    assert tokens.tolist() == codebook.tokenise(text).tolist()
    assert marks.tolist() == codebook.character_ids(punctuation_of(text)).tolist()


@pytest.mark.parametrize("sizes", [(3, 0, 5, 1, 0, 2, 7, 0, 1, 1, 4), (0,) * 10 + (5000,)])
def test_ascending_sums_add_each_category_smallest_first_whether_padded_or_not(sizes):
    rng = np.random.default_rng(7)
    first_sizes = np.array(sizes)
    second_sizes = first_sizes[::-1].copy()
    first = rng.random(first_sizes.sum()) / 7
    second = rng.random(second_sizes.sum()) / 3
    sums = _ascending_sums(first, first_sizes, second, second_sizes)
    a, b = 0, 0
    for j in range(len(sizes)):
        terms = [*first[a : a + first_sizes[j]], *second[b : b + second_sizes[j]]]
        expected = 0.0
        for term in sorted(terms):
            expected += float(term)
        assert sums[j] == expected, j
        # any order of the same terms gives the same sum, to the last bit
        shuffled = rng.permutation(np.array(terms, dtype=float))
        half = len(shuffled) // 2
        again = _ascending_sums(
            shuffled[:half],
            np.eye(len(sizes), dtype=int)[j] * half,
            shuffled[half:],
            np.eye(len(sizes), dtype=int)[j] * (len(shuffled) - half),
        )
        assert again[j] == sums[j], j
        a, b = a + first_sizes[j], b + second_sizes[j]


def test_distances_do_not_depend_on_the_order_of_the_known_documents():
    unknown = extract_features(_text(-1), LEXICON)
    known = [extract_features(_text(i), LEXICON) for i in (1, 2, 3)]
    first = unknown.distances(DocumentFeatures.combine(known))
    listings = set()
    for order in ((2, 0, 1), (1, 2, 0), (2, 1, 0)):
        profile = DocumentFeatures.combine([known[i] for i in order])
        listings.add(tuple(profile.keys.tolist()))
        again = unknown.distances(profile)
        assert np.array_equal(again, first, equal_nan=True), order
        # and the other way round: the profile against the questioned text
        assert np.array_equal(
            profile.distances(unknown),
            DocumentFeatures.combine(known).distances(unknown),
            equal_nan=True,
        ), order
    assert len(listings) > 1  # the profiles really list their features in other orders


def test_the_distance_of_one_category_equals_its_place_among_all():
    unknown = extract_features(_text(-1), LEXICON)
    profile = DocumentFeatures.combine([extract_features(_text(i), LEXICON) for i in (1, 2)])
    everything = unknown.distances(profile)
    for j, c in enumerate(CATEGORY_IDS):
        assert unknown.distance(profile, c) == everything[j], c
    assert unknown.distance(extract_features("", LEXICON), "F1") is None
