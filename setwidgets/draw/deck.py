"""All 81 cards in one picture: a 9 x 9 grid of 3 x 3 blocks, one feature per direction.

Each feature is read off the picture in one direction:

- the big rows (blocks from top to bottom) change the ``rows`` feature, color by default;
- the big columns (blocks from left to right) change the ``columns`` feature, number;
- inside a block, the rows change ``inner_rows`` (shape) and the columns ``inner_columns`` (shading).

So every card appears exactly once, and cards that share a value stand together::

    from setwidgets.draw.deck import show_deck
    show_deck()                      # in a notebook: the picture, with a caption

>>> cells = deck_grid()
>>> len(cells), sum(cell is None for cell in cells)
(121, 40)
>>> cells[0].code, cells[1].code, cells[11].code
('1RSO', '1RTO', '1RSS')
"""

from __future__ import annotations

from html import escape

from setwidgets.cards import FEATURES, VALUES, Card
from setwidgets.draw.svg import cards_svg
from setwidgets.draw.themes import Theme

__all__ = ["DeckPicture", "deck_grid", "show_deck"]

SIDE = 11
"""Cells across and down: nine cards and two empty cells between the three blocks."""


def _order(rows: str, columns: str, inner_rows: str, inner_columns: str) -> tuple[str, str, str, str]:
    order = (rows, columns, inner_rows, inner_columns)
    if sorted(order) != sorted(FEATURES):
        raise ValueError(
            f"rows, columns, inner_rows and inner_columns must name the four features once each; got {order}"
        )
    return order


def deck_grid(
    rows: str = "color", columns: str = "number", inner_rows: str = "shape", inner_columns: str = "shading"
) -> list[Card | None]:
    """The 81 cards in reading order on an 11 x 11 grid, None for the gaps between the blocks."""
    order = _order(rows, columns, inner_rows, inner_columns)
    cells: list[Card | None] = [None] * (SIDE * SIDE)
    for big_row in range(3):
        for big_column in range(3):
            for row in range(3):
                for column in range(3):
                    values = dict(zip(order, (big_row, big_column, row, column)))
                    card = Card(**{f: VALUES[f][values[f]] for f in FEATURES})
                    cells[(4 * big_row + row) * SIDE + 4 * big_column + column] = card
    return cells


class DeckPicture:
    """The whole deck as one picture (``_repr_html_`` in a notebook); ``.svg`` is the SVG alone."""

    def __init__(self, theme: str | Theme = "classic", width: float = 880, **order: str) -> None:
        self.order = _order(
            order.pop("rows", "color"),
            order.pop("columns", "number"),
            order.pop("inner_rows", "shape"),
            order.pop("inner_columns", "shading"),
        )
        if order:
            raise TypeError(f"unknown options {sorted(order)}; use rows, columns, inner_rows, inner_columns")
        self.cells = deck_grid(*self.order)
        self.svg = cards_svg(self.cells, columns=SIDE, theme=theme, width=width)

    def caption(self) -> str:
        """What each direction of the picture shows."""
        rows, columns, inner_rows, inner_columns = self.order

        def values(f: str) -> str:
            return ", ".join(str(v) for v in VALUES[f])

        return (
            f"Blocks from top to bottom: {rows} ({values(rows)}). Blocks from left to right: {columns} "
            f"({values(columns)}). Inside each block, rows: {inner_rows} ({values(inner_rows)}); "
            f"columns: {inner_columns} ({values(inner_columns)})."
        )

    def _repr_html_(self) -> str:
        caption = f"<figcaption>{escape(self.caption())}</figcaption>"
        return f'<figure style="margin:0.5em 0">{self.svg}{caption}</figure>'

    def __repr__(self) -> str:
        return f"<DeckPicture: 81 cards; {self.caption()}>"


def show_deck(theme: str | Theme = "classic", width: float = 880, **order: str) -> DeckPicture:
    """Show all 81 cards as a 9 x 9 grid of 3 x 3 blocks (see the module's docstring)."""
    return DeckPicture(theme, width, **order)
