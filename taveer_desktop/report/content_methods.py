"""What a run of a LambdaG or fused model adds to the case report (pure, no Qt).

- Section 2: each method's own likelihood ratio beside the stated one, and whether TAVeer and
  LambdaG agree (``stated_methods``).
- Section 4: LambdaG's part of the model — what LambdaG is, the masking variant stated plainly,
  its order, samples, seed, reference population and calibration — and the fusion
  (``method_sections``).
- Section 5: each method's likelihood ratio traced from its score (``method_results``).

Section 6, LambdaG's evidence in the questioned text, is ``content_lambdag_evidence.py``.

A TAVeer model's run has no ``methods``; nothing here is called for it, so its report stays as
it was. The words are ``presentation/method_agreement`` and ``method_report_text``.
"""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.registry import MethodId, method_info
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart, fusion_of
from taveer_desktop.presentation import method_report_text as words
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.face_registry import fuses, gives_text_evidence
from taveer_desktop.presentation.fusion_text import (
    fusion_sentence,
)
from taveer_desktop.presentation.method_agreement import (
    AT_BOUND,
    INVESTIGATIVE_METHODS,
    LAMBDAG_METHOD,
    NO_CONCLUSION_METHODS,
    agreement_sentence,
    disagreement_stated,
    method_label,
    model_fusion_weights,
    role_text,
    short_name,
    stated_label,
    without_text_evidence,
)
from taveer_desktop.presentation.method_directions import (
    carries_weight,
    lr_direction,
    method_order,
)
from taveer_desktop.presentation.second_view_text import (
    SECOND_VIEW_HEAD,
    fused_outside_parts_sentence,
    second_view_intro,
)
from taveer_desktop.report.blocks import (
    Block,
    Column,
    Heading,
    KeepTogether,
    Paragraph,
    Row,
    Table,
)
from taveer_desktop.report.escape import html_code, html_text
from taveer_desktop.report.inputs import ReportInputs
from taveer_desktop.report.wording import section

CODE_KEYS = ("Population SHA-256", "Reference SHA-256")


def _key_values(pairs: list[tuple[str, str]]) -> Table:
    rows = tuple(
        Row(
            (
                f"<b>{html_text(key)}</b>",
                html_code(value) if key in CODE_KEYS else html_text(value, 1500),
            )
        )
        for key, value in pairs
    )
    return Table((Column("", 0.25), Column("", 0.75)), rows, style="keyvalue")


# --- section 2 ---------------------------------------------------------------------------------


def stated_methods(inputs: ReportInputs) -> list[Block]:
    """Each method's likelihood ratio beside the stated one, and the agreement sentence."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    kind = inputs.verification.conclusion.kind
    head = f"<b>{html_text(words.EACH_METHOD_HEAD)}.</b> "
    if kind is ConclusionKind.NONE:
        text = NO_CONCLUSION_METHODS.format(method=_name(inputs, methods.stated))
        return [Paragraph(head + html_text(text))]
    by_method = methods.by_method
    weights = fusion_weights(inputs)
    rows = []
    for method in method_order(by_method, methods.stated):
        value = by_method.get(method)
        stated = method == methods.stated
        role = html_text(role_text(method, methods.stated, weights))
        if stated:
            role = role.replace("(stated", f"({words.ROLE_STATED}", 1)
        bound = f"<br/><small>{html_text(AT_BOUND)}</small>" if method in methods.at_bound else ""
        rows.append(
            Row(
                (
                    f"<b>{html_text(_name(inputs, method))}</b> {role}",
                    words.NO_RATIO if value is None else format_lr(value),
                    numbers.decimal(value),
                    numbers.MISSING if value is None else html_text(lr_direction(value)) + bound,
                ),
                shade=stated,
            )
        )
    blocks: list[Block] = [
        KeepTogether(
            (
                Paragraph(
                    head + html_text(words.stated_method_sentence(_name(inputs, methods.stated)))
                ),
                Table(
                    (
                        Column("Method", 0.36),
                        Column("LR", 0.16, "right"),
                        Column("log10 LR", 0.12, "right"),
                        Column("Points to", 0.36),
                    ),
                    tuple(rows),
                ),
            )
        )
    ]
    outside = fused_outside_parts_sentence(methods, weights)
    if outside:  # a fused ratio beyond its parts, explained
        blocks.append(Paragraph(html_text(outside)))
    agreement = agreement_sentence(methods, weights)
    if agreement:  # a disagreement is stated as a warning, never hidden
        style = "warning" if disagreement_stated(methods) else "body"
        blocks.append(Paragraph(html_text(agreement), style))
    if kind is ConclusionKind.INVESTIGATIVE:
        blocks.append(Paragraph(html_text(INVESTIGATIVE_METHODS), "warning"))
    return blocks


def second_view(inputs: ReportInputs) -> list[Block]:
    """Before TAVeer's classification under a conclusion that states another method's ratio:
    that it is a second method's view, not the conclusion (nothing for a TAVeer model)."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    intro = second_view_intro(methods, inputs.verification.prediction, fusion_weights(inputs))
    return [Paragraph(f"<b>{html_text(SECOND_VIEW_HEAD)}.</b> {html_text(intro)}")]


