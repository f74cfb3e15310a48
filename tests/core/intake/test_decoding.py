"""Text-file decoding: byte-order marks, UTF-8, UTF-16, Windows-1252, bad input."""

from __future__ import annotations

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import decode_bytes, read_text_file

TEXT = "It’s a “quoted” naïve café text. Is it? Yes!"
ASCII = "Hello world, this is plain text. It has two sentences."


def test_utf8_without_bom():
    decoded = decode_bytes(TEXT.encode("utf-8"), "doc.txt")
    assert decoded.text == TEXT
    assert decoded.encoding == "UTF-8"
    assert not decoded.used_fallback


def test_utf8_with_bom_drops_the_mark():
    decoded = decode_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "doc.txt")
    assert decoded.text == TEXT
    assert "\ufeff" not in decoded.text
    assert "UTF-8" in decoded.encoding and not decoded.used_fallback


@pytest.mark.parametrize("bom, codec", [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")])
@pytest.mark.parametrize("text", [TEXT, ASCII])
def test_utf16_with_bom(bom, codec, text):
    decoded = decode_bytes(bom + text.encode(codec), "doc.txt")
    assert decoded.text == text
    assert "UTF-16" in decoded.encoding and not decoded.used_fallback


def test_utf16_le_without_bom_non_ascii():
    decoded = decode_bytes(TEXT.encode("utf-16-le"), "doc.txt")
    assert decoded.text == TEXT
    assert "16" in decoded.encoding


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_ascii_text(codec):
    """Plain-English UTF-16 without a BOM (what some Windows tools write) is text, not binary.

    ASCII-range UTF-16 is also valid UTF-8 (with NUL bytes), so the UTF-16 check must come
    before rejecting the NULs as binary.
    """
    decoded = decode_bytes(ASCII.encode(codec), "doc.txt")
    assert decoded.text == ASCII
    assert "16" in decoded.encoding


def test_cp1252_curly_quotes():
    data = b"It\x92s \x93quoted\x94 \x96 text."
    decoded = decode_bytes(data, "doc.txt")
    assert decoded.text == "It\u2019s \u201cquoted\u201d \u2013 text."
    assert decoded.encoding == "Windows-1252"
    assert decoded.used_fallback


def test_bytes_undefined_in_windows_1252_are_not_kept_as_control_characters():
    # 0x81 and 0x8d are undefined in Windows-1252; the old Latin-1 last resort kept them as C1
    # control characters. Now a reading where every byte is a character wins, or none does.
    data = b"Caf\xe9 \x81 na\xefve \x8d text."
    decoded = decode_bytes(data, "doc.txt")
    assert not any("\x80" <= ch <= "\x9f" for ch in decoded.text)
    assert decoded.method == "detected" and decoded.used_fallback


@pytest.mark.parametrize("data", [b"", b"   ", b"\n\r\n\t  \n"])
def test_empty_and_whitespace_only_are_rejected(data):
    with pytest.raises(InputError) as info:
        decode_bytes(data, "empty.txt")
    assert info.value.source == "empty.txt"
    assert "empty.txt" in str(info.value)


def test_whitespace_only_utf16_is_rejected():
    with pytest.raises(InputError, match="white space"):
        decode_bytes(b"\xff\xfe" + "  \n ".encode("utf-16-le"), "blank.txt")


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\x02\x03binary\x00\x00\xff\xfe\x10",
        b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00",
        b"text with a NUL\x00 in it",
        bytes(range(1, 9)) * 50 + b"abc",  # control characters, no NUL
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    ],
)
def test_binary_data_is_rejected(data):
    with pytest.raises(InputError, match="binary") as info:
        decode_bytes(data, "blob.bin")
    assert "blob.bin" in str(info.value)


def test_a_few_control_characters_are_tolerated():
    text = "Form feed\x0c and tab\t and vertical tab\x0b are fine. " * 5
    assert decode_bytes(text.encode(), "doc.txt").text == text


def test_invalid_text_after_a_bom_is_named():
    with pytest.raises(InputError, match="UTF-8") as info:
        decode_bytes(b"\xef\xbb\xbfok \xff\xfe broken", "bom.txt")
    assert "bom.txt" in str(info.value)


def test_read_text_file(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    assert read_text_file(path).text == TEXT
    assert read_text_file(path, max_bytes=10_000).text == TEXT


def test_read_text_file_size_limit_states_the_limit(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"word " * 300)
    with pytest.raises(InputError) as info:
        read_text_file(path, max_bytes=1000)
    message = str(info.value)
    assert "1,000" in message and "big.txt" in message
    # exactly at the limit is fine
    path.write_bytes(b"x" * 1000)
    assert read_text_file(path, max_bytes=1000).text == "x" * 1000


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_read_text_file_names_unreadable_paths(tmp_path, kind):
    path = tmp_path / "thing.txt"
    if kind == "folder":
        path.mkdir()
    with pytest.raises(InputError) as info:
        read_text_file(path)
    assert str(path) in str(info.value)


def test_a_named_codec_that_fails_without_a_position_is_a_plain_refusal():
    """Found by the soak's probes: `case add --encoding punycode` on an ordinary text ended in
    an internal error (punycode raises UnicodeError, not UnicodeDecodeError)."""
    with pytest.raises(InputError) as refused:
        decode_bytes(ASCII.encode(), "doc.txt", encoding="punycode")
    assert str(refused.value) == "doc.txt: is not valid PUNYCODE"
