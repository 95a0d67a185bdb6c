"""Static card pictures as SVG: for notebooks, saved files, feedback HTML and print.

SVG is text, so a picture made here survives everywhere a notebook goes:
a saved ``.ipynb``, GitHub's preview, nbgrader's feedback HTML, a printout.

- :func:`card_svg` draws one card (it is ``Card.painter``, so a card
  shows itself as a picture in a notebook);
- :func:`cards_svg` draws a row or a grid of cards, with optional letters and
  highlight frames;
- :func:`show` wraps that in an object that notebooks display;
- :func:`cards_html` gives an HTML fragment to paste into a page or a report;
- :func:`picture_html` turns a picture into an HTML ``<img>`` with its words as ``alt``.

Every card carries its plain-English name in a ``<title>`` (screen readers
read it, and a mouse pointer resting on the card shows it). All shapes come
from :mod:`setwidgets.draw.shapes`.

A notebook shows a card, or :func:`show`'s row, as HTML first: an ``<img>``
whose ``alt`` names the cards. JupyterLab draws an ``image/svg+xml`` output as
an ``<img>`` with no ``alt`` (a screen reader says "image" and nothing more),
and refuses it in a notebook it does not trust; an ``<img>`` with ``alt`` shows
in both. The SVG stays in the output beside it, for pages that keep pictures
and drop HTML (nbgrader's feedback, see :mod:`setwidgets.grading.sanitize`),
where it is shown inline with its ``role="img"`` and titles.

Example::

    >>> from setwidgets import Card
    >>> svg = card_svg(Card(3, "green", "diamond", "open"))
    >>> "<title>three green open diamonds</title>" in svg
    True
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape, unescape

from setwidgets.cards import Card, as_card, as_cards
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme

__all__ = [
    "CardRow",
    "card_html",
    "card_svg",
    "cards_html",
    "cards_svg",
    "framed",
    "path_d",
    "picture_html",
    "scene_label",
    "scene_svg",
    "show",
    "svg_number",
]

_SVG_NS = "http://www.w3.org/2000/svg"


def svg_number(value: float) -> str:
    """A number as these pictures write it, short: 12.5, 3, -0.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_n = svg_number  # the many numbers below stay readable


def path_d(path: shapes.Path) -> str:
    """The SVG ``d`` attribute of a path (:mod:`setwidgets.draw.paths`)."""
    return " ".join(command[0] + " ".join(_n(v) for v in command[1:]) for command in path)


def _attr(value: str | None) -> str:
    return "none" if value is None else escape(value, quote=True)


def _item_svg(item: shapes.Item) -> str:
    if isinstance(item, shapes.Shape):
        stroke = ""
        if item.stroke is not None and item.line_width > 0:
            stroke = (
                f' stroke="{_attr(item.stroke)}" stroke-width="{_n(item.line_width)}" stroke-linejoin="round"'
            )
        return f'<path class="setw-{item.role}" d="{path_d(item.path)}" fill="{_attr(item.fill)}"{stroke}/>'
    if isinstance(item, shapes.Lines):
        d = " ".join(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}" for x1, y1, x2, y2 in item.segments)
        return (
            f'<path class="setw-{item.role}" d="{d}" fill="none" stroke="{_attr(item.stroke)}" '
            f'stroke-width="{_n(item.line_width)}"/>'
        )
    if isinstance(item, shapes.Label):
        return (
            f'<text class="setw-{item.role}" x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size)}" '
            f'font-family="{_attr(shapes.FONT)}" font-weight="{item.weight}" fill="{_attr(item.fill)}" '
            f'text-anchor="{item.anchor}">{escape(item.text)}</text>'
        )
    raise TypeError(f"cannot draw {item!r}")


def _card_group(placed: shapes.PlacedCard, scene: shapes.Scene) -> str:
    card = placed.card
    transform = f"translate({_n(placed.x)} {_n(placed.y)})"
    if placed.scale != 1:
        transform += f" scale({_n(placed.scale)})"
    extra = f' data-highlight="{placed.highlight}"' if placed.highlight else ""
    body = "".join(_item_svg(item) for item in scene.items(placed))
    return (
        f'<g class="setw-card" data-code="{card.code}" data-position="{placed.position}"{extra} '
        f'transform="{transform}" role="img" aria-label="{escape(card.name)}">'
        f"<title>{escape(card.name)}</title>{body}</g>"
    )


