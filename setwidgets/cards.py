"""SET cards: four features, three values each, 81 cards in all.

A card is described by four *features*, each with three possible *values*:

=========  ==============================
feature    values
=========  ==============================
number     1, 2, 3
color      "red", "green", "purple"
shape      "oval", "squiggle", "diamond"
shading    "solid", "striped", "open"
=========  ==============================

Every combination appears exactly once, so the deck has 3 ** 4 = 81 cards.

Three ways to write the same card:

- ``Card(number=2, color="red", shape="oval", shading="striped")``
- its compact code ``"2RTO"``: number, color initial, shading initial, shape
  initial (see :data:`CODE_LETTERS`; ``T`` is for s\\ *T*\\ riped because ``S``
  already means solid);
- its vector ``(1, 0, 0, 1)`` in Z_3^4: each feature's value written as its
  position 0, 1 or 2 in :data:`VALUES` (number, color, shape, shading).

The vector view is the one the mathematics lessons use: three cards form a SET
exactly when their vectors add up to (0, 0, 0, 0) mod 3.
"""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CODE_LETTERS",
    "FEATURES",
    "VALUES",
    "Card",
    "as_card",
    "as_cards",
    "full_deck",
    "mini_deck",
]

FEATURES: tuple[str, ...] = ("number", "color", "shape", "shading")
"""The four features, in the order used by vectors and by :func:`full_deck`."""

VALUES: dict[str, tuple] = {
    "number": (1, 2, 3),
    "color": ("red", "green", "purple"),
    "shape": ("oval", "squiggle", "diamond"),
    "shading": ("solid", "striped", "open"),
}
"""The three values of each feature; a value's position is its number mod 3."""

CODE_LETTERS: dict[str, tuple[str, ...]] = {
    "number": ("1", "2", "3"),
    "color": ("R", "G", "P"),
    "shading": ("S", "T", "O"),
    "shape": ("O", "S", "D"),
}
"""The letters of a card code, in code order: number, color, shading, shape."""

_CODE_ORDER = ("number", "color", "shading", "shape")
_NUMBER_WORDS = ("one", "two", "three")
_PLURAL_SHAPES = {"oval": "ovals", "squiggle": "squiggles", "diamond": "diamonds"}


def _choices(feature: str) -> str:
    return ", ".join(repr(v) for v in VALUES[feature])


def _normalise(feature: str, value: Any) -> Any:
    """Return the canonical value, or raise a ValueError that lists the choices."""
    problem = _value_problem(feature, value)
    if problem:
        raise ValueError(problem)
    return _canonical(feature, value)


def _canonical(feature: str, value: Any) -> Any:
    """The value as VALUES spells it, or None when it is not one of them."""
    if feature == "number":
        # bool is an int subclass; Card(number=True) is a mistake, not a one.
        if isinstance(value, int) and not isinstance(value, bool):
            return value if value in VALUES["number"] else None
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _NUMBER_WORDS:
                return _NUMBER_WORDS.index(word) + 1
            if word in CODE_LETTERS["number"]:
                return int(word)
        return None
    if isinstance(value, str):
        word = value.strip().lower()
        if feature == "shape":
            word = {plural: single for single, plural in _PLURAL_SHAPES.items()}.get(word, word)
        if word in VALUES[feature]:
            return word
    return None


def _value_problem(feature: str, value: Any) -> str | None:
    """None when ``value`` is a value of ``feature``; otherwise what is wrong, in words."""
    if _canonical(feature, value) is not None:
        return None
    problem = f"{feature} must be one of {_choices(feature)}; got {value!r}"
    # A value of another feature usually means the arguments came in another order.
    for other in FEATURES:
        if other != feature and _canonical(other, value) is not None:
            return problem + f", which is a {other}"
    return problem


