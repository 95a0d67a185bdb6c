"""Themes: how the four abstract features of a card look.

A card is four values (number, color, shape, shading); a *theme* decides how
they are painted. Three themes come with the package:

``"classic"``
    The familiar deck: red, green and purple ovals, squiggles and diamonds,
    solid, striped or open, one to three of them on a white card.

``"colorblind"``
    The same shapes and shadings with colors from the Okabe-Ito palette that
    stay far apart under deuteranopia, protanopia and tritanopia:
    red is drawn vermillion, green blue and purple black.
    :func:`simulate` and :func:`color_distance` let you check this.

``"printable"``
    The alternative printable deck, for printing on paper. Each card shows one outer
    symbol with an inner shape on it, and the four abstract features map to
    the printable deck's four features:

    ==============  ===============  =====================================
    card feature    printable        values
    ==============  ===============  =====================================
    color           outer color      red -> yellow, green -> green,
                                     purple -> purple
    shape           outer symbol     oval -> circle, squiggle -> hexagon,
                                     diamond -> square
    shading         inner shape      solid -> triangle, striped ->
                                     rectangle, open -> diamond
    number          inner color      1 -> orange, 2 -> cyan, 3 -> red
    ==============  ===============  =====================================

    Three printable cards form a SET exactly when the cards they stand for do:
    the mapping is one to one in each feature.

Use a theme by name, ``card_svg(card, theme="colorblind")``, or pass a
:class:`Theme` object of your own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from setwidgets._inputs import short, what
from setwidgets.cards import Card

__all__ = [
    "THEMES",
    "Theme",
    "color_distance",
    "get_theme",
    "simulate",
]


@dataclass(frozen=True, eq=False)
class Theme:
    """The look of a deck: colors for each value and for the card and its frames.

    ``style`` is "classic" (symbols on a card) or "printable" (one outer symbol
    with an inner shape). ``colors`` maps a color name used by the theme to a
    CSS color. ``highlights`` maps a highlight kind ("selected", "hint", "odd",
    "found") to a (frame color, card tint) pair.
    """

    name: str
    colors: dict[str, str]
    description: str = ""
    style: str = "classic"
    card: str = "#ffffff"
    card_edge: str = "#b8bfc7"
    table: str = "#e8ecf0"
    ink: str = "#2b2b2b"
    letter: str = "#7a828c"
    highlights: dict[str, tuple[str, str]] = field(
        default_factory=lambda: {
            "selected": ("#1f6feb", "#e8f0fe"),
            "hint": ("#e0a000", "#fff6db"),
            "odd": ("#c62828", "#fdecea"),
            "found": ("#1a7f37", "#e6f4ea"),
        }
    )
    printable: dict[str, dict] = field(default_factory=dict)

    def printable_look(self, card: Card) -> dict[str, str]:
        """How a printable-deck theme shows a card: outer color/symbol, inner shape/color."""
        if not self.printable:
            raise ValueError(f"the {self.name!r} theme is not a printable-deck theme")
        return {
            "outer color": self.printable["color"][card.color],
            "outer symbol": self.printable["shape"][card.shape],
            "inner shape": self.printable["shading"][card.shading],
            "inner color": self.printable["number"][card.number],
        }

    def __repr__(self) -> str:
        return f"Theme({self.name!r})"


CLASSIC = Theme(
    "classic",
    {"red": "#e0201b", "green": "#0f9a3c", "purple": "#5b2a86"},
    "red, green and purple symbols on white cards",
)

COLORBLIND = Theme(
    "colorblind",
    # Okabe-Ito vermillion, blue and black: the trio whose smallest distance under
    # simulated deuteranopia, protanopia and tritanopia is largest among that palette's colors.
    {"red": "#d55e00", "green": "#0072b2", "purple": "#000000"},
    "red drawn vermillion, green blue, purple black; safe for color-blind players",
    highlights={
        "selected": ("#cc79a7", "#f8ecf3"),
        "hint": ("#e69f00", "#fff4dc"),
        "odd": ("#d55e00", "#fbe9dd"),
        "found": ("#009e73", "#e0f3ed"),
    },
)

PRINTABLE = Theme(
    "printable",
    {
        "purple": "#7b3fa0",
        "yellow": "#f5c518",
        "green": "#2e9e44",
        "orange": "#f28c28",
        "cyan": "#22b8cf",
        "red": "#d62828",
    },
    "the printable deck: outer color and symbol, inner shape and color",
    style="printable",
    printable={
        "color": {"red": "yellow", "green": "green", "purple": "purple"},
        "shape": {"oval": "circle", "squiggle": "hexagon", "diamond": "square"},
        "shading": {"solid": "triangle", "striped": "rectangle", "open": "diamond"},
        "number": {1: "orange", 2: "cyan", 3: "red"},
    },
)

THEMES: dict[str, Theme] = {t.name: t for t in (CLASSIC, COLORBLIND, PRINTABLE)}
"""The themes that come with the package, by name."""


def get_theme(theme: str | Theme) -> Theme:
    """Return a Theme from its name (or the Theme itself); unknown names list the choices."""
    if isinstance(theme, Theme):
        return theme
    if isinstance(theme, str) and theme.strip().lower() in THEMES:
        return THEMES[theme.strip().lower()]
    choices = f"theme must be one of {', '.join(repr(n) for n in THEMES)} or a Theme"
    if not isinstance(theme, str):
        raise TypeError(f"{choices}; got {what(theme)}")
    raise ValueError(f"{choices}; got {short(theme)}")


# -- checking colors for color-blind players ----------------------------------------------------

# Machado, Oliveira and Fernandes (2009), severity 1.0; they act on linear RGB.
_CVD = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}


def _rgb(color: str) -> tuple[float, float, float]:
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError(f"expected a color like '#d55e00'; got {color!r}")
    return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb_linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb_linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def simulate(color: str, vision: str = "deuteranopia") -> tuple[float, float, float]:
    """The CIELAB color ``(L, a, b)`` a person with the given color vision sees.

    ``vision`` is "normal", "protanopia", "deuteranopia" or "tritanopia".
    """
    if vision not in _CVD:
        raise ValueError(f"vision must be one of {', '.join(repr(v) for v in _CVD)}; got {vision!r}")
    rgb = [_linear(c) for c in _rgb(color)]
    matrix = _CVD[vision]
    seen = tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix)
    return _lab(seen)  # type: ignore[arg-type]


def color_distance(a: str, b: str, vision: str = "normal") -> float:
    """How far apart two colors look (CIE76 Delta E; about 2 is just noticeable, above 40 is plain)."""
    return math.dist(simulate(a, vision), simulate(b, vision))
