"""What the report says: its sections as plain blocks, built from ``ReportInputs`` (pure).

``build_report`` returns a ``ReportContent``: the PDF metadata, the footer text, the blocks of
sections 1–9 in the order the issue asks for (title page, summary, validation and population
fit, evidence, method, result,
interpretation, limitations, audit trail with the reproducibility statement) and the
machine-readable result to attach to the PDF (``attachment``). This module writes the title
page and the summary (its stability paragraph is ``content_stability``'s); the other sections
come from ``content_evidence``, ``content_findings`` and ``content_closing``.
"""

from __future__ import annotations

from dataclasses import dataclass

from taveer_desktop.core.calibration.outcome import Classification, ConclusionKind
from taveer_desktop.core.calibration.verbal_scales import SCALES
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import (
    CLASSIFICATION_CAVEATS,
    KIND_EXPLANATIONS,
    KIND_LABELS,
    classification_answer,
    classification_sentence,
    decisive_reasons,
    investigative_lr_sentence,
    lead_sentence,
    lr_bound,
    propositions,
)
from taveer_desktop.presentation.refusal_text import conclusion_reasons
from taveer_desktop.presentation.repeat_agreement_text import repeat_sentence
from taveer_desktop.presentation.validation_report_text import (
    ERROR_RATES_FROM_VALIDATION,
    case_summary_sentences,
)
from taveer_desktop.report import (
    content_closing,
    content_evidence,
    content_findings,
    content_methods,
    content_stability,
    content_validation,
)
from taveer_desktop.report.attachment import attachment
from taveer_desktop.report.blocks import (
    Block,
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Spacer,
    Table,
)
from taveer_desktop.report.escape import html_code, html_text, plain_text
from taveer_desktop.report.inputs import ReportInputs
from taveer_desktop.report.wording import SECTION_TITLES, section, stored_time, utc_and_local

REPORT_TITLE = "Authorship verification report"
ATTACHMENT_NAME = "taveer-result.json"


@dataclass(frozen=True)
class ReportContent:
    title: str
    subject: str
    footer: str
    blocks: tuple[Block, ...]
    attachment_name: str
    attachment: bytes
    running_title: str = REPORT_TITLE  # the header of every page after the first


def section_heading(number_: int, new_page: bool = True) -> Heading:
    return Heading(f"{number_}. {SECTION_TITLES[number_ - 1]}", 1, new_page)


def _key_values(pairs: list[tuple[str, str]]) -> Table:
    return Table(
        (Column("", 0.3), Column("", 0.7)),
        tuple(Row((f"<b>{key}</b>", value)) for key, value in pairs),
        style="keyvalue",
    )


def title_page(inputs: ReportInputs) -> list[Block]:
    case, run = inputs.case, inputs.run
    blocks: list[Block] = [
        Spacer(90),
        Paragraph(html_text(REPORT_TITLE), "title"),
        Paragraph(f"Case {html_text(case.number, 200)}", "subtitle"),
        Paragraph(html_text(case.title or "(no title)", 500), "subtitle2"),
        Spacer(24),
        _key_values(
            [
                ("Case number", html_text(case.number, 200)),
                ("Case title", html_text(case.title or "–", 500)),
                ("Examiner", html_text(case.examiner or "–", 300)),
                ("Agency", html_text(case.agency or "–", 300)),
                ("Report written", utc_and_local(inputs.generated)),
                ("Software", html_text(inputs.software)),
                ("Report identifier", html_code(inputs.report_id)),
                ("Verification run", f"run {run.id} of {stored_time(run.run_utc)}"),
                ("Model", html_text(run.model_name, 300)),
            ]
        ),
        Spacer(24),
        Paragraph("<b>Contents</b>", "body"),
        Paragraph(
            " · ".join(f"{i}&nbsp;{t}" for i, t in enumerate(SECTION_TITLES, start=1)), "small"
        ),
    ]
    if not inputs.integrity.ok:
        blocks.append(
            Paragraph(
                "<b>Warning:</b> the project failed its integrity check just before this "
                f"report was written ({section('Evidence')}). Its numbers may rest on altered "
                "records.",
                "warning",
            )
        )
    return blocks