class _Missing:
    """The default of a feature nobody gave (None is a value a student may pass by mistake)."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _and(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _what(obj: Any) -> str:
    """A value and what kind of thing it is, in words: "3 (a number)", "None (nothing)"."""
    if obj is None:
        return "None (nothing)"
    kinds = {bool: "True or False", int: "a number", float: "a number", list: "a list", tuple: "a tuple"}
    kind = kinds.get(type(obj), f"a {type(obj).__name__}")
    return f"{obj!r} ({kind})"


@dataclass(frozen=True, slots=True)
class Card:
    """One SET card: ``Card(number=2, color="red", shape="oval", shading="striped")``.

    Cards are immutable and hashable, so they can go in sets and be dict keys.
    Values are checked: ``Card(number=4, ...)`` raises an error that lists
    the allowed values. Text values ignore case, a plural shape such as
    ``"ovals"`` is accepted, and so is a number written as ``"2"`` or ``"two"``.
    To make a card from its code, use ``Card.parse("2RTO")``.

    >>> card = Card(number=2, color="red", shape="oval", shading="striped")
    >>> card.name
    'two red striped ovals'
    >>> card.code, card.vector
    ('2RTO', (1, 0, 0, 1))

    Useful attributes: ``number``, ``color``, ``shape``, ``shading``,
    ``name`` (plain English), ``code`` (compact text), ``vector`` (Z_3^4) and
    ``index`` (position in :func:`full_deck`).
    """

    number: int = _MISSING
    color: str = _MISSING
    shape: str = _MISSING
    shading: str = _MISSING
    _index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check()
        index = 0
        for feature in FEATURES:
            value = _canonical(feature, getattr(self, feature))
            # The dataclass is frozen; normalising the user's spelling (and caching
            # the index, which set finding reads millions of times) are the only
            # writes, and they happen before anyone can see the card.
            object.__setattr__(self, feature, value)
            index = index * 3 + VALUES[feature].index(value)
        object.__setattr__(self, "_index", index)

    def _check(self) -> None:
        """Raise one error that names every missing feature and every wrong value."""
        given = {f: getattr(self, f) for f in FEATURES}
        missing = [f for f, v in given.items() if v is _MISSING]
        problems = [p for f, v in given.items() if v is not _MISSING and (p := _value_problem(f, v))]
        if not missing and not problems:
            return
        example = "Card(number=2, color='red', shape='oval', shading='striped')"
        code = given["number"]
        if missing and isinstance(code, str) and _parses(code):
            raise TypeError(
                f"to make a card from its code, use Card.parse({code!r}); Card() itself "
                f"takes the four features, like {example}."
            )
        if missing:
            problems.append(f"{_and(missing)} {'is' if len(missing) == 1 else 'are'} missing")
        message = "; ".join(problems)
        if any(", which is a " in problem for problem in problems):
            message += ". Give the features in the order number, color, shape, shading, or by name"
        if missing:
            raise TypeError(f"{message}. A card needs all four features, like {example}.")
        raise ValueError(message)

    # -- other ways to write a card -------------------------------------------------

    @classmethod
    def parse(cls, code: str) -> Card:
        """Make a card from its compact code, e.g. ``Card.parse("2RTO")``.

        The code is number, color, shading, shape (case does not matter):
        number 1/2/3; color R(ed)/G(reen)/P(urple); shading S(olid)/
        T (striped)/O(pen); shape O(val)/S(quiggle)/D(iamond).

        >>> Card.parse("2RTO").name
        'two red striped ovals'
        """
        if not isinstance(code, str):
            raise TypeError(f"a card code is a string like '2RTO'; got {code!r}")
        text = code.strip().upper()
        if len(text) != 4:
            raise ValueError(
                f"a card code has 4 characters (number, color, shading, shape), "
                f"like '2RTO' for two red striped ovals; got {code!r}"
            )
        values = {}
        for position, (feature, letter) in enumerate(zip(_CODE_ORDER, text)):
            letters = CODE_LETTERS[feature]
            if letter not in letters:
                raise ValueError(
                    f"character {position + 1} of a card code is the {feature}, one of "
                    f"{'/'.join(letters)}; got {code.strip()[position]!r} in {code!r}"
                )
            values[feature] = VALUES[feature][letters.index(letter)]
        return cls(**values)

    @classmethod
    def from_vector(cls, vector: Sequence[int]) -> Card:
        """Make a card from four integers (number, color, shape, shading).

        Each integer is read mod 3, so ``Card.from_vector((0, 0, 0, 3))`` is
        the same card as ``Card.from_vector((0, 0, 0, 0))``: one red solid oval.
        """
        try:
            items = list(vector)
        except TypeError:
            raise TypeError(f"a card vector is four integers like (1, 0, 0, 1); got {vector!r}") from None
        if len(items) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            raise ValueError(
                f"a card vector is four integers (number, color, shape, shading), "
                f"like (1, 0, 0, 1); got {vector!r}"
            )
        return cls(**{f: VALUES[f][x % 3] for f, x in zip(FEATURES, items)})

    @property
    def vector(self) -> tuple[int, int, int, int]:
        """The card as a vector in Z_3^4: the position (0, 1, 2) of each value."""
        return tuple(VALUES[f].index(getattr(self, f)) for f in FEATURES)  # type: ignore[return-value]

    @property
    def code(self) -> str:
        """The compact code, e.g. ``"2RTO"``; ``str(card)`` gives the same."""
        return "".join(CODE_LETTERS[f][VALUES[f].index(getattr(self, f))] for f in _CODE_ORDER)

    @property
    def name(self) -> str:
        """A plain-English name, e.g. ``"two red striped ovals"``."""
        shape = self.shape if self.number == 1 else _PLURAL_SHAPES[self.shape]
        return f"{_NUMBER_WORDS[self.number - 1]} {self.color} {self.shading} {shape}"

    @property
    def index(self) -> int:
        """The card's position (0 to 80) in :func:`full_deck`."""
        return self._index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.number}, {self.color!r}, {self.shape!r}, {self.shading!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def _repr_svg_(self) -> str:
        from setwidgets.draw.svg import card_svg

        return card_svg(self)


def _parses(code: str) -> bool:
    try:
        Card.parse(code)
    except ValueError:
        return False
    return True


# help(Card) and Shift-Tab show the four features as required, not as "= <missing>".
Card.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter(f, inspect.Parameter.POSITIONAL_OR_KEYWORD) for f in FEATURES]
)


