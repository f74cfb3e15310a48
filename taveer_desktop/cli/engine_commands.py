"""Engine commands of ``taveer``: features, train, evaluate, verify, explain.

The JSON shapes printed here are a stable contract documented in docs/cli.md. Modules only some
commands need (corpora, training, evaluation, interpretation) are imported by those commands,
so that ``taveer verify`` starts quickly.
"""

from __future__ import annotations

import argparse
import json

from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.record_option import add_record_option, print_basis, read_basis
from taveer_desktop.core.decoding import read_text_file
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.features import (
    CATEGORY_IDS,
    CATEGORY_NAMES,
    DocumentFeatures,
    extract_features,
)
from taveer_desktop.core.lexicon import default_lexicon
from taveer_desktop.core.method_verify import taveer_log10_lr, verify_with_method
from taveer_desktop.core.model import (
    STATED_METHODS,
    THRESHOLD_METHODS,
    Model,
    load_model,
    method_of,
    save_model,
)
from taveer_desktop.core.outcome import ConclusionKind
from taveer_desktop.core.progress import NO_PROGRESS
from taveer_desktop.core.verbal_scales import DEFAULT_SCALE, SCALES, describe
from taveer_desktop.core.verify import VerificationResult
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import (
    classification_sentence,
    decisive_reasons,
    gate_summary_text,
    headline,
    investigative_lr_sentence,
    lr_bound,
    lr_sentence,
    propositions,
    share_text,
)

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024


def _read_document(path: str) -> str:
    return read_text_file(path, max_bytes=MAX_DOCUMENT_BYTES).text


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be a whole number ≥ 1")
    return number


def _seed(value: str) -> int:
    number = int(value)
    if number < 0:  # numpy's generators take none below 0
        raise argparse.ArgumentTypeError("must be a whole number ≥ 0")
    return number


def _category(value: str) -> str:
    value = value.upper()
    if value not in CATEGORY_IDS:
        raise argparse.ArgumentTypeError(f"{value!r} is not a category (use F1..F11)")
    return value


