"""The "our reading" formulas of OCCAV, NNCD, BAFF, ProfAV (and COAV), each by hand.

No code of the authors of these systems is public (docs/method.md, "The ten
comparison systems"), so each formula as we read it from its paper is computed here by hand on
a tiny input, the arithmetic in the test's docstring, and the module must give the same
number. The compression methods are fed a toy compressor whose "compressed length" of a text
is its number of distinct characters, so that C(x), C(y) and C(xy) can be counted by eye:
CBC(x, y) = 1 − (C(x) + C(y) − C(xy)) / √(C(x)·C(y)) and CDM(x, y) = C(xy) / (C(x) + C(y))
(``ppmd_compression.cbc`` / ``cdm``, the seed's definitions) then need only those counts.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from taveer_desktop.core.methods.systems.baff import Baff, pair_features
from taveer_desktop.core.methods.systems.char_ngrams import text_ngrams
from taveer_desktop.core.methods.systems.coav import Coav
from taveer_desktop.core.methods.systems.comparison import CaseTexts
from taveer_desktop.core.methods.systems.nncd import Nncd
from taveer_desktop.core.methods.systems.occav import Occav
from taveer_desktop.core.methods.systems.ppmd_compression import cbc, cdm
from taveer_desktop.core.methods.systems.profav import ProfAV, profile_dissimilarity

RNG = np.random.default_rng(0)


class DistinctCharacters:
    """A toy compressor: the compressed length of a text is its number of distinct characters
    (the joined text's is that of the union)."""

    def length(self, text: str) -> int:
        return len(set(text))

    def joined(self, first: str, second: str) -> int:
        return len(set(first + second))

    def cbc(self, x: str, y: str) -> float:
        return cbc(self.length(x), self.length(y), self.joined(x, y))

    def cdm(self, x: str, y: str) -> float:
        return cdm(self.length(x), self.length(y), self.joined(x, y))


@pytest.fixture
def toy_compressor(monkeypatch):
    for method in (Occav, Nncd, Coav):
        monkeypatch.setattr(method, "lengths", lambda self: DistinctCharacters())


def test_occav_threshold_distance_and_decision_by_hand(toy_compressor):
    """Known "aab bcc" is cut at the space in its middle: K1 = "aab" {a, b}, K2 = "bcc" {b, c};
    questioned Q = "abd" {a, b, d}.

    threshold t = CBC(K1, K2) = 1 − (2 + 2 − 3)/√(2·2) = 1 − 1/2 = 0.5
    CBC(K1, Q) = 1 − (2 + 3 − 3)/√(2·3) = 1 − 2/√6 = 0.183503
    CBC(K2, Q) = 1 − (2 + 3 − 4)/√(2·3) = 1 − 1/√6 = 0.591752
    distance d = (0.183503 + 0.591752)/2 = 0.387628
    decision s = t − d = 0.5 − 0.387628 = 0.112372 (> 0: the questioned text is no further
    from the author than the author's halves are from each other: same author)."""
    method = Occav()
    features = method.features(CaseTexts(("aab bcc",), "abd"), (), RNG)
    assert features == pytest.approx([0.5, 0.387628], abs=1e-6)
    assert method.score(features[None, :], {})[0] == pytest.approx(0.112372, abs=1e-6)


def test_occav_questioned_text_unlike_the_author_gets_a_negative_decision(toy_compressor):
    """Known "aab bcc" as above (t = 0.5); Q = "xyz" shares no character with either half:
    CBC(K1, Q) = CBC(K2, Q) = 1 − (2 + 3 − 5)/√6 = 1, d = 1, s = 0.5 − 1 = −0.5."""
    features = Occav().features(CaseTexts(("aab bcc",), "xyz"), (), RNG)
    assert Occav().score(features[None, :], {})[0] == pytest.approx(-0.5)


def test_coav_cbc_of_the_joined_known_text_by_hand(toy_compressor):
    """Known ("ab", "bc") joined with a blank line: K = "ab\\n\\nbc", distinct {a, b, \\n, c}:
    C(K) = 4; Q = "cd": C(Q) = 2; KQ: {a, b, \\n, c, d}, C(KQ) = 5.
    CBC(K, Q) = 1 − (4 + 2 − 5)/√(4·2) = 1 − 1/2.828427 = 0.646447; raw score −0.646447."""
    method = Coav()
    features = method.features(CaseTexts(("ab", "bc"), "cd"), (), RNG)
    assert features == pytest.approx([0.646447], abs=1e-6)
    assert method.score(features[None, :], {})[0] == pytest.approx(-0.646447, abs=1e-6)


IMPOSTORS = ("abcd", "zzz", "abcxyzw")


@pytest.mark.parametrize(
    ("count", "d_impostor"),
    [(1, 1.0), (2, 4 / 7), (30, 4 / 7)],
)
def test_nncd_nearest_neighbour_and_impostor_count_by_hand(toy_compressor, count, d_impostor):
    """Q = "abc" (C = 3, length 3); known K1 = "ab" (C = 2), K2 = "xyz" (C = 3):
    CDM(K1, Q) = C(K1Q)/(C(K1) + C(Q)) = 3/(2 + 3) = 0.6, CDM(K2, Q) = 6/(3 + 3) = 1.0,
    d_known = min = 0.6.
    Impostors by distance of length from Q's 3: "zzz" (0; C = 1, CDM = 4/(1 + 3) = 1.0),
    "abcd" (1; C = 4, CDM = 4/(4 + 3) = 0.571429), "abcxyzw" (4; C = 7, CDM = 7/10 = 0.7).
    With ``impostors`` = 1 only "zzz" is compared: d_impostor = 1.0, s = 1.0 − 0.6 = 0.4 (the
    nearest neighbour is a known document: same author). With 2 (or the default 30, which
    takes all three), d_impostor = 0.571429 and s = 0.571429 − 0.6 = −0.028571: an impostor
    is nearer than any known document. The count decides the verdict here."""
    method = Nncd({"impostors": count})
    features = method.features(CaseTexts(("ab", "xyz"), "abc"), IMPOSTORS, RNG)
    assert features == pytest.approx([0.6, d_impostor])
    assert method.score(features[None, :], {})[0] == pytest.approx(d_impostor - 0.6)


def test_baff_pair_features_by_hand():
    """TF-IDF vectors q = (1, 1, 0) (questioned) and k = (1, 0, 1) (known) on three n-grams.

    cosine = (1·1)/(√2·√2) = 0.5.
    As distributions p = (½, ½, 0), q = (½, 0, ½).
    KL, smoothed with ε = 10⁻⁴ over |V| = 3: p' = (a, a, b), q' = (a, b, a) with
    a = (1 − ε)·½ + ε/3 = 0.4999833, b = ε/3 = 0.0000333;
    KL(p'‖q') = a·ln(a/a) + a·ln(a/b) + b·ln(b/a) = (a − b)·ln(a/b) = 0.49995·ln 15000.5
    = 0.49995 · 9.615839 = 4.807405.
    Skew, α = 0.99: m = 0.99 q + 0.01 p = (0.5, 0.005, 0.495);
    KL(p‖m) = ½·ln(0.5/0.5) + ½·ln(0.5/0.005) = ½·ln 100 = 2.302585.
    Jensen-Shannon (base 2): middle (½, ¼, ¼); KL(p‖mid) = ½·ln 1 + ½·ln 2 = KL(q‖mid);
    JS = (½ ln 2 + ½ ln 2)/(2 ln 2) = 0.5.
    Hellinger = √(½·((√½ − √½)² + (√½)² + (√½)²)) = √(½·1) = 0.707107."""
    found = pair_features(np.array([1.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0]))
    assert found == pytest.approx([0.5, 4.807405, 2.302585, 0.5, 0.707107], abs=1e-6)


def test_baff_tfidf_weights_by_hand():
    """Character 2-grams; questioned "abc" (ab, bc), known "abd" (ab, bd), one impostor "ab"
    (ab). D = 1 impostor + the case's 2 sides = 3 documents; document frequencies ab 3,
    bc 1, bd 1; idf(g) = ln((1 + D)/(1 + df)) + 1: ab ln(4/4) + 1 = 1, bc = bd =
    ln(4/2) + 1 = 1.693147. Vectors over (ab, bc, bd): q = (1, 1.693147, 0),
    k = (1, 0, 1.693147); cosine = 1/(1 + 1.693147²) = 1/3.866747 = 0.258615."""
    features = Baff({"n": 2}).features(CaseTexts(("abd",), "abc"), ["ab"], RNG)
    assert features[0] == pytest.approx(0.258615, abs=1e-6)
    idf = math.log(2) + 1
    assert features == pytest.approx(pair_features(np.array([1, idf, 0]), np.array([1, 0, idf])))


def test_profav_profile_sizes_and_the_tie_at_the_last_place_by_hand():
    """Character 2-grams. Questioned u = "abab": ab 2, ba 1 of 3 (f_u: ab 2/3, ba 1/3); known
    k = "abc": ab 1, bc 1 of 2 (f_k: ab 1/2, bc 1/2). Term of g: (2(f_u − f_k)/(f_u + f_k))²;
    ab: (2·(1/6)/(7/6))² = (2/7)² = 4/49 = 0.081633; ba, bc: in one profile only, 2² = 4.

    Full profiles (Lu = Lk = 10): d1 over P(u) = {ab, ba} = 4/49 + 4 = 4.081633;
    d0 over P(u) ∪ P(k) = {ab, ba, bc} = 8.081633; per n-gram: 4.081633/2 = 2.040816 and
    8.081633/3 = 2.693878.
    Lu = Lk = 1: P(u) = {ab} (the most frequent); in k, ab and bc tie at 1, the
    lexicographically first (ab) is kept; frequencies stay relative to all n-grams of the
    text (2/3, 1/2): d1 = d0 = 4/49 = 0.081633."""
    u, k = text_ngrams("abab", 2), text_ngrams("abc", 2)
    assert profile_dissimilarity(u, k, 10, 10, "d1") == pytest.approx(4 / 49 + 4)
    assert profile_dissimilarity(u, k, 10, 10, "d0") == pytest.approx(4 / 49 + 8)
    assert profile_dissimilarity(u, k, 10, 10, "d1", per_ngram=True) == pytest.approx(2.040816)
    assert profile_dissimilarity(u, k, 10, 10, "d0", per_ngram=True) == pytest.approx(2.693878)
    for measure in ("d0", "d1"):
        assert profile_dissimilarity(u, k, 1, 1, measure) == pytest.approx(4 / 49)
    method = ProfAV({"n": 2, "Lu": 10, "Lk": 10, "d": "d0"})
    raw = method.features(CaseTexts(("abc",), "abab"), [], RNG)
    assert raw == pytest.approx([-(4 / 49 + 8), 2.0, 2.0])  # −d, and the profile sizes reached
