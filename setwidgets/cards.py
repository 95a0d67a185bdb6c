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

import difflib
import inspect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, ClassVar

from setwidgets import _inputs, _words
from setwidgets._inputs import is_whole, short, split_codes

__all__ = [
    "CODE_LETTERS",
    "DECK",
    "FEATURES",
    "VALUES",
    "Card",
    "as_card",
    "as_cards",
    "code_key",
    "full_deck",
    "mini_deck",
    "parse_cards",
    "written",
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
_SINGULAR_SHAPES = {_words.plural(shape): shape for shape in VALUES["shape"]}
_EXAMPLE = "Card(number=2, color='red', shape='oval', shading='striped')"


def _choices(feature: str) -> str:
    return ", ".join(repr(v) for v in VALUES[feature])


def _normalise(feature: str, value: Any) -> Any:
    """Return the canonical value, or raise the error (TypeError or ValueError) that lists the choices."""
    problem = _value_problem(feature, value)
    if problem:
        raise (TypeError if _wrong_kind(feature, value) else ValueError)(problem)
    return _canonical(feature, value)


def _canonical(feature: str, value: Any) -> Any:
    """The value as VALUES spells it, or None when it is not one of them."""
    if feature == "number":
        # Any whole number counts (numpy's too); True/False are not numbers here.
        if is_whole(value):
            return int(value) if int(value) in VALUES["number"] else None
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _words.NUMBER_WORDS:
                return _words.NUMBER_WORDS.index(word) + 1
            if word in CODE_LETTERS["number"]:
                return int(word)
        return None
    if isinstance(value, str):
        word = value.strip().lower()
        if feature == "shape":
            word = _SINGULAR_SHAPES.get(word, word)
        if word in VALUES[feature]:
            return VALUES[feature][VALUES[feature].index(word)]
    return None


def _wrong_kind(feature: str, value: Any) -> bool:
    """True when ``value`` is not even the kind of thing a value of ``feature`` is (text, or a number)."""
    if isinstance(value, str):
        return False
    return not (feature == "number" and is_whole(value))


def _value_problem(feature: str, value: Any) -> str | None:
    """None when ``value`` is a value of ``feature``; otherwise what is wrong, in words."""
    if _canonical(feature, value) is not None:
        return None
    if feature == "number" and _inputs.whole_hint(value) and int(value) in VALUES["number"]:
        return f"number must be a whole number 1, 2 or 3; got {short(value)}{_inputs.whole_hint(value)}"
    got = _inputs.what(value) if _wrong_kind(feature, value) else short(value)
    problem = f"{feature} must be one of {_choices(feature)}; got {got}"
    # A value of another feature usually means the arguments came in another order.
    for other in FEATURES:
        if other != feature and _canonical(other, value) is not None:
            return problem + f", which is a card's {other}"
    return problem + _inputs.bytes_hint(value)


_MISSING: Any = object()  # a feature nobody gave (None is a value a student may pass by mistake)


# Each feature's values as VALUES spells them, keyed with their type: True == 1, 2.0 == 2 and
# numpy's 2 == 2, but those are not spelled as VALUES spells them (see _exact_positions).
_EXACT: tuple[dict[tuple[type, Any], int], ...] = tuple(
    {(type(value), value): position for position, value in enumerate(VALUES[f])} for f in FEATURES
)


def _exact_positions(values: tuple[Any, ...], named: dict[str, Any]) -> list[int] | None:
    """The positions of Card(...)'s four values when all four come (all by position or all by
    name) exactly as VALUES spells them; otherwise None, and Card() checks and normalises them.

    Games, saves and Card.parse make cards by the hundred thousand from such values: these
    need neither the checks nor the normalising, only their positions.
    """
    if named:
        if values or len(named) != len(FEATURES):
            return None
        values = tuple(named.get(f, _MISSING) for f in FEATURES)
    elif len(values) != len(FEATURES):
        return None
    try:
        positions = [exact.get((type(v), v)) for exact, v in zip(_EXACT, values)]
    except Exception:  # an unhashable value (a list, say): the checked path says what is wrong
        return None
    return None if None in positions else positions  # type: ignore[return-value]


def _given(values: tuple[Any, ...], named: dict[str, Any]) -> dict[str, Any]:
    """The four features from Card(...)'s arguments, or a TypeError about the arguments themselves."""
    features = _words.and_list(FEATURES)
    if len(values) > len(FEATURES):
        raise TypeError(
            f"a card has four features: {features}; got {len(values)} values: {short(values)}. "
            f"Write it like {_EXAMPLE}."
        )
    given = dict.fromkeys(FEATURES, _MISSING)
    given.update(zip(FEATURES, values))
    for name, value in named.items():
        if name not in FEATURES:
            close = difflib.get_close_matches(str(name), FEATURES, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise TypeError(f"a card has no feature {name!r}{hint}; its four features are {features}")
        if given[name] is not _MISSING:
            raise TypeError(f"Card() got two values for {name}: {short(given[name])} and {short(value)}")
        given[name] = value
    return given


def _check(given: dict[str, Any]) -> None:
    """Raise one error that names every missing feature and every wrong value."""
    missing = [f for f, v in given.items() if v is _MISSING]
    problems = [p for f, v in given.items() if v is not _MISSING and (p := _value_problem(f, v))]
    if not missing and not problems:
        return
    code = given["number"]
    if missing and isinstance(code, str) and _parses(code):
        raise TypeError(
            f"to make a card from its code, use Card.parse({code!r}); Card() itself "
            f"takes the four features, like {_EXAMPLE}."
        )
    if missing:
        problems.append(f"{_words.and_list(missing)} {_words.is_are(len(missing))} missing")
    message = "; ".join(problems)
    if any(", which is a card's " in problem for problem in problems):
        message += ". Give the features in the order number, color, shape, shading, or by name"
    if missing:
        raise TypeError(f"{message}. A card needs all four features, like {_EXAMPLE}.")
    wrong_kind = any(v is not _MISSING and _wrong_kind(f, v) for f, v in given.items())
    raise (TypeError if wrong_kind else ValueError)(message)


@dataclass(frozen=True, slots=True, init=False)
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

    number: int
    color: str
    shape: str
    shading: str
    _index: int = field(init=False, repr=False, compare=False)

    def __init__(self, *values: Any, **named: Any) -> None:
        positions = _exact_positions(values, named)
        if positions is None:
            given = _given(values, named)
            _check(given)
            positions = [VALUES[f].index(_canonical(f, given[f])) for f in FEATURES]
        index = 0
        for feature, position in zip(FEATURES, positions):
            # The dataclass is frozen; setting the normalised values (and caching the
            # index, which set finding reads millions of times) are the only writes,
            # and they happen before anyone can see the card.
            object.__setattr__(self, feature, VALUES[feature][position])
            index = index * 3 + position
        object.__setattr__(self, "_index", index)

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
        # A code as Card.code writes it (saves hold thousands) is one of the 81 checked cards.
        if cls is Card and type(code) is str and (index := _CODE_INDEX.get(code)) is not None:
            return DECK[index]
        if not isinstance(code, str):
            raise TypeError(
                f"a card code is a string like '2RTO'; got {_inputs.what(code)}{_inputs.bytes_hint(code)}"
            )
        text = code.strip()
        if len(text) != 4:
            raise ValueError(
                f"a card code has 4 characters (number, color, shading, shape), "
                f"like '2RTO' for two red striped ovals; got {short(code)}"
            )
        values = {}
        for position, (feature, letter) in enumerate(zip(_CODE_ORDER, text)):
            letters = CODE_LETTERS[feature]
            # Only ASCII letters are folded: 'ß'.upper() is 'SS', and 'ſ'.upper() is 'S'.
            upper = letter.upper() if letter.isascii() else letter
            if upper not in letters:
                raise ValueError(
                    f"character {position + 1} of a card code is the {feature}, one of "
                    f"{'/'.join(letters)}; got {letter!r} in {short(code)}"
                )
            values[feature] = VALUES[feature][letters.index(upper)]
        return cls(**values)

    @classmethod
    def from_vector(cls, vector: Sequence[int]) -> Card:
        """Make a card from four integers (number, color, shape, shading).

        Each integer is read mod 3, so ``Card.from_vector((0, 0, 0, 3))`` is
        the same card as ``Card.from_vector((0, 0, 0, 0))``: one red solid oval.
        """
        example = "like (1, 0, 0, 1)"
        if isinstance(vector, (str, bytes, bytearray, Mapping, set, frozenset)) or not isinstance(
            vector, Iterable
        ):
            raise TypeError(f"a card vector is four whole numbers {example}; got {_inputs.what(vector)}")
        # Five items are enough to tell that there are too many, even from an endless iterator.
        items = list(islice(vector, 5))
        if len(items) != 4:
            if isinstance(vector, Sized):
                got = _words.count(len(vector), "item")
            elif len(items) == 5:
                got = f"more than 4 items from {short(vector)}"
            else:
                got = f"{_words.count(len(items), 'item')} from {short(vector)}"
            raise ValueError(
                f"a card vector is four whole numbers (number, color, shape, shading), {example}; got {got}"
            )
        for position, x in enumerate(items):
            if not is_whole(x):
                # whole_number gives the hint for 2.0 and refuses True/False.
                _inputs.whole_number(
                    x, f"item {position + 1} of a card vector ({FEATURES[position]})", example="1"
                )
        return cls(**{f: VALUES[f][int(x) % 3] for f, x in zip(FEATURES, items)})

    @property
    def vector(self) -> tuple[int, int, int, int]:
        """The card as a vector in Z_3^4: the position (0, 1, 2) of each value."""
        return _VECTORS[self._index]

    @property
    def code(self) -> str:
        """The compact code, e.g. ``"2RTO"``; ``str(card)`` gives the same."""
        return _CODES[self._index]

    @property
    def name(self) -> str:
        """A plain-English name, e.g. ``"two red striped ovals"``."""
        shape = self.shape if self.number == 1 else _words.plural(self.shape)
        return f"{_words.number_word(self.number)} {self.color} {self.shading} {shape}"

    @property
    def index(self) -> int:
        """The card's position (0 to 80) in :func:`full_deck`."""
        return self._index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.number}, {self.color!r}, {self.shape!r}, {self.shading!r})"

    # Two cards are equal when they are the same card, which the index says in one comparison
    # (games and set finding compare cards millions of times).
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self._index == other._index  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return self._index

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    painter: ClassVar[Callable[[Card], str] | None] = None
    """The function that draws a card as SVG for a notebook (None: shown as text).

    :mod:`setwidgets.draw.svg` sets it when it is imported, as ``import
    setwidgets`` does: the drawing sits above the cards, which know nothing of it.
    """

    html_painter: ClassVar[Callable[[Card], str] | None] = None
    """The function that shows a card as HTML for a notebook: a picture with the card's name as its
    text alternative (JupyterLab shows an SVG output as an image with none). Set beside ``painter``.
    """

    def _repr_svg_(self) -> str | None:
        return None if Card.painter is None else Card.painter(self)

    def _repr_html_(self) -> str | None:
        return None if Card.html_painter is None else Card.html_painter(self)


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