def _explained(value: str) -> str:
    """A TAVeer category, or "lambdag" for LambdaG's evidence in the text."""
    return "lambdag" if value.lower() == "lambdag" else _category(value)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("features", help="feature counts of one document")
    p.add_argument("file")
    p.add_argument("--category", type=_category, help="only this category (F1..F11)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run_features)

    p = subparsers.add_parser("train", help="train a model on a PAN corpus with truth")
    p.add_argument("corpus")
    p.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    p.add_argument("--name", help="model name (default: from the corpus)")
    p.add_argument("--threshold", choices=THRESHOLD_METHODS, default="median")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--inconclusive-band",
        action="store_true",
        help="learn a band around 0.5 inside which the answer is 'inconclusive' (max. c@1)",
    )
    p.add_argument(
        "--genre",
        metavar="TEXT",
        help="the genre of the training texts (recorded in the model's validated conditions)",
    )
    p.add_argument(
        "--population",
        metavar="TEXT",
        help="who wrote the training texts: the relevant population that Hd names "
        "(default: the authors of the training corpus)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.set_defaults(handler=run_train)

    p = subparsers.add_parser("evaluate", help="evaluate a model on a PAN corpus with truth")
    p.add_argument("model")
    p.add_argument("corpus")
    p.add_argument("--json", action="store_true")
    p.add_argument("--answers", metavar="FILE", help="also write PAN's answer file")
    p.add_argument("--workers", type=int, default=None)
    add_record_option(p)
    p.add_argument(
        "--cases",
        action="store_true",
        help="also list every case: truth, kind of conclusion, log10 LR, broken gate rules",
    )
    p.set_defaults(handler=run_evaluate)

    _register_validate(subparsers)

    for name, helptext in (("verify", "verify one case"), ("explain", "interpret one case")):
        p = subparsers.add_parser(name, help=helptext)
        p.add_argument("model")
        p.add_argument("--known", nargs="+", required=True, metavar="K")
        p.add_argument("--unknown", required=True, metavar="U")
        p.add_argument("--json", action="store_true")
        if name == "explain":
            p.add_argument(
                "--category",
                type=_explained,
                required=True,
                help="F1..F11, or lambdag (LambdaG's evidence, for a LambdaG or fused model)",
            )
            p.add_argument(
                "--top",
                type=_positive,
                default=15,
                help="features (sentences for lambdag) shown without --json",
            )
            p.set_defaults(handler=run_explain)
        else:
            add_record_option(p)
            p.add_argument(
                "--stability",
                type=_positive,
                metavar="B",
                help="also resample the sentences B times (e.g. 200) and report the agreement",
            )
            p.add_argument("--seed", type=_seed, help="seed of --stability")
            p.add_argument(
                "--scale",
                choices=sorted(SCALES),
                default=DEFAULT_SCALE,
                help="verbal scale for the likelihood ratio",
            )
            p.set_defaults(handler=run_verify)


def _share(value: str) -> float:
    number = float(value)
    if not number >= 0.0:
        raise argparse.ArgumentTypeError("must be a number ≥ 0")
    return number


def add_validation_options(p: argparse.ArgumentParser) -> None:
    """The protocol and acceptance options shared by ``validate`` and ``case validate``."""
    p.add_argument("--folds", type=_positive, default=5, metavar="K")
    p.add_argument("--max-trials", type=_positive, default=5000, metavar="N")
    p.add_argument("--seed", type=_seed, default=0, metavar="S")
    p.add_argument(
        "--repeats",
        type=_positive,
        default=3,
        metavar="R",
        help="cross-validation repeated with seeds S, S+1, … and pooled (default 3)",
    )
    p.add_argument("--accept-cllr", type=_share, metavar="X", help="criterion: Cllr ≤ X")
    p.add_argument(
        "--accept-misleading",
        type=_share,
        metavar="X",
        help="criterion: both rates of misleading evidence ≤ X",
    )
    p.add_argument(
        "--method",
        choices=STATED_METHODS,
        default="taveer",
        help="the method validated: TAVeer, LambdaG, or their fusion (docs/method.md)",
    )
    p.add_argument(
        "--lambdag-order",
        type=_positive,
        default=10,
        metavar="N",
        help="LambdaG: the highest n-gram order tried (the order is chosen by validation)",
    )
    p.add_argument(
        "--lambdag-samples",
        type=_positive,
        default=30,
        metavar="R",
        help="LambdaG: reference samples per comparison (published default 30)",
    )


def _register_validate(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "validate",
        help="validate the method on a relevant population under the case's conditions "
        "and write the model it produces",
    )
    p.add_argument(
        "--population",
        required=True,
        metavar="DIR",
        help="a folder with one sub-folder per author, or a PAN corpus that names its authors",
    )
    p.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    p.add_argument("--record", metavar="RECORD.json", help="also write the validation record")
    p.add_argument(
        "--report",
        metavar="REPORT.pdf",
        help="also write the validation report (PDF: population, protocol, criteria, figures, "
        "plots, limits)",
    )
    p.add_argument(
        "--questioned-chars",
        metavar="LO:HI",
        help="the declared range of questioned lengths in characters (N alone: N:N)",
    )
    p.add_argument(
        "--known-chars",
        metavar="LO:HI",
        help="the declared range of known lengths (together) in characters (N alone: N:N)",
    )
    add_validation_options(p)
    p.add_argument("--threshold", choices=THRESHOLD_METHODS, default="median")
    p.add_argument("--name", help="model name (default: from the population)")
    p.add_argument("--description", metavar="TEXT", help="who, genre, period, how selected")
    p.add_argument("--genre", metavar="TEXT", help="the genre of the population's texts")
    p.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="processes for the cross-validation folds (default 1; see docs/performance.md)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.set_defaults(handler=run_validate)


def load_population(path: str, description: str | None, progress=None):
    """A population from a PAN corpus that names its authors, or from a folder with one
    sub-folder per author read through the evidence intake (refusals become warnings)."""
    from taveer_desktop.core.population import (
        is_corpus_folder,
        population_from_corpus,
        population_from_texts,
    )

    if is_corpus_folder(path):
        from taveer_desktop.core.corpus import open_corpus

        return population_from_corpus(open_corpus(path), description or "", progress=progress)
    from pathlib import Path

    from taveer_desktop.store.population_folder import read_population_folder

    files = read_population_folder(path)
    name = Path(path).resolve().name
    return population_from_texts(
        files.texts(),
        name,
        str(path),
        description or f"the authors of the folder {name!r}",
        progress=progress,
        warnings=files.warnings,
    )


def print_validation_notes(record: dict) -> None:
    """Each method's figures (a LambdaG or fused validation), the record's likelihood-ratio
    bound and, if the validation is too small for casework, why (the words of
    ``presentation/validation_text.py``)."""
    from taveer_desktop.presentation.method_agreement import method_label
    from taveer_desktop.presentation.validation_text import (  # loaded when validating only
        bound_sentence,
        casework_shortfalls,
    )

    stated = record.get("protocol", {}).get("method", "taveer")
    for method, figures in record.get("methods", {}).items():
        print(
            f"  {method_label(method)}: Cllr {numbers.decimal(figures['cllr'])}, "
            f"AUC {numbers.decimal(figures['auc'])}" + (" (stated)" if method == stated else "")
        )
    print(bound_sentence(record))
    shortfalls = casework_shortfalls(record)
    if shortfalls:
        print(f"Too small for casework: {'; '.join(shortfalls)}.")


def validation_summary(
    result, model_path: str | None, record_path: str | None, report_path: str | None = None
) -> dict:
    """The JSON of ``taveer validate`` (cross-validated figures)."""
    from taveer_desktop.core.validation import FIGURES  # loaded when validating only

    figures, record = result.figures, result.record
    return {
        "authors": record["population"]["authors"],
        "trials": {
            "same": record["protocol"]["trials_same"],
            "different": record["protocol"]["trials_different"],
        },
        **{key: figures[key] for key in FIGURES},
        "intervals": record["intervals"],
        "bound": {k: record["bound"][k] for k in ("min_log10_lr", "max_log10_lr")},
        "acceptance": {
            "criteria": record["acceptance"]["criteria"],
            "met": record["acceptance"]["met"],
            "results": record["acceptance"]["results"],
            "judged_on": record["acceptance"]["judged_on"],
            "judged_values": record["acceptance"]["judged_values"],
        },
        "model": model_path,
        "record": record_path,
        "conditions": record["conditions"],
        "repeats": record["repeats"],
        "bands": record["bands"],
        "casework": record["casework"],
        **({"methods": record["methods"]} if "methods" in record else {}),
        **({"report": report_path} if report_path else {}),
    }


def run_validate(args) -> int:
    import sys

    from taveer_desktop.core.validation import (
        AcceptanceCriteria,
        ValidationSettings,
        parse_length_range,
        save_record,
        validate,
    )

    # the criteria are fixed (and time-stamped) before the population is even read
    def declared(value: str | None, option: str) -> tuple[int, int] | None:
        # parsed here, not by argparse, so that a bad range is one plain line (exit 2)
        return None if value is None else parse_length_range(value, option)

    settings = ValidationSettings(
        questioned_chars=declared(args.questioned_chars, "--questioned-chars"),
        known_chars=declared(args.known_chars, "--known-chars"),
        folds=args.folds,
        max_trials=args.max_trials,
        seed=args.seed,
        repeats=args.repeats,
        method=args.method,
        threshold_method=args.threshold,
        criteria=AcceptanceCriteria.now(args.accept_cllr, args.accept_misleading),
        lambdag_order=args.lambdag_order,
        lambdag_samples=args.lambdag_samples,
    )
    settings.check()
    report_target = None
    if args.report:  # refused before the run, not after it
        from taveer_desktop.report.export import check_target

        report_target = check_target(args.report)
    # progress only on a terminal: a script reading stderr gets one line on bad input
    progress = StderrProgress("validating") if sys.stderr.isatty() else NO_PROGRESS
    population = load_population(args.population, args.description, progress)
    result = validate(
        population,
        settings,
        name=args.name,
        genre=args.genre,
        progress=progress,
        workers=args.workers,
    )
    save_model(result.model, args.output)
    if args.record:
        save_record(result.record, args.record)
    if report_target is not None:
        from taveer_desktop.report.validation_export import export_validation_report

        source = f"the record {args.record}" if args.record else "the validation just run"
        export_validation_report(result.record, report_target, f"{source} (not stored)")
    for warning in population.warnings:
        print(f"taveer: warning: {shown(warning)}", file=sys.stderr)
    summary = validation_summary(result, str(args.output), args.record, args.report)
    if args.json:
        print_json(summary)
        return 0
    from taveer_desktop.presentation.validation_text import acceptance_verdict

    verdict = acceptance_verdict(summary["acceptance"]["met"])
    print(
        f"validated on {numbers.count(summary['authors'], 'author')}, "
        f"{numbers.integer(summary['trials']['same'])} same-author and "
        f"{numbers.integer(summary['trials']['different'])} different-author trials: "
        f"Cllr {numbers.decimal(summary['cllr'])} "
        f"(Cllr_min {numbers.decimal(summary['cllr_min'])}), "
        f"EER {numbers.decimal(summary['eer'])}, "
        f"AUC {numbers.decimal(summary['auc'])}, misleading "
        f"{numbers.percent(summary['misleading_y'])} / {numbers.percent(summary['misleading_n'])}; "
        f"{verdict}"
    )
    print_validation_notes(result.record)
    print(
        f"model written to {shown(args.output)}"
        + (f", record to {shown(args.record)}" if args.record else "")
        + (f", report to {shown(args.report)}" if args.report else "")
    )
    return 0


def run_features(args) -> int:
    features = extract_features(_read_document(args.file), default_lexicon())
    categories = [args.category] if args.category else list(CATEGORY_IDS)
    if args.json:
        print_json({"categories": {c: features.counts[c] for c in categories}})
        return 0
    for c in categories:
        counts = sorted(features.counts[c].items(), key=lambda kv: (-kv[1], kv[0]))
        print(
            f"{c} {CATEGORY_NAMES[c]}: {numbers.count(len(counts), 'feature')}, "
            f"{numbers.count(sum(features.counts[c].values()), 'occurrence')}"
        )
        for feature, count in counts[:10]:
            print(f"    {count:6d}  {shown(feature)}")
    return 0


def run_train(args) -> int:
    from taveer_desktop.core.corpus import open_corpus
    from taveer_desktop.core.training import train

    corpus = open_corpus(args.corpus)
    model = train(
        corpus,
        name=args.name,
        threshold_method=args.threshold,
        workers=args.workers,
        progress=StderrProgress("training"),
        with_inconclusive_band=args.inconclusive_band,
        genre=args.genre,
        population=args.population,
    )
    save_model(model, args.output)
    for warning in corpus.warnings:
        print(f"taveer: warning: {shown(warning)}", file=__import__("sys").stderr)
    summary = {
        "model": str(args.output),
        "name": model.name,
        "ensemble": list(model.ensemble),
        "thresholds": model.thresholds,
        "training_accuracy": model.training.accuracy,
        "cases": model.training.cases,
        "seconds": model.training.seconds,
    }
    if args.json:
        print_json(summary)
    else:
        print(
            f"model written to {shown(args.output)}: ensemble {', '.join(model.ensemble)}, "
            f"training accuracy {numbers.decimal(model.training.accuracy)} on "
            f"{numbers.count(model.training.cases, 'case')}"
        )
    return 0


def _write_answers(path: str, layout: str, case_ids, scores) -> None:
    from taveer_desktop.core.atomic_file import write_text_atomically
    from taveer_desktop.core.corpus import PAN_FOLDER

    lines = []
    for case_id, score in zip(case_ids, scores, strict=True):
        if layout == PAN_FOLDER:
            lines.append(f"{case_id} {score:.6f}\n")
        else:
            lines.append(json.dumps({"id": case_id, "value": round(float(score), 6)}) + "\n")
    write_text_atomically(path, "".join(lines))


def run_evaluate(args) -> int:
    from taveer_desktop.core.corpus import open_corpus
    from taveer_desktop.core.evaluation import evaluate

    model = load_model(args.model)  # every method's part checked (``check_model_parts``)
    basis = read_basis(args)  # refused before the long part
    corpus = open_corpus(args.corpus)
    result = evaluate(
        model, corpus, workers=args.workers, progress=StderrProgress("evaluating"), basis=basis
    )
    if args.answers:
        _write_answers(args.answers, corpus.layout, result.case_ids, result.scores)
    report = result.report_dict()
    report["seconds"] = round(result.seconds, 3)
    if args.cases:
        report["cases"] = result.cases()
    if args.json:
        print_json(report)
    else:
        m = result.metrics
        print(
            f"{numbers.count(m.n, 'case')}: accuracy {numbers.decimal(m.accuracy)}, "
            f"AUC {numbers.decimal(m.auc)}, c@1 {numbers.decimal(m.c_at_1)}, "
            f"F0.5u {numbers.decimal(m.f05u)}, Brier (complement) {numbers.decimal(m.brier)}"
        )
        print(f"TP {m.tp}  FN {m.fn}  FP {m.fp}  TN {m.tn}")
        if m.cllr is not None:
            print(f"Cllr {numbers.decimal(m.cllr)} (Cllr_min {numbers.decimal(m.cllr_min)})")
        if result.gate is not None:
            print(gate_summary_text(result.gate))
        if result.method != "taveer":
            from taveer_desktop.presentation.method_measures import method_measure_lines

            print("\n".join(method_measure_lines(report["methods"], result.method)))
        print_basis(basis)
        for case in report.get("cases", []):
            lr = "–" if case["log10_lr"] is None else numbers.decimal(case["log10_lr"], 3)
            print(
                f"  {shown(case['id'])}\t{case['truth']}\t{case['kind']}\tlog10 LR {lr}\t"
                + (", ".join(case["rules"]) or "no rule broken")
            )
    return 0


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
        for reason in result.conclusion.reasons:
            if reason not in headlined:  # the headline's reasons are not repeated
                print(f"  - {shown(reason)}")
    hp, hd = propositions(result.conclusion.population)
    print(f"  Hp: {shown(hp)}")
    print(f"  Hd: {shown(hd)}")
    investigative = investigative_lr_sentence(result.conclusion, bound)
    if investigative:
        print(shown(investigative))
    whose = "TAVeer's" if result.methods is not None else "The method's"
    print(classification_sentence(result.prediction, result.similarity, whose))


def run_verify(args) -> int:
    model = load_model(args.model)
    known = [_read_document(p) for p in args.known]
    unknown = _read_document(args.unknown)
    basis = read_basis(args)
    result = verify_with_method(model, known, unknown, source=args.model, basis=basis)
    data = result.to_dict()
    data["conclusion"] = conclusion_json(result, args.scale)
    if result.methods is None:  # the same key for every model (docs/cli.md)
        taveer = taveer_log10_lr(model, result)
        data["methods"] = {
            "method": "taveer",
            "log10_lr_by_method": {"taveer": None if taveer is None else round(taveer, 6)},
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
        from taveer_desktop.core.stability import DEFAULT_SEED
        from taveer_desktop.core.stated_stability import run_stability

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
    from taveer_desktop.core.feature_stream import prepare_text
    from taveer_desktop.core.sentence_agreement import sentence_leanings
    from taveer_desktop.presentation.lambdag_evidence_text import evidence_lines

    if method_of(model) == "taveer":
        raise InputError(
            "has no LambdaG part: explain --category lambdag needs a model validated with "
            "--method lambdag or fusion",
            args.model,
        )
    lexicon = default_lexicon()
    known = [_read_document(p) for p in args.known]
    unknown = _read_document(args.unknown)
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
    from taveer_desktop.core.interpret import interpret

    model = load_model(args.model)
    if args.category == "lambdag":
        return run_explain_lambdag(args, model)
    lexicon = default_lexicon()
    unknown = extract_features(_read_document(args.unknown), lexicon)
    profile = DocumentFeatures.combine(
        extract_features(_read_document(p), lexicon) for p in args.known
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
