"""The one registry of authorship-verification methods: ids, names, families, references.

Every layer names a method by its ``MethodId`` and looks up what it shows (name, short name,
family, reference, whether it is deterministic) here; no layer keeps its own table of method
names. A new method adds one ``MethodInfo`` below, its own module and its tests
(CONTRIBUTING.md, "Adding a method").

The ten comparison systems are those the TAVeer paper compares itself with (Halvani, Graner,
Regev, 2020, section "Baselines", Table 5); their references are the original papers the seed
cites. ``deterministic`` is False where the method draws at random (feature or impostor
subsets, chunks); such methods are seeded by the validation and by the model, so the same case
always gives the same score, and their spread across seeds is reported by the validation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MethodId(StrEnum):
    """A method's id: lower case, as the CLI, model files and validation records write it."""

    TAVEER = "taveer"
    LAMBDAG = "lambdag"
    FUSION = "fusion"
    COAV = "coav"
    OCCAV = "occav"
    NNCD = "nncd"
    PROFAV = "profav"
    IM = "im"
    SPATIUM = "spatium"
    UNMASKING = "unmasking"
    GENUNMASKING = "genunmasking"
    DYNAMICAV = "dynamicav"
    BAFF = "baff"


class Family(StrEnum):
    """What kind of evidence a method weighs (shown to the examiner beside its name)."""

    TOPIC_AGNOSTIC = "topic-agnostic style features"
    GRAMMAR_MODEL = "grammar models (function-word n-grams)"
    FUSION = "fusion of likelihood ratios"
    COMPRESSION = "compression (PPMd)"
    CHARACTER_PROFILE = "character n-gram profiles"
    IMPOSTORS = "impostors (other authors of the population)"
    UNMASKING = "unmasking (degradation of a classifier)"
    FEATURE_CATEGORIES = "feature-category similarity"


class Origin(StrEnum):
    """Where a method comes from, so that no method claims a paper that is not its own."""

    SEED = "the method of the TAVeer paper"
    BASELINE = "one of the ten systems the TAVeer paper compares itself with"
    PUBLISHED = "a published method the TAVeer paper does not evaluate"
    PROGRAM = "a combination of methods this program makes"


@dataclass(frozen=True)
class Capabilities:
    """What a method can do, for generic code to ask instead of asking which method it is (like
    scikit-learn's estimator tags). Every flag is False unless the method declares it."""

    classifies: bool = False  # decides same/different author itself (TAVeer's ensemble vote)
    explains_features: bool = False  # per-feature contributions (TAVeer's L_Y / L_N)
    evidence_in_text: bool = False  # evidence placed on the questioned text (LambdaG's shares)
    ratio_resampled: bool = False  # its stated ratio's stability comes from resampling its score
    fuses: bool = False  # combines other methods' ratios; never one of its own inputs
    lexicon_masked: bool = False  # reads text masked with the program's topic-agnostic lexicon
    # every model file is built on it (thresholds, ensemble, calibration, the gate): the other
    # methods' parts are added to it, and its ratio is kept beside the one a model states
    model_base: bool = False


@dataclass(frozen=True)
class MethodInfo:
    """What every layer may say about a method."""

    id: MethodId
    name: str  # as a sentence or a heading names it ("TAVeer + LambdaG")
    short_name: str  # a table column's heading ("Fusion")
    family: Family
    reference: str  # the original publication
    deterministic: bool
    needs_impostors: bool  # draws documents of other authors from the validation population
    comparison: bool  # a comparison system (``methods/systems/comparison.py``): the ten, or added
    origin: Origin
    capabilities: Capabilities
    # how a finding writes its raw score: a symbol and a format (LambdaG's λG to one decimal,
    # as the examiner reads it in the report; any other score to four significant digits)
    raw_score: tuple[str, str] = ("", "+.4g")


