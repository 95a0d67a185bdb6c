"""The points of AG(4, 3): each card is its vector in Z_3^4, and a step from card to card is a vector too.

The card of vector ``v`` is found by reading each entry mod 3 (:func:`card_at`);
``b - a`` is the step from ``a`` to ``b`` (:func:`difference`), and moving every
card by the same step keeps its SETs (:func:`translate`). The lines and planes
(:mod:`setwidgets.geometry`) and the maps that keep SETs
(:mod:`setwidgets.geometry.maps`) are built on these.

>>> card_at((1, 1, 0, 0)).code
'2GSO'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from setwidgets import _inputs
from setwidgets.cards import DECK, FEATURES, Card, as_card

__all__ = ["DIMENSION", "Vector", "card_at", "difference", "translate", "vector_of"]

Vector = tuple[int, int, int, int]

DIMENSION = len(FEATURES)
"""Four: one coordinate per feature."""


def card_at(vector: Iterable[int]) -> Card:
    """The card of a vector (each entry read mod 3), found in the shared deck."""
    index = 0
    for x in vector:
        index = index * 3 + x % 3
    return DECK[index]


def difference(a: Card | str, b: Card | str) -> Vector:
    """The vector ``b - a`` mod 3: the step that leads from card ``a`` to card ``b``.

    >>> difference("1RSO", "2GSO")
    (1, 1, 0, 0)
    """
    a, b = as_card(a), as_card(b)
    return tuple((y - x) % 3 for x, y in zip(a.vector, b.vector))  # type: ignore[return-value]


def translate(card: Card | str, step: Sequence[int]) -> Card:
    """The card ``card + step`` (mod 3): every card moved the same way keeps its SETs.

    ``step`` is four whole numbers (number, color, shape, shading), or a card, whose vector is used.

    >>> translate("1RSO", (1, 1, 0, 0)).code
    '2GSO'
    """
    card = as_card(card)
    shift = vector_of(step, "step")
    return card_at(x + s for x, s in zip(card.vector, shift))


def vector_of(value: Any, name: str) -> Vector:
    """Four whole numbers (or a card's vector), each read mod 3."""
    if isinstance(value, Card):
        return value.vector
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be four whole numbers like (1, 0, 0, 2); got {_inputs.what(value)}")
    items = list(itertools.islice(value, DIMENSION + 1))
    if len(items) != DIMENSION:
        raise ValueError(f"{name} must be four whole numbers like (1, 0, 0, 2); got {_inputs.short(value)}")
    return tuple(_inputs.whole_number(x, f"each entry of {name}", example="2") % 3 for x in items)  # type: ignore[return-value]
