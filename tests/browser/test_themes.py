"""A Board in each theme (classic, colorblind, printable) in a real JupyterLab.

The notebook deals ``Game(seed=SEED)`` onto ``Board(game, theme=...)``; the test
process deals the same game onto a twin Board, so it knows which card is at each
position. For each theme the pixels inside each card's rectangle must show that
card in the theme's own look:

- classic and colorblind: the card's color (the theme's CSS color for it, and no
  other symbol color), its number of symbols, its shading and its shape;
- printable (the alternative printable deck, setwidgets.draw.themes): one outer symbol in the
  outer color with an inner shape in the inner color, each read back from pixels.

Clicking a card must draw the theme's own selection frame, and only there.

``painted.frames`` looks for a frame color anywhere around and *inside* the card;
in the colorblind theme the "odd" frame has the vermillion of the red symbols, so
frames are read here only in the gap around the card, where no symbol is drawn.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from setwidgets import Game
from setwidgets.cards import Card
from setwidgets.draw.themes import THEMES, Theme, get_theme
from setwidgets.widgets import Board

from . import boardpage
from .harness import NotebookPage, python_cells, rgb
from .painted import CLASSIC, Still, _runs, assert_card_shown, card_background_share, inset

# One page and kernel for this module's tests (boardpage.notebooks); its notebook_page replaces conftest's.
notebooks = boardpage.notebooks
notebook_page = boardpage.notebook_page

pytestmark = pytest.mark.browser

SEED = 7  # its 12 cards show every value of every feature
THEME_NAMES = list(THEMES)
CLICKED = 4


def theme_cells(seed: int, theme: str) -> list[str]:
    """A notebook showing ``Board(Game(seed=seed), theme=theme)`` that prints its table and rects as JSON."""
    return python_cells(
        f"""
        from setwidgets import Game
        from setwidgets.widgets import Board

        game = Game(seed={seed})
        board = Board(game, theme={theme!r})
        board
        """,
        """
        import json

        table = [card.code for card in game.table]
        print(json.dumps({"theme": board.theme.name, "table": table, "rects": board.card_rects}))
        """,
    )


# -- reading pixels --------------------------------------------------------------------------


def count_near(nb: NotebookPage, canvas: Any, color: str, tolerance: int = 40, rect=None) -> int:
    """Pixels within ``tolerance`` (sum of channel differences) of ``color``: anti-aliased edges count too."""
    return sum(row.count("#") for row in nb.color_mask(canvas, color, rect, tolerance=tolerance))


def distance(a: str, b: str) -> int:
    """The sum of the three channel differences between two colors."""
    return sum(abs(p - q) for p, q in zip(rgb(a), rgb(b)))


def _box(mask: Sequence[str]) -> tuple[int, int, float]:
    """Width, height and filled share of the bounding box of the '#' pixels of a mask."""
    rows = [j for j, row in enumerate(mask) if "#" in row]
    cols = [i for i in range(len(mask[0])) if any(row[i] == "#" for row in mask)] if mask else []
    if not rows or not cols:
        return 0, 0, 0.0
    w, h = cols[-1] - cols[0] + 1, rows[-1] - rows[0] + 1
    filled = sum(row[cols[0] : cols[-1] + 1].count("#") for row in mask[rows[0] : rows[-1] + 1])
    return w, h, filled / (w * h)


def classic_shapes(nb: NotebookPage, canvas: Any, rect: Sequence[float], color: str) -> list[str]:
    """The shape of each symbol of a classic-style card, read from its silhouette in ``color``.

    Per row of a symbol, its left and right edge: an oval is as wide a quarter of the way
    down as in the middle, a diamond about half as wide, and a squiggle leans, so the middle
    of its rows moves one way in the upper half and the other way in the lower half.
    """
    mask = nb.color_mask(canvas, color, inset(rect, 6))
    columns = [any(row[i] == "#" for row in mask) for i in range(len(mask[0]))]
    shapes = []
    for start, end in _runs(columns):
        edges = []
        for row in mask:
            part = row[start : end + 1]
            if "#" in part:
                edges.append((part.find("#"), part.rfind("#")))
        width = max(b - a + 1 for a, b in edges)
        quarter, upper, lower = (edges[int(share * (len(edges) - 1))] for share in (0.22, 0.3, 0.7))
        lean = abs(sum(upper) - sum(lower)) / 2
        if lean > 0.12 * width:
            shapes.append("squiggle")
        elif (quarter[1] - quarter[0] + 1) > 0.8 * width:
            shapes.append("oval")
        elif (quarter[1] - quarter[0] + 1) < 0.7 * width:
            shapes.append("diamond")
        else:
            shapes.append(f"unknown (width {width}, quarter {quarter}, lean {lean})")
    return shapes


@dataclass(frozen=True)
class PrintableLook:
    """What a printable-deck card rectangle shows, read from pixels."""

    colors: dict[str, int]
    outer_color: str
    inner_color: str
    outer_symbol: str
    inner_shape: str
    outer_box: tuple[int, int, float]
    inner_box: tuple[int, int, float]


OUTER_COLORS = ("purple", "yellow", "green")
INNER_COLORS = ("orange", "cyan", "red")


def read_printable(
    nb: NotebookPage, canvas: Any, rect: Sequence[float], theme: Theme, background: str | None = None
) -> PrintableLook:
    """Read a printable card: outer color and symbol, inner color and shape.

    The outer symbol is everything not card-colored in the middle 70 % of the card's
    width (the letter sits in the corner, left of it): a hexagon is wider than tall, a
    square fills its box, a circle about 79 % of it. The inner shape is the inner color's
    bounding box: a diamond is taller than wide, a rectangle fills its box, a triangle half.
    """
    counts = {name: nb.count_color(canvas, css, inset(rect, 6)) for name, css in theme.colors.items()}
    outer_color = max(OUTER_COLORS, key=counts.get)
    inner_color = max(INNER_COLORS, key=counts.get)
    x, y, w, h = rect
    middle = (x + 0.15 * w, y + 6, 0.7 * w, h - 12)
    outer = _box(nb.color_mask(canvas, background or theme.card, middle, tolerance=30, near=False))
    inner = _box(nb.color_mask(canvas, theme.colors[inner_color], middle, tolerance=30))
    ow, oh, ofill = outer
    iw, ih, ifill = inner
    if oh and ow / oh > 1.08:
        outer_symbol = "hexagon"
    elif ofill > 0.9:
        outer_symbol = "square"
    elif 0.72 < ofill < 0.86:
        outer_symbol = "circle"
    else:
        outer_symbol = "unknown"
    if ih and iw / ih < 0.9:
        inner_shape = "diamond"
    elif ifill > 0.85:
        inner_shape = "rectangle"
    elif 0.35 < ifill < 0.65:
        inner_shape = "triangle"
    else:
        inner_shape = "unknown"
    return PrintableLook(counts, outer_color, inner_color, outer_symbol, inner_shape, outer, inner)


def assert_printable_shown(
    nb: NotebookPage,
    canvas: Any,
    rect: Sequence[float],
    card: Card,
    theme: Theme,
    where: str = "",
    highlight: str | None = None,
) -> PrintableLook:
    """Fail unless ``rect`` shows ``card`` as the printable deck does (theme.printable_look)."""
    want = theme.printable_look(card)
    background = theme.highlights[highlight][1] if highlight else None
    look = read_printable(nb, canvas, rect, theme, background)
    label = f"{where or 'the card'} ({card.name}) should be {want}"
    assert look.colors[want["outer color"]] >= 1000, f"{label}, but has few outer pixels: {look}"
    assert look.colors[want["inner color"]] >= 150, f"{label}, but has few inner pixels: {look}"
    strays = {
        name: n
        for name, n in look.colors.items()
        if n and name not in (want["outer color"], want["inner color"])
    }
    assert not strays, f"{label}, but shows other colors: {strays}"
    assert look.outer_symbol == want["outer symbol"], f"{label}, but the outer symbol looks {look}"
    assert look.inner_shape == want["inner shape"], f"{label}, but the inner shape looks {look}"
    return look


def ring_frames(nb: NotebookPage, canvas: Any, rect: Sequence[float], theme: Theme) -> set[str]:
    """The highlight frames drawn in the gap around a card (not inside it, where symbols are)."""
    x, y, w, h = rect
    m = 8  # the frame is stroked 2.7 to 8.1 pixels outside the card; cards are 16.2 apart
    strips = [(x - m, y - m, w + 2 * m, m), (x - m, y + h, w + 2 * m, m), (x - m, y, m, h), (x + w, y, m, h)]
    seen: dict[tuple[int, int, int], int] = {}
    for strip in strips:
        for color, n in nb.colors(canvas, strip).items():
            seen[color] = seen.get(color, 0) + n
    return {kind for kind, (frame, _tint) in theme.highlights.items() if seen.get(rgb(frame), 0) >= 20}


# -- the test -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", THEME_NAMES)
def test_a_board_is_painted_in_its_theme(notebook_page, name: str) -> None:
    theme = get_theme(name)
    nb = notebook_page(f"board_theme_{name}.ipynb", theme_cells(SEED, name))
    twin = Board(Game(seed=SEED), theme=name)
    table, rects = twin.game.table, twin.card_rects
    for feature in ("number", "color", "shape", "shading"):
        assert len({getattr(c, feature) for c in table}) == 3, f"seed {SEED} should show every {feature}"

    printed = json.loads(nb.cell_output(1))
    assert printed["theme"] == name
    assert printed["table"] == [card.code for card in table]
    assert [tuple(r) for r in printed["rects"]] == [tuple(r) for r in rects]

    canvas = nb.canvas(".setw-board canvas")
    assert nb.canvas_size(canvas) == (round(twin.canvas.width), round(twin.canvas.height))
    nb.wait_painted(canvas, min_pixels=10_000, background=rgb(theme.table))

    still = Still(nb, canvas)  # the canvas read once for the checks below
    # Each card where the board says, in the theme's look.
    for position, (card, rect) in enumerate(zip(table, rects)):
        where = f"card {position}"
        assert card_background_share(still, canvas, rect, theme) > 0.3, f"{where} has no card under it"
        if theme.style == "printable":
            assert_printable_shown(still, canvas, rect, card, theme, where)
        else:
            assert_card_shown(still, canvas, rect, card, theme, where)
            shapes = classic_shapes(still, canvas, rect, theme.colors[card.color])
            assert shapes == [card.shape] * card.number, f"{where} should be {card.name}; shapes {shapes}"
    assert still.count_color(canvas, theme.table) > 10_000, "the table color should show between the cards"
    assert all(not ring_frames(still, canvas, rect, theme) for rect in rects), "no card is framed yet"

    # The theme's colors, and not the classic ones where they differ (anti-aliased edges count too).
    for color in theme.colors.values():
        assert count_near(still, canvas, color) > 300, f"{name}: {color} should be on the board"
    for color_name, classic in CLASSIC.colors.items():
        if classic in theme.colors.values():
            continue
        if min(distance(classic, c) for c in theme.colors.values()) > 80:
            n = count_near(still, canvas, classic)
            assert n == 0, f"{name}: {n} pixels close to classic {color_name} {classic}"
        else:  # the printable deck's inner red is near the classic red, but not the same red
            n = still.count_color(canvas, classic)
            assert n == 0, f"{name}: {n} pixels of classic {color_name} {classic}"
    nb.screenshot(f"theme-{name}", selector=".setw-board")

    # Clicking a card frames it with the theme's selection color, and tints it.
    frame, tint = theme.highlights["selected"]
    nb.click_rect_centre(canvas, rects[CLICKED])
    twin.select(CLICKED)
    nb.wait_color(canvas, frame, inset(rects[CLICKED], -8), min_pixels=100)
    still = Still(nb, canvas)  # the canvas read once for the checks below
    framed = {p: kinds for p, rect in enumerate(rects) if (kinds := ring_frames(still, canvas, rect, theme))}
    assert framed == {CLICKED: {"selected"}}, f"framed cards: {framed}"
    x, y, w, h = inset(rects[CLICKED], 6)
    tinted = still.count_color(canvas, tint, (x, y, w, h)) / (int(w) * int(h))
    assert tinted > 0.3, f"the clicked card should be tinted {tint}; {tinted:.0%} of it is"
    card = table[CLICKED]
    if theme.style == "printable":
        assert_printable_shown(still, canvas, rects[CLICKED], card, theme, "the clicked card", "selected")
    else:
        assert_card_shown(still, canvas, rects[CLICKED], card, theme, "the clicked card", "selected")
    assert twin.highlights == {CLICKED: "selected"}
    nb.screenshot(f"theme-{name}-selected", selector=".setw-board")
