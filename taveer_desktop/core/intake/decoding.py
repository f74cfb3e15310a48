"""Turning the bytes of a text file into text, with the encoding found and how sure we are.

Order of detection: a byte-order mark (UTF-8, UTF-16, UTF-32); UTF-16 without a mark when the
NUL bytes of its ASCII-range characters all fall on one side and the whole decodes to printable
text (this also catches CJK text); strict UTF-8; then the ``charset-normalizer`` library over a
list of encodings that evidence really comes in (``DETECTABLE``), its candidates ranked by
coherence with a language minus mess. A candidate whose text is identical to the winner's but
whose encoding is more common gives its name (ISO-8859-1 text read as Windows-1252 is the same
text). Nothing is decoded as Windows-1252 or Latin-1 "because it always works" any more: a file
no candidate reads cleanly is refused, and the examiner names the encoding (``--encoding``).
Every ``DecodedText`` says how the encoding was found (``method``) and a ``confidence`` from 0
to 1: 1.0 for a mark, valid UTF-8 or an examiner's choice; for a detection, 1 minus the
library's "chaos" of the decoded text, lowered when a different reading scored almost as well.
Empty input and binary data (NUL bytes or many control characters) are refused with an
``InputError`` naming the source.
"""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.file_reading import (  # re-exported for callers
    FileRefused,
    read_file_bytes,
    require_regular_file,
    shown_name,
)

if TYPE_CHECKING:  # imported where it is used: it takes 0.1 s to import
    from charset_normalizer.models import CharsetMatch

__all__ = [
    "DecodedText",
    "FileRefused",
    "check_encoding_name",
    "decode_bytes",
    "decode_with",
    "encoding_label",
    "read_file_bytes",
    "read_text_file",
    "require_regular_file",
    "shown_name",
]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE (BOM)"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE (BOM)"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 (BOM)"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE (BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE (BOM)"),
)
_ALLOWED_CONTROLS = set("\t\n\r\f\v")
# control characters other than \t \n \v \f \r (which text files use)
_DISALLOWED_CONTROL = re.compile("[\x00-\x08\x0e-\x1f]")
_DISALLOWED_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0E, 0x20)])
_CONTROL_SAMPLE = 200_000
MAX_CONTROL_SHARE = 0.05

# Encodings detection may choose, most common first (earlier wins when two read identically).
# Labels are what the examiner is shown. Others are read only when named with --encoding.
DETECTABLE = {
    "cp1252": "Windows-1252",
    "cp1250": "Windows-1250",
    "cp1251": "Windows-1251",
    "cp1253": "Windows-1253",
    "cp1254": "Windows-1254",
    "cp1255": "Windows-1255",
    "cp1256": "Windows-1256",
    "iso8859_15": "ISO-8859-15",
    "latin_1": "ISO-8859-1",
    "iso8859_2": "ISO-8859-2",
    "iso8859_5": "ISO-8859-5",
    "iso8859_6": "ISO-8859-6",
    "iso8859_7": "ISO-8859-7",
    "iso8859_8": "ISO-8859-8",
    "iso8859_9": "ISO-8859-9",
    "koi8_r": "KOI8-R",
    "koi8_u": "KOI8-U",
    "mac_roman": "Mac Roman",
    "mac_cyrillic": "Mac Cyrillic",
    "cp866": "DOS-866",
    "shift_jis": "Shift_JIS",
    "cp932": "Windows-31J (Shift_JIS)",
    "euc_jp": "EUC-JP",
    "iso2022_jp": "ISO-2022-JP",
    "gb2312": "GB2312",
    "gbk": "GBK",
    "gb18030": "GB18030",
    "big5": "Big5",
    "cp950": "Windows-950 (Big5)",
    "euc_kr": "EUC-KR",
    "cp949": "Windows-949 (EUC-KR)",
    "iso2022_kr": "ISO-2022-KR",
}
_ORDER = {name: index for index, name in enumerate(DETECTABLE)}
AMBIGUITY_MARGIN = 0.05
_C1_CONTROLS = re.compile("[\x80-\x9f]")
MAX_DETECTION_SAMPLE = 1_000_000


@dataclass(frozen=True)
class DecodedText:
    """Decoded text, the name of its encoding, how it was found and how sure that is."""

    text: str
    encoding: str
    used_fallback: bool = False
    method: str = "utf-8"  # bom, utf-8, utf-16-pattern, detected, examiner
    confidence: float = 1.0
    alternative: str | None = None  # a different reading that scored almost as well

    def describe(self) -> str:
        """``Windows-1251 (detected, confidence 0.97)``-style wording for the examiner."""
        if self.method == "examiner":
            return f"{self.encoding} (chosen by the examiner)"
        if self.method == "detected":
            extra = f"; {self.alternative} also plausible" if self.alternative else ""
            return f"{self.encoding} (detected, confidence {self.confidence:.2f}{extra})"
        return self.encoding

    def as_metadata(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.encoding,
            "method": self.method,
            "confidence": self.confidence,
        }
        if self.alternative:
            data["alternative"] = self.alternative
        return data