_INFOS = (
    MethodInfo(
        MethodId.TAVEER,
        "TAVeer",
        "TAVeer",
        Family.TOPIC_AGNOSTIC,
        "Halvani, Graner, Regev (2020), A Step Towards Interpretable Authorship Verification, "
        "ARES 2020",
        deterministic=True,
        needs_impostors=False,
        origin=Origin.SEED,
        capabilities=Capabilities(
            classifies=True, explains_features=True, lexicon_masked=True, model_base=True
        ),
        comparison=False,
    ),
    MethodInfo(
        MethodId.LAMBDAG,
        "LambdaG",
        "LambdaG",
        Family.GRAMMAR_MODEL,
        "Nini, Halvani, Graner, Gherardi, Ishihara (2024), Authorship Verification based on the "
        "Likelihood Ratio of Grammar Models, arXiv:2403.08462",
        deterministic=True,
        needs_impostors=True,
        origin=Origin.PUBLISHED,
        capabilities=Capabilities(evidence_in_text=True, ratio_resampled=True, lexicon_masked=True),
        comparison=False,
        raw_score=("λG ", "+.1f"),
    ),
    MethodInfo(
        MethodId.FUSION,
        "Fusion",  # where a model or record is at hand: fusion_name(its methods)
        "Fusion",
        Family.FUSION,
        "logistic-regression fusion of the methods' log10 likelihood ratios (Brümmer and du "
        "Preez 2006, Computer Speech & Language 20(2-3))",
        deterministic=True,
        needs_impostors=True,
        origin=Origin.PROGRAM,
        capabilities=Capabilities(fuses=True, ratio_resampled=True),
        comparison=False,
    ),
    MethodInfo(
        MethodId.COAV,
        "COAV",
        "COAV",
        Family.COMPRESSION,
        "Halvani, Winter, Graner (2017), On the Usefulness of Compression Models for Authorship "
        "Verification, ARES 2017",
        deterministic=True,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.OCCAV,
        "OCCAV",
        "OCCAV",
        Family.COMPRESSION,
        "Halvani, Graner, Vogel (2018), Authorship Verification in the Absence of Explicit "
        "Features and Thresholds, ECIR 2018",
        deterministic=True,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.NNCD,
        "NNCD",
        "NNCD",
        Family.COMPRESSION,
        "Veenman, Li (2013), Authorship Verification with Compression Features, PAN 2013",
        deterministic=True,
        needs_impostors=True,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.PROFAV,
        "ProfAV",
        "ProfAV",
        Family.CHARACTER_PROFILE,
        "Potha, Stamatatos (2014), A Profile-Based Method for Authorship Verification, SETN 2014",
        deterministic=True,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.IM,
        "Impostors Method (IM)",
        "IM",
        Family.IMPOSTORS,
        "Koppel, Winter (2014), Determining if two documents are written by the same author, "
        "JASIST 65(1)",
        deterministic=False,
        needs_impostors=True,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.SPATIUM,
        "SPATIUM-L1",
        "SPATIUM",
        Family.IMPOSTORS,
        "Kocher, Savoy (2017), A simple and efficient algorithm for authorship verification, "
        "JASIST 68(1)",
        deterministic=False,
        needs_impostors=True,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.UNMASKING,
        "Unmasking",
        "Unmasking",
        Family.UNMASKING,
        "Koppel, Schler (2004), Authorship Verification as a One-Class Classification Problem, "
        "ICML 2004",
        deterministic=False,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.GENUNMASKING,
        "Generalised Unmasking",
        "GenUnmasking",
        Family.UNMASKING,
        "Bevendorff, Stein, Hagen, Potthast (2019), Generalizing Unmasking for Short Texts, "
        "NAACL 2019",
        deterministic=False,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.DYNAMICAV,
        "DynamicAV",
        "DynamicAV",
        Family.FEATURE_CATEGORIES,
        "Ahmed (2018), The Role of Linguistic Feature Categories in Authorship Verification, "
        "Procedia Computer Science 142 (ACLing 2018), 214–221",
        deterministic=True,
        needs_impostors=False,
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
    MethodInfo(
        MethodId.BAFF,
        "BAFF (Basic and Fairly Flawed verifier)",
        "BAFF",
        Family.CHARACTER_PROFILE,
        "Bevendorff, Hagen, Stein, Potthast (2019), Bias Analysis and Mitigation in the "
        "Evaluation of Authorship Verification, ACL 2019",
        deterministic=True,
        needs_impostors=True,  # TF-IDF document frequencies from the population
        origin=Origin.BASELINE,
        capabilities=Capabilities(ratio_resampled=True),
        comparison=True,
    ),
)

REGISTRY: dict[MethodId, MethodInfo] = {info.id: info for info in _INFOS}
METHOD_IDS: tuple[str, ...] = tuple(m.value for m in MethodId)  # every id, as the CLI takes it
COMPARISON_IDS: tuple[str, ...] = tuple(i.id.value for i in _INFOS if i.comparison)


def method_info(method: str | MethodId) -> MethodInfo:
    """The registry's entry for an id (``KeyError`` naming the id if it is unknown)."""
    try:
        return REGISTRY[MethodId(method)]
    except ValueError:
        raise KeyError(f"unknown method {method!r}; known: {', '.join(METHOD_IDS)}") from None


def capabilities_of(method: object) -> Capabilities:
    """What a method can do; an unknown id (or anything else) can do nothing."""
    if not isinstance(method, str) or method not in METHOD_IDS:
        return Capabilities()
    return REGISTRY[MethodId(method)].capabilities


def method_name(method: str | MethodId) -> str:
    """The method's name as a sentence says it; an unknown id is shown as it is."""
    try:
        return method_info(method).name
    except KeyError:
        return str(method)


def fusion_name(methods: tuple[str, ...] | list[str]) -> str:
    """A fusion named by the methods it combines, in the registry's short names ("TAVeer +
    COAV"); the default fusion's is the registry's name of the fusion, "TAVeer + LambdaG"."""
    return " + ".join(method_info(m).short_name for m in methods)


def listing() -> list[dict[str, object]]:
    """``taveer methods --json``: one entry per registered method (the CLI's contract)."""
    return [
        {
            "id": i.id.value,
            "name": i.name,
            "family": i.family.value,
            "reference": i.reference,
            "deterministic": i.deterministic,
        }
        for i in _INFOS
    ]
