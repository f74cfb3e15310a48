"""LambdaG's evidence in the questioned text, in words: the sentences and tokens with the largest
shares, and whether TAVeer's lean points the same way in each (no Qt).

Used by ``taveer explain --category lambdag``; the meaning of a share and of "both point the
same way" is in ``presentation/method_agreement`` (``SHARE_MEANING``, ``AGREEMENT_MEANING``).
A masked token is shown as the word that stands in the text, in angle brackets: LambdaG saw only
"some content word here", never the word itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taveer_desktop.core.calibration.method_findings import (
    LambdaGEvidence,
    SentenceEvidence,
    TokenKind,
)
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning
from taveer_desktop.presentation import numbers

SENTENCE_CHARS = 90
TOWARDS_HP_TITLE = "Sentences the known author's model predicted best (towards Hp)"
TOWARDS_HD_TITLE = "Sentences the other authors' models predicted best (towards Hd)"


def token_text(prepared: str, token_kind: TokenKind, start: int, end: int) -> str:
    """A token as shown: the kept word or mark, ⟨word⟩ for a masked one, ¶ for an end."""
    if token_kind is TokenKind.END:
        return "¶ (end of sentence)"
    shown = " ".join(prepared[start:end].split())
    return f"⟨{shown}⟩" if token_kind is TokenKind.MASKED else shown


def share_text(share: float, places: int = 3) -> str:
    """A share with its sign, to three decimals (log10 units of λG); ``places`` for a TAVeer
    lean, whose values are smaller."""
    return ("+" if share > 0 else "−" if share < 0 else "±") + numbers.decimal(abs(share), places)


def leaning_text(leaning: SentenceLeaning) -> str:
    """Whether TAVeer's lean in the sentence points the same way as LambdaG's share."""
    if leaning.both_point_same_way:
        return "both methods → Hp" if leaning.direction > 0 else "both methods → Hd"
    if leaning.taveer == 0:
        return "no effect on TAVeer's distances"
    return "TAVeer's lean points the other way"


def strongest(leanings: Sequence[SentenceLeaning], most: int) -> tuple[list[int], list[int]]:
    """Indices of the ``most`` sentences with the largest positive and the largest negative
    LambdaG shares (strongest first)."""
    order = sorted(range(len(leanings)), key=lambda i: leanings[i].lambdag)
    towards_hp = [i for i in reversed(order) if leanings[i].lambdag > 0][:most]
    towards_hd = [i for i in order if leanings[i].lambdag < 0][:most]
    return towards_hp, towards_hd


def sentence_lines(
    prepared: str,
    sentence: SentenceEvidence,
    leaning: SentenceLeaning,
    tokens_shown: int = 3,
) -> list[str]:
    """Two lines: the share, the leaning and the (shortened) sentence; then its strongest
    tokens in the direction of its share."""
    text = " ".join(prepared[sentence.start : sentence.end].split())
    if len(text) > SENTENCE_CHARS:
        text = text[: SENTENCE_CHARS - 1].rstrip() + "…"
    sign = 1 if sentence.share >= 0 else -1
    tokens = sorted(sentence.tokens, key=lambda t: -sign * t.share)[:tokens_shown]
    strongest_tokens = ", ".join(
        f"{token_text(prepared, t.kind, t.start, t.end)} {share_text(t.share)}" for t in tokens
    )
    return [
        f"{share_text(sentence.share)}  [{leaning_text(leaning)}]  “{text}”",
        f"          strongest tokens: {strongest_tokens}",
    ]


@dataclass(frozen=True)
class EvidenceCounts:
    sentences: int
    positive: int  # sentences with a positive LambdaG share
    negative: int
    same_hp: int  # sentences where both methods point towards Hp
    same_hd: int


def evidence_counts(leanings: Sequence[SentenceLeaning]) -> EvidenceCounts:
    return EvidenceCounts(
        len(leanings),
        sum(1 for x in leanings if x.lambdag > 0),
        sum(1 for x in leanings if x.lambdag < 0),
        sum(1 for x in leanings if x.direction > 0),
        sum(1 for x in leanings if x.direction < 0),
    )


def evidence_summary(
    evidence: LambdaGEvidence, leanings: Sequence[SentenceLeaning], raw: float | None = None
) -> str:
    """The totals, for the command line, the desktop and the report alike: λG as the sum of
    the shares (beside the run's λG when given), sentences each way, where both agree."""
    c = evidence_counts(leanings)
    stored = f" (the run's λG is {numbers.decimal(raw)})" if raw is not None else ""
    return (
        f"At order {evidence.order}, the shares of the "
        f"{numbers.count(c.sentences, 'sentence')} of the questioned text add up to λG = "
        f"{share_text(evidence.total)}{stored}: {numbers.count(c.positive, 'sentence')} with a "
        f"positive share (towards Hp), {numbers.count(c.negative, 'sentence')} with a negative "
        "one (towards Hd). Both methods point the same way in "
        f"{numbers.count(c.same_hp + c.same_hd, 'sentence')}: "
        f"{numbers.integer(c.same_hp)} towards Hp and {numbers.integer(c.same_hd)} towards Hd."
    )


def evidence_lines(
    prepared: str,
    evidence: LambdaGEvidence,
    leanings: Sequence[SentenceLeaning],
    most: int,
) -> list[str]:
    """The text form of LambdaG's evidence: the summary, then the strongest sentences each
    way."""
    lines = [evidence_summary(evidence, leanings)]
    towards_hp, towards_hd = strongest(leanings, most)
    for title, chosen in ((TOWARDS_HP_TITLE, towards_hp), (TOWARDS_HD_TITLE, towards_hd)):
        lines.append(f"{title}:")
        if not chosen:
            lines.append("    none")
        for i in chosen:
            lines += [
                "    " + line
                for line in sentence_lines(prepared, evidence.sentences[i], leanings[i])
            ]
    return lines