def _printable_share(text: str) -> float:
    if not text:
        return 0.0
    sample = text[:100_000]
    bad = 0
    for ch in sample:
        category = unicodedata.category(ch)
        if category in ("Cn", "Co", "Cs") or (category == "Cc" and ch not in _ALLOWED_CONTROLS):
            bad += 1
    return 1 - bad / len(sample)


def _looks_like_bomless_utf16(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the NUL bytes say so and the text decodes printable."""
    if len(data) < 4 or len(data) % 2:
        return None
    even_nuls = data[0::2].count(0)
    odd_nuls = data[1::2].count(0)
    half = len(data) // 2
    if odd_nuls > 0.4 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.4 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    # CJK and other non-Latin UTF-16: few NULs (spaces, digits, punctuation, line ends, and
    # the odd character such as U+4E00). Either byte order is tried; a reading must decode
    # to printable text, and the one whose NUL bytes make up ASCII punctuation and white
    # space wins.
    if not even_nuls and not odd_nuls:
        return None
    # ASCII text with a stray NUL is binary, not UTF-16: in real UTF-16 of a non-Latin script
    # most bytes beside the NULs are outside printable ASCII.
    others = data.replace(b"\x00", b"")
    ascii_share = sum(1 for byte in others if 0x20 <= byte < 0x7F) / max(len(others), 1)
    if ascii_share > 0.8:
        return None
    best, best_marks = None, -1
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if _printable_share(text) <= 0.995:
            continue
        marks = sum(text.count(ch) for ch in " \n\r\t,.!?;:()0123456789")
        if marks > best_marks:
            best, best_marks = codec, marks
    return best


def _check_not_binary(text: str, source: str, utf8: bytes | None = None) -> None:
    """Refuse text with a NUL or too many other control characters (in its first 200,000).

    ``utf8``: the bytes ``text`` was decoded from as UTF-8. The controls are ASCII, and no
    byte of a longer UTF-8 sequence is below 0x80, so they are counted in the bytes with one
    ``bytes.translate`` (a regular expression steps through the text character by character:
    a sixth of reading a short file)."""
    if "\x00" in text:
        raise InputError("looks like a binary file (it contains NUL bytes), not text", source)
    sample = text[:_CONTROL_SAMPLE]
    if utf8 is not None and len(text) <= _CONTROL_SAMPLE:
        controls = len(utf8) - len(utf8.translate(None, _DISALLOWED_CONTROL_BYTES))
    else:
        controls = len(_DISALLOWED_CONTROL.findall(sample))
    if sample and controls / len(sample) > MAX_CONTROL_SHARE:
        raise InputError("looks like a binary file (too many control characters), not text", source)


def encoding_label(name: str) -> str:
    """The label shown for a Python codec name (``cp1251`` → ``Windows-1251``)."""
    canonical = codecs.lookup(name).name.replace("-", "_")
    for key, label in DETECTABLE.items():
        if codecs.lookup(key).name.replace("-", "_") == canonical:
            return label
    return canonical.upper().replace("_", "-")


def check_encoding_name(name: str) -> str:
    """The codec name for an examiner's ``--encoding``; ``InputError`` if Python has none."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise InputError(
            f"is not an encoding this program knows ({name!r})", "--encoding"
        ) from None
    try:
        "".encode(info.name)
        b"".decode(info.name)
    except (LookupError, TypeError, ValueError):
        raise InputError(f"{name!r} is not a text encoding", "--encoding") from None
    return info.name


def decode_with(data: bytes, name: str, source: str) -> DecodedText:
    """Decode with the encoding the examiner named; refuses bytes that are not valid in it."""
    codec = check_encoding_name(name)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as error:
        raise InputError(
            f"is not valid {encoding_label(codec)} (byte {error.start:,} cannot be decoded)",
            source,
        ) from None
    except UnicodeError:  # codecs such as punycode and idna say no position
        raise InputError(f"is not valid {encoding_label(codec)}", source) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    decoded = DecodedText(text, encoding_label(codec), False, "examiner", 1.0)
    _check_not_binary(decoded.text, source)
    if not decoded.text.strip():
        raise InputError("the file contains no text (only white space)", source)
    return decoded


