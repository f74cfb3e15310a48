"""Engine commands of ``taveer`` on one case: verify and explain.

``verify`` prints the conclusion (evaluative statement, propositions, classification), with a
stability check on request; ``explain`` interprets one category of features, or LambdaG's evidence
sentence by sentence. The JSON shapes are a stable contract documented in docs/cli.md;
``conclusion_json`` is shared with ``case verify``.
"""

from __future__ import annotations

import argparse

from taveer_desktop.cli.argument_types import (
    explained_option,
    positive_number,
    read_document,
    seed_number,
)
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.record_option import add_record_option, print_basis, read_basis
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES, describe
from taveer_desktop.core.features.features import CATEGORY_NAMES, DocumentFeatures, extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.taveer.model import Model, load_model
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.verification.method_verify import taveer_log10_lr, verify_with_method
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import (
    classification_sentence,
    decisive_reasons,
    headline,
    investigative_lr_sentence,
    lr_bound,
    lr_sentence,
    propositions,
    share_text,
)
from taveer_desktop.presentation.face_registry import gives_text_evidence
from taveer_desktop.presentation.refusal_text import conclusion_reasons
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence
from taveer_desktop.presentation.second_view_text import SECOND_VIEW_NOTE


def register(subparsers: argparse._SubParsersAction) -> None:
    for name, helptext in (("verify", "verify one case"), ("explain", "interpret one case")):
        p = subparsers.add_parser(name, help=helptext)
        p.add_argument("model")
        p.add_argument("--known", nargs="+", required=True, metavar="K")
        p.add_argument("--unknown", required=True, metavar="U")
        p.add_argument("--json", action="store_true")
        if name == "explain":
            p.add_argument(
                "--category",
                type=explained_option,
                required=True,
                help="F1..F11, or lambdag (LambdaG's evidence, for a LambdaG or fused model)",
            )
            p.add_argument(
                "--top",
                type=positive_number,
                default=15,
                help="features (sentences for lambdag) shown without --json",
            )
            p.set_defaults(handler=run_explain)
        else:
            add_record_option(p)
            p.add_argument(
                "--stability",
                type=positive_number,
                metavar="B",
                help="also resample the sentences B times (e.g. 200) and report the agreement",
            )
            p.add_argument("--seed", type=seed_number, help="seed of --stability")
            p.add_argument(
                "--scale",
                choices=sorted(SCALES),
                default=DEFAULT_SCALE,
                help="verbal scale for the likelihood ratio",
            )
            p.set_defaults(handler=run_verify)


def conclusion_json(result: VerificationResult, scale_id: str) -> dict:
    """The ``conclusion`` object of ``verify --json`` and ``case verify --json``."""
    hp, hd = propositions(result.conclusion.population)
    data = result.conclusion.to_dict()
    data["statement"] = headline(result.conclusion, scale_id)
    data["propositions"] = {"hp": hp, "hd": hd}
    return data


HEADLINE_REASONS = 2


def print_conclusion(result: VerificationResult, scale_id: str, model: Model | None = None) -> None:
    """The text form: the evaluative statement (or why there is none) first, then the
    propositions, an investigative likelihood ratio if any, and the method's classification."""
    bound = lr_bound(result, model)
    print(shown(headline(result.conclusion, scale_id, most=HEADLINE_REASONS, bound=bound)))
    headlined = decisive_reasons(result.conclusion)[:HEADLINE_REASONS]
    if result.conclusion.kind is not ConclusionKind.EVALUATIVE:
        for reason in conclusion_reasons(result.conclusion):
            if reason not in headlined:  # the headline's reasons are not repeated
                print(f"  - {shown(reason)}")
    hp, hd = propositions(result.conclusion.population)
    print(f"  Hp: {shown(hp)}")
    print(f"  Hd: {shown(hd)}")
    investigative = investigative_lr_sentence(result.conclusion, bound)
    if investigative:
        print(shown(investigative))
    repeats = repeat_sentence(result.repeats)  # does the direction depend on the seed?
    if repeats:
        print(shown(repeats))
    whose = "TAVeer's" if result.methods is not None else "The method's"
    second = f" {SECOND_VIEW_NOTE}" if result.methods is not None else ""
    print(classification_sentence(result.prediction, result.similarity, whose) + second)