def split_codes(text: str) -> list[str]:
    """The card codes in a string such as ``"1RSO 2GTS, 3POD"`` (spaces, commas or semicolons)."""
    return [word for word in re.split(r"[\s,;]+", text) if word]


def as_card(obj: Any) -> Card:
    """Return ``obj`` as a Card: a Card is returned as it is, a code is parsed.

    Anything else raises a TypeError that says what a card looks like.
    """
    if isinstance(obj, Card):
        return obj
    if isinstance(obj, str):
        return Card.parse(obj)
    raise TypeError(
        f"expected a Card (for example Card(2, 'red', 'oval', 'striped')) or a card "
        f"code like '2RTO'; got {_what(obj)}"
    )


def as_cards(objs: Any, what: str = "cards") -> list[Card]:
    """Return a list of Cards from a list of Cards or codes, or one string of codes.

    >>> [card.code for card in as_cards("1RSO 2GTS, 3POD")]
    ['1RSO', '2GTS', '3POD']
    """
    if isinstance(objs, str):
        objs = split_codes(objs)
    if isinstance(objs, Card) or not isinstance(objs, Iterable):
        raise TypeError(f"expected a list of {what}; got {objs!r}")
    return [as_card(obj) for obj in objs]


def full_deck() -> list[Card]:
    """All 81 cards, in a fixed order: by number, then color, shape, shading.

    ``full_deck()[i].index == i``, and the order follows :data:`VALUES`: the
    first card is one red solid oval, the last three purple open diamonds.

    >>> deck = full_deck()
    >>> len(deck), deck[0].name, deck[-1].name
    (81, 'one red solid oval', 'three purple open diamonds')
    """
    return [Card(*values) for values in itertools.product(*(VALUES[f] for f in FEATURES))]


def mini_deck(*values: Any, **fixed: Any) -> list[Card]:
    """The cards that share the given fixed values, in :func:`full_deck` order.

    ``mini_deck()`` is the classic 27-card beginners' deck of red cards (the same
    as ``mini_deck(color="red")``); ``mini_deck(shading="solid")`` is another;
    fixing two features, e.g. ``mini_deck(color="red", shading="solid")``,
    gives the 9 cards of the tic-tac-toe picture. A value alone names its
    feature, so ``mini_deck("red", "solid")`` is the same nine cards.

    >>> len(mini_deck()), len(mini_deck(color="red", shading="solid"))
    (27, 9)
    """
    unknown = [k for k in fixed if k not in FEATURES]
    if unknown:
        raise TypeError(f"mini_deck() takes features {', '.join(FEATURES)}; got {', '.join(unknown)}")
    for value in values:
        features = [f for f in FEATURES if _canonical(f, value) is not None]
        if not features:
            raise ValueError(
                f"mini_deck() got {value!r}, which is not a value of any feature; "
                f"name the feature, like mini_deck(color='red')"
            )
        if features[0] in fixed:
            raise TypeError(
                f"mini_deck() got two values for {features[0]}: {fixed[features[0]]!r} and {value!r}"
            )
        fixed[features[0]] = value
    if not fixed:
        fixed = {"color": "red"}
    wanted = {feature: _normalise(feature, value) for feature, value in fixed.items()}
    return [c for c in full_deck() if all(getattr(c, f) == v for f, v in wanted.items())]
