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
  translating is another.

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
import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import FEATURES, VALUES, Card, as_card, as_cards, full_deck
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

Vector = tuple[int, int, int, int]

_DECK: tuple[Card, ...] = tuple(full_deck())
_DIMENSION = len(FEATURES)


def _card(vector: Iterable[int]) -> Card:
    """The card of a vector (each entry read mod 3), found in the shared deck."""
    index = 0
    for x in vector:
        index = index * 3 + x % 3
    return _DECK[index]


# -- points and lines ---------------------------------------------------------------------------


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
    shift = _vector(step, "step")
    return _card(x + s for x, s in zip(card.vector, shift))


def along(a: Card | str, b: Card | str, t: int) -> Card:
    """The card ``a + t (b - a)`` mod 3: ``t = 0`` gives ``a``, ``t = 1`` gives ``b``, ``t = 2`` the third.

    So the third card of a SET is ``a + 2 (b - a)``, the same as ``-(a + b)`` mod 3.

    >>> along("1RSO", "2GTS", 2).code
    '3POD'
    """
    a, b = _two_different("along", a, b)
    t = _inputs.whole_number(t, "t", example="2")
    return _card(x + t * (y - x) for x, y in zip(a.vector, b.vector))


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
    v for v in itertools.product(range(3), repeat=_DIMENSION) if any(v) and _normalised(v) == v
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
    others = _DECK if cards is None else _card_inputs.distinct_cards("lines_through", cards)
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
    table = list(_DECK) if cards is None else _card_inputs.distinct_cards("parallel_classes", cards)
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
        raise TypeError(f"a magic square is 3 rows of 3 cards; got {_inputs.what(square)}")
    rows = [list(_card_inputs.exactly("is_magic_square", (row,), 3)) for row in square]
    if len(rows) != 3:
        raise ValueError(f"a magic square has 3 rows of 3 cards; got {_words.count(len(rows), 'row')}")
    twice = _card_inputs.repeated(card for row in rows for card in row)
    if twice is not None:
        raise ValueError(
            f"is_magic_square() got the card {twice.name} ({twice}) twice; each card appears once"
        )
    lines = [*rows, *zip(*rows), [rows[i][i] for i in range(3)], [rows[i][2 - i] for i in range(3)]]
    return all(third_card(a, b) == c for a, b, c in lines)


@cache
def _planes_through_first() -> tuple[frozenset[int], ...]:
    """The 130 planes through card 0, each as the set of its full-deck indices."""
    first = _DECK[0]
    found: set[frozenset[int]] = set()
    for b, c in itertools.combinations(_DECK[1:], 2):
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
    starts = [given[0]] if given else list(_DECK)
    found: set[frozenset[int]] = set()
    for start in starts:
        for flat in _planes_through_first():
            # Translate a plane through card 0 by the start card: a plane through the start card.
            moved = frozenset(_card(x + s for x, s in zip(_DECK[i].vector, start.vector)).index for i in flat)
            if all(card.index in moved for card in given):
                found.add(moved)
    return [[_DECK[i] for i in sorted(flat)] for flat in sorted(found, key=sorted)]


# -- maps that keep SETs --------------------------------------------------------------------------


def _vector(value: Any, name: str) -> Vector:
    """Four whole numbers (or a card's vector), each read mod 3."""
    if isinstance(value, Card):
        return value.vector
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be four whole numbers like (1, 0, 0, 2); got {_inputs.what(value)}")
    items = list(itertools.islice(value, _DIMENSION + 1))
    if len(items) != _DIMENSION:
        raise ValueError(f"{name} must be four whole numbers like (1, 0, 0, 2); got {_inputs.short(value)}")
    return tuple(_inputs.whole_number(x, f"each entry of {name}", example="2") % 3 for x in items)  # type: ignore[return-value]


