"""The geometry of the deck: SETs are lines, and the cards are the points of AG(4, 3).

Write each card as its vector in Z_3^4 (see :mod:`setwidgets.cards`). Then

- the *line* through two different cards ``a`` and ``b`` is ``a, b, a + 2(b - a)``,
  and its third point is exactly :func:`~setwidgets.rules.third_card` ``(a, b)``:
  the SETs are the lines (:func:`line`, :func:`lines_through`);
- the *direction* of a line is ``b - a``, up to sign; lines with the same direction
  are *parallel*, and the 81 cards fall into 27 parallel lines for each of the 40
  directions (:func:`direction`, :data:`DIRECTIONS`, :func:`parallel_classes`);
- three cards not in one SET span a *plane* of 9 cards whose 12 lines are all SETs;
  :func:`plane` builds it with ``third_card`` alone, :func:`magic_square`
  arranges it so that every row, column and diagonal is a SET, :func:`is_plane` and
  :func:`is_magic_square` recognise them, and :func:`planes_through` lists the planes
  through some cards;
- the maps that send SETs to SETs are the *affine maps* ``v -> M v + s`` with ``M``
  invertible mod 3 (:class:`AffineMap`); relabelling features and values is one kind,
  translating is another (:mod:`setwidgets.geometry.maps`).

The cards as vectors, and the steps between them, are :mod:`setwidgets.geometry.space`.

>>> [card.code for card in line("1RSO", "2GTS")]
['1RSO', '2GTS', '3POD']
>>> len(lines_through("1RSO")), len(DIRECTIONS)
(40, 40)
>>> [card.code for card in plane("1RSO", "2RSO", "1GSO")]
['1RSO', '2RSO', '3RSO', '1GSO', '2GSO', '3GSO', '1PSO', '2PSO', '3PSO']

Nothing here imports Jupyter: an autograder can call every function.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import DECK, Card, as_card
from setwidgets.geometry.maps import AffineMap
from setwidgets.geometry.space import DIMENSION, Vector, card_at, difference, translate
from setwidgets.rules import find_sets, third_card

__all__ = [
    "DIRECTIONS",
    "AffineMap",
    "Vector",
    "along",
    "difference",
    "direction",
    "is_magic_square",
    "is_plane",
    "line",
    "lines_through",
    "magic_square",
    "parallel_classes",
    "plane",
    "planes_through",
    "translate",
]


# -- points and lines ---------------------------------------------------------------------------


def along(a: Card | str, b: Card | str, t: int) -> Card:
    """The card ``a + t (b - a)`` mod 3: ``t = 0`` gives ``a``, ``t = 1`` gives ``b``, ``t = 2`` the third.

    So the third card of a SET is ``a + 2 (b - a)``, the same as ``-(a + b)`` mod 3.

    >>> along("1RSO", "2GTS", 2).code
    '3POD'
    """
    a, b = _two_different("along", a, b)
    t = _inputs.whole_number(t, "t", example="2")
    return card_at(x + t * (y - x) for x, y in zip(a.vector, b.vector))


def line(a: Card | str | Iterable[Card | str], b: Card | str | None = None) -> tuple[Card, Card, Card]:
    """The line through two different cards: ``(a, b, third_card(a, b))``, which is a SET.

    >>> [card.code for card in line("1RSO 1RSS")]
    ['1RSO', '1RSS', '1RSD']
    """
    first, second = _two_different("line", a, b)
    return (first, second, third_card(first, second))


def direction(a: Card | str | Iterable[Card | str], b: Card | str | None = None) -> Vector:
    """The direction of the line through two different cards: ``b - a``, scaled so that its first
    non-zero entry is 1 (``b - a`` and ``a - b`` are the same direction).

    Any two cards of one line give the same direction, so a SET has one direction.

    >>> direction("1RSO", "3RSO"), direction("3RSO", "1RSO"), direction("2RSO", "1RSO")
    ((1, 0, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0))
    """
    first, second = _two_different("direction", a, b)
    return _normalised(difference(first, second))


def _normalised(step: Sequence[int]) -> Vector:
    lead = next(x for x in step if x % 3)
    factor = 1 if lead % 3 == 1 else 2  # 2 * 2 = 4 = 1 mod 3
    return tuple((factor * x) % 3 for x in step)  # type: ignore[return-value]


DIRECTIONS: tuple[Vector, ...] = tuple(
    v for v in itertools.product(range(3), repeat=DIMENSION) if any(v) and _normalised(v) == v
)
"""The 40 directions of lines: the non-zero vectors whose first non-zero entry is 1 ((81 - 1) / 2 = 40)."""


def lines_through(
    card: Card | str, cards: Iterable[Card | str] | str | None = None
) -> list[tuple[Card, Card, Card]]:
    """The SETs through ``card`` whose other two cards are among ``cards`` (default: the full deck).

    Each SET is written ``(card, b, c)`` with ``b`` before ``c`` in the order of
    ``cards``, and the SETs follow the position of ``b``. ``card`` itself need not
    be among ``cards``: ``lines_through(card, table)`` lists the pairs on a table
    that would complete it. In the full deck every card lies on 40 lines.

    >>> [" ".join(c.code for c in s) for s in lines_through("1RSO", "2RSO 3RSO 2GTS 3POD")]
    ['1RSO 2RSO 3RSO', '1RSO 2GTS 3POD']
    """
    card = as_card(card)
    others = DECK if cards is None else _card_inputs.distinct_cards("lines_through", cards)
    position = {other: p for p, other in enumerate(others)}
    found = []
    for p, b in enumerate(others):
        if b == card:
            continue
        c = third_card(card, b)
        if position.get(c, -1) > p:
            found.append((card, b, c))
    return found


def parallel_classes(
    cards: Iterable[Card | str] | str | None = None,
) -> dict[Vector, list[tuple[Card, Card, Card]]]:
    """The SETs among the cards (default: the full deck), grouped by direction.

    The keys are directions (see :func:`direction`), in the order of
    :data:`DIRECTIONS`; only directions with at least one SET appear. In the
    9 cards sharing two features there are 4 classes of 3 parallel lines; in
    the full deck 40 classes of 27.

    >>> from setwidgets import mini_deck
    >>> classes = parallel_classes(mini_deck(color="red", shading="solid"))
    >>> [len(lines) for lines in classes.values()]
    [3, 3, 3, 3]
    """
    table = list(DECK) if cards is None else _card_inputs.distinct_cards("parallel_classes", cards)
    classes: dict[Vector, list[tuple[Card, Card, Card]]] = {}
    for triple in find_sets(table):
        classes.setdefault(direction(triple[0], triple[1]), []).append(triple)
    return {d: classes[d] for d in DIRECTIONS if d in classes}


# -- planes ---------------------------------------------------------------------------------------


def _three_not_collinear(func: str, cards: tuple[Any, ...]) -> tuple[Card, Card, Card]:
    a, b, c = _card_inputs.exactly(func, cards, 3)
    twice = _card_inputs.repeated((a, b, c))
    if twice is not None:
        raise ValueError(
            f"{func}() needs three different cards; {twice.name} ({twice}) is given twice. "
            "Three different cards not in one SET span a plane."
        )
    if third_card(a, b) == c:
        raise ValueError(
            f"{func}() needs three cards that are not in one SET; {a}, {b} and {c} form a SET "
            f"({c} is the third card of {a} and {b}), so they lie on one line, not in one plane. "
            "Pick a third card off that line."
        )
    return a, b, c


def magic_square(
    a: Card | str | Iterable[Card | str], b: Card | str | None = None, c: Card | str | None = None
) -> list[list[Card]]:
    """The plane of three cards not in one SET as a 3 x 3 square: its 8 rows, columns and diagonals are SETs.

    ``a`` is at the top left, ``b`` next to it and ``c`` under it; every other card
    is a third card of two cards already placed, so :func:`third_card` alone builds
    the square. Three cards in one SET, or a card given twice, raise a ValueError.

    >>> for row in magic_square("1RSO", "2GTS", "1RSS"):
    ...     print(" ".join(card.code for card in row))
    1RSO 2GTS 3POD
    1RSS 2GTD 3POO
    1RSD 2GTO 3POS
    """
    given = tuple(x for x in (a, b, c) if x is not None)
    a, b, c = _three_not_collinear("magic_square", given)
    square: list[list[Card | None]] = [
        [a, b, third_card(a, b)],
        [c, None, None],
        [third_card(a, c), None, None],
    ]
    # The anti-diagonal (top right, centre, bottom left) is a line: its middle is the third of its ends.
    square[1][1] = third_card(square[0][2], square[2][0])
    for r in (1, 2):
        if square[r][1] is None:
            square[r][1] = third_card(square[0][1], square[1][1])  # the middle column
        square[r][2] = third_card(square[r][0], square[r][1])  # each row
    return square  # type: ignore[return-value]


def plane(
    a: Card | str | Iterable[Card | str], b: Card | str | None = None, c: Card | str | None = None
) -> list[Card]:
    """The 9 cards of the plane spanned by three cards not in one SET, in the reading order of
    :func:`magic_square` (so ``a``, ``b``, then the third card of ``a`` and ``b`` come first).

    The plane holds every third card of any two of its cards: its 12 lines are all
    SETs. Three cards in one SET, or a card given twice, raise a ValueError that says so.

    >>> len(plane("1RSO", "2GTS", "1RSS"))
    9
    >>> plane("1RSO", "2RSO", "3RSO")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: plane() needs three cards that are not in one SET; 1RSO, 2RSO and 3RSO form a SET ...
    """
    given = tuple(x for x in (a, b, c) if x is not None)
    cards = _three_not_collinear("plane", given)
    return [card for row in magic_square(*cards) for card in row]


def is_plane(cards: Iterable[Card | str] | str) -> bool:
    """True when the cards are the 9 cards of one plane: 9 different cards holding the third card
    of any two of them (then their 12 lines are all SETs).

    >>> from setwidgets import full_deck
    >>> is_plane(plane("1RSO", "2GTS", "1RSS")), is_plane(full_deck()[:9]), is_plane(full_deck()[:8])
    (True, True, False)
    """
    table = _card_inputs.distinct_cards("is_plane", cards)
    present = set(table)
    return len(table) == 9 and all(third_card(x, y) in present for x, y in itertools.combinations(table, 2))


def is_magic_square(square: Sequence[Sequence[Card | str]]) -> bool:
    """True when ``square`` is 3 rows of 3 different cards whose rows, columns and both diagonals are SETs.

    Such a square is always a plane (:func:`is_plane`), laid out as :func:`magic_square` lays it out.

    >>> is_magic_square(magic_square("1RSO", "2GTS", "1RSS"))
    True
    >>> is_magic_square([["1RSO", "2RSO", "3RSO"], ["1GSO", "2GSO", "3GSO"], ["1PSO", "2PSO", "3PSD"]])
    False
    """
    if isinstance(square, (str, bytes)) or not isinstance(square, Iterable):
        raise TypeError(f"is_magic_square() takes 3 rows of 3 cards; got {_inputs.what(square)}")
    # One row more than a square holds is enough to refuse: an endless generator is read no further.
    rows = [_square_row(number, row) for number, row in enumerate(itertools.islice(square, 4), 1)]
    if len(rows) != 3:
        count = "more than 3 rows" if len(rows) > 3 else _words.count(len(rows), "row")
        raise ValueError(f"is_magic_square() takes 3 rows of 3 cards; got {count}")
    twice = _card_inputs.repeated(card for row in rows for card in row)
    if twice is not None:
        raise ValueError(
            f"is_magic_square() got the card {twice.name} ({twice}) twice; each card appears once"
        )
    lines = [*rows, *zip(*rows), [rows[i][i] for i in range(3)], [rows[i][2 - i] for i in range(3)]]
    return all(third_card(a, b) == c for a, b, c in lines)


def _square_row(number: int, row: Any) -> list[Card]:
    """Row ``number`` of a magic square, three cards; a wrong count is told as a square's, not a SET's."""
    if isinstance(row, Iterable) and not isinstance(row, (str, bytes)):
        row = list(itertools.islice(row, 4))  # one card more than a row holds is enough to refuse
        if len(row) != 3:
            held = "more than 3 cards" if len(row) > 3 else _words.count(len(row), "card")
            raise TypeError(f"is_magic_square() takes 3 rows of 3 cards; row {number} holds {held}")
    return list(_card_inputs.exactly("is_magic_square", (row,), 3))


@cache
def _planes_through_first() -> tuple[frozenset[int], ...]:
    """The 130 planes through card 0, each as the set of its full-deck indices."""
    first = DECK[0]
    found: set[frozenset[int]] = set()
    for b, c in itertools.combinations(DECK[1:], 2):
        if third_card(first, b) != c:
            found.add(frozenset(card.index for card in plane(first, b, c)))
    return tuple(sorted(found, key=sorted))


def planes_through(*cards: Card | str | Iterable[Card | str]) -> list[list[Card]]:
    """Every plane of the deck that holds all the given cards, each a list of 9 cards in deck order.

    ``planes_through()`` lists all 1170 planes of the deck, ``planes_through(card)``
    the 130 through one card, ``planes_through(a, b)`` the 13 through the line of
    ``a`` and ``b``, and three cards not in one SET lie in exactly one plane.
    Cards that lie in no common plane give an empty list.

    >>> len(planes_through("1RSO")), len(planes_through("1RSO", "2GTS"))
    (130, 13)
    """
    given = _card_inputs.distinct_cards("planes_through", cards[0], cards[1:]) if cards else []
    starts = [given[0]] if given else list(DECK)
    found: set[frozenset[int]] = set()
    for start in starts:
        for flat in _planes_through_first():
            # Translate a plane through card 0 by the start card: a plane through the start card.
            moved = frozenset(
                card_at(x + s for x, s in zip(DECK[i].vector, start.vector)).index for i in flat
            )
            if all(card.index in moved for card in given):
                found.add(moved)
    return [[DECK[i] for i in sorted(flat)] for flat in sorted(found, key=sorted)]


def _two_different(func: str, a: Any, b: Any) -> tuple[Card, Card]:
    first, second = _card_inputs.exactly(func, (a,) if b is None else (a, b), 2)
    if first == second:
        raise ValueError(
            f"{func}() needs two different cards; both are {first.name} ({first}). "
            "Through two different cards passes exactly one line."
        )
    return first, second