def run_verify(args) -> int:
    model = load_model(args.model)
    known = [read_document(p) for p in args.known]
    unknown = read_document(args.unknown)
    basis = read_basis(args)
    result = verify_with_method(model, known, unknown, source=args.model, basis=basis)
    data = result.to_dict()
    data["conclusion"] = conclusion_json(result, args.scale)
    if result.methods is None:  # the same key for every model (docs/cli.md)
        taveer = taveer_log10_lr(model, result)
        data["methods"] = {
            "method": MethodId.TAVEER.value,
            "log10_lr_by_method": {
                MethodId.TAVEER.value: None if taveer is None else round(taveer, 6)
            },
        }
    scale = SCALES[args.scale]
    if result.log10_lr is not None:
        statement = describe(result.log10_lr, args.scale)
        data["verbal"] = {
            "scale": scale.name,
            "citation": scale.citation,
            "statement": lr_sentence(result.log10_lr, args.scale),
            "qualifier": statement.qualifier,
            "direction": statement.direction,
            "table": [{"likelihood_ratio": r, "wording": w} for r, w in scale.table_rows()],
        }
    none = result.conclusion.kind is ConclusionKind.NONE
    stability = None
    if args.stability and not none:
        from taveer_desktop.core.methods.taveer.stability import DEFAULT_SEED
        from taveer_desktop.core.stability.stated_stability import run_stability

        seed = DEFAULT_SEED if args.seed is None else args.seed
        found = result.methods  # a LambdaG or fused model's stated ratio is resampled too
        stability = run_stability(
            model,
            known,
            unknown,
            result.prediction,
            found.by_method.get(found.stated) if found else None,
            resamples=args.stability,
            seed=seed,
        )
        data["stability"] = stability.agreement
        data["similarity_interval"] = list(stability.similarity_interval)
        data["stability_detail"] = stability.to_dict()
    if args.json:
        print_json(data)
        return 0
    if none:
        raise InputError(headline(result.conclusion, args.scale, most=3), args.unknown)
    print_conclusion(result, args.scale, model)
    if basis is not None:
        print_basis(basis)
    if result.methods is not None:
        from taveer_desktop.presentation.method_agreement import (
            model_fusion_weights,
            result_method_lines,
        )

        weights = model_fusion_weights(model)
        for line in result_method_lines(result.methods, result.conclusion.kind, weights):
            print(line)
    if stability is not None:
        low, high = stability.similarity_interval
        whose = "TAVeer's classification" if result.methods is not None else "classification"
        if stability.ratio is not None and result.methods is not None:
            from taveer_desktop.presentation.ratio_stability_text import (
                ratio_stability_sentence,
                stability_owner,
            )

            stated = result.methods.by_method.get(result.methods.stated)
            print(
                f"stability of {stability_owner(result.methods.stated)}: "
                + ratio_stability_sentence(stability.ratio, stated)
            )
        print(
            f"stability of {whose}: {share_text(stability.agreeing, stability.resamples)} "
            "resamples "
            f"({numbers.percent(1 - stability.keep_fraction, 0)} of sentences left out, seed "
            f"{stability.seed}) give the same classification; similarity 95 % interval "
            f"{numbers.decimal(low)}–{numbers.decimal(high)}"
        )
    for c in result.ensemble:
        r = result.categories[c]
        figures = (
            "abstains"
            if r.abstained
            else (
                f"d={numbers.decimal(r.distance)} θ={numbers.decimal(r.threshold)} "
                f"s={numbers.decimal(r.similarity)}"
            )
        )
        print(f"  {c:<4}{r.name:<34}{figures}")
    for warning in result.warnings:
        print(f"warning: {shown(warning)}")
    return 0


def run_explain_lambdag(args, model) -> int:
    """LambdaG's evidence in the questioned text, sentence by sentence, beside TAVeer's lean."""
    from taveer_desktop.core.features.feature_stream import prepare_text
    from taveer_desktop.core.methods.taveer.sentence_agreement import sentence_leanings
    from taveer_desktop.presentation.lambdag_evidence_text import evidence_lines

    if args.category not in model.extra:  # its part: a LambdaG model, or a fusion of it
        raise InputError(
            "has no LambdaG part: explain --category lambdag needs a model validated with "
            "--method lambdag or fusion",
            args.model,
        )
    lexicon = default_lexicon()
    known = [read_document(p) for p in args.known]
    unknown = read_document(args.unknown)
    result = verify_with_method(model, known, unknown, lexicon, args.model, explain=True)
    assert result.methods is not None and result.methods.evidence is not None
    evidence = result.methods.evidence
    leanings = sentence_leanings(unknown, result.interpretation, result.ensemble, lexicon, evidence)
    if args.json:
        data = evidence.to_dict()
        data["lambdag_raw"] = result.methods.lambdag_raw
        data["taveer_lean_by_sentence"] = [round(x.taveer, 6) for x in leanings]
        data["both_point_same_way"] = [x.direction for x in leanings]
        print_json(data)
        return 0
    for line in evidence_lines(prepare_text(unknown), evidence, leanings, args.top):
        print(shown(line))
    return 0


def run_explain(args) -> int:
    from taveer_desktop.core.methods.taveer.interpret import interpret

    model = load_model(args.model)
    if gives_text_evidence(args.category):  # LambdaG's evidence in the text
        return run_explain_lambdag(args, model)
    lexicon = default_lexicon()
    unknown = extract_features(read_document(args.unknown), lexicon)
    profile = DocumentFeatures.combine(
        extract_features(read_document(p), lexicon) for p in args.known
    )
    interpretation = interpret(
        args.category,
        unknown.counts[args.category],
        profile.counts[args.category],
        model.thresholds[args.category],
    )
    data = interpretation.to_dict()
    if args.json:
        print_json(data)
        return 0
    print(
        f"{args.category} {CATEGORY_NAMES[args.category]}: m={numbers.integer(interpretation.m)}, "
        f"θ={numbers.decimal(interpretation.threshold, 4)}, "
        f"θ'={numbers.decimal(interpretation.theta_prime, 6)}"
    )
    for label, items in (
        ("L_Y (towards same author)", interpretation.l_y),
        ("L_N (towards different authors)", interpretation.l_n),
    ):
        total = sum(v for _, v in items)
        print(f"{label}: {numbers.count(len(items), 'feature')}, Σλ = {numbers.decimal(total, 4)}")
        for feature, importance in items[: args.top]:
            print(f"    {numbers.decimal(importance, 5)}  {shown(feature)}")
    return 0