def _rank(rows: Sequence[Sequence[int]]) -> int:
    """The rank mod 3 of some vectors, by elimination."""
    rows = [[x % 3 for x in row] for row in rows]
    rank = 0
    for column in range(len(rows[0]) if rows else 0):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][column]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inverse = rows[rank][column]  # 1 and 2 are their own inverses mod 3
        rows[rank] = [(x * inverse) % 3 for x in rows[rank]]
        for r in range(len(rows)):
            if r != rank and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [(x - factor * y) % 3 for x, y in zip(rows[r], rows[rank])]
        rank += 1
    return rank


def _inverse(matrix: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The inverse mod 3 of an invertible matrix, by elimination on [M | I]."""
    n = len(matrix)
    rows = [[x % 3 for x in row] + [int(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = next(r for r in range(column, n) if rows[r][column])
        rows[column], rows[pivot] = rows[pivot], rows[column]
        inverse = rows[column][column]
        rows[column] = [(x * inverse) % 3 for x in rows[column]]
        for r in range(n):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [(x - factor * y) % 3 for x, y in zip(rows[r], rows[column])]
    return tuple(tuple(row[n:]) for row in rows)


def _product(m: Sequence[Sequence[int]], n: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(sum(m[i][k] * n[k][j] for k in range(len(n))) % 3 for j in range(len(n[0])))
        for i in range(len(m))
    )


def _independent(func: str, cards: Sequence[Card]) -> list[Vector]:
    """The steps from the first card to the others, checked to point in independent directions."""
    twice = _card_inputs.repeated(cards)
    if twice is not None:
        raise ValueError(f"{func}() got the card {twice.name} ({twice}) twice; each card appears once")
    steps = [difference(cards[0], card) for card in cards[1:]]
    if _rank(steps) < len(steps):
        codes = _words.and_list([str(card) for card in cards])
        raise ValueError(
            f"{func}() needs cards in general position (no card on a line or plane of the others); "
            f"{codes} are not: for three cards, that means they form a SET"
        )
    return steps


def _completed(steps: list[Vector]) -> list[Vector]:
    """The steps, followed by unit vectors that make them a basis of Z_3^4."""
    basis = list(steps)
    for unit in ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)):
        if len(basis) < _DIMENSION and _rank([*basis, unit]) > len(basis):
            basis.append(unit)
    return basis


_POSITIONS = (0, 1, 2)


def _positions(feature: str, renamed: Any) -> list[int]:
    """The positions of the values a relabeling gives a feature, checked to be its three values."""
    where = {value: position for position, value in enumerate(VALUES[feature])}
    items = list(renamed) if isinstance(renamed, Iterable) and not isinstance(renamed, (str, bytes)) else []
    try:
        positions = [where.get(value, -1) for value in items]
    except TypeError:  # an unhashable item is no value of a feature
        positions = []
    if sorted(positions) != list(_POSITIONS):
        raise ValueError(
            f"values[{feature!r}] must list the three {_words.plural(feature)} "
            f"{_words.and_list([str(v) for v in VALUES[feature]])} once each, in a new order; "
            f"got {_inputs.short(renamed)}"
        )
    return positions


class AffineMap:
    """A map of the deck that sends every SET to a SET: the card of vector ``v`` goes to ``M v + s`` mod 3.

    ``matrix`` is four rows of four whole numbers, invertible mod 3 (else two
    cards would land on one); ``shift`` is four whole numbers. Ways to make one:

    - :meth:`translation`: ``v -> v + s``, every card moved by the same step;
    - :meth:`relabeling`: swap features, and rename the values within a feature;
    - :meth:`taking`: a map that takes given cards to given cards;
    - :meth:`random`: a seeded random one.

    >>> swap = AffineMap.relabeling(values={"color": ("green", "red", "purple")})
    >>> swap("1RSO").code, swap("2GTS").code
    ('1GSO', '2RTS')
    >>> m = AffineMap.taking(["1RSO", "2RSO", "1GSO"], ["3PSD", "1GSS", "2RTD"])
    >>> [m(card).code for card in ("1RSO", "2RSO", "1GSO")]
    ['3PSD', '1GSS', '2RTD']
    """

    __slots__ = ("matrix", "shift")

    def __init__(self, matrix: Sequence[Sequence[int]], shift: Sequence[int] | Card = (0, 0, 0, 0)) -> None:
        if isinstance(matrix, (str, bytes)) or not isinstance(matrix, Iterable):
            raise TypeError(f"matrix must be four rows of four whole numbers; got {_inputs.what(matrix)}")
        rows = [_vector(row, "a row of the matrix") for row in matrix]
        if len(rows) != _DIMENSION:
            raise ValueError(
                f"matrix must have four rows of four whole numbers; got {_words.count(len(rows), 'row')}"
            )
        if _rank(rows) < _DIMENSION:
            raise ValueError(
                f"matrix {tuple(rows)} is not invertible mod 3: it would send two different cards to one card"
            )
        self.matrix: tuple[Vector, ...] = tuple(rows)
        self.shift: Vector = _vector(shift, "shift")

    @classmethod
    def _made(cls, matrix: Iterable[Iterable[int]], shift: Iterable[int]) -> AffineMap:
        """A map from a matrix known to be invertible (a product or an inverse of such): no checks."""
        made = object.__new__(cls)
        made.matrix = tuple(tuple(x % 3 for x in row) for row in matrix)  # type: ignore[misc]
        made.shift = tuple(x % 3 for x in shift)  # type: ignore[assignment]
        return made

    # -- ways to make one -----------------------------------------------------------------------

    @classmethod
    def identity(cls) -> AffineMap:
        """The map that leaves every card where it is."""
        return cls._made(_IDENTITY, (0, 0, 0, 0))

    @classmethod
    def translation(cls, step: Sequence[int] | Card) -> AffineMap:
        """Every card moved by the same ``step`` (four whole numbers, or a card's vector)."""
        return cls._made(_IDENTITY, _vector(step, "step"))

    @classmethod
    def relabeling(
        cls, features: Sequence[str] | None = None, values: Mapping[str, Sequence[Any]] | None = None
    ) -> AffineMap:
        """Rename features and values: a new deck design with the same SETs.

        ``features`` lists the four features in a new order: the new card's
        ``FEATURES[i]`` takes its value's *position* from the old card's
        ``features[i]`` (``("color", "number", "shape", "shading")`` swaps number
        and color: a card with two symbols becomes a green one). ``values`` then
        renames values within features: ``{"color": ("green", "red", "purple")}``
        turns red into green, green into red and leaves purple.

        Every permutation of three values is ``x -> m x + t`` mod 3, so a relabeling
        is an affine map; there are ``4! * 6 ** 4 = 31104`` of them.
        """
        order = list(FEATURES if features is None else features)
        if isinstance(features, str) or sorted(order) != sorted(FEATURES):
            raise ValueError(
                f"features must list the four features {_words.and_list(FEATURES)} once each, in a new "
                f"order; got {_inputs.short(features)}"
            )
        values = {} if values is None else values
        if not isinstance(values, Mapping):
            raise TypeError(
                f"values must map features to their three values in a new order; got {_inputs.what(values)}"
            )
        unknown = [f for f in values if f not in FEATURES]
        if unknown:
            raise ValueError(
                f"values names {_inputs.short(unknown[0])}, which is not a feature; "
                f"the features are {_words.and_list(FEATURES)}"
            )
        matrix = [[0] * _DIMENSION for _ in range(_DIMENSION)]
        shift = [0] * _DIMENSION
        for i, feature in enumerate(FEATURES):
            renamed = values.get(feature)
            # The value in position k becomes renamed[k]: k -> m k + t with t = the image of 0.
            positions = _POSITIONS if renamed is None else _positions(feature, renamed)
            matrix[i][FEATURES.index(order[i])] = (positions[1] - positions[0]) % 3
            shift[i] = positions[0]
        # One non-zero entry in each row and each column: invertible.
        return cls._made(matrix, shift)

    @classmethod
    def taking(cls, sources: Iterable[Card | str] | str, targets: Iterable[Card | str] | str) -> AffineMap:
        """An affine map that takes each source card to the target card in the same place.

        Up to five cards on each side, in *general position*: none on a line or
        plane through the others (two different cards always are; three cards are
        when they are not a SET). So any card can be taken to any card, any SET to
        any SET, and any three cards that are not a SET to any three that are not.
        """
        source = as_cards(sources, "source cards")
        target = as_cards(targets, "target cards")
        if len(source) != len(target) or not 1 <= len(source) <= _DIMENSION + 1:
            raise ValueError(
                "taking() needs as many target cards as source cards, 1 to 5 of each; "
                f"got {len(source)} and {len(target)}"
            )
        from_basis = _completed(_independent("taking", source))
        to_basis = _completed(_independent("taking", target))
        # M sends the i-th basis vector of the source side to the i-th of the target side.
        columns_from = tuple(zip(*from_basis))
        columns_to = tuple(zip(*to_basis))
        matrix = _product(columns_to, _inverse(columns_from))
        moved = [sum(m * x for m, x in zip(row, source[0].vector)) for row in matrix]
        shift = tuple((t - x) % 3 for t, x in zip(target[0].vector, moved))
        return cls(matrix, shift)

    @classmethod
    def random(cls, seed: int | random.Random | None = None) -> AffineMap:
        """A random affine map, every one equally likely; ``seed`` (an int or a random.Random) repeats it."""
        rng, _ = _inputs.rng_and_seed(seed)
        while True:
            matrix = [[rng.randrange(3) for _ in range(_DIMENSION)] for _ in range(_DIMENSION)]
            if _rank(matrix) == _DIMENSION:
                return cls(matrix, [rng.randrange(3) for _ in range(_DIMENSION)])

    # -- using one ------------------------------------------------------------------------------

    def __call__(self, card: Card | str) -> Card:
        """The image of one card."""
        a, b, c, d = as_card(card).vector
        index = 0
        for (m0, m1, m2, m3), s in zip(self.matrix, self.shift):
            index = index * 3 + (m0 * a + m1 * b + m2 * c + m3 * d + s) % 3
        return _DECK[index]

    def image(self, cards: Iterable[Card | str] | str) -> list[Card]:
        """The images of several cards, in order."""
        return [self(card) for card in as_cards(cards)]

    def then(self, other: AffineMap) -> AffineMap:
        """This map followed by ``other``: ``m.then(n)(card) == n(m(card))``."""
        if not isinstance(other, AffineMap):
            raise TypeError(f"then() takes another AffineMap; got {_inputs.what(other)}")
        matrix = _product(other.matrix, self.matrix)
        moved = [sum(m * s for m, s in zip(row, self.shift)) for row in other.matrix]
        return AffineMap._made(matrix, [x + s for x, s in zip(moved, other.shift)])

    def inverse(self) -> AffineMap:
        """The map that undoes this one."""
        back = _inverse(self.matrix)
        shift = [-sum(m * s for m, s in zip(row, self.shift)) for row in back]
        return AffineMap._made(back, shift)

    @property
    def is_relabeling(self) -> bool:
        """True when the map only swaps features and renames values (one non-zero entry in each row)."""
        return all(sum(1 for x in row if x) == 1 for row in self.matrix)

    @property
    def is_translation(self) -> bool:
        """True when the map moves every card by the same step."""
        return self.matrix == _IDENTITY

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineMap):
            return NotImplemented
        return (self.matrix, self.shift) == (other.matrix, other.shift)

    def __hash__(self) -> int:
        return hash((self.matrix, self.shift))

    def __repr__(self) -> str:
        return f"AffineMap({self.matrix}, {self.shift})"


_IDENTITY: tuple[Vector, ...] = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))


def _two_different(func: str, a: Any, b: Any) -> tuple[Card, Card]:
    first, second = _card_inputs.exactly(func, (a,) if b is None else (a, b), 2)
    if first == second:
        raise ValueError(
            f"{func}() needs two different cards; both are {first.name} ({first}). "
            "Through two different cards passes exactly one line."
        )
    return first, second