def _name(inputs: ReportInputs, method: str) -> str:
    """A method's name in the report; the fusion's by the methods the model fuses."""
    return stated_label(method, fusion_weights(inputs))


def fusion_weights(inputs: ReportInputs) -> dict[str, float] | None:
    """Each method's weight in the run's fused model (None: not a fused model's run)."""
    methods = inputs.verification.methods
    if methods is None or not fuses(methods.stated):
        return None
    return model_fusion_weights(inputs.model)


def without_weight(inputs: ReportInputs, method: str) -> bool:
    """Whether ``method`` carries no weight in the run's stated ratio (TAVeer under a LambdaG
    model, or a method the fusion gives next to no weight): the report gives it one line, not
    pages of its evidence."""
    methods = inputs.verification.methods
    if methods is None:
        return False
    return carries_weight(method, methods.stated, fusion_weights(inputs)) is False


def no_weight_line(inputs: ReportInputs, method: str, what: str) -> Paragraph:
    """The one line that stands for the evidence of a method without weight."""
    methods = inputs.verification.methods
    stated = methods.stated if methods else MethodId.TAVEER
    weights = fusion_weights(inputs)
    why = (
        f"the fusion gives it a weight of {numbers.decimal((weights or {}).get(method, 0.0))}"
        if fuses(stated)
        else f"the stated ratio is {_name(inputs, stated)}'s alone"
    )
    return Paragraph(
        f"<b>{html_text(method_label(method))}'s {html_text(what)}</b> are not set out: "
        f"{html_text(method_label(method))} carries no weight in the stated likelihood ratio "
        f"({html_text(why)}). Its own ratio is shown in {section('Summary')} for comparison "
        "only; its "
        "figures are in the result attached to this PDF.",
        "small",
    )


# --- section 4 ---------------------------------------------------------------------------------


def _lambdag_part(inputs: ReportInputs) -> LambdaGPart | None:
    try:
        return LambdaGPart.of(inputs.model, inputs.stored_model.name)
    except InputError:
        return None


def _fusion(inputs: ReportInputs) -> Fusion | None:
    try:
        return fusion_of(inputs.model, inputs.stored_model.name)
    except InputError:
        return None