def _error_rates(inputs: ReportInputs) -> list[Block]:
    """What the model's measured error rates mean, in plain words."""
    prediction = inputs.verification.prediction
    blocks: list[Block] = []
    evaluations = {name: e for name, e in inputs.evaluations.items() if isinstance(e, dict)}
    if evaluations:
        source = html_text(inputs.evaluation_source or "the model's evaluation record")
        for name, e in evaluations.items():
            try:
                tp, fn, fp, tn = (int(e[k]) for k in ("tp", "fn", "fp", "tn"))
                accuracy = float(e["accuracy"])
            except (KeyError, TypeError, ValueError):
                continue
            same, different = tp + fn, fp + tn
            auc = e.get("auc")
            auc_text = (
                f" (AUC {numbers.decimal(float(auc))})" if isinstance(auc, int | float) else ""
            )
            text = (
                f"When this model was tested on {numbers.count(tp + fn + fp + tn, 'pair')} of "
                f"texts whose authorship was known and that it had not been trained on (test "
                f"corpus {html_text(name, 200)}), it was right in "
                f"{numbers.percent(accuracy, 0)} of them{auc_text}. Of "
                f"{numbers.count(different, 'pair')} by different authors it wrongly called "
                f"{numbers.integer(fp)} ({numbers.part_of(fp, different)}) consistent; of "
                f"{numbers.count(same, 'pair')} by the same author it wrongly called "
                f"{numbers.integer(fn)} ({numbers.part_of(fn, same)}) not consistent."
            )
            blocks.append(Paragraph(text))
        if prediction.answered and blocks:
            same = prediction is Classification.SAME
            answer = "consistent" if same else "not consistent"
            wrong = (
                "pairs by different authors that were wrongly called consistent"
                if same
                else "pairs by the same author that were wrongly called not consistent"
            )
            blocks.append(
                Paragraph(
                    f"The method's classification here is \u201c{answer}\u201d, so the error "
                    f"that matters most is the share of {wrong}."
                )
            )
        note = Paragraph(f"Source of these figures: {source}.", "small")
        if blocks:  # the note never stands alone at the top of a page
            blocks[-1] = KeepTogether((blocks[-1], note))
        else:
            blocks.append(note)
    if not blocks and _validation(inputs):
        blocks.append(Paragraph(html_text(ERROR_RATES_FROM_VALIDATION)))
    elif not blocks:
        training = inputs.model.training
        blocks.append(
            Paragraph(
                "This model carries no measurement on texts held out from its training. On "
                f"its own {numbers.count(training.cases, 'training pair')} it was right in "
                f"{numbers.percent(training.accuracy, 0)} of them; on new texts the share is "
                "usually lower. In the program's own tests on held-out texts of other corpora, "
                "TAVeer was right in 65 % to 74 % of the pairs, depending on the kind of text."
            )
        )
    return blocks


def _validation(inputs: ReportInputs) -> list[Block]:
    """The validation that produced the model: population, trials, criteria, figures (the
    wording is the validation report's, ``presentation/validation_report_text``)."""
    record = inputs.validation
    if record is None:
        return []
    try:
        if not {"population", "protocol", "figures", "acceptance", "bound"} <= record.objects:
            return []
        population_text, figures_text, bound_text = case_summary_sentences(record)
    except (KeyError, TypeError, ValueError):
        return []
    return [
        KeepTogether(  # the run-in heading never stands alone at the foot of a page
            (
                Paragraph("<b>Validation of the method for this case.</b>"),
                Paragraph(html_text(population_text, 2000)),
            )
        ),
        Paragraph(html_text(figures_text)),
        Paragraph(
            f"{html_text(bound_text)} "
            f"Source: {html_text(inputs.validation_source or 'a validation record')}.",
            "small",
        ),
    ]


