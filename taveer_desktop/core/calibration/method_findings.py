"""What a verification with a model of another method adds to TAVeer's result, typed.

A model validated with ``--method ID`` for any method but TAVeer states that method's
likelihood ratio (``core/verification/method_verify.py``). Its ``VerificationResult`` then carries a
``MethodFindings``: which method the conclusion states (a registry id), every method's own log10
likelihood ratio keyed by registry id (so agreement or disagreement can be stated), the stated
method's raw score (``raw``; for LambdaG and the fusion λG, ``lambdag_raw``, with its order),
why a comparison system could not compare the case (``cannot_compare``), and — for LambdaG,
when the verification was asked to explain itself — LambdaG's evidence in the questioned text
(``LambdaGEvidence``): each sentence and each token with its span in the prepared text
(the normalised text TAVeer's occurrences also point into) and its share of λG. LambdaG's
order, raw score and evidence are absent for the other methods.

A share is a term of λG: log10 P(token | known-text model) minus the mean log10 P(token |
reference-sample model), so a positive share means the known author's model predicted the token
better than models of other authors of the population did. The shares are on λG's raw scale
(the calibration maps only their sum to a likelihood ratio); they show *where* the score comes
from, not a likelihood ratio of their own.

One reader and one writer: ``to_dict`` gives the ``"methods"`` object of a stored or printed
result, ``findings_from_dict`` checks and reads it back (``ResultFormatError`` if malformed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

from taveer_desktop.core.calibration.outcome import ResultFormatError
from taveer_desktop.core.ground.registry import METHOD_IDS, capabilities_of

MAX_REASON_CHARS = 1000
SHARE_DIGITS = 4  # a token's share of λG is kept to 10⁻⁴


class TokenKind(Enum):
    """What a predicted position of the masked text is."""

    KEPT = "kept"  # a lexicon word or phrase, or a punctuation character, kept as it is
    MASKED = "masked"  # any other word: one placeholder
    END = "end"  # the end of the sentence (LambdaG predicts it like a token)


@dataclass(frozen=True)
class TokenEvidence:
    """One predicted position: its span in the prepared text (empty for a sentence's end, at
    the sentence's end), what it is, and its share of λG."""

    start: int
    end: int
    kind: TokenKind
    share: float


@dataclass(frozen=True)
class SentenceEvidence:
    """One sentence of the questioned text: its span, its tokens, and its share of λG."""

    start: int
    end: int
    tokens: tuple[TokenEvidence, ...]

    @property
    def share(self) -> float:
        return math.fsum(t.share for t in self.tokens)


@dataclass(frozen=True)
class LambdaGEvidence:
    """LambdaG's evidence in the questioned text at the model's order (see the module)."""

    order: int
    sentences: tuple[SentenceEvidence, ...]

    @property
    def total(self) -> float:
        """λG itself: the sum of every share (up to the rounding of the shares)."""
        return math.fsum(s.share for s in self.sentences)

    def to_dict(self) -> dict[str, Any]:
        return {
            "order": self.order,
            "sentences": [
                {
                    "span": [s.start, s.end],
                    "tokens": [
                        [t.start, t.end, t.kind.value, round(t.share, SHARE_DIGITS)]
                        for t in s.tokens
                    ],
                }
                for s in self.sentences
            ],
        }


@dataclass(frozen=True)
class MethodFindings:
    """The stated method, each method's log10 LR (None where it gives none), λG and its order
    (LambdaG and the fusion only), LambdaG's evidence in the text (None unless the
    verification explained itself), the methods whose ratio was cut to the bound its
    validation supports (the ELUB: the ratio says "at least this strong", no more), the stated
    comparison system's raw score and, if it could not compare the case, why."""

    stated: str
    by_method: dict[str, float | None]
    lambdag_raw: float | None = None
    lambdag_order: int | None = None
    evidence: LambdaGEvidence | None = None
    at_bound: tuple[str, ...] = ()  # methods whose ratio is its validation's bound (ELUB)
    raw: float | None = None  # the stated comparison system's raw score
    cannot_compare: str | None = None  # its (or a fused one's) reason for giving no ratio

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "method": self.stated,
            "log10_lr_by_method": {
                m: None if v is None else round(v, 6) for m, v in self.by_method.items()
            },
        }
        if self.lambdag_order is not None:
            data["lambdag_order"] = self.lambdag_order
        if self.lambdag_raw is not None:
            data["lambdag_raw"] = round(self.lambdag_raw, 6)
        if self.raw is not None:
            data["raw"] = round(self.raw, 6)
        if self.cannot_compare is not None:
            data["cannot_compare"] = self.cannot_compare
        if self.at_bound:
            data["at_bound"] = list(self.at_bound)
        if self.evidence is not None:
            data["lambdag_evidence"] = self.evidence.to_dict()
        return data


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ResultFormatError(f"methods: {message}")


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _token(data: Any, sentence: tuple[int, int]) -> TokenEvidence:
    _require(isinstance(data, list) and len(data) == 4, "a token is [start, end, kind, share]")
    start, end, kind, share = data
    _require(_index(start) and _index(end) and start <= end, "a token's span is wrong")
    _require(sentence[0] <= start and end <= sentence[1], "a token lies outside its sentence")
    _require(kind in {k.value for k in TokenKind}, f"unknown token kind {kind!r}")
    _require(_finite(share), "a token's share is not a finite number")
    return TokenEvidence(int(start), int(end), TokenKind(kind), float(share))


