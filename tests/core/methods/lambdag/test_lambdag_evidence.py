"""LambdaG's shares placed on the questioned text: every predicted position of the masked stream
lands on the token it stands for, on real, hostile and corpus documents; the typed findings
survive a round trip through their dictionary and malformed ones are refused."""

from __future__ import annotations

import re

import numpy as np
import pytest

from taveer_desktop import paths
from taveer_desktop.core.calibration.method_findings import (
    MethodFindings,
    TokenKind,
    findings_from_dict,
)
from taveer_desktop.core.calibration.outcome import ResultFormatError
from taveer_desktop.core.features.feature_stream import encode_document, prepare_text
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.methods.lambdag.kneser_ney import sentence_keys
from taveer_desktop.core.methods.lambdag.lambdag import Contributions
from taveer_desktop.core.methods.lambdag.lambdag_evidence import place_evidence
from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences

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


def _brute_force_leans(text, result, lexicon, spans):
    """Each sentence's lean recomputed the slow way: its occurrences taken out, every
    relative frequency and distance computed again."""
    from collections import Counter

    from taveer_desktop.core.features.occurrences import category_occurrences

    leans = [0.0] * len(spans)
    for category in result.ensemble:
        found = result.interpretation[category]
        if found.abstained:
            continue
        _, occurrences = category_occurrences(text, lexicon, category)
        counts = {e.feature: e.count_unknown for e in found.phi}
        known = {e.feature: e.y for e in found.phi}
        total = sum(counts.values())
        distance = sum(abs(counts[f] / total - known[f]) for f in counts)
        for s, (start, end) in enumerate(spans):
            inside = Counter(
                f
                for f, places in occurrences.items()
                for p in places
                if start <= p.start and p.end <= end
            )
            left = total - sum(inside.values())
            if not inside or left == 0:
                continue
            without = sum(abs((counts[f] - inside[f]) / left - known[f]) for f in counts)
            leans[s] += (without - distance) / found.threshold
    return leans


def test_taveer_leans_equal_leaving_each_sentence_out(lexicon):
    from taveer_desktop.core.methods.taveer.model import load_model
    from taveer_desktop.core.methods.taveer.sentence_agreement import taveer_leans
    from taveer_desktop.core.methods.taveer.verify import verify

    folder = paths.resource("demo", "federalist")
    model = load_model(paths.resource("models", "demo-formal-prose.json"))
    known = [(folder / f"federalist_{n}.txt").read_text(encoding="utf-8") for n in (10, 14)]
    text = (folder / "federalist_51_questioned.txt").read_text(encoding="utf-8")
    result = verify(model, known, text, lexicon, explain=True)
    spans = encode_document(text, lexicon).spans
    fast = taveer_leans(text, result.interpretation, result.ensemble, lexicon, spans)
    slow = _brute_force_leans(text, result, lexicon, spans)
    assert fast == pytest.approx(slow, abs=1e-9)
    assert any(x > 0 for x in fast) and any(x < 0 for x in fast)


def test_sentence_leanings_pair_taveers_lean_with_lambdags_share(lexicon):
    from taveer_desktop.core.methods.taveer.interpret import interpret
    from taveer_desktop.core.methods.taveer.sentence_agreement import sentence_leanings

    text = "However, the cat sat. The dog ran, however! Nothing here"
    known_counts = {"however": 5, "the": 1, "#": 4}
    unknown_counts = {"however": 2, "the": 2, "#": 4}
    lists = interpret("F6", unknown_counts, known_counts, 0.5)
    _, evidence, _ = _placed(text, lexicon)
    leanings = sentence_leanings(text, {"F6": lists}, ["F6"], lexicon, evidence)
    assert len(leanings) == 3
    assert [x.lambdag for x in leanings] == [s.share for s in evidence.sentences]
    for leaning in leanings:
        same = leaning.taveer != 0 and (leaning.taveer > 0) == (leaning.lambdag > 0)
        assert leaning.both_point_same_way == same
        assert leaning.direction == (0 if not same else (1 if leaning.lambdag > 0 else -1))