def _detect(data: bytes, source: str) -> DecodedText:
    from charset_normalizer import from_bytes  # imported here: it takes 0.1 s to import

    matches = from_bytes(data, cp_isolation=list(DETECTABLE), explain=False)
    # a reading with C1 control characters (U+0080-U+009F) is never what a person wrote: they
    # are what a Windows-1252 byte such as 0x9C (œ) becomes when read as ISO-8859-x
    ranked = sorted(
        (m for m in matches if m.encoding in _ORDER),
        key=lambda m: (
            _C1_CONTROLS.search(str(m)) is not None,
            -(m.coherence - 2 * m.chaos),
            _ORDER[m.encoding],
        ),
    )
    if not ranked:
        raise InputError(
            "is not UTF-8 and its encoding could not be recognised; "
            "name it with --encoding (for example --encoding windows-1252)",
            source,
        )
    best, runner_up, margin = _best_two(ranked)
    if (
        runner_up is not None
        and margin < AMBIGUITY_MARGIN
        and _symbols_where_different(str(best), str(runner_up))
        > _symbols_where_different(str(runner_up), str(best))
    ):
        # two close readings that differ in a few characters: the one in which those
        # characters are not stray symbols wins (0xBD is "œ" in ISO-8859-15, "½" in 1252)
        best, runner_up = runner_up, best
    text = str(best)
    # the library folds encodings that read these bytes identically into one match
    same = [e for e in (best.encoding, *best.could_be_from_charset) if e in _ORDER]
    name = min(same, key=_ORDER.__getitem__)
    alternative = None
    if runner_up is not None and margin < AMBIGUITY_MARGIN:
        alternative = DETECTABLE[runner_up.encoding]
    confidence = max(0.0, 1.0 - best.chaos)
    if alternative:
        confidence = min(confidence, 0.5 + margin * 10)
    return DecodedText(text, DETECTABLE[name], True, "detected", round(confidence, 2), alternative)


def _score(match: CharsetMatch) -> float:
    return match.coherence - 2 * match.chaos


def _best_two(ranked: list[CharsetMatch]) -> tuple[CharsetMatch, CharsetMatch | None, float]:
    """The best match, the best one reading the bytes differently, and their score margin."""
    best = ranked[0]
    text = str(best)
    for other in ranked[1:]:
        if str(other) != text:
            return best, other, _score(best) - _score(other)
    return best, None, 1.0


def _symbols_where_different(text: str, other: str) -> int:
    """How many characters where ``text`` differs from ``other`` are symbols (½, ¤, ±...)."""
    if len(text) != len(other):
        return 0
    return sum(
        1
        for a, b in zip(text, other, strict=True)
        if a != b and unicodedata.category(a) in ("No", "So", "Sm", "Sc", "Sk")
    )


def _iso2022(data: bytes) -> DecodedText | None:
    """7-bit Japanese or Korean text marked by its escape sequences (valid ASCII otherwise)."""
    for codec in ("iso2022_jp", "iso2022_jp_2", "iso2022_kr"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        return DecodedText(text, encoding_label(codec), True, "detected", 0.99)
    return None


def decode_bytes(data: bytes, source: str, encoding: str | None = None) -> DecodedText:
    """Decode ``data`` read from ``source`` (a file name used in error messages).

    ``encoding`` (a codec name the examiner chose) skips detection entirely.
    """
    if not data or not data.strip():
        raise InputError("the file is empty", source)
    if encoding is not None:
        return decode_with(data, encoding, source)
    decoded: DecodedText | None = None
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                decoded = DecodedText(data[len(bom) :].decode(codec), label, method="bom")
            except UnicodeDecodeError as error:
                raise InputError(
                    f"starts with a {label} byte-order mark but is not valid {label}: {error}",
                    source,
                ) from None
            break
    if decoded is None and b"\x00" in data:
        # UTF-16 of mostly ASCII text is also valid UTF-8 (full of NULs): test it first.
        utf16 = _looks_like_bomless_utf16(data)
        if utf16:
            label = f"UTF-16 {utf16[-2:].upper()} (no BOM, detected)"
            decoded = DecodedText(data.decode(utf16), label, True, "utf-16-pattern", 0.99)
        else:
            raise InputError("looks like a binary file (it contains NUL bytes), not text", source)
    if decoded is None and (b"\x1b$B" in data or b"\x1b$@" in data or b"\x1b$)C" in data):
        decoded = _iso2022(data)
    utf8 = None
    if decoded is None:
        try:
            decoded = DecodedText(data.decode("utf-8"), "UTF-8")
            utf8 = data
        except UnicodeDecodeError:
            decoded = _detect(data, source)
    _check_not_binary(decoded.text, source, utf8)
    if not decoded.text.strip():
        raise InputError("the file contains no text (only white space)", source)
    return decoded


def read_text_file(
    path: str | os.PathLike[str], max_bytes: int | None = None, encoding: str | None = None
) -> DecodedText:
    """Read and decode a text file; every problem becomes one ``InputError`` naming the file."""
    return decode_bytes(read_file_bytes(path, max_bytes), str(path), encoding)
