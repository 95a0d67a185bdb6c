"""Pictures of the deck's geometry: cards laid out in space, with the lines (SETs) drawn over them.

Three layouts, chosen by the cards given (see :func:`space_layout`):

- the **plane**: 9 cards that share two features, as a 3 x 3 grid (rows change the
  first feature that varies, columns the second), the tic-tac-toe board;
- the **cube**: 27 cards that share one feature, as three 3 x 3 layers side by side;
- the **deck**: all 81 cards as a 9 x 9 grid of 3 x 3 blocks (as in :mod:`setwidgets.draw.deck`).

A line is drawn as a thick stroke through the centres of its three cards, one color
for each direction. A line that "wraps around" the board bends; copy the board to
its sides and it runs straight on.

Everything here is plain data and SVG text; :func:`paint_strokes` sends the same
strokes to an ipycanvas canvas for the live widgets.

>>> from setwidgets import mini_deck
>>> picture = show_lines(mini_deck(color="red", shading="solid"), through="1RSO")
>>> len(picture.lines), picture.layout.kind
(4, 'plane')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from setwidgets import _card_inputs, _words
from setwidgets.cards import FEATURES, VALUES, Card
from setwidgets.draw import shapes
from setwidgets.draw.deck import SIDE, deck_grid
from setwidgets.draw.svg import scene_svg
from setwidgets.draw.svg import svg_number as _n
from setwidgets.draw.themes import Theme, get_theme
from setwidgets.geometry import DIRECTIONS, direction, line, lines_through
from setwidgets.rules import is_set

__all__ = [
    "LINE_COLORS",
    "LinesPicture",
    "SpaceLayout",
    "Stroke",
    "line_strokes",
    "lines_svg",
    "paint_strokes",
    "show_lines",
    "space_layout",
    "square_layout",
]

LINE_COLORS: tuple[str, ...] = (
    "#0b9fb3",  # teal
    "#212529",  # near black
    "#8d6e63",  # brown
    "#f08c00",  # orange
    "#5c7cfa",  # light indigo
    "#d6336c",  # pink
)
"""Colors of the lines, one per direction in turn; none is a card color, and the first four (the four
directions of a plane) stay clear of the red cards and the highlight frames."""

SCALES = {"plane": 0.7, "square": 0.7, "cube": 0.45, "deck": 0.3}
"""Card size (scene units per card unit) of each layout: a picture about 500 to 1000 pixels wide."""


@dataclass(frozen=True)
class SpaceLayout:
    """Where each card of a space sits: ``cells`` in reading order on a grid of ``columns`` columns.

    ``kind`` is "plane", "cube" or "deck"; ``varying`` names the features that
    change across the cards and ``fixed`` the values the cards share. A cell
    holding None is a gap between blocks or layers.
    """

    kind: str
    cells: tuple[Card | None, ...]
    columns: int
    varying: tuple[str, ...]
    fixed: tuple[tuple[str, Any], ...]

    @property
    def cards(self) -> list[Card]:
        """The cards of the space, in reading order of the picture."""
        return [card for card in self.cells if card is not None]

    def description(self) -> str:
        """What the picture shows, in words: which feature changes in which direction."""
        shared = (
            _words.and_list([f"{value} {feature}" for feature, value in self.fixed]) if self.fixed else ""
        )
        if self.kind == "plane":
            rows, columns = self.varying
            return f"The 9 cards with {shared}: {rows} changes down the rows, {columns} across the columns."
        if self.kind == "square":
            return "A plane of 9 cards as a magic square: every row, column and diagonal is a SET."
        if self.kind == "cube":
            layers, rows, columns = self.varying
            return (
                f"The 27 cards with {shared} as a cube of three layers side by side: {layers} changes from "
                f"layer to layer, {rows} down the rows, {columns} across the columns of each layer."
            )
        return (
            "All 81 cards: blocks change color from top to bottom and number from left to right; "
            "inside each block, rows change shape and columns change shading."
        )


def space_layout(cards: Iterable[Card | str] | str) -> SpaceLayout:
    """The layout of a space: 9 cards sharing two features, 27 sharing one, or the whole deck.

    Any other set of cards raises a ValueError that says which cards make a space.
    """
    shown = _card_inputs.distinct_cards("space_layout", cards)
    fixed = tuple(
        (feature, getattr(shown[0], feature))
        for feature in FEATURES
        if shown and len({getattr(card, feature) for card in shown}) == 1
    )
    varying = tuple(feature for feature in FEATURES if feature not in dict(fixed))
    if len(shown) != 3 ** len(varying) or len(varying) < 2:
        raise ValueError(
            "a geometry picture shows 9 cards that share two features (like mini_deck('red', 'solid')), "
            f"27 that share one (like mini_deck('red')) or the full deck; got {_card_inputs.listed(shown)}"
        )

    def card(values: dict[str, int]) -> Card:
        chosen = dict(fixed) | {feature: VALUES[feature][values[feature]] for feature in varying}
        return Card(**chosen)

    if len(varying) == 2:
        rows, columns = varying
        cells = tuple(card({rows: r, columns: c}) for r in range(3) for c in range(3))
        return SpaceLayout("plane", cells, 3, varying, fixed)
    if len(varying) == 3:
        layers, rows, columns = varying
        # Three layers of 3 x 3 side by side, one empty column between them: 11 columns.
        found: list[Card | None] = [None] * (3 * SIDE)
        for layer in range(3):
            for r in range(3):
                for c in range(3):
                    found[r * SIDE + 4 * layer + c] = card({layers: layer, rows: r, columns: c})
        return SpaceLayout("cube", tuple(found), SIDE, varying, fixed)
    return SpaceLayout("deck", tuple(deck_grid()), SIDE, ("color", "number", "shape", "shading"), ())


def square_layout(square: Sequence[Sequence[Card | str]]) -> SpaceLayout:
    """The layout of a plane arranged as a magic square (3 rows of 3 cards, see
    :func:`setwidgets.geometry.magic_square`): kind "square"."""
    rows = [_card_inputs.exactly("square_layout", (row,), 3) for row in square]
    if len(rows) != 3:
        raise ValueError(f"a magic square has 3 rows of 3 cards; got {_words.count(len(rows), 'row')}")
    cells = tuple(card for row in rows for card in row)
    return SpaceLayout("square", cells, 3, (), ())


@dataclass(frozen=True)
class Stroke:
    """One line drawn over the cards: a polyline through ``points`` (scene units), in ``color``."""

    points: tuple[tuple[float, float], ...]
    color: str
    width: float
    codes: tuple[str, ...]


def line_color(d: Sequence[int], directions: Sequence[Sequence[int]]) -> str:
    """The color of a direction: its place among ``directions`` picks a color of :data:`LINE_COLORS`."""
    return LINE_COLORS[list(directions).index(tuple(d)) % len(LINE_COLORS)]


def line_strokes(
    scene: shapes.Scene, cells: Sequence[Card | None], lines: Iterable[Sequence[Card]]
) -> list[Stroke]:
    """The strokes of some lines over a scene laid out from ``cells`` (one color per direction).

    Each stroke passes through the centres of its three cards in reading order, so a
    line of the picture is straight and a wrap-around line bends.
    """
    place = {card: p for p, card in enumerate(cells) if card is not None}
    chosen = [tuple(triple) for triple in lines]
    present = [d for d in DIRECTIONS if any(direction(t[0], t[1]) == d for t in chosen)]
    width = max(4.0, 14.0 * (scene.rects[0][2] / shapes.CARD_WIDTH)) if scene.rects else 6.0
    strokes = []
    for triple in chosen:
        positions = sorted(place[card] for card in triple)
        points = []
        for p in positions:
            x, y, w, h = scene.rects[p]
            points.append((round(x + w / 2, 2), round(y + h / 2, 2)))
        color = line_color(direction(triple[0], triple[1]), present)
        strokes.append(Stroke(tuple(points), color, round(width, 2), tuple(card.code for card in triple)))
    return strokes


def strokes_svg(strokes: Iterable[Stroke]) -> str:
    """The strokes as SVG elements (to go after the cards of a scene's ``<svg>``)."""
    parts = []
    for stroke in strokes:
        d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in stroke.points)
        dots = "".join(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(stroke.width)}" fill="{stroke.color}"/>'
            for x, y in stroke.points
        )
        parts.append(
            f'<g class="setw-line" data-codes="{" ".join(stroke.codes)}" opacity="0.8">'
            f'<path d="{d}" fill="none" stroke="{stroke.color}" stroke-width="{_n(stroke.width)}" '
            f'stroke-linecap="round" stroke-linejoin="round"/>{dots}</g>'
        )
    return "".join(parts)


