"""Read a SET card back from canvas pixels: its color, how many symbols, how much ink.

The browser tests know which card should be at each table position (they replay
the same seeded game in the test process); these functions check that the
pixels inside the card's rectangle agree. Shape is not read back: the color,
the number and the shading (solid, striped or open, told apart by how much of
each symbol is inked) already catch a card drawn in the wrong place.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from setwidgets.cards import Card
from setwidgets.draw.themes import Theme, get_theme

from .harness import NotebookPage, rgb

CLASSIC = get_theme("classic")

# How much of a vertical line through a symbol's middle is inked, by shading: all of it for
# a solid symbol, the stripes (about every other pixel, anti-aliased) for a striped one, only
# the outline at the top and bottom for an open one. The bounds sit between values measured
# on the classic theme's pictures at the Board's scale.
SHADING_FILL = {"solid": (0.85, 1.01), "striped": (0.3, 0.85), "open": (0.0, 0.3)}


# The canvas's pixels (RGBA, row by row) as base64: one transfer instead of one per rectangle.
_JS_ALL_PIXELS = """el => {
    const d = el.getContext('2d').getImageData(0, 0, el.width, el.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192));
    return [el.width, el.height, btoa(s)];
}"""


class Still:
    """A canvas's pixels read once, with the pixel-reading methods of NotebookPage on them.

    A check that reads many rectangles of one picture (every card of a table, every
    frame) reads them all from one picture this way, instead of asking the page once
    per rectangle (about 20 ms of CPU each). Pass it where these functions take ``nb``:
    ``count_color``, ``color_mask`` and ``colors`` answer as the page's do (the same
    rectangles, rounded the same way, transparent outside the canvas), about the
    pixels as they were when it was made; anything else is asked of the page.
    """

    def __init__(self, nb: NotebookPage, canvas: Any) -> None:
        self.nb, self.canvas = nb, canvas
        width, height, data = canvas.evaluate(_JS_ALL_PIXELS)
        self.pixels = np.frombuffer(base64.b64decode(data), dtype=np.uint8).reshape(height, width, 4)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.nb, name)

    def _region(self, canvas: Any, rect: Sequence[float] | None) -> np.ndarray:
        """The RGBA pixels of ``rect`` as int arrays, (0, 0, 0, 0) where it leaves the canvas."""
        if canvas is not self.canvas:
            raise ValueError("Still: these pixels are another canvas's; make a Still of this canvas")
        height, width = self.pixels.shape[:2]
        if rect is None:
            return self.pixels.astype(np.int32)
        x, y, w, h = int(rect[0]), int(rect[1]), max(1, int(rect[2])), max(1, int(rect[3]))
        region = np.zeros((h, w, 4), dtype=np.int32)
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
        if x0 < x1 and y0 < y1:
            region[y0 - y : y1 - y, x0 - x : x1 - x] = self.pixels[y0:y1, x0:x1]
        return region

    def count_color(
        self, canvas: Any, color: str | Sequence[int], rect: Sequence[float] | None = None
    ) -> int:
        region = self._region(canvas, rect)
        same = (region[..., :3] == np.array(rgb(color))).all(axis=-1) & (region[..., 3] == 255)
        return int(same.sum())

    def color_mask(
        self,
        canvas: Any,
        color: str | Sequence[int],
        rect: Sequence[float] | None = None,
        tolerance: int = 60,
        near: bool = True,
    ) -> list[str]:
        region = self._region(canvas, rect)
        dist = np.abs(region[..., :3] - np.array(rgb(color))).sum(axis=-1)
        marked = (region[..., 3] > 0) & ((dist <= tolerance) == near)
        text = np.where(marked, ord("#"), ord(".")).astype(np.uint8)
        return [row.tobytes().decode("ascii") for row in text]

    def colors(self, canvas: Any, rect: Sequence[float] | None = None) -> dict[tuple[int, int, int], int]:
        region = self._region(canvas, rect)
        opaque = region[region[..., 3] == 255][:, :3]
        found, counts = np.unique(opaque, axis=0, return_counts=True)
        return {tuple(int(v) for v in color): int(n) for color, n in zip(found, counts)}


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
