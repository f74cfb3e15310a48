"""The ``taveer validate`` command: validate the method on a relevant population and write the
model it produces, with its record and report on request.

Also what ``case validate`` shares with it: the protocol and acceptance options, the JSON summary
and the notes printed after the figures. The JSON shape is a stable contract (docs/cli.md); the
validation modules are imported only when validating.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from taveer_desktop.cli.argument_types import positive_number, seed_number, share_number
from taveer_desktop.cli.output import StderrProgress, print_json, shown
from taveer_desktop.cli.output_files import writes_files
from taveer_desktop.core.ground.progress import NO_PROGRESS
from taveer_desktop.core.methods.systems.catalogue import require_loadable
from taveer_desktop.core.methods.taveer.model import THRESHOLD_METHODS
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import fuses

if TYPE_CHECKING:
    from taveer_desktop.core.validation.record_reader import ValidationRecord


def add_validation_options(p: argparse.ArgumentParser) -> None:
    """The protocol and acceptance options shared by ``validate`` and ``case validate``."""
    p.add_argument("--folds", type=positive_number, default=5, metavar="K")
    p.add_argument("--max-trials", type=positive_number, default=5000, metavar="N")
    p.add_argument("--seed", type=seed_number, default=0, metavar="S")
    p.add_argument(
        "--repeats",
        type=positive_number,
        default=3,
        metavar="R",
        help="cross-validation repeated with seeds S, S+1, … and pooled (default 3)",
    )
    p.add_argument("--accept-cllr", type=share_number, metavar="X", help="criterion: Cllr ≤ X")
    p.add_argument(
        "--accept-misleading",
        type=share_number,
        metavar="X",
        help="criterion: both rates of misleading evidence ≤ X",
    )
    p.add_argument(
        "--method",
        metavar="ID",
        help="the method validated and stated (default taveer; `taveer methods` lists the ids)",
    )
    p.add_argument(
        "--compare",
        metavar="ID,ID,…",
        help="methods validated side by side on the same trials, one record (the first is "
        "stated unless --method or --choose-by says otherwise)",
    )
    p.add_argument(
        "--choose-by",
        metavar="RULE",
        help="a rule, recorded before the run, that picks the stated method among those "
        "compared: lowest-pessimistic-cllr",
    )
    p.add_argument(
        "--fuse",
        metavar="ID,ID[,…]",
        help="the methods the fusion combines (at least two; default taveer,lambdag); "
        "validates the fusion too",
    )
    p.add_argument(
        "--topic",
        default="unknown",
        metavar="same|different|unknown",
        help="how the case's known and questioned texts relate in topic; trials of both kinds "
        "are built in that relation (unknown, the default, takes the harder one for each "
        "kind: different topics for same-author, the same topic for different-author trials)",
    )
    p.add_argument(
        "--lambdag-order",
        type=positive_number,
        default=10,
        metavar="N",
        help="LambdaG: the highest n-gram order tried (the order is chosen by validation)",
    )
    p.add_argument(
        "--lambdag-samples",
        type=positive_number,
        default=30,
        metavar="R",
        help="LambdaG: reference samples per comparison (published default 30)",
    )


def _method_ids(text: str, option: str) -> list[str]:
    """Registered ids from ``ID`` or ``ID,ID,…`` (InputError naming the option otherwise)."""
    from taveer_desktop.core.ground.errors import InputError
    from taveer_desktop.core.ground.registry import METHOD_IDS

    ids = [word.strip().lower() for word in text.split(",")]
    unknown = [word for word in ids if word not in METHOD_IDS]
    if not ids or unknown or "" in ids:
        shown_ids = ", ".join(repr(w) for w in unknown) or repr(text)
        raise InputError(
            f"{option}: unknown method {shown_ids} (known: {', '.join(METHOD_IDS)}; "
            "see `taveer methods`)"
        )
    return ids


def settings_from_args(args):
    """The ``ValidationSettings`` of ``validate`` and ``case validate`` from their options
    (``add_validation_options`` and the declared lengths), checked; the acceptance criteria
    and the rule choosing the stated method are time-stamped now, before the population is
    read. ``--method ID`` is stated; ``--compare ID,…`` adds methods beside it (without
    ``--method`` its first id is stated); ``--fuse ID,ID[,…]`` names the methods the fusion
    combines and adds the fusion (stated when neither ``--method`` nor ``--compare`` is
    given)."""
    from taveer_desktop.core.ground.errors import InputError
    from taveer_desktop.core.trials.validation_settings import (
        CHOICE_RULES,
        DEFAULT_FUSE,
        check_fuse,
    )
    from taveer_desktop.core.validation.validation import (
        AcceptanceCriteria,
        ValidationSettings,
        parse_length_range,
    )

    def declared(option: str) -> tuple[int, int] | None:
        # parsed here, not by argparse, so that a bad range is one plain line (exit 2)
        value = getattr(args, option.lstrip("-").replace("-", "_"), None)
        return None if value is None else parse_length_range(value, option)

    method = None if args.method is None else _method_ids(args.method, "--method")
    if method is not None and len(method) != 1:
        raise InputError(f"--method takes one id, not {args.method!r}; compare with --compare")
    rule = None if args.choose_by is None else args.choose_by.strip().lower().replace("-", "_")
    if rule is not None and rule not in CHOICE_RULES:
        raise InputError(f"--choose-by must be lowest-pessimistic-cllr, not {args.choose_by!r}")
    compare = [] if args.compare is None else _method_ids(args.compare, "--compare")
    fuse = getattr(args, "fuse", None)
    if fuse is not None:
        fuse = [word.strip().lower() for word in fuse.split(",")]
        check_fuse(fuse)
        if not method and not compare:
            method = ["fusion"]
        elif not any(fuses(m) for m in (*(method or []), *compare)):
            compare.append("fusion")
    stated = method[0] if method else (compare[0] if compare else "taveer")
    settings = ValidationSettings(
        questioned_chars=declared("--questioned-chars"),
        known_chars=declared("--known-chars"),
        folds=args.folds,
        max_trials=args.max_trials,
        seed=args.seed,
        repeats=args.repeats,
        method=stated,
        threshold_method=getattr(args, "threshold", "median"),
        criteria=AcceptanceCriteria.now(args.accept_cllr, args.accept_misleading),
        lambdag_order=args.lambdag_order,
        lambdag_samples=args.lambdag_samples,
        compare=tuple(m for m in dict.fromkeys(compare) if m != stated),
        choose_by=rule,
        fuse=DEFAULT_FUSE if fuse is None else tuple(fuse),
        topic=str(getattr(args, "topic", "unknown")).strip().lower(),
    )
    settings.check()
    require_loadable(settings.named)
    return settings


def register(subparsers: argparse._SubParsersAction) -> None:
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
        type=positive_number,
        default=1,
        help="processes for the cross-validation folds (default 1; see docs/performance.md)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    writes_files(p, "output", "record", "report")
    p.set_defaults(handler=run_validate)


def load_population(path: str, description: str | None, progress=None):
    """A population read by the one reader every path uses (``store/population_folder.py``:
    a folder with one sub-folder per author, or a PAN split that names its authors; refusals
    become warnings)."""
    from pathlib import Path

    from taveer_desktop.core.ground.progress import NO_PROGRESS
    from taveer_desktop.core.trials.population import population_from_texts
    from taveer_desktop.store.population_folder import read_population

    files = read_population(path)
    resolved = Path(path).resolve()
    name = resolved.name
    if name in {"train", "test"}:  # a PAN split: named by its corpus too
        name = f"{resolved.parent.name}/{name}"
    return population_from_texts(
        files.texts(),
        name,
        str(path),
        description or f"the authors of the {'corpus' if '/' in name else 'folder'} {name!r}",
        progress=progress or NO_PROGRESS,
        warnings=files.warnings,
        dates=files.dates,
    )


def print_validation_notes(record: ValidationRecord) -> None:
    """Each method's figures (when more than one was validated), the record's likelihood-ratio
    bound and, if the validation is too small for casework, why (the words of
    ``presentation/validation_text.py``)."""
    from taveer_desktop.presentation.fusion_text import record_method_label
    from taveer_desktop.presentation.trial_construction_text import case_topic_sentence
    from taveer_desktop.presentation.validation_text import (  # loaded when validating only
        bound_sentence,
        casework_shortfalls,
    )

    stated = record.protocol.method or "taveer"
    blocks = record.methods
    for method, block in blocks.items() if len(blocks) > 1 else ():
        figures = block.figures
        counts = ""
        if block.cannot_compare:
            counts = f", could not compare {numbers.count(block.cannot_compare, 'trial')}"
        print(
            f"  {record_method_label(record, method)}: Cllr {numbers.decimal(figures['cllr'])}, "
            f"AUC {numbers.decimal(figures['auc'])}{counts}"
            + (" (stated)" if method == stated else "")
        )
    comparison = record.comparison
    if comparison and comparison.rule:
        print(f"  stated method chosen by the rule {comparison.rule} set before the run")
    print(case_topic_sentence(record))
    print(bound_sentence(record))
    shortfalls = casework_shortfalls(record)
    if shortfalls:
        print(f"Too small for casework: {'; '.join(shortfalls)}.")


def validation_summary(
    record: ValidationRecord,
    model_path: str | None,
    record_path: str | None,
    report_path: str | None = None,
) -> dict:
    """The JSON of ``taveer validate`` (cross-validated figures), from the typed record; every
    block as the record holds it (``core/validation/record_json.py``)."""
    from taveer_desktop.core.validation.record_json import part_json
    from taveer_desktop.core.validation.record_parts import Bound
    from taveer_desktop.core.validation.validation import FIGURES  # loaded when validating only

    bound, acceptance = record.bound or Bound(), record.acceptance
    return {
        "authors": record.population.authors,
        "trials": {
            "same": record.protocol.trials_same,
            "different": record.protocol.trials_different,
            "construction": part_json(record.protocol.construction),
        },
        **{key: record.figures.value(key) for key in FIGURES},
        "intervals": part_json(record.intervals),
        "bound": {"min_log10_lr": bound.min_log10_lr, "max_log10_lr": bound.max_log10_lr},
        "acceptance": {
            "criteria": part_json(acceptance.criteria),
            "met": acceptance.met,
            "results": part_json(acceptance.results),
            "judged_on": acceptance.judged_on,
            "judged_values": part_json(acceptance.judged_values),
        },
        "model": model_path,
        "record": record_path,
        "conditions": part_json(record.conditions),
        "repeats": part_json(record.repeats),
        "bands": part_json(record.bands),
        "casework": part_json(record.casework),
        **({"methods": part_json(record.methods)} if "methods" in record.objects else {}),
        **({"report": report_path} if report_path else {}),
    }


def run_validate(args) -> int:
    import contextlib
    import sys

    from taveer_desktop.core.ground.atomic_file import replacing
    from taveer_desktop.core.validation.validation import validate
    from taveer_desktop.core.validation.validation_record import record_json

    # the criteria are fixed (and time-stamped) before the population is even read
    settings = settings_from_args(args)
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
    # all outputs or none: the model and the record are written whole beside their names and
    # renamed only once the report (written last, whole, read back) is in place too — a record
    # or report that cannot be written leaves no model behind (each error names its file)
    with contextlib.ExitStack() as outputs:
        outputs.enter_context(replacing(args.output)).write_text(
            result.model.to_json(), encoding="utf-8"
        )
        if args.record:
            outputs.enter_context(replacing(args.record)).write_text(
                record_json(result.record), encoding="utf-8"
            )
        if report_target is not None:
            from taveer_desktop.report.validation_export import export_validation_report

            source = f"the record {args.record}" if args.record else "the validation just run"
            export_validation_report(result.record, report_target, f"{source} (not stored)")
    for warning in population.warnings:
        print(f"taveer: warning: {shown(warning)}", file=sys.stderr)
    from taveer_desktop.core.validation.record_reader import read_validation_record

    record = read_validation_record(result.record)  # the record just written, read typed once
    summary = validation_summary(record, str(args.output), args.record, args.report)
    if args.json:
        print_json(summary)
        return 0
    from taveer_desktop.presentation.validation_figures_text import acceptance_verdict

    verdict = acceptance_verdict(record.acceptance.met)
    figures = record.figures
    print(
        f"validated on {numbers.count(record.population.authors or 0, 'author')}, "
        f"{numbers.integer(record.protocol.trials_same or 0)} same-author and "
        f"{numbers.integer(record.protocol.trials_different or 0)} different-author trials: "
        f"Cllr {numbers.decimal(figures.cllr)} (Cllr_min {numbers.decimal(figures.cllr_min)}), "
        f"EER {numbers.decimal(figures.eer)}, AUC {numbers.decimal(figures.auc)}, misleading "
        f"{numbers.percent(figures.misleading_y)} / {numbers.percent(figures.misleading_n)}; "
        f"{verdict}"
    )
    print_validation_notes(record)
    print(
        f"model written to {shown(args.output)}"
        + (f", record to {shown(args.record)}" if args.record else "")
        + (f", report to {shown(args.report)}" if args.report else "")
    )
    return 0