# How a frame around a card is said in words (shapes.HIGHLIGHTS): a picture's text alternative
# must carry what the frames show, or a reader misses which cards are picked.
_FRAMES = {
    "selected": "framed as picked",
    "hint": "framed as a hint",
    "odd": "framed as the odd one out",
    "found": "framed as found",
}


def framed(name: str, highlight: str | None) -> str:
    """A card's words with its frame said after them, as a picture's text alternative says it.

    >>> framed("one red solid oval", "hint")
    'one red solid oval (framed as a hint)'
    >>> framed("one red solid oval", None)
    'one red solid oval'
    """
    return f"{name} ({_FRAMES.get(highlight, 'framed')})" if highlight else name


def scene_label(scene: shapes.Scene) -> str:
    """The words for a picture of cards: how many, then each card with its letter and frame.

    >>> from setwidgets.draw import shapes
    >>> scene_label(shapes.scene(["1RSO", "2GTS"], letters=["a", "b"], highlight={1: "hint"}))
    '2 cards: a, one red solid oval; b, two green striped squiggles (framed as a hint)'
    """
    names = []
    for placed in scene.cards:
        name = placed.card.name
        if placed.letter:
            name = f"{placed.letter}, {name}"
        names.append(framed(name, placed.highlight))
    return f"{len(names)} card{'s' if len(names) != 1 else ''}: " + "; ".join(names)


_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"\s+height="([0-9.]+)"')


def picture_html(svg: str, alt: str) -> str:
    """An SVG picture as an HTML ``<img>`` with ``alt`` for its text alternative.

    The picture travels inside the tag (a ``data:`` address), so the HTML needs no
    file; it keeps the SVG's width and height, and shrinks to fit a narrow page.

    >>> picture_html(card_svg("1RSO"), "one red solid oval")[:42]
    '<img class="setw-picture" alt="one red sol'
    """
    if not isinstance(svg, str) or not svg.lstrip().startswith("<svg"):
        raise TypeError(f"picture_html() takes an SVG picture as text, starting '<svg'; got {svg!r:.60}")
    if not isinstance(alt, str) or not alt.strip():
        raise ValueError(
            f"picture_html() needs the words a screen reader says for the picture (alt); got {alt!r}"
        )
    size = _SIZE.match(svg.lstrip())
    dimensions = f' width="{size[1]}" height="{size[2]}"' if size else ""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (
        f'<img class="setw-picture" alt="{escape(alt, quote=True)}"{dimensions} '
        f'style="max-width:100%;height:auto" src="data:image/svg+xml;base64,{data}">'
    )


def scene_svg(scene: shapes.Scene, *, width: float | None = None, label: str | None = None) -> str:
    """A standalone ``<svg>`` of a :class:`~setwidgets.draw.shapes.Scene`.

    ``width`` is the displayed width in pixels (the height follows); by default
    one scene unit is one pixel. ``label`` is read out for the whole picture
    (by default :func:`scene_label`: the cards, their letters and frames).
    """
    shown_width = scene.width if width is None else float(width)
    shown_height = scene.height * shown_width / scene.width
    if label is None:
        label = scene_label(scene)
    parts = [
        f'<svg xmlns="{_SVG_NS}" class="setw-cards" viewBox="0 0 {_n(scene.width)} {_n(scene.height)}" '
        f'width="{_n(shown_width)}" height="{_n(shown_height)}" role="group" aria-label="{escape(label)}">'
    ]
    if scene.background:
        parts.append(
            f'<rect class="setw-table" width="{_n(scene.width)}" height="{_n(scene.height)}" '
            f'fill="{_attr(scene.background)}"/>'
        )
    parts.extend(_card_group(placed, scene) for placed in scene.cards)
    parts.append("</svg>")
    return "".join(parts)


def card_svg(card: Card | str, theme: str | Theme = "classic", width: float = 120) -> str:
    """One card as a standalone ``<svg>``, ``width`` pixels wide, titled with the card's name."""
    card = as_card(card)
    theme = get_theme(theme)
    picture = shapes.card_picture(card, theme)
    pad = 3.0
    vw, vh = shapes.CARD_WIDTH + 2 * pad, shapes.CARD_HEIGHT + 2 * pad
    if not isinstance(width, (int, float)) or isinstance(width, bool) or width <= 0:
        raise ValueError(f"width is a number of pixels above 0; got {width!r}")
    body = "".join(_item_svg(item) for item in picture.items)
    return (
        f'<svg xmlns="{_SVG_NS}" class="setw-card" data-code="{card.code}" viewBox="{_n(-pad)} {_n(-pad)} '
        f'{_n(vw)} {_n(vh)}" width="{_n(width)}" height="{_n(width * vh / vw)}" role="img" '
        f'aria-label="{escape(card.name)}">'
        f"<title>{escape(card.name)}</title><desc>{escape(picture.description)}</desc>{body}</svg>"
    )


