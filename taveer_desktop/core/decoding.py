"""Turning the bytes of a text file into text, with the encoding that was detected.

Order of detection: a byte-order mark (UTF-8, UTF-16, UTF-32); strict UTF-8; UTF-16 without a
mark when the NUL pattern of ASCII-range UTF-16 is unmistakable; Windows-1252; Latin-1 as the
last resort (it decodes any byte). Empty input and binary data (NUL bytes or many control
characters) are rejected with an ``InputError`` naming the source.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass

from taveer_desktop.core.errors import InputError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE (BOM)"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE (BOM)"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 (BOM)"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE (BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE (BOM)"),
)
# control characters other than \t \n \v \f \r (which text files use)
_DISALLOWED_CONTROL = re.compile("[\x00-\x08\x0e-\x1f]")
MAX_CONTROL_SHARE = 0.05


@dataclass(frozen=True)
class DecodedText:
    """Decoded text and the name of the encoding it was decoded from."""

    text: str
    encoding: str
    used_fallback: bool = False


def _looks_like_bomless_utf16(data: bytes) -> str | None:
    if len(data) < 4 or len(data) % 2:
        return None
    even_nuls = data[0::2].count(0)
    odd_nuls = data[1::2].count(0)
    half = len(data) // 2
    if odd_nuls > 0.4 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.4 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    return None


def _check_not_binary(text: str, source: str) -> None:
    if "\x00" in text:
        raise InputError("looks like a binary file (it contains NUL bytes), not text", source)
    sample = text[:200_000]
    controls = len(_DISALLOWED_CONTROL.findall(sample))
    if sample and controls / len(sample) > MAX_CONTROL_SHARE:
        raise InputError("looks like a binary file (too many control characters), not text", source)


def decode_bytes(data: bytes, source: str) -> DecodedText:
    """Decode ``data`` read from ``source`` (a file name used in error messages)."""
    if not data or not data.strip():
        raise InputError("the file is empty", source)
    decoded: DecodedText | None = None
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                decoded = DecodedText(data[len(bom) :].decode(codec), label)
            except UnicodeDecodeError as error:
                raise InputError(
                    f"starts with a {label} byte-order mark but is not valid {label}: {error}",
                    source,
                ) from None
            break
    if decoded is None and b"\x00" in data:
        # UTF-16 of mostly ASCII text is also valid UTF-8 (full of NULs): test it first.
        codec = _looks_like_bomless_utf16(data)
        if codec:
            try:
                label = f"UTF-16 {codec[-2:].upper()} (no BOM, detected)"
                decoded = DecodedText(data.decode(codec), label, True)
            except UnicodeDecodeError:
                decoded = None
    if decoded is None:
        try:
            decoded = DecodedText(data.decode("utf-8"), "UTF-8")
        except UnicodeDecodeError:
            if decoded is None:
                if b"\x00" in data:
                    raise InputError(
                        "looks like a binary file (it contains NUL bytes), not text", source
                    ) from None
                try:
                    decoded = DecodedText(data.decode("cp1252"), "Windows-1252", True)
                except UnicodeDecodeError:
                    decoded = DecodedText(data.decode("latin-1"), "ISO-8859-1", True)
    _check_not_binary(decoded.text, source)
    if not decoded.text.strip():
        raise InputError("the file contains no text (only white space)", source)
    return decoded


def read_file_bytes(path, max_bytes: int | None = None, kind: str = "text file") -> bytes:
    """The bytes of a file given by the user; every problem is one ``InputError`` naming it.

    ``max_bytes`` is checked before reading (and again after, in case the file grew), so an
    over-size file is never read whole.
    """
    source = str(path)
    try:
        with open(path, "rb") as handle:
            if max_bytes is not None and os.fstat(handle.fileno()).st_size > max_bytes:
                raise InputError(f"is larger than the limit of {max_bytes:,} bytes", source)
            data = handle.read(max_bytes + 1 if max_bytes is not None else -1)
    except FileNotFoundError:
        raise InputError(
            "no such file" if kind == "text file" else f"no such {kind}", source
        ) from None
    except IsADirectoryError:
        raise InputError(f"is a folder, not a {kind}", source) from None
    except PermissionError:
        raise InputError("permission denied", source) from None
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror or error})", source) from None
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(f"is larger than the limit of {max_bytes:,} bytes", source)
    return data


def read_text_file(path, max_bytes: int | None = None) -> DecodedText:
    """Read and decode a text file; every problem becomes one ``InputError`` naming the file."""
    return decode_bytes(read_file_bytes(path, max_bytes), str(path))
