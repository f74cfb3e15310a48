"""Body text and header metadata of an e-mail message (``.eml``), using the stdlib ``email``.

Which text is taken: every inline ``text/plain`` and ``text/html`` part of the message; inside a
``multipart/alternative`` the version the recipient's mail program shows, the last one it can
read (RFC 2046: usually the HTML); another version whose words differ from it by at least
``MATERIAL_CHARS`` characters is noted in the reading notes (characters of words only in each).
Attachments and non-text parts are left out and listed by name in the metadata. HTML is turned
into the text a reader sees (``store/html_text.py``: text hidden by style is left out and
noted). Plain-text parts keep the author's spacing (only CRLF line ends become LF). Each part
is decoded with its declared charset; a declared charset that is unknown, does not decode, or
is a single-byte charset declared over bytes that are UTF-8 is noted with what was used (the
engine's encoding detection, or UTF-8). A part without a declared charset is detected. All
headers are kept as metadata, in order.

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
from collections import Counter
from email.message import EmailMessage, Message, MIMEPart
from itertools import islice

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import decode_bytes
from taveer_desktop.core.intake.invisible_text import remove_invisible
from taveer_desktop.core.intake.reading_notes import (
    AlternativeDifference,
    CharsetNote,
    HiddenText,
    ReadingNotes,
    sample_of,
)
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.html_text import html_to_text
from taveer_desktop.store.records import RejectionReason

MAX_HEADER_BYTES = 256 * 1024
MAX_ENCODED_WORDS = 2000
MAX_MIME_PARTS = 1000
MAX_MIME_DEPTH = 20
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_ENCODED_WORD = re.compile(rb"=\?[^?\s]{1,64}\?[bBqQ]\?")
_CONTENT_TYPE_LINE = re.compile(rb"(?im)^content-type[ \t]*:")
_MULTIPART_LINE = re.compile(rb"(?im)^content-type[ \t]*:[ \t]*multipart/")

_SINGLE_BYTE = re.compile(r"^(?:iso-?8859|latin|windows-12|cp12|cp8|koi8|mac|us-ascii|ascii)")
_URL = re.compile(r"(?:https?://|mailto:|www\.)\S+", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")
MATERIAL_CHARS = 10


class _Found:
    """What ``_collect`` gathers from a message: texts, charsets, parts, notes."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.charsets: list[str] = []
        self.parts_used: list[str] = []
        self.attachments: list[str] = []
        self.charset_notes: list[CharsetNote] = []
        self.hidden: list[HiddenText] = []
        self.alternatives: list[AlternativeDifference] = []

    def merge(self, other: _Found) -> None:
        """Take in what ``other`` gathered from one part of the message."""
        for name, items in vars(other).items():
            getattr(self, name).extend(items)


def _detected(payload: bytes, source: str) -> tuple[str, str] | None:
    try:
        decoded = decode_bytes(payload, source)
    except InputError:
        return None
    return decoded.text, f"{decoded.encoding} (detected)"


def _part_text(part: MIMEPart, source: str, found: _Found) -> str:
    """The decoded text of one text part; a declared charset that does not fit is noted."""
    payload = part.get_payload(decode=True)  # None for a multipart, never here
    if not isinstance(payload, bytes) or not payload.strip():
        return ""
    charset = part.get_content_charset()
    problem = None
    if charset:
        try:
            text = payload.decode(charset)
        except LookupError:
            problem = "is unknown"
        except UnicodeDecodeError as error:
            problem = f"does not decode (byte {error.start:,} of the part is not valid in it)"
        except (UnicodeError, ValueError, TypeError):  # punycode, idna, 'undefined' …
            problem = "does not decode (it is not a charset for the text of a message)"
        else:
            if _SINGLE_BYTE.match(charset.lower()) and not payload.isascii():
                try:
                    utf8 = payload.decode("utf-8")
                except UnicodeDecodeError:
                    utf8 = None
                if utf8 is not None:  # 8-bit text in a single-byte charset is never valid UTF-8
                    found.charsets.append("utf-8")
                    found.charset_notes.append(
                        CharsetNote(charset, "UTF-8", "does not fit: the bytes are UTF-8")
                    )
                    return utf8
            if "\ufffd" in text:
                found.charset_notes.append(
                    CharsetNote(charset, charset, "gives replacement characters (\ufffd)")
                )
            found.charsets.append(charset.lower())
            return text
    detected = _detected(payload, source)
    if problem is not None:
        used = detected[1] if detected else "nothing (the part was left out)"
        found.charset_notes.append(CharsetNote(charset or "", used, problem))
    if detected is None:
        return ""
    found.charsets.append(detected[1])
    return detected[0]


