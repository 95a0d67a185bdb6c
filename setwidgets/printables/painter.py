"""Paint cards on a reportlab canvas: the third painter of :mod:`setwidgets.draw.shapes`.

The SVG pictures and the live canvas read the same geometry; so does this painter,
so a printed card is the card on the screen. Card units have y growing downwards,
PDF points upwards: each card is painted in a flipped, scaled frame.

Example::

    >>> import io
    >>> from reportlab.pdfgen.canvas import Canvas
    >>> pdf = Canvas(io.BytesIO())
    >>> paint_card(pdf, "2RTS", 72, 72, width=180)
    >>> pdf.save()
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from reportlab.lib.colors import HexColor

from setwidgets import _inputs
from setwidgets.cards import Card, as_card, as_cards
from setwidgets.draw import shapes
from setwidgets.draw.themes import Theme, get_theme

__all__ = ["paint_card", "paint_cards"]

_MOST_CARDS = 81  # a row of cards is at most the whole deck; more is a mistake (or endless)


def _canvas(canvas: Any) -> Any:
    """``canvas`` when it draws like a reportlab Canvas; a clear TypeError otherwise."""
    if not all(callable(getattr(canvas, name, None)) for name in ("saveState", "beginPath", "drawPath")):
        raise TypeError(
            f"canvas must be a reportlab Canvas, such as Canvas('cards.pdf'); got {_inputs.what(canvas)}"
        )
    return canvas


def _path(canvas: Any, path: shapes.Path):
    p = canvas.beginPath()
    for command in path:
        op = command[0]
        if op == "M":
            p.moveTo(command[1], command[2])
        elif op == "L":
            p.lineTo(command[1], command[2])
        elif op == "C":
            p.curveTo(*command[1:])
        elif op == "Z":
            p.close()
        else:
            raise ValueError(f"unknown path command {op!r}")
    return p


def _paint_item(canvas: Any, item: shapes.Item) -> None:
    if isinstance(item, shapes.Shape):
        fill = item.fill is not None
        stroke = item.stroke is not None and item.line_width > 0
        if fill:
            canvas.setFillColor(HexColor(item.fill))
        if stroke:
            canvas.setStrokeColor(HexColor(item.stroke))
            canvas.setLineWidth(item.line_width)
        canvas.drawPath(_path(canvas, item.path), fill=int(fill), stroke=int(stroke))
    elif isinstance(item, shapes.Lines):
        canvas.setStrokeColor(HexColor(item.stroke))
        canvas.setLineWidth(item.line_width)
        canvas.lines(list(item.segments))
    elif isinstance(item, shapes.Label):
        pass  # keyboard letters belong to the screen, not to paper
    else:
        raise TypeError(f"cannot paint {item!r}")


def paint_card(
    canvas: Any,
    card: Card | str,
    x: float,
    y: float,
    *,
    width: float,
    theme: str | Theme = "classic",
    edge: bool = True,
) -> None:
    """Paint one card with its lower-left corner at (x, y) PDF points, ``width`` points wide.

    ``edge=False`` leaves out the card's grey outline (for a printed deck cut along marks).
    """
    canvas = _canvas(canvas)
    card = as_card(card)
    x, y = _inputs.finite_number(x, "x"), _inputs.finite_number(y, "y")
    width = _inputs.finite_number(width, "width", above=0, example="180")
    edge = _inputs.true_or_false(edge, "edge")
    theme = get_theme(theme)
    picture = shapes.card_picture(card, theme)
    scale = width / shapes.CARD_WIDTH
    canvas.saveState()
    canvas.translate(x, y + shapes.CARD_HEIGHT * scale)
    canvas.scale(scale, -scale)
    canvas.setLineJoin(1)
    for item in picture.items:
        if not edge and isinstance(item, shapes.Shape) and item.role == "face":
            item = shapes.Shape(item.path, fill=item.fill, stroke=None, role="face")
        _paint_item(canvas, item)
    canvas.restoreState()


def paint_cards(
    canvas: Any, cards, x: float, y: float, *, width: float, gap: float = 8, theme: str | Theme = "classic"
) -> float:
    """Paint cards side by side from (x, y), each ``width`` wide; return the height of the row.

    ``cards`` is a list of cards or codes, or one string of codes (at most the 81 of a deck).
    """
    canvas = _canvas(canvas)
    if isinstance(cards, Iterable) and not isinstance(cards, (str, bytes, bytearray, Card)):
        cards = list(itertools.islice(cards, _MOST_CARDS + 1))
        if len(cards) > _MOST_CARDS:
            raise ValueError(f"cards must be at most the {_MOST_CARDS} of a deck; got more")
    cards = as_cards(cards)
    x, y = _inputs.finite_number(x, "x"), _inputs.finite_number(y, "y")
    width = _inputs.finite_number(width, "width", above=0, example="180")
    gap = _inputs.finite_number(gap, "gap", example="8")
    theme = get_theme(theme)
    for i, card in enumerate(cards):
        paint_card(canvas, card, x + i * (width + gap), y, width=width, theme=theme)
    return width * shapes.CARD_HEIGHT / shapes.CARD_WIDTH
