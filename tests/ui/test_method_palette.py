"""The method palette serves any number of methods (``ui/method_palette.py``): a method added
to the registry gets its own colour and never makes a chart raise."""

from __future__ import annotations

from taveer_desktop.core.ground.registry import METHOD_IDS
from taveer_desktop.ui.method_palette import (
    FIXED,
    OTHER_COLOUR,
    method_colour,
    method_colours,
    palette,
)


def test_the_registered_methods_keep_their_colours_in_the_registrys_order():
    assert list(method_colours().values()) == list(palette(len(METHOD_IDS)))
    assert method_colour("taveer") == "#0072B2" and method_colour("lambdag") == "#E69F00"
    assert method_colour("no-such-method") == OTHER_COLOUR


def test_more_methods_than_fixed_colours_each_get_a_colour_of_their_own():
    many = tuple(f"method{i}" for i in range(len(FIXED) + 30))
    colours = method_colours(many)
    assert list(colours) == list(many)
    assert len(set(colours.values())) == len(many)  # all different
    assert list(colours.values())[: len(FIXED)] == list(FIXED)
    assert OTHER_COLOUR not in colours.values()
    for colour in colours.values():
        assert len(colour) == 7 and colour.startswith("#") and int(colour[1:], 16) >= 0


def test_a_fourteenth_registered_method_is_drawn(monkeypatch):
    import taveer_desktop.ui.method_palette as module

    monkeypatch.setattr(module.method_colours, "__defaults__", ((*METHOD_IDS, "cosine"),))
    assert method_colour("cosine") not in (OTHER_COLOUR, *FIXED)
