"""Body text and header metadata of an e-mail message (``.eml``), using the stdlib ``email``.

Which text is taken: every inline ``text/plain`` and ``text/html`` part of the message; inside a
``multipart/alternative`` only one version (plain text preferred, since both say the same).
Attachments and non-text parts are left out and listed by name in the metadata. HTML is turned
into text with ``html.parser`` (scripts and styles dropped, block elements become line breaks).
Plain-text parts keep the author's spacing (only CRLF line ends become LF). Each part is
decoded with its declared charset; a missing or unknown charset falls back to the
engine's encoding detection. All headers are kept as metadata, in order.

Limits, checked on the raw bytes before the stdlib parser sees them (its header parsing takes
memory out of all proportion to a header full of encoded words, and it recurses once per MIME
level) and again on the parsed structure: the header block at most ``MAX_HEADER_BYTES``, at
most ``MAX_ENCODED_WORDS`` encoded words (``=?charset?Q?...?=``) in the whole message, at most
``MAX_MIME_PARTS`` parts nested at most ``MAX_MIME_DEPTH`` deep. Each refusal names the limit.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage, Message, MIMEPart
from html.parser import HTMLParser
from itertools import islice

from taveer_desktop.core.decoding import decode_bytes
from taveer_desktop.core.errors import InputError
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.records import RejectionReason

MAX_HEADER_BYTES = 256 * 1024
MAX_ENCODED_WORDS = 2000
MAX_MIME_PARTS = 1000
MAX_MIME_DEPTH = 20
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_ENCODED_WORD = re.compile(rb"=\?[^?\s]{1,64}\?[bBqQ]\?")
_CONTENT_TYPE_LINE = re.compile(rb"(?im)^content-type[ \t]*:")
_MULTIPART_LINE = re.compile(rb"(?im)^content-type[ \t]*:[ \t]*multipart/")

_BLOCK_TAGS = {
    "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "blockquote", "pre", "section", "article", "header", "footer", "address", "hr",
}  # fmt: skip
_SKIPPED_TAGS = {"script", "style", "head", "title", "template", "noscript"}


class _HtmlTextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
        elif tag == "br":
            self.parts.append("\n")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping = max(0, self._skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Readable text of an HTML fragment: tags removed, paragraphs separated by a blank line."""
    extractor = _HtmlTextExtractor()
    extractor.feed(markup)
    extractor.close()
    return tidy_text("".join(extractor.parts))


