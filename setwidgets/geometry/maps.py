"""The maps of the deck that send every SET to a SET: the affine maps ``v -> M v + s`` of AG(4, 3).

``M`` is a 4 x 4 matrix invertible mod 3 and ``s`` a step (:class:`AffineMap`).
Relabelling features and values is one kind, translating is another, and a map
can take any cards in general position to any others (:meth:`AffineMap.taking`).
Lesson 10 (symmetry) uses them; :mod:`setwidgets.geometry` names them too.

>>> AffineMap.translation((1, 1, 0, 0))("1RSO").code
'2GSO'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence, Sized
from itertools import islice
from typing import Any

from setwidgets import _card_inputs, _inputs, _words
from setwidgets.cards import DECK, FEATURES, VALUES, Card, as_card, as_cards
from setwidgets.geometry.space import DIMENSION, Vector, difference, vector_of

__all__ = ["AffineMap"]


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
    for unit in _IDENTITY:
        if len(basis) < DIMENSION and _rank([*basis, unit]) > len(basis):
            basis.append(unit)
    return basis


_POSITIONS = (0, 1, 2)
_MOST_IMAGES = 100_000  # cards AffineMap.image maps in one call; an endless generator stops here


def _few_cards(cards: Any, what: str, most: int = DIMENSION + 1) -> list[Card]:
    """The cards (a list, any iterable or a string of codes); of an iterable without a length, such as
    a generator, one more than ``most`` is read."""
    if isinstance(cards, Iterable) and not isinstance(cards, (Sized, Card)):
        cards = list(islice(cards, most + 1))
    return as_cards(cards, what)


def _positions(feature: str, renamed: Any) -> list[int]:
    """The positions of the values a relabeling gives a feature, checked to be its three values."""
    where = {value: position for position, value in enumerate(VALUES[feature])}
    # A fourth value is enough to refuse: an endless generator is read no further.
    items = list(islice(renamed, 4)) if isinstance(renamed, Iterable) and not isinstance(renamed, str) else []
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
        # A fifth row is enough to refuse: an endless generator is read no further.
        given = list(islice(matrix, DIMENSION + 1))
        if len(given) != DIMENSION:
            count = "more than four rows" if len(given) > DIMENSION else _words.count(len(given), "row")
            raise ValueError(
                f"matrix must have four rows of four whole numbers; got {count}: {_inputs.short(given)}"
            )
        rows = [vector_of(row, "a row of the matrix") for row in given]
        if _rank(rows) < DIMENSION:
            raise ValueError(
                f"matrix {tuple(rows)} is not invertible mod 3: it would send two different cards to one card"
            )
        self.matrix: tuple[Vector, ...] = tuple(rows)
        self.shift: Vector = vector_of(shift, "shift")

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
        return cls._made(_IDENTITY, vector_of(step, "step"))

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
        if features is not None and (isinstance(features, str) or not isinstance(features, Iterable)):
            raise TypeError(
                f"features must list the four features {_words.and_list(FEATURES)} in a new order; "
                f"got {_inputs.what(features)}"
            )
        # A fifth feature is enough to refuse: an endless generator is read no further.
        order = list(FEATURES if features is None else islice(features, DIMENSION + 1))
        if sorted(map(str, order)) != sorted(FEATURES) or not all(isinstance(f, str) for f in order):
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
        matrix = [[0] * DIMENSION for _ in range(DIMENSION)]
        shift = [0] * DIMENSION
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
        source = _few_cards(sources, "source cards")
        target = _few_cards(targets, "target cards")
        if len(source) != len(target) or not 1 <= len(source) <= DIMENSION + 1:
            counts = [
                "more than 5" if len(side) > DIMENSION + 1 and not isinstance(given, Sized) else len(side)
                for side, given in ((source, sources), (target, targets))
            ]
            raise ValueError(
                "taking() needs as many target cards as source cards, 1 to 5 of each; "
                f"got {counts[0]} and {counts[1]}"
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
            matrix = [[rng.randrange(3) for _ in range(DIMENSION)] for _ in range(DIMENSION)]
            if _rank(matrix) == DIMENSION:
                return cls(matrix, [rng.randrange(3) for _ in range(DIMENSION)])

    # -- using one ------------------------------------------------------------------------------

    def __call__(self, card: Card | str) -> Card:
        """The image of one card."""
        a, b, c, d = as_card(card).vector
        index = 0
        for (m0, m1, m2, m3), s in zip(self.matrix, self.shift):
            index = index * 3 + (m0 * a + m1 * b + m2 * c + m3 * d + s) % 3
        return DECK[index]

    def image(self, cards: Iterable[Card | str] | str) -> list[Card]:
        """The images of several cards, in order (of a generator, at most 100,000 at a time)."""
        given = _few_cards(cards, "cards", _MOST_IMAGES)
        if len(given) > _MOST_IMAGES and not isinstance(cards, Sized):
            raise ValueError(
                f"image() takes at most {_MOST_IMAGES:,} cards from a generator at a time; got more: "
                f"{_inputs.short(given)}"
            )
        return [self(card) for card in given]

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
