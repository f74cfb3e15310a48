"""Engine commands of ``taveer`` on documents and PAN corpora: features, train, evaluate.

The JSON shapes printed here are a stable contract documented in docs/cli.md. Modules only some
commands need (corpora, training, evaluation) are imported by those commands, so that the other
commands start quickly. ``validate`` is in ``validate_command.py``, ``verify`` and ``explain`` in
``verify_commands.py``.
"""

from __future__ import annotations

import argparse
import json

from taveer_desktop.cli.argument_types import category_option, read_document
from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.output_files import writes_files
from taveer_desktop.cli.record_option import add_record_option, print_basis, read_basis
from taveer_desktop.core.features.features import CATEGORY_IDS, CATEGORY_NAMES, extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.methods.taveer.model import THRESHOLD_METHODS, load_model, save_model
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import gate_summary_text
from taveer_desktop.presentation.face_registry import fuses, is_seed


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("features", help="feature counts of one document")
    p.add_argument("file")
    p.add_argument("--category", type=category_option, help="only this category (F1..F11)")
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
    writes_files(p, "output")
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
    writes_files(p, "answers")
    p.set_defaults(handler=run_evaluate)


def run_features(args) -> int:
    features = extract_features(read_document(args.file), default_lexicon())
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
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer.training import train

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
    from taveer_desktop.core.ground.atomic_file import write_text_atomically
    from taveer_desktop.core.intake.corpus import PAN_FOLDER

    lines = []
    for case_id, score in zip(case_ids, scores, strict=True):
        if layout == PAN_FOLDER:
            lines.append(f"{case_id} {score:.6f}\n")
        else:
            lines.append(json.dumps({"id": case_id, "value": round(float(score), 6)}) + "\n")
    write_text_atomically(path, "".join(lines))


def run_evaluate(args) -> int:
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.validation.evaluation import evaluate

    model = load_model(args.model)  # every method's part checked (``method_registry.check_parts``)
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
        if not is_seed(result.method):
            from taveer_desktop.core.methods.lambdag.lambdag_model import fusion_of
            from taveer_desktop.presentation.method_measures import method_measure_lines

            fusing = any(fuses(m) for m in result.methods)
            fused = fusion_of(model, str(args.model)).methods if fusing else ()
            print("\n".join(method_measure_lines(report["methods"], result.method, fused)))
        print_basis(basis)
        for case in report.get("cases", []):
            lr = "–" if case["log10_lr"] is None else numbers.decimal(case["log10_lr"], 3)
            print(
                f"  {shown(case['id'])}\t{case['truth']}\t{case['kind']}\tlog10 LR {lr}\t"
                + (", ".join(case["rules"]) or "no rule broken")
            )
    return 0
