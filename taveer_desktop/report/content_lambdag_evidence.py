"""Section 6 of the case report for a LambdaG or fused model's run (pure, no Qt): LambdaG's
evidence in the questioned text — the sentences with the largest positive and negative shares,
their tokens highlighted by share (colour *and* underline or overline, a sign and bold, so no
meaning rests on colour alone), and the sentences where both methods point the same way marked
(``lambdag_evidence``).

The words are ``presentation/lambdag_evidence_text``, ``method_agreement`` and
``method_report_text``; every piece of evidence text passes through ``escape``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from taveer_desktop.core.calibration.method_findings import (
    SentenceEvidence,
    TokenEvidence,
    TokenKind,
)
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import method_report_text as words
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.face_registry import gives_text_evidence
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
    SHARE_MEANING,
    no_text_evidence_sentence,
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
from taveer_desktop.report.content_methods import no_weight_line, without_weight
from taveer_desktop.report.escape import html_text
from taveer_desktop.report.inputs import MethodEvidence, ReportInputs

TOWARDS_HP_FILL = "#c6ecdd"  # Okabe–Ito bluish green (#009E73), lightened for a background
TOWARDS_HD_FILL = "#f9d3bd"  # Okabe–Ito vermillion (#D55E00), lightened
SIGN_POINTS = 5.5  # the size of the ▲/▼ after a marked token
SENTENCE_WINDOW = 600  # characters of a long sentence shown around its strongest token
WINDOW_SLACK = 80  # characters a window may grow by at either end rather than cut them


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
    """LambdaG's evidence in the questioned text, beside TAVeer's features (Interpretation)."""
    methods = inputs.verification.methods
    if methods is None:
        return []
    no_evidence = no_text_evidence_sentence(methods)
    if not any(gives_text_evidence(m) for m in methods.by_method):  # a comparison system's
        # model: its methods give no evidence in the text
        if no_evidence is None:
            return []
        head = Heading(html_text(words.TEXT_EVIDENCE_HEAD), 2)
        return [KeepTogether((head, Paragraph(html_text(no_evidence))))]
    heading = Heading(html_text(words.LAMBDAG_EVIDENCE_HEAD), 2)
    if without_weight(inputs, MethodId.LAMBDAG):
        return [heading, no_weight_line(inputs, MethodId.LAMBDAG, "evidence in the text")]
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
    blocks += _agreeing_list(found)
    if no_evidence:
        blocks.append(Paragraph(html_text(no_evidence), "small"))
    return blocks