def _attachment_name(part: MIMEPart) -> str:
    return part.get_filename() or part.get_content_type()


def _collect(part: MIMEPart, source: str, found: _Found) -> None:
    content_type = part.get_content_type()
    if part.is_attachment() or content_type == "message/rfc822":
        found.attachments.append(_attachment_name(part))
        return
    if part.is_multipart():
        children = list(part.iter_parts())
        if part.get_content_subtype() == "alternative" and children:
            shown = _shown_alternative(children)
            seen = _Found()
            _collect(shown, source, seen)
            found.merge(seen)
            if _readable(shown):
                _compare_alternatives(shown, seen, children, source, found)
            return
        for child in children:
            _collect(child, source, found)
        return
    if content_type == "text/plain":
        # CRLF is the mail transport's line ending, not the author's; spacing is kept as written
        text = _part_text(part, source, found).replace("\r\n", "\n").strip()
    elif content_type == "text/html":
        text, hidden = html_to_text(_part_text(part, source, found))
        if hidden is not None:
            found.hidden.append(hidden)
    else:
        found.attachments.append(_attachment_name(part))
        return
    if text:
        found.texts.append(text)
        found.parts_used.append(content_type)


def _readable(child: MIMEPart) -> bool:
    return not child.is_attachment() and (
        child.get_content_type() in ("text/plain", "text/html")
        or child.get_content_maintype() == "multipart"
    )


def _shown_alternative(children: list[MIMEPart]) -> MIMEPart:
    """The alternative a mail program shows: the last one it can read (RFC 2046, 5.1.4)."""
    readable = [index for index, child in enumerate(children) if _readable(child)]
    return children[readable[-1] if readable else -1]


def _words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(remove_invisible(_URL.sub(" ", text))[0].lower()))


def _compare_alternatives(
    shown: MIMEPart, seen: _Found, children: list[MIMEPart], source: str, found: _Found
) -> None:
    """Note every other readable alternative whose words differ from the shown one's (what
    was gathered from it: ``seen``)."""
    analysed_words = _words("\n".join(seen.texts))
    for child in children:
        if child is shown or not _readable(child):
            continue
        other = _Found()
        _collect(child, source, other)
        other_words = _words("\n".join(other.texts))
        only_other = sum(len(w) * n for w, n in (other_words - analysed_words).items())
        only_analysed = sum(len(w) * n for w, n in (analysed_words - other_words).items())
        if only_other + only_analysed >= MATERIAL_CHARS:
            found.alternatives.append(
                AlternativeDifference(_kind(shown), _kind(child), only_other, only_analysed)
            )


def _kind(part: MIMEPart) -> str:
    """``HTML``, ``plain-text`` or the content type: what kind of alternative a part is."""
    types = [p.get_content_type() for p in part.walk()]
    for wanted, word in (("text/html", "HTML"), ("text/plain", "plain-text")):
        if wanted in types:
            return word
    return part.get_content_type()


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
        if not part.is_multipart():  # a leaf's payload is decoded later, with its charset checked
            continue
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))


def extract_eml_text(data: bytes, source: str) -> tuple[str, str, dict[str, object], ReadingNotes]:
    """(body text, encodings used, metadata, reading notes) of an e-mail; raises
    ``EvidenceRefused``."""
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
    found = _Found()
    _collect(message, source, found)
    text = "\n\n".join(found.texts)
    if not text.strip():
        raise EvidenceRefused(
            "is an e-mail message without any body text", source, RejectionReason.EMPTY
        )
    charsets = list(dict.fromkeys(found.charsets)) or ["us-ascii"]
    metadata: dict[str, object] = {
        "headers": _headers(message),
        "parts_used": found.parts_used,
        "attachments": found.attachments,
    }
    defects = [type(defect).__name__ for defect in message.defects]
    if defects:
        metadata["defects"] = defects
    notes = ReadingNotes(
        hidden=_merged_hidden(found.hidden),
        alternative=found.alternatives[0] if found.alternatives else None,
        charsets=tuple(dict.fromkeys(found.charset_notes)),
    )
    return text, "MIME " + ", ".join(charsets), metadata, notes


def _merged_hidden(hidden: list[HiddenText]) -> HiddenText | None:
    if len(hidden) <= 1:
        return hidden[0] if hidden else None
    how = tuple(dict.fromkeys(h for part in hidden for h in part.how))
    sample = sample_of(" ".join(part.sample for part in hidden))
    return HiddenText(sum(h.characters for h in hidden), sum(h.places for h in hidden), how, sample)
