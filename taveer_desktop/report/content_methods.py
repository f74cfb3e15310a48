"""What a run of a LambdaG or fused model adds to the case report (pure, no Qt).

- Section 2: each method's own likelihood ratio beside the stated one, and whether TAVeer and
  LambdaG agree (``stated_methods``).
- Section 4: LambdaG's part of the model — what LambdaG is, the masking variant stated plainly,
  its order, samples, seed, reference population and calibration — and the fusion
  (``method_sections``).
- Section 5: each method's likelihood ratio traced from its score (``method_results``).
- Section 6: LambdaG's evidence in the questioned text: the sentences with the largest positive
  and negative shares, their tokens highlighted by share (colour *and* underline or overline,
  a sign and bold, so no meaning rests on colour alone), and the sentences where both methods
  point the same way marked (``lambdag_evidence``).

A TAVeer model's run has no ``methods``; nothing here is called for it, so its report stays as
it was. The words are ``presentation/method_agreement``, ``method_report_text`` and
``lambdag_evidence_text``; every piece of evidence text passes through ``escape``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from taveer_desktop.core.errors import InputError
from taveer_desktop.core.fusion import Fusion
from taveer_desktop.core.lambdag_model import LambdaGPart, fusion_of
from taveer_desktop.core.method_findings import SentenceEvidence, TokenEvidence, TokenKind
from taveer_desktop.core.outcome import ConclusionKind
from taveer_desktop.core.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import method_report_text as words
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.lambdag_evidence_text import (
    TOWARDS_HD_TITLE,
    TOWARDS_HP_TITLE,
    evidence_summary,
    leaning_text,
    share_text,
    strongest,
)
from taveer_desktop.presentation.method_agreement import (
    AGREEMENT_MEANING,
    AT_BOUND,
    INVESTIGATIVE_METHODS,
    LAMBDAG_METHOD,
    METHOD_NAMES,
    NO_CONCLUSION_METHODS,
    SHARE_MEANING,
    agreement_sentence,
    carries_weight,
    disagreement_stated,
    fusion_sentence,
    lr_direction,
    method_label,
    method_order,
    model_fusion_weights,
    role_text,
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
from taveer_desktop.report.inputs import MethodEvidence, ReportInputs

TOWARDS_HP_FILL = "#c6ecdd"  # Okabe–Ito bluish green (#009E73), lightened for a background
TOWARDS_HD_FILL = "#f9d3bd"  # Okabe–Ito vermillion (#D55E00), lightened
SIGN_POINTS = 5.5  # the size of the ▲/▼ after a marked token
SENTENCE_WINDOW = 600  # characters of a long sentence shown around its strongest token
WINDOW_SLACK = 80  # characters a window may grow by at either end rather than cut them
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
        text = NO_CONCLUSION_METHODS.format(method=METHOD_NAMES[methods.stated])
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
                    f"<b>{html_text(method_label(method))}</b> {role}",
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
                Paragraph(head + html_text(words.stated_method_sentence(methods.stated))),
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
    agreement = agreement_sentence(methods, weights)
    if agreement:  # a disagreement is stated as a warning, never hidden
        style = "warning" if disagreement_stated(methods) else "body"
        blocks.append(Paragraph(html_text(agreement), style))
    if kind is ConclusionKind.INVESTIGATIVE:
        blocks.append(Paragraph(html_text(INVESTIGATIVE_METHODS), "warning"))
    return blocks


def fusion_weights(inputs: ReportInputs) -> dict[str, float] | None:
    """Each method's weight in the run's fused model (None: not a fused model's run)."""
    methods = inputs.verification.methods
    if methods is None or methods.stated != "fusion":
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
    stated = methods.stated if methods else "taveer"
    weights = fusion_weights(inputs)
    why = (
        f"the fusion gives it a weight of {numbers.decimal((weights or {}).get(method, 0.0))}"
        if stated == "fusion"
        else f"the stated ratio is {METHOD_NAMES[stated]}'s alone"
    )
    return Paragraph(
        f"<b>{html_text(method_label(method))}'s {html_text(what)}</b> are not set out: "
        f"{html_text(method_label(method))} carries no weight in the stated likelihood ratio "
        f"({html_text(why)}). Its own ratio is shown in section 2 for comparison only; its "
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
    """LambdaG's and the fusion's parts of section 4."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    blocks: list[Block] = [
        Heading("LambdaG", 2),
        Paragraph(html_text(LAMBDAG_METHOD)),
        Paragraph(_headed(words.LAMBDAG_VARIANT)),
    ]
    part = _lambdag_part(inputs)
    if part is None:
        blocks.append(Paragraph("The model's LambdaG part cannot be read.", "warning"))
    else:
        extra = inputs.model.extra.get("lambdag")
        record = (inputs.validation or {}).get("lambdag")
        pairs = words.lambdag_pairs(part, extra if isinstance(extra, dict) else {}, record)
        blocks.append(KeepTogether((Heading("LambdaG's part of the model", 2), _key_values(pairs))))
    if methods.stated == "fusion":
        fusion = _fusion(inputs)
        if fusion is None:
            blocks.append(Paragraph("The model's fusion part cannot be read.", "warning"))
        else:
            weights = (fusion.weights[0], fusion.weights[1])
            sentence = fusion_sentence(weights, methods.stated) or ""
            blocks.append(
                KeepTogether(
                    (
                        Heading(html_text(words.FUSION_HEAD), 2),
                        Paragraph(html_text(sentence)),
                        _key_values(words.fusion_pairs(fusion)),
                    )
                )
            )
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
        text = NO_CONCLUSION_METHODS.format(method=METHOD_NAMES[methods.stated])
        return [KeepTogether((heading, Paragraph(html_text(text))))]
    by_method = methods.by_method
    calibration = inputs.model.calibration
    traces = [("taveer", words.taveer_trace(result.similarity, calibration, by_method["taveer"]))]
    part = _lambdag_part(inputs)
    if part is not None:
        raw, order = methods.lambdag_raw, methods.lambdag_order
        lambdag = by_method.get("lambdag")
        traces.append(("lambdag", words.lambdag_trace(raw, order, part.calibration, lambdag)))
    fusion = _fusion(inputs) if methods.stated == "fusion" else None
    if fusion is not None:
        traces.append(("fusion", words.fusion_trace(fusion, by_method)))
    rows = tuple(
        Row((f"<b>{html_text(words.SHORT_NAMES[m])}</b>", html_text(text))) for m, text in traces
    )
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
            f"The conclusion states the ratio of {html_text(METHOD_NAMES[methods.stated])}. "
            "The calibrations and the fusion are the model's (section 5)."
            + (
                f" {html_text(INVESTIGATIVE_METHODS)}"
                if kind is ConclusionKind.INVESTIGATIVE
                else ""
            ),
            "small",
        ),
    ]


# --- section 6 ---------------------------------------------------------------------------------


def _slants(text: str) -> bool:
    """Whether a word may be set in italics: not in a right-to-left script (the slanted face is
    synthesised from the upright one, and Arabic came out as empty boxes)."""
    return not any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text)


def _marked(text: str, token: TokenEvidence, levels: words.MarkLevels) -> str:
    """One token's text (already escaped) with its highlight by share: a background colour,
    underline (towards Hp) or overline (towards Hd), a sign, and bold when strong."""
    share = token.share
    if token.kind is TokenKind.MASKED and _slants(text):
        text = f"<i>{text}</i>"
    if abs(share) < levels.low:
        return text
    if abs(share) >= levels.strong:
        text = f"<b>{text}</b>"
    fill, line, sign = (
        (TOWARDS_HP_FILL, "underline", words.TOWARDS_HP_SIGN)
        if share > 0
        else (TOWARDS_HD_FILL, "overline", words.TOWARDS_HD_SIGN)
    )
    return (
        f'<span style="background-color:{fill}; text-decoration: {line}">{text}</span>'
        f'<span style="font-size:{SIGN_POINTS}pt">{sign}</span>'
    )


def _window(sentence: SentenceEvidence) -> tuple[int, int]:
    """The part of a sentence shown: all of it, or about ``SENTENCE_WINDOW`` characters around
    its strongest token in the direction of its share, cut between tokens."""
    if sentence.end - sentence.start <= SENTENCE_WINDOW:
        return sentence.start, sentence.end
    sign = 1 if sentence.share >= 0 else -1
    peak = max(sentence.tokens, key=lambda t: sign * t.share)
    low = max(
        sentence.start, min(peak.start - SENTENCE_WINDOW // 2, sentence.end - SENTENCE_WINDOW)
    )
    high = min(sentence.end, low + SENTENCE_WINDOW)
    starts = [t.start for t in sentence.tokens if low <= t.start < high]
    ends = [t.end for t in sentence.tokens if low < t.end <= high]
    low, high = min(starts, default=low), max(ends, default=high)
    # a few characters left out at either end are shown rather than announced
    low = sentence.start if low - sentence.start < WINDOW_SLACK else low
    return low, sentence.end if sentence.end - high < WINDOW_SLACK else high


def highlighted(prepared: str, sentence: SentenceEvidence, levels: words.MarkLevels) -> str:
    """The sentence (or its window) as safe HTML, every token highlighted by its share."""
    low, high = _window(sentence)
    pieces = []
    if low > sentence.start:
        pieces.append(
            f"<small>[{numbers.count(low - sentence.start, 'character')} before]</small> … "
        )
    position = low
    for token in sentence.tokens:
        if token.kind is TokenKind.END:
            if token.start <= high:
                pieces.append(html_text(prepared[position:high]))
                position = high
                pieces.append(" " + _marked(words.END_MARK, token, levels))
            continue
        start, end = max(token.start, low), min(token.end, high)
        if end <= start or start < position:
            continue
        pieces.append(html_text(prepared[position:start]))
        pieces.append(_marked(html_text(prepared[start:end]), token, levels))
        position = end
    pieces.append(html_text(prepared[position:high]))
    if high < sentence.end:
        pieces.append(
            f" … <small>[{numbers.count(sentence.end - high, 'character')} after]</small>"
        )
    return "".join(pieces)


def _legend(levels: words.MarkLevels) -> Table:
    towards_hp, towards_hd, rest = words.legend_lines(levels)

    def example(text: str, kind: TokenKind, share: float) -> str:
        return _marked(text, TokenEvidence(0, 0, kind, share), levels)

    hp = (
        f"{example('the', TokenKind.KEPT, levels.low)} "
        f"{example('of', TokenKind.KEPT, levels.strong)}"
    )
    hd = (
        f"{example('word', TokenKind.MASKED, -levels.low)} "
        f"{example(',', TokenKind.KEPT, -levels.strong)}"
    )
    rows = (
        Row((hp, html_text(towards_hp))),
        Row((hd, html_text(towards_hd))),
        Row((f"<i>word</i> {words.END_MARK}", html_text(rest))),
    )
    return Table((Column("Marked", 0.16), Column("Meaning", 0.84)), rows, font="small")


def _sentence_rows(
    found: MethodEvidence, chosen: Sequence[int], levels: words.MarkLevels
) -> tuple[Row, ...]:
    rows = []
    for index in chosen:
        sentence = found.evidence.sentences[index]
        leaning: SentenceLeaning = found.leanings[index]
        agree = leaning.both_point_same_way
        label = html_text(leaning_text(leaning))
        rows.append(
            Row(
                (
                    f"<b>{words.sentence_label(index)}</b>",
                    share_text(sentence.share),
                    f"<b>{label}</b>" if agree else label,
                    highlighted(found.prepared, sentence, levels),
                ),
                shade=agree,
            )
        )
    return tuple(rows)


def _sentence_table(
    found: MethodEvidence, title: str, chosen: Sequence[int], levels: words.MarkLevels
) -> Block:
    if not chosen:
        return Paragraph(f"<b>{html_text(title)}:</b> none.", "small")
    table = Table(
        (
            Column("", 0.07),
            Column("Share", 0.1, "right"),
            Column("TAVeer", 0.15),
            Column("The sentence, tokens highlighted by their share", 0.68),
        ),
        _sentence_rows(found, chosen, levels),
        font="small",
    )
    return KeepTogether((Paragraph(f"<b>{html_text(title)}</b>", "small"), table))


def _agreeing_list(found: MethodEvidence) -> list[Block]:
    blocks: list[Block] = []
    for direction, towards in ((1, "Hp"), (-1, "Hd")):
        names = [
            words.sentence_label(i)
            for i, leaning in enumerate(found.leanings)
            if leaning.direction == direction
        ]
        shown = ", ".join(names[:60]) + (f" and {len(names) - 60} more" if len(names) > 60 else "")
        blocks.append(
            Paragraph(
                f"<b>Both methods point towards {towards}</b> in "
                f"{numbers.count(len(names), 'sentence')}" + (f": {shown}." if names else "."),
                "small",
            )
        )
    return blocks


def lambdag_evidence(inputs: ReportInputs) -> list[Block]:
    """LambdaG's evidence in the questioned text, beside TAVeer's features (section 6)."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    heading = Heading(html_text(words.LAMBDAG_EVIDENCE_HEAD), 2)
    if without_weight(inputs, "lambdag"):
        return [heading, no_weight_line(inputs, "lambdag", "evidence in the text")]
    found = inputs.method_evidence
    if found is None:
        return [heading, Paragraph(html_text(words.NO_EVIDENCE), "warning")]
    towards_hp, towards_hd = strongest(found.leanings, words.SENTENCES_SHOWN)
    levels = words.mark_levels(found.evidence)
    blocks: list[Block] = [
        KeepTogether(
            (
                heading,
                Paragraph(
                    html_text(evidence_summary(found.evidence, found.leanings, methods.lambdag_raw))
                ),
            )
        ),
        Paragraph(html_text(SHARE_MEANING), "small"),
        Paragraph(html_text(AGREEMENT_MEANING), "small"),
        KeepTogether((Paragraph("<b>How tokens are marked</b>", "small"), _legend(levels))),
        Paragraph(
            html_text(f"{words.SENTENCE_NAMES} Shaded rows: both methods point the same way."),
            "small",
        ),
        _sentence_table(found, TOWARDS_HP_TITLE, towards_hp, levels),
        _sentence_table(found, TOWARDS_HD_TITLE, towards_hd, levels),
    ]
    return blocks + _agreeing_list(found)
