"""User-supplied text printed inert: ``core/intake/control_characters.py`` and ``cli/output.py``."""

from __future__ import annotations

import json

import pytest

from taveer_desktop.cli.output import json_text, shown
from taveer_desktop.core.intake.control_characters import escaped, unsafe_characters


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("plain name", "plain name"),
        ("Zoë Jäy — «Ω» 名前", "Zoë Jäy — «Ω» 名前"),  # letters of every script stay as they are
        ("a\x1b[2Jb", "a\\x1b[2Jb"),  # ANSI escape (clear screen)
        ("line\r\nnext\tcol", "line\\r\\nnext\\tcol"),
        ("del\x7f c1\x9b", "del\\x7f c1\\x9b"),  # DEL and the 8-bit CSI
        ("txt\u202eexe.doc", "txt\\u202eexe.doc"),  # right-to-left override
        ("\u2066iso\u2069 \u200emark\u200f \u061c", "\\u2066iso\\u2069 \\u200emark\\u200f \\u061c"),
        ("zero\u200bwidth\ufeff soft\xadhyphen", "zero\\u200bwidth\\ufeff soft\\xadhyphen"),
        ("sep\u2028para\u2029", "sep\\u2028para\\u2029"),
        ("tag\U000e0041", "tag\\U000e0041"),
        ("caf\udce9", "caf\\xe9"),  # a byte that was not UTF-8 in a file name
        ("nbsp\xa0kept", "nbsp\xa0kept"),  # a visible space is not a control
    ],
)
def test_unsafe_characters_print_as_visible_escapes(text, printed):
    assert escaped(text) == printed
    assert shown(text) == printed
    assert shown(printed) == printed  # escaping is idempotent on what it prints


def test_unsafe_characters_are_listed_once_in_order():
    assert unsafe_characters("a\x1bb\u202ec\x1b") == ["\\x1b", "\\u202e"]
    assert unsafe_characters("Zoë") == []


def test_json_output_is_valid_exact_and_inert():
    value = {"name": "C\x1b[31m\u202e\u2066\x7f\x9b\U000e0001é\n", "n": 1}
    text = json_text(value)
    assert json.loads(text) == value  # the exact values
    for raw in ("\x1b", "\u202e", "\u2066", "\x7f", "\x9b", "\U000e0001"):
        assert raw not in text
    assert "\\u202e" in text and "\\udb40\\udc01" in text and "é" in text
