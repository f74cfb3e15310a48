"""Project-store commands of ``taveer``: case, model, audit, receipt and save-copy (``check``:
``check_command.py``).

All of them work on ``--project P`` (default: the user's default project). ``case create`` and
``model add`` create the project file if it does not exist yet; the others need it to exist.
With ``--json`` each prints one JSON document on stdout (shapes in docs/store.md). Bad input
raises a ``TaveerError`` (one line, exit 2); ``check`` exits 1 when it finds problems.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from taveer_desktop.cli.check_command import add_check_parser
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.validate_command import add_validation_options, print_validation_notes
from taveer_desktop.cli.verify_commands import conclusion_json
from taveer_desktop.core.decoding import check_encoding_name
from taveer_desktop.core.errors import InputError
from taveer_desktop.core.outcome import ConclusionKind
from taveer_desktop.core.stability import DEFAULT_RESAMPLES
from taveer_desktop.core.verbal_scales import DEFAULT_SCALE, SCALES
from taveer_desktop.paths import default_project_path
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.audit_text import recorded_time  # the desktop's time format
from taveer_desktop.presentation.conclusion_text import (
    CLASSIFICATION_SHORT,
    KIND_LABELS,
    headline,
    lr_bound,
    share_text,
)
from taveer_desktop.presentation.encoding_text import (
    UNCERTAIN_ADVICE,
    detection_of,
    encoding_summary,
    is_uncertain,
)
from taveer_desktop.presentation.method_agreement import model_fusion_weights, result_method_lines
from taveer_desktop.presentation.model_text import model_summary_lines, unusable_model_line
from taveer_desktop.presentation.ratio_stability_text import (
    ratio_stability_sentence,
    stability_owner,
)
from taveer_desktop.presentation.validation_text import acceptance_verdict
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.failure_account import accounting_for_failure
from taveer_desktop.store.receipts import write_receipt
from taveer_desktop.store.records import VerificationRun


def register(subparsers: argparse._SubParsersAction) -> None:
    case = subparsers.add_parser("case", help="create, list, show, fill and verify cases")
    actions = case.add_subparsers(dest="case_action", metavar="ACTION", required=True)

    p = actions.add_parser("create", help="create a case")
    p.add_argument("number", help="case number (unique in the project)")
    for name in ("title", "examiner", "agency", "description"):
        p.add_argument(f"--{name}", default="")
    _json_option(p, run_case_create)

    _json_option(actions.add_parser("list", help="list the cases"), run_case_list)

    p = actions.add_parser("show", help="a case with its documents and runs")
    p.add_argument("case", metavar="CASE", help="case number")
    _json_option(p, run_case_show)

    p = actions.add_parser("add", help="import evidence files into a case")
    p.add_argument("case", metavar="CASE", help="case number")
    role = p.add_mutually_exclusive_group(required=True)
    role.add_argument("--known", nargs="+", metavar="F", help="documents by the known author")
    role.add_argument("--questioned", nargs="+", metavar="F", help="questioned document(s)")
    p.add_argument(
        "--skip-rejected",
        action="store_true",
        help="import the acceptable files even if others are refused (default: all or nothing)",
    )
    p.add_argument(
        "--encoding",
        metavar="NAME",
        help="decode the .txt files with this encoding (e.g. windows-1251, koi8-r, shift_jis) "
        "instead of detecting it; the choice is recorded in the audit trail",
    )
    _json_option(p, run_case_add)

    p = actions.add_parser("verify", help="verify a case with a stored model and keep the run")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument(
        "--model",
        metavar="NAME",
        help="name of a stored model (becomes the case's model; default: the case's model)",
    )
    p.add_argument("--questioned", type=int, metavar="DOC_ID", help="only this document")
    p.add_argument(
        "--stability",
        type=int,
        default=DEFAULT_RESAMPLES,
        metavar="B",
        help=f"resamples of the stability check stored with each run (default "
        f"{DEFAULT_RESAMPLES}; 0: none)",
    )
    p.add_argument(
        "--scale", choices=sorted(SCALES), default=DEFAULT_SCALE, help="verbal scale of the LR"
    )
    _json_option(p, run_case_verify)

    p = actions.add_parser("exclude", help="leave a document out of later runs (kept, audited)")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("document", type=int, metavar="DOC_ID", help="id of the document")
    p.add_argument("--reason", required=True, metavar="TEXT", help="why (for the audit log)")
    _json_option(p, run_case_exclude)

    p = actions.add_parser("include", help="take an excluded document back into the case")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("document", type=int, metavar="DOC_ID", help="id of the document")
    p.add_argument("--reason", required=True, metavar="TEXT", help="why (for the audit log)")
    _json_option(p, run_case_include)

    p = actions.add_parser("model", help="choose the model of a case (shown: its conditions)")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("model", metavar="NAME", help="name of a stored model")
    _json_option(p, run_case_model)

    p = actions.add_parser(
        "validate",
        help="validate on a stored population at the case's lengths; keep model and record",
    )
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("--population", required=True, metavar="NAME", help="a stored population")
    p.add_argument(
        "--questioned-chars",
        metavar="LO:HI",
        help="the lab's declared range of questioned lengths in characters, holding the case's "
        "(default: the case's own length)",
    )
    p.add_argument(
        "--known-chars",
        metavar="LO:HI",
        help="the declared range of known lengths (together), holding the case's (default: the "
        "case's own)",
    )
    add_validation_options(p)
    p.add_argument("--name", help="name of the model it produces")
    _json_option(p, run_case_validate)

    from taveer_desktop.cli.case_validation_commands import register_case_actions

    register_case_actions(actions)

    population = subparsers.add_parser("population", help="add or list relevant populations")
    actions = population.add_subparsers(dest="population_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="import a folder with one sub-folder per author")
    p.add_argument("name", metavar="NAME")
    p.add_argument("folder", metavar="DIR")
    p.add_argument(
        "--description",
        required=True,
        metavar="TEXT",
        help="who the authors are, genre, period and how they were selected",
    )
    _json_option(p, run_population_add)
    _json_option(actions.add_parser("list", help="list stored populations"), run_population_list)

    model = subparsers.add_parser("model", help="add or list the project's models")
    actions = model.add_subparsers(dest="model_action", metavar="ACTION", required=True)
    p = actions.add_parser("add", help="validate a model JSON file and keep it")
    p.add_argument("model_file", metavar="MODEL.json")
    _json_option(p, run_model_add)
    _json_option(actions.add_parser("list", help="list stored models"), run_model_list)

    p = subparsers.add_parser("audit", help="the audit trail of a case (or of the project)")
    p.add_argument("case", metavar="CASE", nargs="?", help="case number (default: all)")
    _json_option(p, run_audit)

    add_check_parser(subparsers)  # cli/check_command.py

    p = subparsers.add_parser(
        "receipt", help="write a receipt of the store (identity, chain length, head hash)"
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    _json_option(p, run_receipt)

    p = subparsers.add_parser("save-copy", help="save a consistent copy of the project")
    p.add_argument("target", metavar="FILE")
    p.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    _json_option(p, run_save_copy)


def _json_option(parser: argparse.ArgumentParser, handler) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=handler)


def _project_path(args) -> Path:
    return Path(args.project) if args.project else default_project_path()


@contextmanager
def _open(args, create: bool = False, verify: bool = True) -> Iterator[ProjectStore]:
    path = _project_path(args)
    store = ProjectStore.open_or_create(path) if create else ProjectStore.open(path, verify=verify)
    try:
        report = store.last_integrity_report
        if report is not None and not report.ok:
            print(
                shown(
                    f"taveer: warning: {store.path}: {report.summary()} The project is "
                    f"read-only; run `taveer --project {store.path} check` for details."
                ),
                file=sys.stderr,
            )
        yield store
    finally:
        store.close()


def _case_dict(case) -> dict:
    return asdict(case)


def _run_dict(run: VerificationRun, result: dict | None = None) -> dict:
    data = asdict(run)
    data["known_document_ids"] = list(run.known_document_ids)
    data["prediction"] = run.prediction.value
    data["conclusion"] = run.conclusion.value if run.conclusion else None
    if result is not None:
        data["result"] = result
    return data


def run_case_create(args) -> int:
    with _open(args, create=True) as store:
        case = store.cases.create(
            args.number, args.title, args.examiner, args.agency, args.description
        )
    if args.json:
        print_json(_case_dict(case))
    else:
        print(f"created case {shown(case.number)} (id {case.id})")
    return 0


def run_case_list(args) -> int:
    with _open(args) as store:
        cases = store.cases.list_all()
    if args.json:
        print_json({"cases": [_case_dict(c) for c in cases]})
        return 0
    if not cases:
        print("no cases")
    for c in cases:
        print(
            f"{shown(c.number)}\t{shown(c.title)}\t{c.known_count} known, "
            f"{c.questioned_count} questioned, {c.run_count} runs"
        )
    return 0


def run_case_show(args) -> int:
    with _open(args) as store:
        case = store.cases.find(args.case)
        documents = store.documents.list_for_case(case.id)
        runs = store.runs.list_for_case(case.id)
    if args.json:
        print_json(
            {
                "case": _case_dict(case),
                "documents": [asdict(d) for d in documents],
                "runs": [_run_dict(r) for r in runs],
            }
        )
        return 0
    print(f"case {shown(case.number)}: {shown(case.title)}")
    print(f"examiner: {shown(case.examiner)}  agency: {shown(case.agency)}")
    if case.description:
        print(shown(case.description))
    for d in documents:
        print(
            f"  document {d.id}  {d.role:<10} {shown(d.file_name)}  {_encoding_shown(d)}"
            f"  {d.char_count} chars"
            f"  {d.sentence_count} sentences  sha256 {d.sha256}"
        )
        if d.excluded:
            excluded = recorded_time(d.excluded_utc or "")
            print(f"      excluded {excluded}: {shown(d.excluded_reason)}")
        if d.reading_notes:
            print(f"      {shown(_reading_line(d))}")
    for r in runs:
        kind = KIND_LABELS[r.conclusion] if r.conclusion else "recorded before conclusions"
        print(
            f"  run {r.id}  {recorded_time(r.run_utc)}  model {shown(repr(r.model_name))}"
            f"  questioned {r.questioned_document_id}  {kind.lower()}"
            f"  classification {CLASSIFICATION_SHORT[r.prediction]}"
            f"  similarity {_number(r.similarity)}"
        )
    return 0


def run_case_add(args) -> int:
    role = KNOWN if args.known else QUESTIONED
    files = args.known or args.questioned
    if args.encoding is not None:
        check_encoding_name(args.encoding)  # an unknown name is refused before the project opens
    with _open(args) as store:
        case = store.cases.find(args.case)
        with accounting_for_failure(store, f"the {role} documents of this import"):
            result = store.documents.add(
                case.id, role, files, skip_rejected=args.skip_rejected, encoding=args.encoding
            )
    if args.json:
        print_json(
            {
                "case": case.number,
                "role": role,
                "added": [asdict(d) for d in result.added],
                "rejected": [
                    {"path": r.path, "reason": r.reason.value, "message": r.message}
                    for r in result.rejected
                ],
            }
        )
    else:
        for d in result.added:
            print(
                f"added document {d.id} ({shown(d.file_name)}, {role}, {_encoding_shown(d)}, "
                f"sha256 {d.sha256})"
            )
            detection = detection_of(d.metadata)
            if is_uncertain(detection):
                also = detection.get("alternative")
                print(
                    f"taveer: warning: document {d.id} ({shown(d.file_name)}): its encoding is "
                    + (f"uncertain ({also} is also plausible). " if also else "uncertain. ")
                    + UNCERTAIN_ADVICE.removeprefix("Uncertain: "),
                    file=sys.stderr,
                )
            if d.reading_notes:
                print(f"  document {d.id}: {shown(_reading_line(d))}")
        for r in result.rejected:
            print(f"refused {shown(r.describe())}", file=sys.stderr)
    return 0


def run_case_verify(args) -> int:
    with _open(args) as store:
        case = store.cases.find(args.case)
        with accounting_for_failure(store, "the runs, their stability checks and the model choice"):
            runs = verify_case(
                store, case.id, args.model, args.questioned, stability_resamples=args.stability
            )
        results = [store.runs.verification(r.id) for r in runs]
        checks = [store.runs.stability_checks(r.id) for r in runs]
        models = {r.model_id: store.models.load(r.model_id) for r in runs}
        raw = [store.runs.result(r.id) for r in runs] if args.json else []
    if args.json:
        runs_out = []
        for index, run in enumerate(runs):
            data = _run_dict(run, raw[index])
            data["conclusion"] = conclusion_json(results[index], args.scale)
            data["stability"] = [asdict(c) for c in checks[index]]
            runs_out.append(data)
        print_json({"case": case.number, "runs": runs_out})
        return 0
    for run, result, stored in zip(runs, results, checks, strict=True):
        model = models[run.model_id]
        print(
            f"run {run.id}: questioned document {run.questioned_document_id} "
            f"(model {shown(repr(run.model_name))}): "
            f"{headline(result.conclusion, args.scale, bound=lr_bound(result, model))}"
        )
        whose = "TAVeer's" if result.methods is not None else "the method's"
        if run.conclusion is not ConclusionKind.NONE:
            print(
                f"  {whose} classification: {CLASSIFICATION_SHORT[run.prediction]}, "
                f"similarity {_number(run.similarity)}"
            )
        if result.methods is not None:
            weights = model_fusion_weights(model)
            for line in result_method_lines(result.methods, result.conclusion.kind, weights):
                print(f"  {line.strip()}")
        if stored:
            check = stored[-1]
            if check.ratio is not None and result.methods is not None:
                found = result.methods  # the stated ratio, resampled with the same sentences
                sentence = ratio_stability_sentence(check.ratio, found.by_method.get(found.stated))
                print(f"  stability of {stability_owner(found.stated)}: {sentence}")
            print(
                f"  stability of {whose} classification: "
                f"{share_text(check.agreeing, check.resamples)} resamples give "
                f"the same classification (seed {check.seed})"
            )
    return 0


def run_case_exclude(args) -> int:
    return _change_exclusion(args, exclude=True)


def run_case_include(args) -> int:
    return _change_exclusion(args, exclude=False)


def _change_exclusion(args, exclude: bool) -> int:
    with _open(args) as store:
        case = store.cases.find(args.case)
        doc = store.documents.get(args.document)
        if doc.case_id != case.id:
            raise InputError(f"document {args.document} is not in case {case.number}")
        change = store.documents.exclude if exclude else store.documents.include
        doc = change(doc.id, args.reason)
    if args.json:
        print_json(asdict(doc))
    else:
        verb = "excluded" if exclude else "included again"
        print(
            f"document {doc.id} ({shown(doc.file_name)}, {doc.role}) {verb}: "
            f"{shown(args.reason.strip())}"
        )
    return 0


def run_case_model(args) -> int:
    with _open(args) as store:
        case = store.cases.find(args.case)
        stored = store.models.find(args.model)
        model = store.models.load(stored.id)
        case = store.cases.choose_model(case.id, stored.id)
    conditions = model.conditions
    if args.json:
        print_json(
            {
                "case": case.number,
                "model": asdict(stored),
                "conditions": conditions.to_dict() if conditions else None,
            }
        )
        return 0
    print(
        f"case {shown(case.number)} now uses model {shown(repr(stored.name))} "
        f"(sha256 {stored.sha256})"
    )
    for line in model_summary_lines(model):
        print(f"  {shown(line)}")
    return 0


def run_population_add(args) -> int:
    with _open(args, create=True) as store:
        population, warnings = store.populations.add_folder(
            args.name, args.folder, args.description
        )
    for warning in warnings:
        print(f"taveer: warning: {shown(warning)}", file=sys.stderr)
    if args.json:
        print_json({**asdict(population), "warnings": warnings})
    else:
        print(
            f"added population {shown(repr(population.name))} (id {population.id}): "
            f"{population.author_count} authors, {population.document_count} documents, "
            f"sha256 {population.sha256}"
        )
    return 0


def run_population_list(args) -> int:
    with _open(args) as store:
        populations = store.populations.list_all()
    if args.json:
        print_json({"populations": [asdict(p) for p in populations]})
        return 0
    if not populations:
        print("no populations")
    for p in populations:
        print(
            f"{shown(p.name)}\t{p.author_count} authors\t{p.document_count} documents\t"
            f"added {p.added_utc}\n  {shown(p.description)}"
        )
    return 0


def _chars(value) -> str:
    """A recorded length: N, or a declared range [LO, HI] (LO–HI; N when LO = HI)."""
    if isinstance(value, list):
        low, high = value
        return (
            numbers.integer(low)
            if low == high
            else f"{numbers.integer(low)}–{numbers.integer(high)}"
        )
    return numbers.integer(value)


def run_case_validate(args) -> int:
    from taveer_desktop.cli.output import StderrProgress
    from taveer_desktop.cli.validate_command import validation_summary
    from taveer_desktop.core.progress import NO_PROGRESS
    from taveer_desktop.core.validation import (
        AcceptanceCriteria,
        ValidationSettings,
        parse_length_range,
    )
    from taveer_desktop.store.case_validation import validate_case

    def declared(value: str | None, option: str) -> tuple[int, int] | None:
        return None if value is None else parse_length_range(value, option)

    settings = ValidationSettings(
        questioned_chars=declared(args.questioned_chars, "--questioned-chars"),
        known_chars=declared(args.known_chars, "--known-chars"),
        folds=args.folds,
        max_trials=args.max_trials,
        seed=args.seed,
        repeats=args.repeats,
        method=args.method,
        lambdag_order=args.lambdag_order,
        lambdag_samples=args.lambdag_samples,
        criteria=AcceptanceCriteria.now(args.accept_cllr, args.accept_misleading),
    )
    settings.check()
    progress = StderrProgress("validating") if sys.stderr.isatty() else NO_PROGRESS
    with _open(args) as store:
        case = store.cases.find(args.case)
        with accounting_for_failure(store, "the validation's model, its record and model choice"):
            done = validate_case(store, case.id, args.population, settings, args.name, progress)
    summary = validation_summary(done.result, done.model.name, f"validation {done.validation.id}")
    summary.update(
        case=case.number,
        population=args.population,
        model_id=done.model.id,
        validation_id=done.validation.id,
        questioned_chars=done.result.record["protocol"]["questioned_chars"],
        known_chars=done.result.record["protocol"]["known_chars"],
        chosen=done.chosen,
        case_model=done.case_model.name if done.case_model else None,
    )
    if args.json:
        print_json(summary)
        return 0
    verdict = acceptance_verdict(summary["acceptance"]["met"])
    print(
        f"case {shown(case.number)} validated on population {shown(repr(args.population))} "
        f"({_chars(summary['questioned_chars'])} / "
        f"{_chars(summary['known_chars'])} characters): "
        f"{numbers.integer(summary['trials']['same'])} + "
        f"{numbers.count(summary['trials']['different'], 'trial')}, "
        f"Cllr {numbers.decimal(summary['cllr'])}, AUC {numbers.decimal(summary['auc'])}; {verdict}"
    )
    print_validation_notes(done.result.record)
    from taveer_desktop.presentation.validation_basis_text import model_choice_sentence

    choice = model_choice_sentence(
        done.chosen,
        done.model.name,
        done.case_model.name if done.case_model else None,
        done.validation.criteria_met,
    )
    print(f"validation {done.validation.id} kept as an attempt of the case; {shown(choice)}")
    return 0


def run_model_add(args) -> int:
    with _open(args, create=True) as store:
        model = store.models.add_file(args.model_file)
    if args.json:
        print_json(asdict(model))
    else:
        print(f"added model {shown(repr(model.name))} (id {model.id}, sha256 {model.sha256})")
    return 0


def run_model_list(args) -> int:
    """Every stored model; one that fails today's checks (stored by an older version) is
    listed with its problem, and refused only where it would be used."""
    with _open(args) as store:
        readings = store.models.readings()
    if args.json:
        print_json({"models": [_model_listing(r.stored, r.model, r.problem) for r in readings]})
        return 0
    if not readings:
        print("no models")
    for r in readings:
        m = r.stored
        print(
            f"{shown(m.name)}\tcorpus {shown(m.corpus_name)}\tsha256 {m.sha256}"
            f"\tadded {m.added_utc}"
        )
        if r.model is None:
            print(f"  {shown(unusable_model_line(r.problem))}")
            continue
        for line in model_summary_lines(r.model):
            print(f"  {shown(line)}")
    return 0


def _model_listing(stored, model, problem: str | None) -> dict:
    """A stored model in ``model list --json``: its row, its conditions and the held-out
    figures its file states (``evaluations``: stated by the model file, not a record), or the
    problem that refuses it."""
    data = {**asdict(stored), "usable": model is not None, "problem": problem}
    data["conditions"] = model.conditions.to_dict() if model and model.conditions else None
    data["evaluations"] = model.extra.get("evaluations") if model else None
    return data


def run_audit(args) -> int:
    with _open(args) as store:
        case = store.cases.find(args.case) if args.case else None
        entries = store.audit.entries(case.id if case else None)
        head = store.audit.head()
    if args.json:
        print_json(
            {
                "case": case.number if case else None,
                "head_hash": head.entry_hash if head else None,
                "entries": [asdict(e) for e in entries],
            }
        )
        return 0
    for e in entries:
        print(f"{e.seq:>6}  {e.time_utc}  {shown(e.actor)}  {e.action}  {e.entry_hash[:16]}")
    if head:
        print(f"audit chain head: entry {head.seq}, hash {head.entry_hash}")
    return 0


def run_receipt(args) -> int:
    with _open(args) as store:
        receipt = write_receipt(store, args.output)
    if args.json:
        print_json({"receipt": str(Path(args.output).absolute()), **receipt.to_dict()})
    else:
        print(
            f"wrote a receipt to {shown(args.output)}: chain of {receipt.chain_length} entries, "
            f"head {receipt.head_hash}"
        )
    return 0


def run_save_copy(args) -> int:
    with _open(args) as store:
        target = store.save_copy(args.target, overwrite=args.overwrite)
    if args.json:
        print_json({"copy": str(target)})
    else:
        print(f"saved a copy to {shown(target)}")
    return 0


def _encoding_shown(document) -> str:
    """The encoding with how it was found, in the desktop's words (``Windows-1251 · detected
    0.97``, ``… · uncertain``)."""
    return encoding_summary(document.encoding, document.metadata, document.file_format)


def _reading_line(document) -> str:
    """One line: how the document's analysed text differs from its file (its reading notes)."""
    return "the analysed text differs from the file's bytes: " + "; ".join(
        document.reading_notes.lines()
    )


def _number(value: float | None) -> str:
    return "n/a" if value is None else numbers.decimal(value)
