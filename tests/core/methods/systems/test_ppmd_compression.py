"""PPMd compressed lengths and the CBC / CDM dissimilarities (core/methods/ppmd_compression)."""

from __future__ import annotations

import math

import pyppmd
import pytest

from taveer_desktop.core.methods.systems import ppmd_compression as pc
from taveer_desktop.core.methods.systems.comparison import CannotCompare

TEXT = "It was the best of times, it was the worst of times, it was the age of wisdom. " * 5


def library_length(text: str, order: int = 7) -> int:
    """C(text) through pyppmd's one-shot function, independently of the module."""
    return len(
        pyppmd.compress(text.encode("utf-8"), max_order=order, mem_size=16 << 20, variant="H")
    )


def test_compressed_length_is_pyppmd_variant_h_at_order_7():
    assert pc.compressed_length(TEXT) == library_length(TEXT)
    assert pc.compressed_length(TEXT, 3) == library_length(TEXT, 3)
    assert pc.compressed_length(TEXT) < len(TEXT)  # repetitive text compresses


def test_cbc_and_cdm_by_hand():
    # C(x) = 100, C(y) = 64, C(xy) = 150: shared information 100 + 64 - 150 = 14
    assert pc.cbc(100, 64, 150) == pytest.approx(1 - 14 / math.sqrt(6400))  # 0.825
    assert pc.cbc(100, 64, 150) == pytest.approx(0.825)
    assert pc.cdm(100, 64, 150) == pytest.approx(150 / 164)


def test_cached_dissimilarities_equal_the_formulas_on_library_lengths():
    x, y = TEXT, "Quite another voice entirely, with other words and other habits; " * 4
    lengths = pc.CompressedLengths()
    cx, cy, cxy = library_length(x), library_length(y), library_length(x + y)
    assert lengths.cbc(x, y) == pytest.approx(1 - (cx + cy - cxy) / math.sqrt(cx * cy))
    assert lengths.cdm(x, y) == pytest.approx(cxy / (cx + cy))
    assert lengths.cbc(x, x) < lengths.cbc(x, y)  # a text is least unlike itself


def test_lengths_are_remembered_and_the_oldest_forgotten(monkeypatch):
    calls = []

    def counting(text, order=7):
        calls.append(text)
        return len(text)

    monkeypatch.setattr(pc, "compressed_length", counting)
    lengths = pc.CompressedLengths(capacity=2)
    assert lengths.length("abc") == 3 and lengths.length("abc") == 3
    assert lengths.joined("ab", "c") == 3 and lengths.joined("ab", "c") == 3
    assert calls == ["abc", "abc"]  # the text once, the joined pair once (its own key)
    lengths.length("defg")  # third entry: "abc" (least recently used) is dropped
    lengths.length("abc")
    assert calls == ["abc", "abc", "defg", "abc"]


def test_lengths_at_is_one_remembering_object_per_order():
    assert pc.lengths_at(7) is pc.lengths_at(7)
    assert pc.lengths_at(7) is not pc.lengths_at(5)


@pytest.mark.parametrize("order", [1, 65, 7.0, "7", True, None])
def test_bad_orders_are_refused(order):
    with pytest.raises(ValueError, match="order"):
        pc.check_order({"order": order}, "COAV")


def test_empty_text_cannot_be_compared():
    with pytest.raises(CannotCompare, match="questioned text is empty"):
        pc.require_text(" \n\t", "the questioned text", "COAV")