# A card's vector and code, by index: computed once, not on every use.
_VECTORS: tuple[tuple[int, int, int, int], ...] = tuple(itertools.product(range(3), repeat=len(FEATURES)))
_CODES: tuple[str, ...] = tuple(
    "".join(CODE_LETTERS[f][v[FEATURES.index(f)]] for f in _CODE_ORDER) for v in _VECTORS
)


_CODE_INDEX: dict[str, int] = {code: index for index, code in enumerate(_CODES)}


def full_deck() -> list[Card]:
    """All 81 cards, in a fixed order: by number, then color, shape, shading.

    ``full_deck()[i].index == i``, and the order follows :data:`VALUES`: the
    first card is one red solid oval, the last three purple open diamonds.

    >>> deck = full_deck()
    >>> len(deck), deck[0].name, deck[-1].name
    (81, 'one red solid oval', 'three purple open diamonds')
    """
    return list(DECK)


# Cards are immutable, so every deck shares these 81, made once, instead of building new ones.
DECK: tuple[Card, ...] = tuple(Card(*values) for values in itertools.product(*(VALUES[f] for f in FEATURES)))
"""The 81 cards in the order of :func:`full_deck` (``DECK[i].index == i``), made once from VALUES.

A tuple, so nobody can change it; code that needs a list of its own calls :func:`full_deck`.
"""