def lines_svg(
    scene: shapes.Scene, strokes: Iterable[Stroke], *, width: float | None = None, label: str = ""
) -> str:
    """A standalone ``<svg>``: the cards of the scene and the strokes over them."""
    svg = scene_svg(scene, width=width, label=label or None)
    return svg[: -len("</svg>")] + strokes_svg(strokes) + "</svg>"


def paint_strokes(canvas: Any, strokes: Iterable[Stroke]) -> None:
    """Paint the strokes on an ipycanvas canvas (or a :class:`~setwidgets.draw.canvas.CommandRecorder`)."""
    canvas.save()
    canvas.global_alpha = 0.8
    canvas.line_cap = "round"
    canvas.line_join = "round"
    for stroke in strokes:
        canvas.stroke_style = stroke.color
        canvas.line_width = stroke.width
        canvas.begin_path()
        (x0, y0), *rest = stroke.points
        canvas.move_to(x0, y0)
        for x, y in rest:
            canvas.line_to(x, y)
        canvas.stroke()
        canvas.fill_style = stroke.color
        for x, y in stroke.points:
            canvas.fill_circle(x, y, stroke.width)
    canvas.restore()


def lines_text(lines: Sequence[Sequence[Card]]) -> list[str]:
    """Each line in words, for screen readers and saved notebooks: 'one red solid oval, ..., ...'."""
    return [", ".join(card.name for card in triple) for triple in lines]