def tidy_text(text: str) -> str:
    """Collapse runs of spaces in each line and of blank lines, strip the ends."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _part_text(part: MIMEPart, source: str, charsets: list[str]) -> str:
    payload = part.get_payload(decode=True)  # None for a multipart, never here
    if not isinstance(payload, bytes) or not payload.strip():
        return ""
    charset = part.get_content_charset()
    if charset:
        try:
            text = payload.decode(charset)
            charsets.append(charset.lower())
            return text
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        decoded = decode_bytes(payload, source)
    except InputError:
        return ""
    charsets.append(f"{decoded.encoding} (detected)")
    return decoded.text


def _attachment_name(part: MIMEPart) -> str:
    return part.get_filename() or part.get_content_type()


def _collect(part: MIMEPart, source: str, found: dict[str, list[str]]) -> None:
    content_type = part.get_content_type()
    if part.is_attachment() or content_type == "message/rfc822":
        found["attachments"].append(_attachment_name(part))
        return
    if part.is_multipart():
        children = list(part.iter_parts())
        if part.get_content_subtype() == "alternative" and children:
            children = [_preferred_alternative(children)]
        for child in children:
            _collect(child, source, found)
        return
    if content_type == "text/plain":
        # CRLF is the mail transport's line ending, not the author's; spacing is kept as written
        text = _part_text(part, source, found["charsets"]).replace("\r\n", "\n").strip()
    elif content_type == "text/html":
        text = html_to_text(_part_text(part, source, found["charsets"]))
    else:
        found["attachments"].append(_attachment_name(part))
        return
    if text:
        found["texts"].append(text)
        found["parts_used"].append(content_type)


def _preferred_alternative(children: list[MIMEPart]) -> MIMEPart:
    for wanted in ("text/plain", "multipart", "text/html"):
        for child in children:
            if child.is_attachment():
                continue
            if child.get_content_type() == wanted or child.get_content_maintype() == wanted:
                return child
    return children[-1]


def _headers(message: EmailMessage) -> list[list[str]]:
    headers = []
    for name, value in message.raw_items():
        try:
            shown = str(message.policy.header_fetch_parse(name, value))
        except Exception:  # a malformed header is kept as raw text rather than refused
            shown = str(value)
        headers.append([name, shown])
    return headers


def _count(pattern: re.Pattern[bytes], data: bytes, at_most: int) -> int:
    """Matches of ``pattern`` in ``data``, counted up to ``at_most`` (then counting stops)."""
    return sum(1 for _ in islice(pattern.finditer(data), at_most))


def _over_limit(source: str, what: str) -> EvidenceRefused:
    return EvidenceRefused(what, source, RejectionReason.TOO_LARGE)


def check_raw_limits(data: bytes, source: str) -> None:
    """Refuse, before parsing, a message whose headers or structure exceed the limits."""
    end = _HEADER_END.search(data)
    header_size = end.start() if end else len(data)
    if header_size > MAX_HEADER_BYTES:
        raise _over_limit(
            source,
            f"has an e-mail header of {header_size:,} bytes, over the limit of "
            f"{MAX_HEADER_BYTES:,} bytes",
        )
    words = _count(_ENCODED_WORD, data, MAX_ENCODED_WORDS + 1)
    if words > MAX_ENCODED_WORDS:
        raise _over_limit(
            source,
            f"has more than {MAX_ENCODED_WORDS:,} encoded words (=?…?=) in its headers, "
            "over the limit",
        )
    declared = _count(_CONTENT_TYPE_LINE, data, MAX_MIME_PARTS + 1)
    if declared > MAX_MIME_PARTS:
        raise _over_limit(source, f"has more than {MAX_MIME_PARTS:,} MIME parts, over the limit")
    multiparts = _count(_MULTIPART_LINE, data, MAX_MIME_PARTS + 1)
    if multiparts > MAX_MIME_DEPTH * 5:
        raise _over_limit(
            source,
            f"has {multiparts:,} nested or multipart sections; more than "
            f"{MAX_MIME_DEPTH * 5} is over the limit",
        )


def check_structure(message: EmailMessage, source: str) -> None:
    """Count parts and depth of a parsed message without recursion."""
    stack: list[tuple[Message, int]] = [(message, 1)]
    parts = 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if depth > MAX_MIME_DEPTH:
            raise _over_limit(
                source,
                f"has MIME parts nested more than {MAX_MIME_DEPTH} levels deep, over the limit",
            )
        if parts > MAX_MIME_PARTS:
            raise _over_limit(
                source, f"has more than {MAX_MIME_PARTS:,} MIME parts, over the limit"
            )
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))


def extract_eml_text(data: bytes, source: str) -> tuple[str, str, dict[str, object]]:
    """(body text, encodings used, metadata) of an e-mail; raises ``EvidenceRefused``."""
    check_raw_limits(data, source)
    try:
        message = email.message_from_bytes(data, policy=email.policy.default)
    except RecursionError:
        raise _over_limit(
            source, f"has MIME parts nested more than {MAX_MIME_DEPTH} levels deep, over the limit"
        ) from None
    check_structure(message, source)
    if not message.keys():
        raise EvidenceRefused(
            "is not an e-mail message (it has no header lines)", source, RejectionReason.UNREADABLE
        )
    found: dict[str, list[str]] = {"texts": [], "charsets": [], "parts_used": [], "attachments": []}
    _collect(message, source, found)
    text = "\n\n".join(found["texts"])
    if not text.strip():
        raise EvidenceRefused(
            "is an e-mail message without any body text", source, RejectionReason.EMPTY
        )
    charsets = list(dict.fromkeys(found["charsets"])) or ["us-ascii"]
    metadata: dict[str, object] = {
        "headers": _headers(message),
        "parts_used": found["parts_used"],
        "attachments": found["attachments"],
    }
    defects = [type(defect).__name__ for defect in message.defects]
    if defects:
        metadata["defects"] = defects
    return text, "MIME " + ", ".join(charsets), metadata