def method_sections(inputs: ReportInputs) -> list[Block]:
    """Section 4's parts for the methods of the run beside TAVeer: each comparison system (its
    family, reference and, for the stated one, the model's parameters), LambdaG's part and the
    fusion."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    blocks: list[Block] = []
    for method in without_text_evidence(methods):
        blocks += _comparison_part(inputs, method)
    if any(gives_text_evidence(m) for m in methods.by_method):  # LambdaG's part
        blocks += _lambdag_blocks(inputs)
    if fuses(methods.stated):
        fusion = _fusion(inputs)
        if fusion is None:
            blocks.append(Paragraph("The model's fusion part cannot be read.", "warning"))
        else:
            weights = dict(zip(fusion.methods, fusion.weights, strict=True))
            sentence = fusion_sentence(weights, methods.stated) or ""
            blocks.append(
                KeepTogether(
                    (
                        Heading(html_text(words.fusion_head(fusion)), 2),
                        Paragraph(html_text(sentence)),
                        _key_values(words.fusion_pairs(fusion)),
                    )
                )
            )
    return blocks


def _lambdag_blocks(inputs: ReportInputs) -> list[Block]:
    """LambdaG: what it is, and its part of the model."""
    blocks: list[Block] = [
        Heading("LambdaG", 2),
        Paragraph(html_text(LAMBDAG_METHOD)),
        Paragraph(_headed(words.LAMBDAG_VARIANT)),
    ]
    part = _lambdag_part(inputs)
    if part is None:
        blocks.append(Paragraph("The model's LambdaG part cannot be read.", "warning"))
    else:
        extra = inputs.model.extra.get(MethodId.LAMBDAG)
        record = inputs.validation.lambdag if inputs.validation is not None else None
        pairs = words.lambdag_pairs(part, extra if isinstance(extra, dict) else {}, record)
        blocks.append(KeepTogether((Heading("LambdaG's part of the model", 2), _key_values(pairs))))
    return blocks


def _comparison_part(inputs: ReportInputs, method: str) -> list[Block]:
    """One comparison system: what it is, where it comes from, and — for the model's own
    method, or one its fusion combines — the parameters and seed its model part records."""
    info = method_info(method)
    blocks: list[Block] = [
        Heading(html_text(info.name), 2),
        Paragraph(html_text(words.comparison_sentence(method))),
    ]
    extra = inputs.model.extra  # the model's method parts (core's encoding, checked on reading)
    fused = extra.get("comparisons")
    parts = [extra.get("comparison"), *(fused.get("parts", []) if isinstance(fused, dict) else [])]
    for part in parts:
        if isinstance(part, dict) and part.get("id") == method:
            blocks.append(_key_values(words.comparison_pairs(part)))
    return blocks


def _headed(sentence: str) -> str:
    head, _, rest = sentence.partition(". ")
    return f"<b>{html_text(head)}.</b> {html_text(rest)}"


# --- section 5 ---------------------------------------------------------------------------------


def method_results(inputs: ReportInputs) -> list[Block]:
    """Each method's likelihood ratio traced from its score, with the model's numbers."""
    result = inputs.verification
    methods = result.methods
    if methods is None:
        return []
    heading = Heading(html_text(words.EACH_METHOD_RESULT_HEAD), 2)
    kind = result.conclusion.kind
    if kind is ConclusionKind.NONE:
        text = NO_CONCLUSION_METHODS.format(method=_name(inputs, methods.stated))
        return [KeepTogether((heading, Paragraph(html_text(text))))]
    by_method = methods.by_method
    calibration = inputs.model.calibration
    traces: list[tuple[str, str]] = [
        (
            MethodId.TAVEER,
            words.taveer_trace(result.similarity, calibration, by_method.get(MethodId.TAVEER)),
        )
    ]
    part = _lambdag_part(inputs)
    if part is not None:
        raw, order = methods.lambdag_raw, methods.lambdag_order or part.order
        lambdag = by_method.get(MethodId.LAMBDAG)
        traces.append(
            (MethodId.LAMBDAG, words.lambdag_trace(raw, order, part.calibration, lambdag))
        )
    fusion = _fusion(inputs) if fuses(methods.stated) else None
    if fusion is not None:
        traces.append((MethodId.FUSION, words.fusion_trace(fusion, by_method)))
    traced = {m for m, _ in traces}
    for method in method_order(by_method, methods.stated):  # methods without a trace here
        if method not in traced:
            traces.append((method, words.plain_trace(by_method.get(method))))
    names = {m: _name(inputs, m) if fuses(m) else short_name(m) for m, _ in traces}
    rows = tuple(Row((f"<b>{html_text(names[m])}</b>", html_text(text))) for m, text in traces)
    return [
        KeepTogether(
            (
                heading,
                Table(
                    (Column("Method", 0.14), Column("From score to likelihood ratio", 0.86)),
                    rows,
                ),
            )
        ),
        Paragraph(
            f"The conclusion states the ratio of {html_text(_name(inputs, methods.stated))}. "
            + (
                "The calibrations and the fusion are"
                if fuses(methods.stated)
                else "The calibrations are"
            )
            + f" the model's ({section('Method')})."
            + (
                f" {html_text(INVESTIGATIVE_METHODS)}"
                if kind is ConclusionKind.INVESTIGATIVE
                else ""
            ),
            "small",
        ),
    ]
