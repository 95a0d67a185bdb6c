"""The shapes of a SET card, as plain data that any painter can draw.

Everything here is numbers and tuples; nothing draws. Two painters read it:
:mod:`setwidgets.draw.svg` writes SVG text and :mod:`setwidgets.draw.canvas`
sends the same strokes to an ipycanvas ``Canvas``, so a card looks the same
in a static picture and on a live board.

Coordinates are *card units*: a card is :data:`CARD_WIDTH` by
:data:`CARD_HEIGHT` (a landscape card, like the cards in the online game),
with the origin at its top-left corner and y growing downwards. A symbol is
drawn upright, :data:`SYMBOL_WIDTH` wide and :data:`SYMBOL_HEIGHT` tall, and one
to three symbols stand side by side in the middle of the card.

Every outline is a *path* of :mod:`setwidgets.draw.paths` (move, line, curve,
close: the commands SVG and the canvas API share); the sums on paths (bounds,
stripes, hit tests) live there too and are named here as well.

A picture is a list of *items*:

- :class:`Shape`: a path, filled and/or outlined;
- :class:`Lines`: straight segments, outlined (the stripes, already cut to the shape);
- :class:`Label`: a piece of text (the keyboard letter in a corner).

Example::

    >>> from setwidgets import Card
    >>> picture = card_picture(Card(2, "red", "squiggle", "striped"))
    >>> picture.title
    'two red striped squiggles'
    >>> len(picture.symbols)
    2
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from setwidgets.cards import Card, as_card
from setwidgets.draw.paths import (
    KAPPA,
    STRIPE_SPACING,
    Path,
    bounds,
    circle_path,
    flatten,
    hexagon_path,
    moved,
    point_in_polygon,
    polygon_path,
    rounded_rect,
    stripes,
    transformed,
)
from setwidgets.draw.themes import Theme, get_theme

__all__ = [
    "CARD_GAP",
    "CARD_HEIGHT",
    "CARD_RADIUS",
    "CARD_WIDTH",
    "FONT",
    "HIGHLIGHTS",
    "STRIPE_SPACING",
    "SYMBOL_GAP",
    "SYMBOL_HEIGHT",
    "SYMBOL_WIDTH",
    "CardPicture",
    "Label",
    "Lines",
    "PlacedCard",
    "Scene",
    "Shape",
    "bounds",
    "card_items",
    "card_picture",
    "flatten",
    "grid",
    "point_in_polygon",
    "rounded_rect",
    "scene",
    "shape_path",
    "stripes",
    "symbol_centres",
]

Rect = tuple[float, float, float, float]

CARD_WIDTH = 200.0
"""Width of a card in card units."""
CARD_HEIGHT = 130.0
"""Height of a card in card units (the real card's proportions, about 1.54 : 1)."""
CARD_RADIUS = 12.0
"""Radius of the card's rounded corners."""
CARD_GAP = 18.0
"""Space between two cards in a row or a grid; room for a highlight frame."""

SYMBOL_WIDTH = 40.0
"""Width of one upright symbol."""
SYMBOL_HEIGHT = 96.0
"""Height of one upright symbol."""
SYMBOL_GAP = 14.0
"""Space between two symbols on a card."""

OUTLINE_WIDTH = 3.0
STRIPE_WIDTH = 1.2

HIGHLIGHTS = ("selected", "hint", "odd", "found")
"""The kinds of highlight frame a card can have, see :func:`card_items`."""

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
"""The font family of every :class:`Label`, in CSS form (SVG and canvas both read it)."""


# -- items -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """A path, filled with ``fill`` and outlined with ``stroke`` (either may be None)."""

    path: Path
    fill: str | None = None
    stroke: str | None = None
    line_width: float = 0.0
    role: str = ""
    """What the shape is ("card", "symbol", "frame", ...), for painters and tests."""


@dataclass(frozen=True)
class Lines:
    """Straight segments ``(x1, y1, x2, y2)``, outlined in one colour."""

    segments: tuple[tuple[float, float, float, float], ...]
    stroke: str
    line_width: float
    role: str = "stripes"


@dataclass(frozen=True)
class Label:
    """Text at ``(x, y)``; ``anchor`` is "start", "middle" or "end"; ``y`` is the baseline.

    Every painter writes labels in :data:`FONT`, so a letter takes the same room everywhere.
    """

    x: float
    y: float
    text: str
    size: float
    fill: str
    anchor: str = "start"
    weight: str = "normal"
    role: str = "letter"


Item = Shape | Lines | Label


# -- symbols -----------------------------------------------------------------------------------


def _oval() -> Path:
    """A stadium: two half circles joined by straight sides, centred on (0, 0)."""
    r = SYMBOL_WIDTH / 2
    straight = SYMBOL_HEIGHT / 2 - r
    k = r * KAPPA
    return (
        ("M", -r, -straight),
        ("C", -r, -straight - k, -k, -straight - r, 0.0, -straight - r),
        ("C", k, -straight - r, r, -straight - k, r, -straight),
        ("L", r, straight),
        ("C", r, straight + k, k, straight + r, 0.0, straight + r),
        ("C", -k, straight + r, -r, straight + k, -r, straight),
        ("Z",),
    )


def _diamond() -> Path:
    w, h = SYMBOL_WIDTH / 2, SYMBOL_HEIGHT / 2
    return polygon_path([(0.0, -h), (w, 0.0), (0.0, h), (-w, 0.0)])


# The squiggle is drawn lying down (long side horizontal) in a 100 x 44 box, where its
# curves are easiest to reason about, then stood upright and scaled into the symbol box.
# Its outline is two wavy long sides joined by rounded ends; the ends lean opposite ways,
# which gives the classic S.
_SQUIGGLE_LYING: Path = (
    ("M", 4.0, 30.0),
    ("C", 2.0, 14.0, 14.0, 1.0, 30.0, 4.0),
    ("C", 44.0, 6.5, 52.0, 15.0, 64.0, 14.0),
    ("C", 76.0, 13.0, 82.0, 2.0, 91.0, 3.0),
    ("C", 99.0, 4.0, 100.0, 14.0, 97.0, 22.0),
    ("C", 92.0, 36.0, 80.0, 44.0, 66.0, 41.0),
    ("C", 52.0, 38.5, 46.0, 30.0, 36.0, 30.0),
    ("C", 24.0, 30.0, 18.0, 42.0, 10.0, 41.5),
    ("C", 4.0, 41.0, 4.6, 34.0, 4.0, 30.0),
    ("Z",),
)


def _squiggle() -> Path:
    xs = [c[i] for c in _SQUIGGLE_LYING for i in range(1, len(c), 2)]
    ys = [c[i] for c in _SQUIGGLE_LYING for i in range(2, len(c), 2)]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    sx = SYMBOL_HEIGHT / (max(xs) - min(xs))
    sy = SYMBOL_WIDTH / (max(ys) - min(ys))
    # Turn a quarter turn: the lying x becomes the upright y, the lying y the upright -x.
    path = transformed(_SQUIGGLE_LYING, lambda x, y: (-(y - cy) * sy, (x - cx) * sx))
    # Control points overshoot the outline a little; rescale so the curve itself fills the box.
    x0, y0, x1, y1 = bounds(path)
    fx = SYMBOL_WIDTH / (x1 - x0)
    fy = SYMBOL_HEIGHT / (y1 - y0)
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return transformed(path, lambda x, y: ((x - mx) * fx, (y - my) * fy))


_SYMBOL_PATHS = {"oval": _oval, "diamond": _diamond, "squiggle": _squiggle}

# The printable deck's outer symbols (about as tall as the card allows) and inner shapes.
_OUTER = {
    "circle": lambda: circle_path(0.0, 0.0, 50.0),
    "square": lambda: rounded_rect(-45.0, -45.0, 90.0, 90.0, 6.0),
    "hexagon": lambda: hexagon_path(0.0, 0.0, 54.0),
}
_INNER = {
    "triangle": lambda: polygon_path([(0.0, -24.0), (24.0, 17.0), (-24.0, 17.0)]),
    "rectangle": lambda: polygon_path([(-25.0, -15.0), (25.0, -15.0), (25.0, 15.0), (-25.0, 15.0)]),
    "diamond": lambda: polygon_path([(0.0, -26.0), (18.0, 0.0), (0.0, 26.0), (-18.0, 0.0)]),
}


@cache
def shape_path(shape: str) -> Path:
    """The outline of one symbol ("oval", "squiggle" or "diamond"), centred on (0, 0).

    The printable deck's symbols are available too: "circle", "square",
    "hexagon" (outer) and "triangle", "rectangle", "inner diamond" (inner).
    """
    if shape in _SYMBOL_PATHS:
        return _SYMBOL_PATHS[shape]()
    if shape in _OUTER:
        return _OUTER[shape]()
    if shape.startswith("inner ") and shape[6:] in _INNER:
        return _INNER[shape[6:]]()
    if shape in _INNER:
        return _INNER[shape]()
    choices = ", ".join(repr(s) for s in [*_SYMBOL_PATHS, *_OUTER, *_INNER])
    raise ValueError(f"unknown shape {shape!r}; the shapes are {choices}")


# -- one card ----------------------------------------------------------------------------------


def symbol_centres(number: int) -> list[tuple[float, float]]:
    """Where the centres of ``number`` upright symbols go: side by side, centred on the card."""
    step = SYMBOL_WIDTH + SYMBOL_GAP
    return [(CARD_WIDTH / 2 + (i - (number - 1) / 2) * step, CARD_HEIGHT / 2) for i in range(number)]


@dataclass(frozen=True)
class CardPicture:
    """One card drawn in card units: its background, its symbols and its name.

    ``items`` are painted in order; ``symbols`` gives each symbol's bounding box
    ``(x, y, w, h)``; ``title`` is the card's plain-English name and
    ``description`` says how the theme shows it.
    """

    card: Card
    theme: str
    title: str
    description: str
    items: tuple[Item, ...]
    symbols: tuple[Rect, ...]
    width: float = CARD_WIDTH
    height: float = CARD_HEIGHT


def _classic_symbols(card: Card, theme: Theme) -> tuple[list[Item], list[Rect]]:
    color = theme.colors[card.color]
    outline = shape_path(card.shape)
    items: list[Item] = []
    boxes: list[Rect] = []
    for cx, cy in symbol_centres(card.number):
        path = moved(outline, cx, cy)
        if card.shading == "solid":
            items.append(Shape(path, fill=color, stroke=color, line_width=OUTLINE_WIDTH, role="symbol"))
        else:
            if card.shading == "striped":
                items.append(Lines(_move_segments(_stripes_of(card.shape), cx, cy), color, STRIPE_WIDTH))
            items.append(Shape(path, fill=None, stroke=color, line_width=OUTLINE_WIDTH, role="symbol"))
        boxes.append((cx - SYMBOL_WIDTH / 2, cy - SYMBOL_HEIGHT / 2, SYMBOL_WIDTH, SYMBOL_HEIGHT))
    return items, boxes


@cache
def _stripes_of(shape: str) -> tuple[tuple[float, float, float, float], ...]:
    return stripes(shape_path(shape))


def _move_segments(segments, dx: float, dy: float):
    return tuple((x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in segments)


def _printable_symbols(card: Card, theme: Theme) -> tuple[list[Item], list[Rect], str]:
    look = theme.printable_look(card)
    cx, cy = CARD_WIDTH / 2, CARD_HEIGHT / 2
    outer = moved(shape_path(look["outer symbol"]), cx, cy)
    inner = moved(_INNER[look["inner shape"]](), cx, cy)
    items: list[Item] = [
        Shape(outer, fill=theme.colors[look["outer color"]], stroke=theme.ink, line_width=2.5, role="symbol"),
        Shape(inner, fill=theme.colors[look["inner color"]], stroke=theme.ink, line_width=2.0, role="inner"),
    ]
    x0, y0, x1, y1 = bounds(outer)
    description = (
        f"a {look['outer color']} {look['outer symbol']} with a {look['inner color']} "
        f"{look['inner shape']} inside"
    )
    return items, [(x0, y0, x1 - x0, y1 - y0)], description


@lru_cache(maxsize=512)
def _card_picture(card: Card, theme: Theme) -> CardPicture:
    background = Shape(
        rounded_rect(0.0, 0.0, CARD_WIDTH, CARD_HEIGHT, CARD_RADIUS),
        fill=theme.card,
        stroke=theme.card_edge,
        line_width=1.5,
        role="face",
    )
    if theme.style == "printable":
        symbols, boxes, description = _printable_symbols(card, theme)
    else:
        symbols, boxes = _classic_symbols(card, theme)
        description = f"{card.name} ({theme.name} colors)"
    return CardPicture(card, theme.name, card.name, description, (background, *symbols), tuple(boxes))


def card_picture(card: Card | str, theme: str | Theme = "classic") -> CardPicture:
    """The picture of one card in card units (see the module docstring)."""
    return _card_picture(as_card(card), get_theme(theme))


def card_items(
    picture: CardPicture,
    theme: str | Theme = "classic",
    letter: str | None = None,
    highlight: str | None = None,
) -> list[Item]:
    """Everything to paint for one card, in card units: frame, card, letter.

    ``highlight`` is one of :data:`HIGHLIGHTS` (or None): "selected" (picked by
    the player), "hint", "odd" (the odd card out of a wrong claim) or "found"
    (new cards after a SET was taken). The frame is drawn just outside the
    card, in the gap between cards, and the card gets a light tint.
    """
    theme = get_theme(theme)
    items: list[Item] = []
    if highlight is not None:
        if highlight not in HIGHLIGHTS:
            raise ValueError(f"highlight must be one of {', '.join(HIGHLIGHTS)} or None; got {highlight!r}")
        frame, tint = theme.highlights[highlight]
        pad = 6.0
        items.append(
            Shape(
                rounded_rect(-pad, -pad, CARD_WIDTH + 2 * pad, CARD_HEIGHT + 2 * pad, CARD_RADIUS + pad),
                fill=None,
                stroke=frame,
                line_width=6.0,
                role="frame",
            )
        )
        card, *rest = picture.items
        assert isinstance(card, Shape)
        items.append(Shape(card.path, fill=tint, stroke=frame, line_width=2.0, role="face"))
        items.extend(rest)
    else:
        items.extend(picture.items)
    if letter:
        # Small and tucked into the corner: on a three-symbol card the first symbol starts 26 units in.
        items.append(Label(7.0, 20.0, letter.upper(), 15.0, theme.letter, weight="bold"))
    return items


# -- many cards --------------------------------------------------------------------------------


def grid(
    count: int,
    *,
    columns: int | None = None,
    rows: int | None = None,
    order: str = "rows",
    scale: float = 1.0,
    gap: float = CARD_GAP,
    margin: float | None = None,
) -> tuple[list[Rect], float, float]:
    """Rectangles for ``count`` cards in a grid, and the width and height of the whole.

    Give ``columns`` or ``rows`` (or neither: one row). ``order="rows"`` fills
    the grid row by row; ``order="columns"`` fills it column by column, which is
    how a SET table grows: three more cards make one more column. ``scale`` is
    the size of one card unit (in pixels, for a canvas).
    """
    if count < 0:
        raise ValueError(f"count must be 0 or more; got {count}")
    if order not in ("rows", "columns"):
        raise ValueError(f"order must be 'rows' or 'columns'; got {order!r}")
    n = max(count, 1)
    if columns is None and rows is None:
        columns = n
    if columns is None:
        columns = math.ceil(n / rows)
    if rows is None:
        rows = math.ceil(n / columns)
    if columns < 1 or rows < 1 or columns * rows < count:
        raise ValueError(f"a grid of {rows} rows and {columns} columns cannot hold {count} cards")
    margin = gap / 2 + 4.0 if margin is None else margin
    w, h = CARD_WIDTH * scale, CARD_HEIGHT * scale
    step_x, step_y = (CARD_WIDTH + gap) * scale, (CARD_HEIGHT + gap) * scale
    rects = []
    for i in range(count):
        row, column = (i // columns, i % columns) if order == "rows" else (i % rows, i // rows)
        x, y = margin * scale + column * step_x, margin * scale + row * step_y
        rects.append((round(x, 3), round(y, 3), round(w, 3), round(h, 3)))
    width = 2 * margin * scale + columns * w + (columns - 1) * gap * scale
    height = 2 * margin * scale + rows * h + (rows - 1) * gap * scale
    return rects, round(width, 3), round(height, 3)


@dataclass(frozen=True)
class PlacedCard:
    """One card of a :class:`Scene`: where it goes, how big, its letter and highlight."""

    position: int
    card: Card
    x: float
    y: float
    scale: float
    letter: str | None = None
    highlight: str | None = None

    @property
    def rect(self) -> Rect:
        """The card's rectangle ``(x, y, w, h)`` in scene units."""
        return (self.x, self.y, CARD_WIDTH * self.scale, CARD_HEIGHT * self.scale)


@dataclass(frozen=True)
class Scene:
    """Several cards laid out together, ready for a painter.

    ``width`` and ``height`` are in scene units (pixels on a canvas);
    ``cards`` holds one :class:`PlacedCard` per card (empty positions have none);
    ``rects`` has one rectangle per *position*, whether a card is there or not.
    """

    width: float
    height: float
    theme: Theme
    cards: tuple[PlacedCard, ...]
    rects: tuple[Rect, ...] = field(default=())
    background: str | None = None

    def items(self, placed: PlacedCard) -> list[Item]:
        """The items of one placed card, in card units (the painter moves and scales them)."""
        picture = _card_picture(placed.card, self.theme)
        return card_items(picture, self.theme, placed.letter, placed.highlight)


def scene(
    cards: Sequence[Card | str | None],
    *,
    columns: int | None = None,
    rows: int | None = None,
    order: str = "rows",
    letters: Sequence[str | None] | None = None,
    highlight: Mapping[int, str] | Iterable[int] | None = None,
    theme: str | Theme = "classic",
    scale: float = 1.0,
    background: str | None = None,
    slots: int | None = None,
) -> Scene:
    """Lay out cards in a grid (see :func:`grid`) with optional letters and highlights.

    ``cards`` may hold None for an empty position. ``letters`` gives one letter
    per position; ``highlight`` is a set of positions (drawn as "selected") or a
    mapping position -> kind (see :func:`card_items`). ``slots`` reserves room
    for more positions than there are cards, so a table keeps its size.
    """
    theme = get_theme(theme)
    if highlight is None:
        kinds: dict[int, str] = {}
    elif isinstance(highlight, Mapping):
        kinds = dict(highlight)
    else:
        kinds = dict.fromkeys(highlight, "selected")
    for position, kind in kinds.items():
        if not isinstance(position, int) or not 0 <= position < len(cards):
            raise ValueError(f"highlight positions must be between 0 and {len(cards) - 1}; got {position!r}")
        if kind not in HIGHLIGHTS:
            raise ValueError(f"a highlight is one of {', '.join(HIGHLIGHTS)}; got {kind!r}")
    if letters is not None and len(letters) < len(cards):
        raise ValueError(f"letters: need one per card ({len(cards)}); got {len(letters)}")
    count = max(len(cards), slots or 0)
    rects, width, height = grid(count, columns=columns, rows=rows, order=order, scale=scale)
    placed = []
    for position, card in enumerate(cards):
        if card is None:
            continue
        x, y, _, _ = rects[position]
        letter = letters[position] if letters is not None else None
        placed.append(PlacedCard(position, as_card(card), x, y, scale, letter, kinds.get(position)))
    return Scene(width, height, theme, tuple(placed), tuple(rects), background)
