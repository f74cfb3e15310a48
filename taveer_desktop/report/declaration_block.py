"""The last section of both reports: the examiner's declaration, the technical review, the
signature; and whether the report is final or a DRAFT (pure, no Qt).

``with_declaration(content, standing, final, signing)`` returns the report's content with the
section appended, as a ``MarkedContent``: the same content plus ``draft`` — ``None`` for a final
report, else the reasons it is a draft (what is missing or stale, in plain words; empty when
all is in place but the report was not issued as final). The PDF writer draws "DRAFT" with
those reasons on every page (``pdf.py``). ``FinalRefused`` is raised when a final report was
asked for and the case does not allow one; its sentence names everything missing.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from taveer_desktop.report.content import SECTION_TITLES, ReportContent
from taveer_desktop.report.escape import html_code, html_text
from taveer_desktop.report.inputs import ReportError
from taveer_desktop.report.wording import stored_time
from taveer_desktop.store.declaration_repository import OUTCOMES, Standing

SECTION_TITLE = SECTION_TITLES[9]  # the case report's section 10; the validation report's too
NOT_ASKED_FINAL = "it was not issued as final"


@dataclass(frozen=True)
class MarkedContent(ReportContent):
    """A report's content with its marking: ``draft`` None (final) or the draft's reasons."""

    draft: tuple[str, ...] | None = ()


@dataclass(frozen=True)
class SignatureNote:
    """What the report says of the signature it is about to carry (known before signing)."""

    signer: str  # the certificate's subject
    tsa_url: str | None  # None: the time is the workstation's clock
    trust_anchors: tuple[str, ...] = ()  # the CA certificates the signer must chain to (--trust)


class FinalRefused(ReportError):
    """A final report was asked for, and the case lacks what a final report needs."""


def refuse_unless_final(standing: Standing, what: str = "report") -> None:
    if not standing.final:
        raise FinalRefused(f"The {what} cannot be final: " + "; ".join(standing.missing) + ".")


def _pairs(pairs: list[tuple[str, str]]) -> Table:
    return Table(
        (Column("", 0.3), Column("", 0.7)),
        tuple(Row((f"<b>{key}</b>", value)) for key, value in pairs),
        style="keyvalue",
    )


def _declaration_blocks(standing: Standing) -> list[Block]:
    d = standing.declaration
    if d is None:
        return [
            Paragraph(
                "<b>No examiner's declaration has been recorded for this case.</b> A report "
                "without one is a draft.",
                "warning",
            )
        ]
    blocks: list[Block] = [
        _pairs(
            [
                ("Examiner", html_text(d.examiner, 300)),
                ("Role", html_text(d.role, 300)),
                ("Declared", f"{stored_time(d.declared_utc)} (declaration {d.id})"),
                ("Recorded by", html_code(d.actor or "–", 200)),
                (
                    "Made on the case",
                    "as it stands in this report"
                    if standing.declaration_current
                    else "<b>as it stood before later changes: stale</b>",
                ),
            ]
        )
    ]
    blocks += [Paragraph(html_text(line, 4000)) for line in d.declaration.split("\n") if line]
    return blocks


def _review_blocks(standing: Standing) -> list[Block]:
    r = standing.review
    if r is None:
        return [
            Paragraph(
                "<b>No technical review has been recorded for this case.</b> ISO/IEC 17025 "
                "(7.8) and the Forensic Science Regulator's Code require one before a report is "
                "issued.",
                "warning",
            )
        ]
    if not standing.review_current:
        state = "<b>stale: the case or its declaration changed after the review</b>"
    else:
        state = "made on the case and the declaration as they stand in this report"
    return [
        _pairs(
            [
                ("Reviewer", html_text(r.reviewer, 300)),
                ("Reviewed", f"{stored_time(r.reviewed_utc)} (review {r.id})"),
                ("Outcome", f"<b>{OUTCOMES[r.outcome]}</b>"),
                ("Comments", html_text(r.comments or "none", 3000)),
                ("Declaration reviewed", f"declaration {r.declaration_id}"),
                ("Recorded by", html_code(r.actor or "–", 200)),
                ("Currency", state),
            ]
        )
    ]


def _signature_blocks(draft: tuple[str, ...] | None, signing: SignatureNote | None) -> list[Block]:
    if draft is not None:
        return [
            Paragraph(
                "<b>This report is a DRAFT and is not signed</b>: "
                + html_text("; ".join(draft or (NOT_ASKED_FINAL,)), 2000)
                + ". It must not be relied on as the examiner's report.",
                "warning",
            )
        ]
    if signing is None:
        return [
            Paragraph(
                "This report is final. It carries no digital signature: its integrity rests on "
                "the SHA-256 recorded in the project's audit trail and in the receipt written "
                "beside it."
            )
        ]
    if signing.tsa_url:
        when = (
            "The signing time is an RFC 3161 timestamp from the time-stamping authority at "
            f"{html_code(signing.tsa_url, 300)} (PAdES B-T)."
        )
    else:
        when = (
            "<b>The signing time is the workstation's clock</b>, not an independent time "
            "source: no time-stamping authority was used (PAdES B-B)."
        )
    return [
        Paragraph(
            "This report is final and is digitally signed (PAdES, ETSI EN 319 142) with the "
            f"certificate of {html_text(signing.signer, 400)}. The signature covers the whole "
            f"file; any change to it, even of one byte, makes the signature fail. {when} Any "
            "PDF reader that checks signatures, poppler's <i>pdfsig</i> or pyHanko can verify "
            "it without this program."
        ),
        _pairs(list(_what_was_checked(signing))),
    ]


def _what_was_checked(signing: SignatureNote) -> list[tuple[str, str]]:
    """What the program checked of the signature when it signed, and what it did not: a report
    that failed a check was never written."""
    anchors = "; ".join(signing.trust_anchors)
    checked = [
        "the certificate was within its validity period and held its private key",
        "the signed file verified after signing: intact, the signature covering the whole file",
    ]
    not_checked = []
    if anchors:
        checked.append(
            f"the certificate chain to the trust anchor {anchors} (the CA given at signing), "
            "with the key usage non-repudiation"
        )
    else:
        not_checked.append(
            "the certificate chain and trust anchor: no CA certificate was given at signing, so "
            "whether a trusted authority issued the certificate is for the verifier to judge "
            "(taveer check --report FILE --trust CA.pem)"
        )
    if signing.tsa_url:
        checked.append(
            "the time-stamp matches the signature"
            + (", and the time-stamping authority chains to the same anchor" if anchors else "")
        )
    else:
        not_checked.append("the signing time: no time-stamp, it is the workstation's clock")
    not_checked.append(
        "revocation of the certificate: no revocation list or OCSP was consulted (the program "
        "works offline)"
    )
    return [
        ("Checked when signed", html_text("; ".join(checked), 3000) + "."),
        ("Not checked", html_text("; ".join(not_checked), 3000) + "."),
    ]


def declaration_section(
    standing: Standing,
    draft: tuple[str, ...] | None,
    signing: SignatureNote | None,
    number: int,
) -> list[Block]:
    """The section's blocks (``number``: its number in the report)."""
    blocks: list[Block] = [Heading(f"{number}. {SECTION_TITLE}", 1, True)]
    blocks += _signature_blocks(draft, signing)
    blocks.append(Heading("Examiner's declaration", 2))
    blocks += _declaration_blocks(standing)
    blocks.append(Heading("Technical review", 2))
    blocks += _review_blocks(standing)
    return blocks


def end_marker(running_title: str) -> Block:
    """The report's last line, after the declaration: nothing was cut off after it."""
    title = running_title[:1].lower() + running_title[1:]
    return KeepTogether((Spacer(8), Paragraph(f"<b>End of the {html_text(title)}.</b>", "small")))


def with_declaration(
    content: ReportContent,
    standing: Standing,
    final: bool,
    signing: SignatureNote | None = None,
    number: int = 10,
) -> MarkedContent:
    """``content`` with the declaration section appended and its marking (see the docstring);
    refuses (``FinalRefused``) a final report the case does not allow, and a signed draft."""
    if final:
        refuse_unless_final(standing)
    elif signing is not None:
        raise FinalRefused("A draft cannot be signed: sign only a report issued as final.")
    draft = None if final else standing.missing
    blocks = (
        *content.blocks,
        *declaration_section(standing, draft, signing, number),
        end_marker(content.running_title),
    )
    fields = {name: getattr(content, name) for name in ReportContent.__dataclass_fields__}
    return MarkedContent(**{**fields, "blocks": blocks}, draft=draft)
