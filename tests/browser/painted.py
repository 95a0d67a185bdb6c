"""Read a SET card back from canvas pixels: its color, how many symbols, how much ink.

The browser tests know which card should be at each table position (they replay
the same seeded game in the test process); these functions check that the
pixels inside the card's rectangle agree. Shape is not read back: the color,
the number and the shading (solid, striped or open, told apart by how much of
each symbol is inked) already catch a card drawn in the wrong place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from setwidgets.cards import Card
from setwidgets.draw.themes import Theme, get_theme

from .harness import NotebookPage, rgb

CLASSIC = get_theme("classic")

# How much of a vertical line through a symbol's middle is inked, by shading: all of it for
# a solid symbol, the stripes (about every other pixel, anti-aliased) for a striped one, only
# the outline at the top and bottom for an open one. The bounds sit between values measured
# on the classic theme's pictures at the Board's scale.
SHADING_FILL = {"solid": (0.85, 1.01), "striped": (0.3, 0.85), "open": (0.0, 0.3)}


def inset(rect: Sequence[float], margin: float = 4) -> tuple[float, float, float, float]:
    """A rectangle shrunk by ``margin`` on each side, so a check stays clear of the frame."""
    x, y, w, h = rect
    return x + margin, y + margin, w - 2 * margin, h - 2 * margin


def around(rect: Sequence[float], margin: float = 3) -> tuple[float, float, float, float]:
    """A rectangle grown by ``margin`` on each side: a highlight frame is stroked on the card's edge."""
    return inset(rect, -margin)


@dataclass(frozen=True)
class CardLook:
    """What the pixels of one card rectangle show.

    ``colors`` maps each theme color name to the number of its exact pixels;
    ``color`` is the name with the most; ``symbols`` counts the separate
    columns of that color; ``fills`` is, per symbol, the inked part of a
    vertical line through its middle (from its top edge to its bottom edge).
    """

    colors: dict[str, int]
    color: str
    symbols: int
    fills: tuple[float, ...]

    @property
    def shading(self) -> str | None:
        """solid, striped or open, read from the mean fill (None if it fits none)."""
        mean = sum(self.fills) / len(self.fills) if self.fills else 0.0
        for shading, (low, high) in SHADING_FILL.items():
            if low <= mean < high:
                return shading
        return None


def _runs(flags: Sequence[bool], bridge: int = 3) -> list[tuple[int, int]]:
    """(start, end) of the runs of True, joining runs separated by at most ``bridge`` False."""
    runs: list[list[int]] = []
    for i, flag in enumerate(flags):
        if not flag:
            continue
        if runs and i - runs[-1][1] <= bridge + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return [(a, b) for a, b in runs]


def read_card(
    nb: NotebookPage,
    canvas: Any,
    rect: Sequence[float],
    theme: Theme = CLASSIC,
    background: str | None = None,
) -> CardLook:
    """Look at the card drawn in ``rect`` (canvas pixels) and describe it.

    ``background`` is the card's color when a highlight tints it (default: the theme's card color).
    """
    inner = inset(rect, 6)
    counts = {name: nb.count_color(canvas, css, inner) for name, css in theme.colors.items()}
    color = max(counts, key=counts.get)
    mask = nb.color_mask(canvas, theme.colors[color], inner)
    ink = nb.color_mask(canvas, background or theme.card, inner, tolerance=30, near=False)
    width = len(mask[0]) if mask else 0
    columns = [any(row[i] == "#" for row in mask) for i in range(width)]
    fills = []
    for start, end in _runs(columns):
        middle = "".join(row[(start + end) // 2] for row in mask)
        top, bottom = middle.find("#"), middle.rfind("#")
        line = "".join(row[(start + end) // 2] for row in ink[top : bottom + 1])
        fills.append(line.count("#") / len(line))
    return CardLook(counts, color, len(fills), tuple(fills))


def assert_card_shown(
    nb: NotebookPage,
    canvas: Any,
    rect: Sequence[float],
    card: Card,
    theme: Theme = CLASSIC,
    where: str = "",
    highlight: str | None = None,
) -> CardLook:
    """Fail unless ``rect`` shows ``card``: its color only, its number of symbols, its shading.

    ``highlight`` names the frame the card has ("found", "odd", ...), whose tint is its background.
    """
    background = theme.highlights[highlight][1] if highlight else None
    look = read_card(nb, canvas, rect, theme, background)
    label = f"{where or 'the card'} should be {card.name}"
    assert look.colors[card.color] >= 40, f"{label}, but has few {card.color} pixels: {look}"
    strays = {name: n for name, n in look.colors.items() if name != card.color and n}
    assert not strays, f"{label}, but shows other colors: {strays}"
    assert look.symbols == card.number, f"{label}, but {look.symbols} symbols are drawn: {look}"
    assert look.shading == card.shading, f"{label}, but the symbols look {look.shading}: {look}"
    return look


def card_background_share(
    nb: NotebookPage, canvas: Any, rect: Sequence[float], theme: Theme = CLASSIC
) -> float:
    """The part of a card rectangle painted in the card's own background color."""
    x, y, w, h = inset(rect, 6)
    return nb.count_color(canvas, rgb(theme.card), (x, y, w, h)) / (int(w) * int(h))


def frames(nb: NotebookPage, canvas: Any, rect: Sequence[float], theme: Theme = CLASSIC) -> set[str]:
    """The highlight frames ("selected", "hint", "odd", "found") drawn around a card rectangle."""
    x, y, w, h = rect
    # The frame is stroked on the card's edge, so look a little outside the rectangle too.
    around = (x - 3, y - 3, w + 6, h + 6)
    return {
        kind
        for kind, (frame, _tint) in theme.highlights.items()
        if nb.count_color(canvas, frame, around) >= 20
    }


def assert_frames(
    nb: NotebookPage,
    canvas: Any,
    rects: Sequence[Sequence[float]],
    expected: dict[int, str],
    theme: Theme = CLASSIC,
) -> None:
    """Fail unless exactly the positions in ``expected`` are framed, each with its kind of frame."""
    seen = {p: kinds for p, rect in enumerate(rects) if (kinds := frames(nb, canvas, rect, theme))}
    want = {p: {kind} for p, kind in expected.items()}
    assert seen == want, f"framed cards (position: frames) are {seen}; expected {want}"