_EXAMPLE_CARD = "Card(2, 'red', 'oval', 'striped')"


def as_card(obj: Any) -> Card:
    """Return ``obj`` as a Card: a Card is returned as it is, a code is parsed.

    Anything else raises a TypeError that says what a card looks like.

    >>> as_card("2rto")
    Card(2, 'red', 'oval', 'striped')
    """
    if isinstance(obj, Card):
        return obj
    if isinstance(obj, str):
        return Card.parse(obj)
    expected = f"expected a Card (for example {_EXAMPLE_CARD}) or a card code like '2RTO'"
    _inputs.refuse_bytes(obj, expected)
    hint = ""
    if isinstance(obj, (tuple, list)) and len(obj) == 4 and all(is_whole(x) for x in obj):
        hint = f"; four numbers make a card with Card.from_vector({short(obj)})"
    raise TypeError(f"{expected}; got {_inputs.what(obj)}{hint}")


def as_cards(objs: Any, what: str = "cards") -> list[Card]:
    """Return a list of Cards from a list (or any iterable) of Cards or codes, or one string of codes.

    ``what`` names the cards in the message when ``objs`` is not a list of cards.

    >>> [card.code for card in as_cards("1RSO 2GTS, 3POD")]
    ['1RSO', '2GTS', '3POD']
    """
    if isinstance(objs, str):
        objs = split_codes(objs)
    _inputs.refuse_bytes(objs, f"expected a list of {what} or a string of codes like '1RSO 2GTS'")
    if isinstance(objs, Card) or not isinstance(objs, Iterable):
        raise TypeError(f"expected a list of {what}; got {_inputs.what(objs)}")
    return [as_card(obj) for obj in objs]