def _verbal_scale(inputs: ReportInputs) -> list[Block]:
    scale = SCALES[inputs.scale_id]
    rows = tuple(Row((html_text(r), html_text(w))) for r, w in scale.table_rows())
    return [
        Paragraph(
            f"The verbal scale used is {html_text(scale.name)} ({html_text(scale.citation)}); "
            "the same words apply to 1/LR when the LR is below 1:",
            "small",
        ),
        Table((Column("Likelihood ratio", 0.3), Column("Wording", 0.7)), rows, font="small"),
    ]


def _conclusion(inputs: ReportInputs) -> list[Block]:
    """The evaluative statement first (the LR as a number, then its words), or why there is
    none; the propositions; the gate's reasons; the scale's table."""
    result = inputs.verification
    conclusion = result.conclusion
    hp, hd = propositions(conclusion.population)
    style = "body" if conclusion.kind is ConclusionKind.EVALUATIVE else "warning"
    bound = lr_bound(result, inputs.model)
    lead = lead_sentence(conclusion, inputs.scale_id, most=3, bound=bound)  # label names kind
    blocks: list[Block] = [
        Paragraph(f"<b>{html_text(KIND_LABELS[conclusion.kind])}.</b> {html_text(lead)}", style),
        Paragraph(
            f"<b>Hp:</b> {html_text(hp)}.<br/><b>Hd:</b> {html_text(hd, 1000)}.",
        ),
    ]
    blocks += content_methods.stated_methods(inputs)  # a LambdaG or fused model's run only
    blocks.append(Paragraph(html_text(KIND_EXPLANATIONS[conclusion.kind]), "small"))
    reasons = [
        r for r in conclusion_reasons(conclusion) if r not in decisive_reasons(conclusion)[:3]
    ]
    if conclusion.kind is not ConclusionKind.EVALUATIVE and reasons:
        items = "".join(f"<li>{html_text(r, 1000)}</li>" for r in reasons[:20])
        blocks.append(Paragraph(f"Further reasons:<ul>{items}</ul>", "small"))
    investigative = investigative_lr_sentence(conclusion, bound)
    if investigative:
        blocks.append(Paragraph(html_text(investigative), "warning"))
    repeats = repeat_sentence(result.repeats)  # does the direction depend on the seed?
    if repeats:
        blocks.append(Paragraph(html_text(repeats, 1000), "small"))
    if conclusion.kind is ConclusionKind.EVALUATIVE:
        blocks.append(
            Paragraph(
                "The likelihood ratio says how much more probable these findings are if Hp is "
                "true than if Hd is true. It is not the probability that either proposition is "
                "true: that also depends on the other evidence in the case, which is for the "
                "court to weigh.",
                "small",
            )
        )
        blocks += _verbal_scale(inputs)
    return blocks