def card_html(card: Card | str, theme: str | Theme = "classic", width: float = 120) -> str:
    """One card as an HTML ``<img>`` whose ``alt`` is the card's name (``Card._repr_html_``)."""
    card = as_card(card)
    return picture_html(card_svg(card, theme, width), card.name)


def cards_svg(
    cards: Iterable[Card | str | None],
    columns: int | None = None,
    letters: Sequence[str | None] | str | None = None,
    highlight: Mapping[int, str] | Iterable[int] | None = None,
    theme: str | Theme = "classic",
    *,
    width: float | None = None,
    order: str = "rows",
    background: str | None = None,
) -> str:
    """Several cards as one ``<svg>``: a row, or a grid of ``columns`` columns.

    - ``letters``: one label per card, drawn in its corner (a string gives one
      letter per card, e.g. ``"abc"``);
    - ``highlight``: a set of positions to frame as selected, or a mapping
      position -> "selected" / "hint" / "odd" / "found";
    - ``width``: the displayed width in pixels (default: 130 pixels per card
      across, at most 780);
    - ``order``: "rows" fills the grid row by row, "columns" column by column.

    Each card is a ``<g class="setw-card">`` with its own ``<title>``.
    """
    if isinstance(cards, (str, Card)):
        raise TypeError(f"cards_svg() takes a list of cards; got {cards!r} (wrap one card in a list)")
    items = [None if c is None else as_card(c) for c in cards]
    if isinstance(letters, str):
        letters = list(letters)
    layout = shapes.scene(
        items, columns=columns, order=order, letters=letters, highlight=highlight, theme=theme
    )
    layout = shapes.Scene(layout.width, layout.height, layout.theme, layout.cards, layout.rects, background)
    if width is None:
        across = columns if columns is not None else max(len(items), 1)
        width = min(130 * across, 780)
    return scene_svg(layout, width=width)


class CardRow:
    """Cards shown as a picture in a notebook; see :func:`show`.

    ``row.svg`` is the SVG text, ``row.alt`` the words a screen reader says for
    it, and ``row.html()`` an HTML fragment. A notebook gets both an ``<img>``
    with that ``alt`` (``_repr_html_``) and the SVG (``_repr_svg_``).
    """

    def __init__(self, cards: Iterable[Card | str], **options) -> None:
        self.cards = as_cards(cards)
        self.options = options
        self.svg = cards_svg(self.cards, **options)
        self.alt = _svg_label(self.svg)

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return picture_html(self.svg, self.alt)

    def html(self, caption: str | None = None) -> str:
        """The cards as an HTML ``<figure>`` with an optional caption."""
        return _figure(self.svg, caption)

    def __repr__(self) -> str:
        return "CardRow([" + ", ".join(c.code for c in self.cards) + "])"


def show(cards: Iterable[Card | str], **options) -> CardRow:
    """Show cards as a picture: ``show(game.table, columns=4, letters="qwer...")``.

    Takes the options of :func:`cards_svg`. The last expression of a notebook
    cell is displayed, so ``show(cards)`` on its own line draws them.
    """
    return CardRow(cards, **options)


def _svg_label(svg: str) -> str:
    """The ``aria-label`` of a picture's outermost ``<svg>`` (:func:`scene_svg` always writes one)."""
    found = re.match(r'<svg\b[^>]*?\saria-label="([^"]*)"', svg)
    if found is None:  # pragma: no cover - scene_svg writes the label on every picture
        raise ValueError("this SVG has no aria-label on its <svg> element")
    return unescape(found[1])


def _figure(svg: str, caption: str | None) -> str:
    cap = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="setw-figure" style="margin:0.5em 0">{svg}{cap}</figure>'


def cards_html(cards: Iterable[Card | str | None], caption: str | None = None, **options) -> str:
    """Cards as an HTML fragment (an inline SVG in a ``<figure>``), for reports and feedback.

    Inline SVG needs no files or network, so the picture shows in any HTML
    page, including nbgrader's feedback. Options as for :func:`cards_svg`.
    """
    return _figure(cards_svg(cards, **options), caption)
