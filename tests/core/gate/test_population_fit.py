"""The population-fit check (``core/gate/population_fit.py``, ``core/features/fit_features.py``,
``core/gate/fit_profile_data.py``): conformal p-values, the profile's JSON, texts without words."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from conftest import corpus_path

from taveer_desktop import paths
from taveer_desktop.core.features import fit_features as ff
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.gate.population_fit import (
    BONFERRONI,
    FISHER,
    FIT_ALPHA,
    MIN_DOCUMENTS_TO_FLAG,
    PART_ALPHA,
    CaseFit,
    FitProfile,
    PartFit,
    case_fit,
    fisher_p,
    fit_profile,
    fit_reasons,
)
from taveer_desktop.core.ground.errors import Cancelled, InputError
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.intake.corpus import open_corpus

_FUNCTION = list(ff.FUNCTION_WORDS[:22])  # the commonest function words


def _synthetic(count: int, seed: int) -> list[str]:
    """Documents of one made-up genre: each its own mix of function words and made-up content
    words (a spread between documents), 400 to 3,000 characters long."""
    rng = np.random.default_rng(seed)
    content = [
        "".join(rng.choice(list("etaoinshrdlcum"), size=rng.integers(4, 10))) for _ in range(300)
    ]
    base = np.linspace(3.0, 0.5, len(_FUNCTION))
    documents = []
    for _ in range(count):
        weights = rng.dirichlet(base * 8)
        target = int(rng.integers(400, 3000))
        sentences: list[str] = []
        size = 0
        while size < target:
            words = [
                str(rng.choice(_FUNCTION, p=weights))
                if rng.random() < 0.5
                else str(rng.choice(content))
                for _ in range(int(rng.integers(6, 18)))
            ]
            if rng.random() < 0.3:
                words[len(words) // 2] += ","
            sentence = " ".join(words).capitalize() + ("?" if rng.random() < 0.1 else ".")
            sentences.append(sentence)
            size += len(sentence) + 1
        documents.append(" ".join(sentences))
    return documents


@pytest.fixture(scope="module")
def synthetic_profile() -> FitProfile:
    return fit_profile(_synthetic(200, seed=1))


def test_the_function_words_are_in_the_lexicon_and_features_are_named() -> None:
    lexicon = default_lexicon()
    assert all(word in lexicon.words for word in ff.FUNCTION_WORDS)
    assert len(set(ff.FEATURE_IDS)) == ff.N_FEATURES == len(ff.FEATURE_LABELS)


def test_held_out_documents_of_the_population_get_roughly_uniform_p_values(
    synthetic_profile: FitProfile,
) -> None:
    p_values = np.array(
        [case_fit(synthetic_profile, text, ()).parts[0].p_value for text in _synthetic(150, 2)]
    )
    assert 0.3 < np.median(p_values) < 0.7
    assert 0.08 < np.mean(p_values <= 0.2) < 0.35
    assert np.mean(p_values <= PART_ALPHA) < 0.08


@pytest.mark.slow  # 2.5-5.5 s in a quiet quick-loop run (CONTRIBUTING's rule)
def test_short_texts_of_the_population_are_not_flagged_for_being_short(
    synthetic_profile: FitProfile,
) -> None:
    for chars in (300, 700):
        texts = [ff.cut(ff.prepare(t), chars) for t in _synthetic(150, 3)]
        flagged = [not case_fit(synthetic_profile, t, ()).fits for t in texts]
        assert np.mean(flagged) < 0.08, chars


def test_a_text_of_another_kind_gets_a_small_p_value(synthetic_profile: FitProfile) -> None:
    paper = paths.resource("demo", "federalist", "federalist_10.txt").read_text(encoding="utf-8")
    fit = case_fit(synthetic_profile, paper, [paper[:3000], paper[3000:6000]])
    assert not fit.fits
    assert fit.parts[0].p_value == pytest.approx(1 / (synthetic_profile.documents + 1))
    assert [part.part for part in fit.parts] == ["questioned", "known"]
    (reason,) = fit_reasons(fit, "made-up genre")  # the parts judged together: one sentence
    # words first (what it means), the figures after
    assert reason.startswith(
        "the case's texts are unlike the texts of the population “made-up genre”: cases made of "
        "the population's own texts look this unusual in at most"
    )
    assert "questioned text p = 0.005" in reason and "known texts p = 0.005" in reason
    assert "a case fails at p <= 0.05" in reason and "compared with the population" in reason
    assert fit.parts[0].furthest and abs(fit.parts[0].furthest[0].z) >= 2


def test_a_text_of_the_population_fits_and_has_no_reason(synthetic_profile: FitProfile) -> None:
    text, *known = _synthetic(3, seed=4)
    fit = case_fit(synthetic_profile, text, known)
    assert fit.fits and fit_reasons(fit, "x") == ()
    assert FIT_ALPHA == 2 * PART_ALPHA


def test_the_profile_round_trips_through_json(synthetic_profile: FitProfile) -> None:
    data = synthetic_profile.to_dict()
    text = json.dumps(data, allow_nan=False)
    assert "etaoin" not in text  # no text of the population, numbers only
    again = FitProfile.from_dict(json.loads(text), "record.json")
    assert again.to_dict() == data
    probe = _synthetic(5, seed=5)
    for document in probe:
        first = case_fit(synthetic_profile, document, probe[:2])
        second = case_fit(again, document, probe[:2])
        assert first == second


def test_fitting_is_deterministic() -> None:
    documents = _synthetic(60, seed=6)
    assert fit_profile(documents).to_dict() == fit_profile(documents).to_dict()


def _broken(data: dict, change) -> dict:  # type: ignore[no-untyped-def, type-arg]
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("mean"),
        lambda d: d.update(extra=1),
        lambda d: d.update(version=3),
        lambda d: d.update(version=1),
        lambda d: d.update(version=2.0),
        lambda d: d.update(version=True),
        lambda d: d.update(features=3),
        lambda d: d.update(documents=10**12),
        lambda d: d.update(documents=True),
        lambda d: d.update(documents=d["documents"] + 1),
        lambda d: d["mean"].__setitem__(0, math.nan),
        lambda d: d["between_var"].__setitem__(1, math.inf),
        lambda d: d["between_var"].__setitem__(1, -1.0),
        lambda d: d["dispersion"].__setitem__(1, 0.0),
        lambda d: d["mean"].__setitem__(1, 2.0),
        lambda d: d["mean"].__setitem__(1, "0.1"),
        lambda d: d.update(mean=d["mean"][:-1]),
        lambda d: d.update(lexicon_sha256="abc"),
        lambda d: d.update(bands=[]),
        lambda d: d.update(bands="nothing"),
        lambda d: d["bands"][-1].update(chars=5),
        lambda d: d["bands"][-1]["scores"].reverse(),
        lambda d: d["bands"][0].update(chars=-3),
        lambda d: d["bands"][0].update(more=1),
    ],
)
def test_a_malformed_profile_is_refused_naming_the_source(synthetic_profile, change) -> None:  # type: ignore[no-untyped-def]
    data = _broken(synthetic_profile.to_dict(), change)
    with pytest.raises(InputError) as raised:
        FitProfile.from_dict(data, "record.json")
    assert "record.json" in str(raised.value)
    assert "population-fit profile" in str(raised.value)


@pytest.mark.parametrize("data", [None, [], "profile", 3])
def test_a_profile_that_is_no_object_is_refused(data: object) -> None:
    with pytest.raises(InputError, match="not a JSON object"):
        FitProfile.from_dict(data, "record.json")


@pytest.mark.parametrize("text", ["", "   \n\n  ", "!!! ??? ...", "— – ;"])
def test_a_text_without_words_cannot_be_judged_and_does_not_fit(
    synthetic_profile: FitProfile, text: str
) -> None:
    fit = case_fit(synthetic_profile, text, [text, ""])
    assert not fit.fits
    assert all(not part.judged for part in fit.parts)
    reasons = fit_reasons(fit, "x")
    assert "questioned text has no words" in reasons[0] and "cannot be judged" in reasons[0]
    assert "known texts have no words" in reasons[1]


def test_very_short_texts_and_no_known_texts_are_handled(synthetic_profile: FitProfile) -> None:
    fit = case_fit(synthetic_profile, "Hi.", [])
    assert len(fit.parts) == 1 and fit.parts[0].judged and 0 < fit.parts[0].p_value <= 1


def test_a_population_too_small_to_flag_anything_cannot_judge() -> None:
    profile = fit_profile(_synthetic(MIN_DOCUMENTS_TO_FLAG - 1, seed=7))
    fit = case_fit(profile, _synthetic(1, seed=8)[0], ())
    assert not fit.fits and not fit.parts[0].judged
    assert f"at least {MIN_DOCUMENTS_TO_FLAG}" in fit_reasons(fit, "x")[0]
    with pytest.raises(InputError, match="at least 3"):
        fit_profile(["One two three four five six seven eight nine ten. " * 3, "", "Hi."])


def test_duplicates_and_empty_documents_are_left_out() -> None:
    documents = _synthetic(40, seed=9)
    profile = fit_profile(documents + documents[:5] + ["", "Too short."])
    assert profile.documents == 40 and profile.left_out == 7


def test_fitting_can_be_cancelled() -> None:
    progress = Progress()
    progress.cancel()
    with pytest.raises(Cancelled):
        fit_profile(_synthetic(10, seed=10), progress=progress)


def test_another_lexicon_than_the_profiles_is_refused(synthetic_profile: FitProfile) -> None:
    from dataclasses import replace

    other = replace(default_lexicon(), sha256="0" * 64)
    with pytest.raises(InputError, match="another lexicon"):
        case_fit(synthetic_profile, "Some words here.", (), other)


def _documents(name: str) -> list[str]:
    texts: list[str] = []
    for case in open_corpus(corpus_path(name, "train")).iter_cases():
        texts += [*case.known_texts, case.unknown_text]
    return texts


def test_on_the_shared_corpora_own_genre_fits_and_another_genre_does_not() -> None:
    reuters = fit_profile(_documents("reuters-c50"))
    own = [case_fit(reuters, c.unknown_text, c.known_texts) for c in
           open_corpus(corpus_path("reuters-c50", "test")).iter_cases()]  # fmt: skip
    other = [case_fit(reuters, c.unknown_text, c.known_texts) for c in
             open_corpus(corpus_path("stackexchange", "test")).iter_cases()]  # fmt: skip
    assert np.mean([not f.fits for f in own]) <= 0.1
    assert np.mean([not f.fits for f in other]) >= 0.9


def test_fishers_combination_against_the_chi_squared_formula() -> None:
    assert fisher_p([0.05]) == pytest.approx(0.05)
    # two p-values: chi-squared with 4 degrees of freedom, survival e^(-x/2) (1 + x/2)
    x = -2 * (math.log(0.04) + math.log(0.3))
    assert fisher_p([0.04, 0.3]) == pytest.approx(math.exp(-x / 2) * (1 + x / 2))
    assert fisher_p([1.0, 1.0]) == 1.0 and fisher_p([1e-300, 1e-300]) < 1e-290


def _two_parts(p_questioned: float, p_known: float) -> CaseFit:
    return CaseFit(
        (
            PartFit("questioned", 2000, 350, p_questioned, 0.002, ()),
            PartFit("known", 4000, 700, p_known, 0.002, ()),
        ),
        428,
    )


def test_two_somewhat_unusual_parts_count_together() -> None:
    # each part alone passes the former rule (2.5 %), together they fail at 5 %
    fit = _two_parts(0.04, 0.04)
    assert fit.combination == FISHER and fit.p_value == pytest.approx(0.0119, abs=1e-4)
    assert not fit.fits and fit.failed == ()
    assert CaseFit(fit.parts, 428, FIT_ALPHA, BONFERRONI).fits  # as the former rule judged it
    assert _two_parts(0.3, 0.5).fits and fit_reasons(_two_parts(0.3, 0.5), "x") == ()


def test_a_stored_check_keeps_the_rule_it_was_judged_by() -> None:
    fit = _two_parts(0.04, 0.04)
    data = fit.to_dict()
    assert data["combination"] == "fisher" and data["fits"] is False
    assert data["p_value"] == pytest.approx(fit.p_value)
    again = CaseFit.from_dict(json.loads(json.dumps(data)), "run")
    assert again.combination == FISHER and not again.fits
    del data["combination"]  # a check stored before Fisher's method: parts judged alone
    old = CaseFit.from_dict(data, "run")
    assert old.combination == BONFERRONI and old.fits
    with pytest.raises(InputError, match="combination"):
        CaseFit.from_dict({**data, "combination": "stouffer"}, "run")
