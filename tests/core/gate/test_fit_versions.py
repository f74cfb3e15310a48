"""The population-fit profile's versions (issue 30): version 2 counts 25 register words more,
leaves each author's documents out together when it calibrates, and caps |z| at 4; a version 1
profile stored by the program before still reads and judges a case exactly as it did then."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from taveer_desktop.core.features import fit_features as ff
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.gate.fit_profile_data import FEATURES_OF_VERSION, PROFILE_VERSION
from taveer_desktop.core.gate.population_fit import CaseFit, FitProfile, case_fit, fit_profile
from taveer_desktop.core.ground.errors import InputError

FIXTURE = Path(__file__).parent / "fixtures" / "fit_profile_v1.json"


def test_the_register_words_are_counted_after_the_first_59_features() -> None:
    assert ff.V1_FEATURES == 59 and ff.N_FEATURES == 59 + len(ff.REGISTER_WORDS) == 84
    assert FEATURES_OF_VERSION == {1: 59, 2: 84} and PROFILE_VERSION == 2
    assert ff.FEATURE_IDS[58] == "chars:non_ascii"  # version 1's last, where it was
    counts = ff.count(ff.prepare("He said so. They said: What did you do? No, I did not."), set())
    said = ff.FEATURE_IDS.index("word:said")
    did = ff.FEATURE_IDS.index("word:did")
    assert said >= 59 and counts.numerators[said] == 2 and counts.numerators[did] == 2
    assert ff.DENOMINATOR[said] == 0  # over the words
    assert counts.denominators()[said] == counts.words == 13


def test_a_version_1_profile_stored_before_judges_cases_as_it_did() -> None:
    """The fixture was written by the program at 6824ce4 (before version 2): its profile and
    the checks that program made of four cases, one of them failing."""
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    profile = FitProfile.from_dict(stored["profile"], "fit_profile_v1.json")
    assert profile.version == 1 and len(profile.mean) == 59
    assert profile.to_dict() == stored["profile"]  # written back in its own version
    fits = []
    for case in stored["cases"]:
        then = CaseFit.from_dict(case["case"], "fit_profile_v1.json")
        now = case_fit(profile, case["questioned"], case["known"])
        assert now.fits == then.fits
        assert now.p_value == pytest.approx(then.p_value, rel=1e-12)
        for part_now, part_then in zip(now.parts, then.parts, strict=True):
            assert part_now.p_value == pytest.approx(part_then.p_value, rel=1e-12)
            assert [d.feature for d in part_now.furthest] == [d.feature for d in part_then.furthest]
            assert all(ff.FEATURE_IDS.index(d.feature) < 59 for d in part_now.furthest)
        fits.append(now.fits)
    assert fits == [True, True, True, False]


def test_a_profile_of_a_newer_version_is_refused_in_one_line() -> None:
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))["profile"]
    stored["version"] = 3
    with pytest.raises(InputError) as raised:
        FitProfile.from_dict(stored, "record.json")
    message = str(raised.value)
    assert "record.json" in message and "version 3 is not 1 or 2" in message
    assert "\n" not in message


def _documents() -> tuple[list[str], list[str]]:
    """Six authors of two texts each in a plain style, and one author whose two texts share
    an odd habit (semicolons and 'shall'), so each of that author's texts is typical only of
    the other."""
    rng = np.random.default_rng(7)
    plain = ["the", "of", "and", "to", "a", "in", "that", "is", "it", "for", "was", "with", "on",
             "as", "be", "this", "not", "are", "but", "have"]  # fmt: skip
    documents, authors = [], []
    for author in range(12):
        for _ in range(2):
            words = [str(rng.choice(plain)) for _ in range(260)]
            if author == 0:
                words = [w + ";" if i % 6 == 0 else w for i, w in enumerate(words)]
                words[::9] = ["shall"] * len(words[::9])
            documents.append(". ".join(" ".join(words[i : i + 13]) for i in range(0, 260, 13)))
            authors.append(f"author {author}")
    return documents, authors


def test_calibration_leaves_each_authors_documents_out_together() -> None:
    documents, authors = _documents()
    alone = fit_profile(documents)  # each document left out alone
    by_author = fit_profile(documents, authors=authors)
    # the odd author's texts score higher once its other text no longer shapes the figures
    # that judge them, so the calibration is that of a new author's text, as a case's is
    assert max(by_author.bands[-1].scores) > max(alone.bands[-1].scores)
    # the profile's own figures (what a case is judged by) do not depend on the grouping
    assert np.array_equal(alone.mean, by_author.mean)
    assert np.array_equal(alone.between_var, by_author.between_var)


def test_one_author_holding_nearly_every_document_is_left_out_alone() -> None:
    documents, _ = _documents()
    profile = fit_profile(documents, authors=["one writer"] * len(documents))
    assert np.all(np.isfinite(profile.bands[-1].scores))
    assert profile.bands[-1].scores == fit_profile(documents).bands[-1].scores


def test_version_1_can_still_be_made_and_differs_from_version_2() -> None:
    documents, authors = _documents()
    old = fit_profile(documents, authors=authors, version=1)
    new = fit_profile(documents, authors=authors)
    assert old.version == 1 and old.to_dict()["features"] == 59
    assert new.version == 2 and new.to_dict()["features"] == 84
    assert np.array_equal(old.mean, new.mean[:59])
    assert new.lexicon_sha256 == default_lexicon().sha256
    # a text full of 'shall' and 'my': version 2 sees the register words, version 1 cannot
    questioned = "the my of said and my to said in my that said it is my for said. " * 10
    furthest_new = {d.feature for d in case_fit(new, questioned, []).parts[0].furthest}
    furthest_old = {d.feature for d in case_fit(old, questioned, []).parts[0].furthest}
    assert furthest_new & {"word:my", "word:said"}
    assert all(ff.FEATURE_IDS.index(f) < 59 for f in furthest_old)


def test_a_stored_check_keeps_the_version_it_was_judged_against() -> None:
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    old = CaseFit.from_dict(stored["cases"][0]["case"], "run")  # stored before the key
    assert old.profile_version == 1
    documents, authors = _documents()
    new = case_fit(fit_profile(documents, authors=authors), documents[0], documents[1:3])
    assert new.profile_version == 2 and new.to_dict()["profile_version"] == 2
    assert CaseFit.from_dict(new.to_dict(), "run").profile_version == 2
    with pytest.raises(InputError, match="profile_version"):
        CaseFit.from_dict({**new.to_dict(), "profile_version": 7}, "run")