def parse_cards(items: Iterable[Any], *, where: str = "", error: type[ValueError] = ValueError) -> list[Card]:
    """Each item as a Card: Cards as they are, codes parsed; ``where`` places a bad code ("in the deck").

    A code that is not a card raises ``error`` (a ValueError) quoting it in short; any other
    kind of item raises TypeError.

    >>> parse_cards(["1RSO", "2gts"])
    [Card(1, 'red', 'oval', 'solid'), Card(2, 'green', 'squiggle', 'striped')]
    """
    cards = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(Card.parse(item))
            except ValueError as problem:
                raise error(f"{short(item)}{where} is not a card: {problem}") from None
        else:
            got = f"{_inputs.what(item)}{_inputs.bytes_hint(item)}"
            raise TypeError(f"each card is a Card or a code like '2RTO'; got {got}")
    return cards


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
            if _wrong_kind("number", value):
                raise TypeError(
                    f"mini_deck() takes values of features, like mini_deck('red') or mini_deck(2); "
                    f"got {_inputs.what(value)}{_inputs.whole_hint(value) or _inputs.bytes_hint(value)}"
                )
            raise ValueError(
                f"mini_deck() got {short(value)}, which is not a value of any feature; "
                f"name the feature, like mini_deck(color='red')"
            )
        if features[0] in fixed:
            earlier = short(fixed[features[0]])
            raise TypeError(f"mini_deck() got two values for {features[0]}: {earlier} and {short(value)}")
        fixed[features[0]] = value
    if not fixed:
        fixed = {"color": "red"}
    wanted = {feature: _normalise(feature, value) for feature, value in fixed.items()}
    return [c for c in DECK if all(getattr(c, f) == v for f, v in wanted.items())]


def written(value: Any, other: Callable[[Any], str] = repr) -> str:
    """``value`` as the course writes it: each card by its code, inside tuples, lists, sets and dicts too.

    Messages quote what a function returned this way, so a hand of cards reads ``[1RSO, 2GTS]``
    rather than a line of ``Card(...)``. Values that are none of these go through ``other``.

    >>> written([Card.parse("1RSO"), (Card.parse("2GTS"), 3)])
    '[1RSO, (2GTS, 3)]'
    """
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        inner = ", ".join(written(item, other) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(written(item, other) for item in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(written(item, other) for item in value)) + "}" if value else "set()"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{written(k, other)}: {written(v, other)}" for k, v in value.items()) + "}"
    if _is_numpy_array(value):  # a notebook's numpy array of cards: array([1RSO, 2GTS]), not array([Card(...
        return f"array({written(value.tolist(), other)})"
    return other(value)


def _is_numpy_array(value: Any) -> bool:
    # Named, not imported: the core does not import numpy, and a look-alike class of a notebook's
    # own (its tolist could do anything) is not taken for one.
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__qualname__ == "ndarray"


def code_key() -> str:
    """The key to card codes, one line per feature in code order: which letter stands for which value.

    >>> print(code_key().splitlines()[2])
    shading  S = solid   T = striped   O = open
    """
    return "\n".join(
        f"{feature:8} " + "   ".join(f"{letter} = {value}" for letter, value in zip(letters, VALUES[feature]))
        for feature, letters in CODE_LETTERS.items()
    )
