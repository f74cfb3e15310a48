"""One colour per method for the charts that draw every method of a record, for any number of
methods.

The registered methods take, in the registry's order, Okabe–Ito's seven colours that read on
white, then Tol's muted ones; a method past those gets a generated hue (the golden angle round
the colour wheel from the last, at one lightness and saturation), so a new method in the
registry never needs a palette edited and never makes a chart raise. The charts tell methods
apart without colour too (the legend, the stated method's thicker line).
"""

from __future__ import annotations

import colorsys

from taveer_desktop.core.ground.registry import METHOD_IDS

FIXED = (
    "#0072B2", "#E69F00", "#000000", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
    "#882255", "#44AA99", "#999933", "#332288", "#AA4499", "#117733",
)  # fmt: skip
OTHER_COLOUR = "#777777"  # an id the registry does not know
_GOLDEN = 0.381966  # the golden angle as a share of the colour wheel


def palette(n: int) -> tuple[str, ...]:
    """``n`` different colours: the fixed ones first, then generated hues."""
    colours = list(FIXED[:n])
    for i in range(n - len(colours)):
        red, green, blue = colorsys.hls_to_rgb((0.61 + (i + 1) * _GOLDEN) % 1.0, 0.38, 0.65)
        colours.append(f"#{round(red * 255):02X}{round(green * 255):02X}{round(blue * 255):02X}")
    return tuple(colours)


def method_colours(method_ids: tuple[str, ...] = METHOD_IDS) -> dict[str, str]:
    """Each id's colour, in the registry's order (the same id keeps its colour between runs)."""
    return dict(zip(method_ids, palette(len(method_ids)), strict=True))


def method_colour(method: str) -> str:
    """The colour of a registered method; ``OTHER_COLOUR`` for an id the registry does not know."""
    return method_colours().get(method, OTHER_COLOUR)