class LinesPicture:
    """A static picture of a space with lines drawn; made by :func:`show_lines`."""

    def __init__(
        self,
        cards: Iterable[Card | str] | str,
        through: Card | str | Iterable[Card | str] | None = None,
        lines: Iterable[Iterable[Card | str]] | None = None,
        theme: str | Theme = "classic",
        width: float | None = None,
    ) -> None:
        self.layout = space_layout(cards)
        self.theme = get_theme(theme)
        chosen = [] if through is None else _card_inputs.distinct_cards("show_lines", through)
        if len(chosen) > 2:
            raise ValueError(f"through= takes one card or two; got {_card_inputs.listed(chosen)}")
        outside = [card for card in chosen if card not in self.layout.cards]
        if outside:
            raise ValueError(f"through= must name cards of the picture; {outside[0]} is not one of them")
        if lines is not None:
            drawn = [tuple(_card_inputs.exactly("show_lines", (triple,), 3)) for triple in lines]
            off = [card for triple in drawn for card in triple if card not in self.layout.cards]
            if off:
                raise ValueError(f"lines= must join cards of the picture; {off[0]} is not one of them")
            for triple in drawn:
                if not is_set(triple):
                    codes = " ".join(card.code for card in triple)
                    raise ValueError(f"lines= takes SETs (the lines of the deck); {codes} is not a SET")
        elif len(chosen) == 2:
            drawn = [line(*chosen)]
        elif len(chosen) == 1:
            drawn = lines_through(chosen[0], self.layout.cards)
        else:
            drawn = []
        self.chosen = chosen
        self.lines: list[tuple[Card, ...]] = drawn
        cells = list(self.layout.cells)
        highlight = {cells.index(card): "selected" for card in chosen}
        self.scene = shapes.scene(
            cells,
            columns=self.layout.columns,
            highlight=highlight,
            theme=self.theme,
            scale=SCALES[self.layout.kind],
            background=self.theme.table,
        )
        self.strokes = line_strokes(self.scene, cells, self.lines)
        self.svg = lines_svg(self.scene, self.strokes, width=width, label=self.caption())

    def caption(self) -> str:
        """What the picture shows, and which lines are drawn."""
        text = self.layout.description()
        if self.lines:
            text += f" {_words.count(len(self.lines), 'line')} drawn, each a SET."
        return text

    def _repr_html_(self) -> str:
        caption = f"<figcaption>{escape(self.caption())}</figcaption>"
        svg = self.svg.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
        return f'<figure class="setw-figure" style="margin:0.5em 0">{svg}{caption}</figure>'

    def __repr__(self) -> str:
        drawn = "; ".join(" ".join(card.code for card in triple) for triple in self.lines) or "no lines"
        return f"<LinesPicture: {self.layout.kind} of {len(self.layout.cards)} cards; {drawn}>"


def show_lines(
    cards: Iterable[Card | str] | str,
    through: Card | str | Iterable[Card | str] | None = None,
    lines: Iterable[Iterable[Card | str]] | None = None,
    theme: str | Theme = "classic",
    width: float | None = None,
) -> LinesPicture:
    """Show a space of cards with lines drawn over them.

    ``cards`` is 9 cards sharing two features, 27 sharing one, or the full deck.
    ``through`` one card draws the lines through it; two cards draw their line;
    ``lines`` draws the given SETs instead (a parallel class, say).
    """
    return LinesPicture(cards, through, lines, theme, width)
