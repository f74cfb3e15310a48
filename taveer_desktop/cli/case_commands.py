"""The ``taveer case`` command: create, list, show, fill, verify a case and choose its model.

Its actions about validations (``validate``, ``attempts``, ``use-validation``) are registered by
``case_validation_commands.py``; what all project commands share is in ``project_access.py``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from taveer_desktop.cli.case_edit_command import register_case_edit
from taveer_desktop.cli.case_validation_commands import register_case_actions
from taveer_desktop.cli.declaration_commands import (
    register_declaration_actions,
    standing_json,
    standing_line,
)
from taveer_desktop.cli.output import print_json, shown
from taveer_desktop.cli.project_access import json_option, open_project, read_project
from taveer_desktop.cli.verify_commands import conclusion_json
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import check_encoding_name
from taveer_desktop.core.methods.taveer.stability import DEFAULT_RESAMPLES
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
from taveer_desktop.presentation.model_text import model_summary_lines
from taveer_desktop.presentation.ratio_stability_text import (
    ratio_stability_sentence,
    stability_owner,
)
from taveer_desktop.presentation.second_view_text import SECOND_VIEW_NOTE
from taveer_desktop.store import KNOWN, QUESTIONED
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.failure_account import accounting_for_failure
from taveer_desktop.store.records import VerificationRun


def register(subparsers: argparse._SubParsersAction) -> None:
    case = subparsers.add_parser("case", help="create, list, show, fill and verify cases")
    actions = case.add_subparsers(dest="case_action", metavar="ACTION", required=True)

    p = actions.add_parser("create", help="create a case")
    p.add_argument("number", help="case number (unique in the project)")
    for name in ("title", "examiner", "agency", "description"):
        p.add_argument(f"--{name}", default="")
    json_option(p, run_case_create)

    json_option(actions.add_parser("list", help="list the cases"), run_case_list)

    p = actions.add_parser("show", help="a case with its documents and runs")
    p.add_argument("case", metavar="CASE", help="case number")
    json_option(p, run_case_show)

    p = actions.add_parser("add", help="import evidence files into a case")
    p.add_argument("case", metavar="CASE", help="case number")
    role = p.add_mutually_exclusive_group(required=True)
    role.add_argument("--known", nargs="+", metavar="F", help="documents by the known author")
    role.add_argument(
        "--questioned", nargs="+", metavar="F", help="one or more questioned documents"
    )
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
    json_option(p, run_case_add)

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
    json_option(p, run_case_verify)

    p = actions.add_parser("exclude", help="leave a document out of later runs (kept, audited)")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("document", type=int, metavar="DOC_ID", help="id of the document")
    p.add_argument("--reason", required=True, metavar="TEXT", help="why (for the audit log)")
    json_option(p, run_case_exclude)

    p = actions.add_parser("include", help="take an excluded document back into the case")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("document", type=int, metavar="DOC_ID", help="id of the document")
    p.add_argument("--reason", required=True, metavar="TEXT", help="why (for the audit log)")
    json_option(p, run_case_include)

    p = actions.add_parser("model", help="choose the model of a case (shown: its conditions)")
    p.add_argument("case", metavar="CASE", help="case number")
    p.add_argument("model", metavar="NAME", help="name of a stored model")
    json_option(p, run_case_model)
    register_case_actions(actions)
    register_case_edit(actions)
    register_declaration_actions(actions)


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
    with open_project(args, create=True) as store:
        case = store.cases.create(
            args.number, args.title, args.examiner, args.agency, args.description
        )
    if args.json:
        print_json(_case_dict(case))
    else:
        print(f"created case {shown(case.number)} (id {case.id})")
    return 0


def run_case_list(args) -> int:
    with read_project(args) as store:
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
    with read_project(args) as store:
        case = store.cases.find(args.case)
        documents = store.documents.list_for_case(case.id)
        runs = store.runs.list_for_case(case.id)
        standing = store.declarations.standing(case.id)
    if args.json:
        print_json(
            {
                "case": _case_dict(case),
                "documents": [asdict(d) for d in documents],
                "runs": [_run_dict(r) for r in runs],
                "report_standing": standing_json(standing),
            }
        )
        return 0
    print(f"case {shown(case.number)}: {shown(case.title)}")
    print(f"examiner: {shown(case.examiner)}  agency: {shown(case.agency)}")
    if case.description:
        print(shown(case.description))
    print(standing_line(standing))
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
    with open_project(args) as store:
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
    with open_project(args) as store:
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
            second = f" {SECOND_VIEW_NOTE}" if result.methods is not None else ""
            print(
                f"  {whose} classification: {CLASSIFICATION_SHORT[run.prediction]}, "
                f"similarity {_number(run.similarity)}{second}"
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
    with open_project(args) as store:
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
    with open_project(args) as store:
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
