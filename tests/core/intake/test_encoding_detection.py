"""Encoding detection (charset-normalizer) and the examiner's override.

Each attack here decoded wrongly before: the old fallback read every non-UTF-8 file as
Windows-1252 and refused BOM-less UTF-16 CJK text as binary.
"""

from __future__ import annotations

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.decoding import decode_bytes, encoding_label
from tests.core.encoding_samples import ENCODED, SAMPLES


@pytest.mark.parametrize("language, codec", ENCODED, ids=[f"{lang}-{c}" for lang, c in ENCODED])
def test_detection_reads_the_passage_back_exactly(language, codec):
    text = SAMPLES[language]
    decoded = decode_bytes(text.encode(codec), "evidence.txt")
    assert decoded.text == text
    assert decoded.method == "detected"
    assert 0.0 < decoded.confidence <= 1.0
    assert decoded.encoding in decoded.describe()


def test_detected_name_is_the_common_one_when_readings_are_identical():
    # ISO-8859-1 bytes of German text read identically as Windows-1252: the common name wins
    decoded = decode_bytes(SAMPLES["de"].encode("iso8859_1"), "d.txt")
    assert decoded.encoding == "Windows-1252"


@pytest.mark.parametrize("language", ["ja", "zh", "ko", "ru", "el"])
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_bomless_utf16_of_non_latin_text_is_text_not_binary(language, codec):
    text = SAMPLES[language] + "\n" + SAMPLES[language]
    decoded = decode_bytes(text.encode(codec), "u16.txt")
    assert decoded.text == text
    assert "UTF-16" in decoded.encoding


def test_ascii_with_a_stray_nul_is_still_binary():
    with pytest.raises(InputError, match="binary"):
        decode_bytes(b"plain words and a NUL\x00 here, then more words.", "b.txt")


def test_confidence_and_method_of_certain_readings():
    utf8 = decode_bytes(SAMPLES["ru"].encode("utf-8"), "u.txt")
    assert (utf8.method, utf8.confidence, utf8.encoding) == ("utf-8", 1.0, "UTF-8")
    bom = decode_bytes(b"\xef\xbb\xbf" + SAMPLES["ru"].encode("utf-8"), "u.txt")
    assert bom.method == "bom"


def test_examiner_override_decodes_with_the_named_encoding():
    data = SAMPLES["ru"].encode("koi8_r")
    decoded = decode_bytes(data, "k.txt", encoding="KOI8-R")
    assert decoded.text == SAMPLES["ru"]
    assert decoded.method == "examiner"
    assert decoded.describe() == "KOI8-R (chosen by the examiner)"
    # the examiner's choice is taken even where detection would have read it otherwise
    forced = decode_bytes(data, "k.txt", encoding="cp1251")
    assert forced.encoding == "Windows-1251" and forced.text != SAMPLES["ru"]


def test_override_with_bytes_invalid_in_that_encoding_is_refused():
    with pytest.raises(InputError, match=r"not valid Shift_JIS \(byte"):
        decode_bytes(b"\xff\xfe\xfd abc", "s.txt", encoding="shift_jis")


@pytest.mark.parametrize("name", ["no-such-codec", "rot13", "base64"])
def test_override_must_name_a_text_encoding(name):
    with pytest.raises(InputError) as info:
        decode_bytes(b"abc", "s.txt", encoding=name)
    assert info.value.source == "--encoding"


def test_labels_of_codec_names():
    assert encoding_label("windows-1251") == "Windows-1251"
    assert encoding_label("sjis") == "Shift_JIS"
    assert encoding_label("utf_32") == "UTF-32"
