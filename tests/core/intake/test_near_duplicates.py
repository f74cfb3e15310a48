"""Near-duplicate texts (``core/intake/near_duplicates.py``) and what a population does with them
(``core/trials/population.py``): under two authors both left out, of one author named, a case's
own documents left out."""

from __future__ import annotations

import random

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake import near_duplicates as nd
from taveer_desktop.core.trials.population import population_from_texts

_LETTERS = random.Random(0)
# a vocabulary of 3,000 made-up words, so that texts share words but not long runs of them
WORDS = [
    "".join(_LETTERS.choice("abcdefghiklmnoprstuvwy") for _ in range(_LETTERS.randint(2, 9)))
    for _ in range(3000)
]


def _text(seed: int, words: int = 400) -> str:
    rng = random.Random(seed)
    sentences = []
    while sum(len(s.split()) for s in sentences) < words:
        sentences.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) + ".")
    return " ".join(sentences).capitalize()


def _edited(text: str, share: float, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(w if rng.random() >= share else "zebra" for w in text.split())


def test_shingles_ignore_case_and_spacing() -> None:
    text = _text(1)
    assert (nd.shingles(text) == nd.shingles("  " + text.upper().replace(" ", "\n  "))).all()
    assert len(nd.shingles("too short")) == 0


def test_copies_edits_and_quotations_are_found_and_other_texts_are_not() -> None:
    texts = [_text(seed) for seed in range(8)]
    texts.append(_edited(texts[0], 0.05, 1))  # 8: a copy of 0, one word in twenty changed
    texts.append(_text(50) + " " + texts[1] + " " + _text(51))  # 9: quotes 1 whole
    pairs = {(p.first, p.second): p.containment for p in nd.near_duplicate_pairs(
        [nd.shingles(t) for t in texts])}  # fmt: skip
    assert set(pairs) == {(0, 8), (1, 9)}
    assert pairs[(0, 8)] > 0.6 and pairs[(1, 9)] > 0.95
    # texts made of the same words still share few 12-character runs
    unrelated = nd.containment_with(nd.shingles(texts[2]), [nd.shingles(t) for t in texts[3:8]])
    assert unrelated.max() < nd.NEAR_DUPLICATE / 2


def _authors(n: int = 5, docs: int = 3) -> dict[str, list[tuple[str, str]]]:
    return {
        f"author{a}": [(f"d{d}.txt", _text(100 * a + d)) for d in range(docs)] for a in range(n)
    }


def test_a_near_duplicate_under_two_authors_is_left_out_under_both() -> None:
    texts = _authors()
    copied = _edited(texts["author0"][0][1], 0.03, 2)
    texts["author1"].append(("repost.txt", copied))
    population = population_from_texts(texts, "p", "test")
    names = {d.name for d in population.documents["author0"]}
    assert names == {"d1.txt", "d2.txt"}  # d0 left out
    assert "repost.txt" not in {d.name for d in population.documents["author1"]}
    (warning,) = [w for w in population.warnings if "nearly the same text" in w]
    assert "author0/d0.txt and author1/repost.txt" in warning and "both are left out" in warning
    assert population.n_documents == 14  # 5 × 3 + the repost, less the two


def test_near_duplicates_of_one_author_are_named_and_kept() -> None:
    texts = _authors()
    texts["author2"].append(("again.txt", _edited(texts["author2"][0][1], 0.03, 3)))
    population = population_from_texts(texts, "p", "test")
    assert len(population.documents["author2"]) == 4
    assert any("author2/d0.txt and author2/again.txt" in w for w in population.warnings)


def test_the_same_text_under_two_authors_is_still_refused() -> None:
    texts = _authors()
    texts["author3"].append(("same.txt", texts["author4"][0][1]))
    with pytest.raises(InputError, match="same text under two authors"):
        population_from_texts(texts, "p", "test")


def test_a_cases_own_documents_are_left_out_and_counts_follow() -> None:
    texts = _authors(n=6, docs=2)
    questioned = _edited(texts["author4"][1][1], 0.02, 4)  # nearly the population's text
    case = {"K1": texts["author3"][0][1], "Q1": questioned}
    population = population_from_texts(texts, "p", "test", case_documents=case)
    # authors 3 and 4 keep one document each: too few for a same-author trial, so the count
    # of authors is taken after the check
    assert population.authors == ["author0", "author1", "author2", "author5"]
    own = [w for w in population.warnings if "is the case's own" in w]
    assert [w.split(" ")[0] for w in own] == ["author3/d0.txt", "author4/d1.txt"]
    assert "own K1" in own[0] and "own Q1" in own[1]
    with pytest.raises(InputError, match="3 author"):
        population_from_texts(_authors(n=5, docs=2), "p", "test", case_documents=case)
