"""LambdaG's shares placed on the questioned text: every predicted position of the masked stream
lands on the token it stands for, on real, hostile and corpus documents; the typed findings
survive a round trip through their dictionary and malformed ones are refused."""

from __future__ import annotations

import re

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.core.feature_stream import encode_document, prepare_text
from taveer_desktop.core.kneser_ney import sentence_keys
from taveer_desktop.core.lambdag import Contributions
from taveer_desktop.core.lambdag_evidence import place_evidence
from taveer_desktop.core.lambdag_masking import masked_sentences
from taveer_desktop.core.lexicon import default_lexicon
from taveer_desktop.core.method_findings import (
    MethodFindings,
    TokenKind,
    findings_from_dict,
)
from taveer_desktop.core.outcome import ResultFormatError

HOSTILE = (
    "<b>Bold</b> &amp; Mr. Smith's e-mail (at 9.30 a.m.)... \u202eover\u202c, "
    "however, in spite of all; the U.S.A. \u200bzero-width! ¿Qué? שלום. "
    "x" * 300 + " -- 'quoted' \"twice\"\n\n\nA new paragraph_with_underscores #hash #"
)


@pytest.fixture(scope="module")
def lexicon():
    return default_lexicon()


def _placed(text, lexicon):
    """Evidence with share i at position i, so every share can be traced to its token."""
    document = encode_document(text, lexicon)
    keys = sentence_keys(masked_sentences(document), 2)
    n = len(keys.tokens)
    found = Contributions(2, keys.tokens, np.arange(n, dtype=float), np.zeros(0))
    return prepare_text(text), place_evidence(prepare_text(text), document, lexicon, found), n


def _check(text, lexicon):
    prepared, evidence, n = _placed(text, lexicon)
    tokens = [t for s in evidence.sentences for t in s.tokens]
    assert [t.share for t in tokens] == list(range(n))  # every position once, in order
    lowered = prepared.lower()
    for sentence in evidence.sentences:
        assert sentence.tokens[-1].kind is TokenKind.END
        assert sentence.tokens[-1].start == sentence.tokens[-1].end == sentence.end
        for token in sentence.tokens[:-1]:
            assert sentence.start <= token.start < token.end <= sentence.end
            shown = " ".join(lowered[token.start : token.end].split())
            if token.kind is TokenKind.MASKED:
                assert shown[0].isalnum() and shown not in lexicon.categories_of
            elif shown[0].isalnum():
                assert shown in lexicon.categories_of  # a kept word is a lexicon entry
            else:
                assert len(shown) == 1  # a kept punctuation character
    return evidence


def test_shares_land_on_their_tokens_in_real_documents(lexicon):
    folder = paths.resource("demo", "federalist")
    for path in sorted(folder.glob("*.txt"))[:4]:
        evidence = _check(path.read_text(encoding="utf-8"), lexicon)
        assert len(evidence.sentences) > 20


def test_shares_land_on_their_tokens_in_a_hostile_text(lexicon):
    evidence = _check(HOSTILE, lexicon)
    assert any(t.kind is TokenKind.MASKED for s in evidence.sentences for t in s.tokens)


def test_a_text_without_sentences_has_no_evidence(lexicon):
    _, evidence, n = _placed("   \n\t ", lexicon)
    assert n == 0 and evidence.sentences == ()


def test_shares_land_on_their_tokens_in_corpus_documents(lexicon):
    from conftest import corpus_path

    for name in ("stackexchange", "reuters-c50"):
        folder = corpus_path(name, "test")
        documents = sorted(p for p in folder.rglob("*.txt") if re.match(r"(un)?known", p.name))
        assert len(documents) >= 40, folder
        for path in documents[:40]:
            _check(path.read_text(encoding="utf-8", errors="replace"), lexicon)


def test_findings_round_trip_and_malformed_ones_are_refused(lexicon):
    _, evidence, _ = _placed("One sentence here. And another one, however short.", lexicon)
    findings = MethodFindings("fusion", {"taveer": 0.3, "lambdag": -0.2, "fusion": 0.1}, 1.5, 2)
    with_evidence = MethodFindings(**{**findings.__dict__, "evidence": evidence})
    for item in (findings, with_evidence):
        assert findings_from_dict(item.to_dict()) == item
    good = with_evidence.to_dict()
    broken = [
        {**good, "method": "taveer"},
        {**good, "log10_lr_by_method": {"fusion": float("nan")}},
        {**good, "lambdag_order": 0},
        {**good, "lambdag_evidence": {"order": 2, "sentences": [{"span": [5, 1], "tokens": []}]}},
        {
            **good,
            "lambdag_evidence": {
                "order": 2,
                "sentences": [{"span": [0, 4], "tokens": [[0, 9, "kept", 0.1]]}],
            },
        },
        {
            **good,
            "lambdag_evidence": {
                "order": 2,
                "sentences": [{"span": [0, 4], "tokens": [[0, 1, "weird", 0.1]]}],
            },
        },
        "not an object",
    ]
    for data in broken:
        with pytest.raises(ResultFormatError):
            findings_from_dict(data)


def test_sentence_leanings_follow_taveers_lists_and_lambdags_shares(lexicon):
    from taveer_desktop.core.interpret import Interpretation
    from taveer_desktop.core.sentence_agreement import sentence_leanings

    text = "However, the cat sat. The dog ran, however! Nothing here"
    _, evidence, _ = _placed(text, lexicon)
    # F6 (token unigrams): "however" on the same-author side, "the" on the other
    lists = Interpretation("F6", 1.0, 0.1, (), (("however", 0.4),), (("the", 0.3),), False)
    leanings = sentence_leanings(text, {"F6": lists}, ["F6"], lexicon, evidence)
    assert len(leanings) == 3
    # "however" occurs twice (λ 0.4 shared), "the" twice (λ 0.3 shared): one of each per sentence
    assert [round(x.taveer, 6) for x in leanings] == [0.05, 0.05, 0.0]
    assert [x.lambdag for x in leanings] == [s.share for s in evidence.sentences]
    assert leanings[0].both_point_same_way and leanings[0].direction == 1
    assert not leanings[2].both_point_same_way and leanings[2].direction == 0