def _evidence(data: Any) -> LambdaGEvidence:
    _require(isinstance(data, dict), "lambdag_evidence is not an object")
    order, sentences = data.get("order"), data.get("sentences")
    _require(_index(order) and order >= 1, "lambdag_evidence.order is wrong")
    _require(isinstance(sentences, list), "lambdag_evidence.sentences is not a list")
    read = []
    previous_end = 0
    for item in sentences:
        _require(isinstance(item, dict), "a sentence is not an object")
        span, tokens = item.get("span"), item.get("tokens")
        _require(
            isinstance(span, list)
            and len(span) == 2
            and all(_index(x) for x in span)
            and previous_end <= span[0] <= span[1],
            "a sentence's span is wrong or out of order",
        )
        _require(isinstance(tokens, list) and bool(tokens), "a sentence has no tokens")
        start, end = int(span[0]), int(span[1])
        read.append(SentenceEvidence(start, end, tuple(_token(t, (start, end)) for t in tokens)))
        previous_end = end
    return LambdaGEvidence(int(order), tuple(read))


def findings_from_dict(data: Any) -> MethodFindings:
    """Check a result's ``"methods"`` object and return it typed."""
    _require(isinstance(data, dict), "not an object")
    stated = data.get("method")
    _require(
        stated in METHOD_IDS and not capabilities_of(stated).model_base,
        f"unknown stated method {stated!r}",
    )
    by_method = data.get("log10_lr_by_method")
    _require(
        isinstance(by_method, dict)
        and set(by_method) <= set(METHOD_IDS)
        and stated in by_method
        and all(v is None or _finite(v) for v in by_method.values()),
        "log10_lr_by_method is wrong",
    )
    raw = data.get("lambdag_raw")
    _require(raw is None or _finite(raw), "lambdag_raw is not a finite number")
    order = data.get("lambdag_order")
    _require(order is None or (_index(order) and order >= 1), "lambdag_order is wrong")
    # LambdaG's, or a fusion's that fuses LambdaG (it has LambdaG's ratio): the order of the
    # method whose evidence is placed in the text
    in_text = any(capabilities_of(m).evidence_in_text for m in by_method)
    can = capabilities_of(stated)
    _require(
        order is not None or not (can.evidence_in_text or (can.fuses and in_text)),
        "lambdag_order is missing",
    )
    stated_raw = data.get("raw")
    _require(stated_raw is None or _finite(stated_raw), "raw is not a finite number")
    reason = data.get("cannot_compare")
    _require(
        reason is None or (isinstance(reason, str) and 0 < len(reason) <= MAX_REASON_CHARS),
        "cannot_compare is not a short text",
    )
    evidence = data.get("lambdag_evidence")
    _require(evidence is None or order is not None, "lambdag_evidence without lambdag_order")
    at_bound = data.get("at_bound", [])
    _require(isinstance(at_bound, list) and set(at_bound) <= set(by_method), "at_bound is wrong")
    return MethodFindings(
        stated=str(stated),
        by_method={str(m): None if v is None else float(v) for m, v in by_method.items()},
        lambdag_raw=None if raw is None else float(raw),
        lambdag_order=None if order is None else int(order),
        evidence=None if evidence is None else _evidence(evidence),
        at_bound=tuple(str(m) for m in at_bound),
        raw=None if stated_raw is None else float(stated_raw),
        cannot_compare=reason,
    )