def summary(inputs: ReportInputs) -> list[Block]:
    result = inputs.verification
    prediction = result.prediction
    q = inputs.questioned.document
    known = inputs.known
    names = ", ".join(f"{d.label} {html_text(d.document.file_name, 120)}" for d in known[:6])
    if len(known) > 6:
        names += f" and {len(known) - 6} more"
    blocks: list[Block] = [
        section_heading(2),
        Paragraph(
            f"<b>The question.</b> How much more probable are the findings on the questioned "
            f"document Q ({html_text(q.file_name, 200)}) and the "
            f"{numbers.count(len(known), 'known document')} ({names}) if the author of the known "
            "documents wrote Q than if someone else did?"
        ),
    ]
    blocks += _conclusion(inputs)
    # with a LambdaG or fused model the classification is TAVeer's, not the stated method's
    classifier = "TAVeer's classification" if result.methods else "The method's classification"
    whose = "TAVeer's" if result.methods else "The method's"
    if result.conclusion.kind is ConclusionKind.NONE:
        blocks.append(
            Paragraph(
                f"<b>{classifier}</b> is not reported: where no conclusion can "
                "be drawn from the texts, a similarity score measured on them means nothing."
            )
        )
        return blocks + _closing(inputs)
    blocks += content_methods.second_view(inputs)  # another method's ratio is the conclusion
    blocks.append(
        Paragraph(
            f"<b>{classifier}</b> (secondary to the conclusion above). "
            f"{html_text(classification_sentence(prediction, result.similarity, whose))} "
            f"{classification_answer(prediction, 'TAVeer' if result.methods else 'The method')}"
        )
    )
    blocks.append(Paragraph(CLASSIFICATION_CAVEATS[prediction]))
    voting = [result.categories[c].similarity for c in result.ensemble]
    above = sum(1 for s in voting if s is not None and s > 0.5)
    answered = sum(1 for s in voting if s is not None)
    if prediction is not Classification.INSUFFICIENT:
        blocks.append(
            Paragraph(
                f"<b>The similarity score</b> is {numbers.decimal(result.similarity)} on a scale "
                "from 0 to 1, where values above 0.5 mean consistent. It is the median of the "
                "similarities of the model's "
                f"{numbers.count(len(result.ensemble), 'feature kind')} (its ensemble); "
                f"{numbers.integer(above)} of the {numbers.integer(answered)} that could be "
                "measured lie above 0.5. "
                "The distance of the score from 0.5 is not a probability."
            )
        )
    blocks += content_stability.stability(inputs)
    blocks.append(Paragraph("<b>How often the method errs.</b>"))
    blocks += _error_rates(inputs)
    blocks += _validation(inputs)
    return blocks + _closing(inputs)


def _closing(inputs: ReportInputs) -> list[Block]:
    """Excluded evidence, the result's warnings and the case description."""
    blocks: list[Block] = []
    if inputs.excluded:
        items = "".join(
            f"<li>{html_text(d.file_name, 200)} ({d.role}, SHA-256 {d.sha256[:16]}…): "
            f"{html_text(d.excluded_reason or '', 500)} "
            f"(excluded {stored_time(d.excluded_utc or '')})"
            "</li>"
            for d in inputs.excluded[:50]
        )
        blocks.append(
            Paragraph(
                "<b>Evidence excluded by the examiner</b> (kept in the project, not used by "
                f"later runs):<ul>{items}</ul>"
            )
        )
    warnings = inputs.verification.warnings
    if warnings:
        items = "".join(f"<li>{html_text(w, 400)}</li>" for w in warnings[:20])
        blocks.append(
            Paragraph(f"<b>Reliability warnings of this result:</b><ul>{items}</ul>", "warning")
        )
    if inputs.case.description:
        blocks.append(
            Paragraph(f"<b>Case description:</b> {html_text(inputs.case.description, 3000)}")
        )
    return blocks


def build_report(inputs: ReportInputs, attached: bool = True) -> ReportContent:
    """The whole report for one run; ``attached`` says the result JSON goes into the PDF."""
    blocks: list[Block] = []
    blocks += title_page(inputs)
    blocks += summary(inputs)
    blocks += content_validation.validation_section(
        inputs.validation_facts, inputs.case.number, section_heading(3)
    )
    blocks += content_evidence.evidence(inputs, section_heading(4))
    blocks += content_evidence.method(inputs, section_heading(5))
    blocks += content_findings.result_section(inputs, section_heading(6))
    blocks += content_findings.interpretation(inputs, section_heading(7))
    blocks += content_closing.limitations(inputs, section_heading(8))
    blocks += content_closing.audit_trail(inputs, section_heading(9), attached)
    case = plain_text(inputs.case.number, 60)
    return ReportContent(
        title=f"{REPORT_TITLE}, case {plain_text(inputs.case.number, 200)}",
        subject=plain_text(inputs.case.title, 500),
        footer=f"Case {case} · Report {inputs.report_id}",
        blocks=tuple(blocks),
        attachment_name=ATTACHMENT_NAME,
        attachment=attachment(inputs),
    )
